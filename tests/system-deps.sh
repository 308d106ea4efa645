#!/usr/bin/env bash
# Installs the programs from outside Python that the tests need, when run as root on Debian (as
# CI is). Elsewhere it only reports what is missing: the tests that need it skip with a message
# naming the package, and with CI=true such a skip fails the run.
set -euo pipefail
packages=()
command -v zbarimg >/dev/null 2>&1 || packages+=(zbar-tools)
command -v rsvg-convert >/dev/null 2>&1 || packages+=(librsvg2-bin)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || command -v initdb >/dev/null 2>&1 \
  || packages+=(postgresql)  # a throw-away server for the tests on PostgreSQL
command -v chromium >/dev/null 2>&1 || packages+=(chromium fonts-dejavu-core)
command -v caddy >/dev/null 2>&1 || packages+=(caddy)  # the HTTPS proxy of the hosted stack's test
command -v redis-server >/dev/null 2>&1 || packages+=(redis-server)  # the stack's rate-limit counts
if [ ${#packages[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${packages[*]} for the tests"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
  for service in caddy redis-server; do  # the stack's test runs its own, on free ports
    if [[ " ${packages[*]} " == *" $service "* ]]; then
      if [ -d /run/systemd/system ]; then
        systemctl disable --now "$service.service" >/dev/null 2>&1 || true
      elif [ -x "/etc/init.d/$service" ]; then
        "/etc/init.d/$service" stop >/dev/null 2>&1 || true
      fi
    fi
  done
else
  echo "Not root on Debian: install ${packages[*]} yourself, or the tests that need them skip." >&2
fi
