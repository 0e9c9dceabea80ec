#!/bin/sh
# Sizes nginx's main configuration for the news site. Debian's /etc/nginx/nginx.conf gives each
# worker 768 connections, and a radio listener or a now-playing reader costs two (the visitor's and
# the one to the app): on two cores nginx fails with about 450 to 600 of them held ("768
# worker_connections are not enough" in its log, 500s and reset connections), far below the three
# app processes' 3 x 1,000 listeners. This sets, in the file named (default /etc/nginx/nginx.conf),
#   worker_connections   16384 per worker (events block), and
#   worker_rlimit_nofile 65535 open files per worker (main context; the workers raise their own
#                        limit to it, up to the hard limit nginx starts with: systemd gives
#                        services 524288; in a container see `ulimit -Hn`),
# changing the lines that are there and adding worker_rlimit_nofile after worker_processes if it is
# missing; run it again and nothing changes. Override with NGINX_WORKER_CONNECTIONS and
# NGINX_WORKER_RLIMIT_NOFILE. Then: nginx -t && systemctl reload nginx.
#
# deploy/README.md ("Connections") says why; test/deploy/nginx-debian.test.ts runs it on a copy of
# Debian's own /etc/nginx and holds 900 listeners and 90 readers through the result.
set -eu

conf=${1:-/etc/nginx/nginx.conf}
connections=${NGINX_WORKER_CONNECTIONS:-16384}
nofile=${NGINX_WORKER_RLIMIT_NOFILE:-65535}

grep -Eq '^[[:space:]]*worker_connections[[:space:]]+[0-9]+;' "$conf" ||
  { echo "$conf: no worker_connections line to change" >&2; exit 1; }
grep -Eq '^[[:space:]]*worker_processes[[:space:]]' "$conf" ||
  { echo "$conf: no worker_processes line to put worker_rlimit_nofile after" >&2; exit 1; }

sed -i -E "s/^([[:space:]]*worker_connections[[:space:]]+)[0-9]+;/\1${connections};/" "$conf"
if grep -Eq '^[[:space:]]*worker_rlimit_nofile[[:space:]]' "$conf"; then
  sed -i -E "s/^([[:space:]]*worker_rlimit_nofile[[:space:]]+)[0-9]+;/\1${nofile};/" "$conf"
else
  sed -i -E "/^[[:space:]]*worker_processes[[:space:]]/a worker_rlimit_nofile ${nofile};" "$conf"
fi
echo "$conf: worker_connections ${connections}, worker_rlimit_nofile ${nofile}"
