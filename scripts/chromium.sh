#!/usr/bin/env bash
# Make sure Debian's Chromium is installed and print its path (and nothing else) on stdout.
#
# Usage: bash scripts/chromium.sh
#
# - Idempotent: when a chromium binary is already there, it only prints its path.
# - Otherwise installs the Debian package `chromium` with apt-get (as root, as CI runs);
#   `apt-get update` runs first only when apt does not know the package yet.
# - The browser tests (tests/web) launch this binary through Playwright's `executable_path`;
#   never `playwright install` (it downloads a browser build, which is not allowed here).
set -euo pipefail
log() { echo "chromium.sh: $*" >&2; }

find_chromium() {
  local c
  for c in /usr/bin/chromium /usr/bin/chromium-browser; do
    if [ -x "$c" ]; then
      echo "$c"
      return 0
    fi
  done
  return 1
}

if path=$(find_chromium); then
  echo "$path"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  log "chromium is not installed and installing it needs root (apt-get install chromium)"
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-cache show chromium >/dev/null 2>&1; then
  log "package chromium unknown to apt: running apt-get update"
  apt-get update -qq >&2
fi
log "installing chromium"
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2
path=$(find_chromium) || { log "no chromium binary after installation"; exit 1; }
echo "$path"
