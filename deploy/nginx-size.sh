#!/bin/sh
# Sizes nginx's main configuration for the news site, or checks that it is sized. Debian's
# /etc/nginx/nginx.conf gives each worker 768 connections, and a radio listener or a now-playing
# reader costs two (the visitor's and the one to the app): on two cores nginx fails with about 450
# to 600 of them held ("768 worker_connections are not enough" in its log, 500s and reset
# connections), far below the three app processes' 3 x 1,000 listeners. This sets, in the file
# named (default /etc/nginx/nginx.conf),
#   worker_connections      16384 per worker (events block),
#   worker_rlimit_nofile    65535 open files per worker (main context; the workers raise their own
#                           limit to it, up to the hard limit nginx starts with: systemd gives
#                           services 524288; in a container see `ulimit -Hn`), and
#   worker_shutdown_timeout 30s (main context): after a reload the old workers close what they
#                           still hold after this long. A radio listener otherwise keeps an old
#                           worker (and its memory and old configuration) for as long as it listens;
#                           its player reconnects to a new worker by itself.
# changing the lines that are there and adding the main-context ones after worker_processes if they
# are missing; run it again and nothing changes. Override with NGINX_WORKER_CONNECTIONS,
# NGINX_WORKER_RLIMIT_NOFILE and NGINX_WORKER_SHUTDOWN_TIMEOUT. Then: nginx -t && systemctl reload nginx.
#
#   nginx-size.sh --check [file]   changes nothing: exits 1, naming each line that is missing or
#                                  smaller than the numbers above, so a start or reload of an
#                                  undersized nginx stops before it fails under load
#                                  (deploy/nginx.service.d/news.conf runs it before both).
#
# deploy/README.md ("Connections") says why; test/deploy/nginx-debian.test.ts runs it on a copy of
# Debian's own /etc/nginx and holds 900 listeners and 90 readers through the result, and
# test/deploy/nginx-main-config.test.ts runs the check and a reload with listeners held.
set -eu

check=false
if [ "${1:-}" = --check ]; then
  check=true
  shift
fi
conf=${1:-/etc/nginx/nginx.conf}
connections=${NGINX_WORKER_CONNECTIONS:-16384}
nofile=${NGINX_WORKER_RLIMIT_NOFILE:-65535}
shutdown=${NGINX_WORKER_SHUTDOWN_TIMEOUT:-30s}

[ -r "$conf" ] || { echo "$conf: cannot read it" >&2; exit 1; }

# The number a directive is given in $conf (first uncommented line), or nothing.
value() {
  sed -n -E "s/^[[:space:]]*$1[[:space:]]+([0-9]+)[a-z]*;.*/\1/p" "$conf" | head -n 1
}

if $check; then
  bad=0
  have=$(value worker_connections)
  if [ -z "$have" ] || [ "$have" -lt "$connections" ]; then
    echo "$conf: worker_connections ${have:-missing}, needs at least $connections (run deploy/nginx-size.sh)" >&2
    bad=1
  fi
  have=$(value worker_rlimit_nofile)
  if [ -z "$have" ] || [ "$have" -lt "$nofile" ]; then
    echo "$conf: worker_rlimit_nofile ${have:-missing}, needs at least $nofile (run deploy/nginx-size.sh)" >&2
    bad=1
  fi
  if [ -z "$(value worker_shutdown_timeout)" ]; then
    echo "$conf: no worker_shutdown_timeout: old workers live as long as a radio listener (run deploy/nginx-size.sh)" >&2
    bad=1
  fi
  [ "$bad" = 0 ] && echo "$conf: sized for the news site"
  exit "$bad"
fi

grep -Eq '^[[:space:]]*worker_connections[[:space:]]+[0-9]+;' "$conf" ||
  { echo "$conf: no worker_connections line to change" >&2; exit 1; }
grep -Eq '^[[:space:]]*worker_processes[[:space:]]' "$conf" ||
  { echo "$conf: no worker_processes line to put the main-context lines after" >&2; exit 1; }

sed -i -E "s/^([[:space:]]*worker_connections[[:space:]]+)[0-9]+;/\1${connections};/" "$conf"
# Sets a main-context directive: the line there changed, or a new one after worker_processes.
set_main() {
  if grep -Eq "^[[:space:]]*$1[[:space:]]" "$conf"; then
    sed -i -E "s/^([[:space:]]*$1[[:space:]]+)[^;]+;/\1$2;/" "$conf"
  else
    sed -i -E "/^[[:space:]]*worker_processes[[:space:]]/a $1 $2;" "$conf"
  fi
}
set_main worker_rlimit_nofile "$nofile"
set_main worker_shutdown_timeout "$shutdown"
echo "$conf: worker_connections ${connections}, worker_rlimit_nofile ${nofile}, worker_shutdown_timeout ${shutdown}"
