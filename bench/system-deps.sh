#!/usr/bin/env bash
# Installs what `make bench` needs besides Python, when run as root on Debian: wrk (the load
# generator) and nginx (in front of gunicorn for the 1,000-viewer run, as in production).
set -euo pipefail
packages=()
command -v wrk >/dev/null 2>&1 || packages+=(wrk)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || packages+=(nginx-light)
if [ ${#packages[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${packages[*]} for the benchmark"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
else
  echo "Not root on Debian: install ${packages[*]} yourself to run the benchmark." >&2
  exit 1
fi
