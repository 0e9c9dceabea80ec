#!/usr/bin/env bash
# Debian packages the tests use: Chromium (browser tests, Lighthouse), Icecast 2 + ezstream + lame + sox
# (real stream upstream), mpg123 (decodes the rewind window's segments), nginx + openssl + curl (deployment tests, benchmarks), wrk (load and benchmarks),
# taskset (pinning in benchmarks), Java (the W3C HTML checker, vnu.jar from npm), Prometheus + promtool (the
# shipped deploy/prometheus rules and their run against the app). A test that needs a missing
# one fails naming its package (test/support/system-deps.ts); none is skipped.
# Installs only what is missing; needs root or sudo.
set -euo pipefail
need=()
command -v chromium >/dev/null || need+=(chromium)
command -v icecast2 >/dev/null || need+=(icecast2)
command -v ezstream >/dev/null || need+=(ezstream)
command -v lame >/dev/null || need+=(lame)
command -v sox >/dev/null || need+=(sox libsox-fmt-mp3)
command -v mpg123 >/dev/null || need+=(mpg123)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null || need+=(nginx)
command -v openssl >/dev/null || need+=(openssl)
command -v curl >/dev/null || need+=(curl)
command -v wrk >/dev/null || need+=(wrk)
command -v taskset >/dev/null || need+=(util-linux)
command -v java >/dev/null || need+=(default-jre-headless)
command -v promtool >/dev/null || need+=(prometheus)
if [ ${#need[@]} -eq 0 ]; then
  echo "system packages: all present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "system packages: installing ${need[*]} with apt-get (the tests drive real Chromium, Icecast, nginx, wrk and Prometheus)"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
