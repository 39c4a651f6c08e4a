#!/usr/bin/env bash
# Start a throwaway Redis for croupier's tests and print its URL (and nothing else) on stdout.
#
# Usage: bash scripts/redis.sh [start|stop|status|url]     (default: start)
#
# - Installs Redis from the Debian packages with apt-get when `redis-server` is not found
#   (runs `apt-get update` first only if the package is unknown to apt).
# - Starts a server in $CROUPIER_REDIS_DIR (default: ${TMPDIR:-/tmp}/croupier-redis) on
#   127.0.0.1 on a free port, no persistence, and prints redis://127.0.0.1:PORT/0
# - Idempotent: run it again and it prints the URL of the running server (starting it if stopped).
# - No password, loopback only: a test server, never a production setup.
set -euo pipefail

DIR="${CROUPIER_REDIS_DIR:-${TMPDIR:-/tmp}/croupier-redis}"
log() { echo "redis.sh: $*" >&2; }

install_redis() {
  if [ "$(id -u)" -ne 0 ]; then
    log "Redis is not installed and installing it needs root (apt-get install redis-server)"
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-cache show redis-server >/dev/null 2>&1; then
    log "package redis-server unknown to apt: running apt-get update"
    apt-get update -qq >&2
  fi
  log "installing redis-server"
  apt-get install -y -qq --no-install-recommends redis-server >&2
}

command -v redis-server >/dev/null 2>&1 || install_redis
command -v redis-server >/dev/null 2>&1 || { log "no redis-server after installation"; exit 1; }

free_port() {
  local py
  for py in python3 python; do
    if command -v "$py" >/dev/null 2>&1; then
      "$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
      return 0
    fi
  done
  log "no python to find a free port"
  exit 1
}

url() { echo "redis://127.0.0.1:$(cat "$DIR/port")/0"; }

running() {
  [ -f "$DIR/port" ] && [ -f "$DIR/redis.pid" ] && kill -0 "$(cat "$DIR/redis.pid")" 2>/dev/null &&
    redis-cli -h 127.0.0.1 -p "$(cat "$DIR/port")" ping 2>/dev/null | grep -q PONG
}

start() {
  mkdir -p "$DIR"
  if ! running; then
    free_port >"$DIR/port"
    log "starting on 127.0.0.1:$(cat "$DIR/port")"
    redis-server --bind 127.0.0.1 --port "$(cat "$DIR/port")" --save '' --appendonly no \
      --dir "$DIR" --daemonize yes --pidfile "$DIR/redis.pid" --logfile "$DIR/server.log" >&2
    for _ in $(seq 1 100); do
      running && break
      sleep 0.1
    done
    running || { log "Redis did not start"; tail -n 30 "$DIR/server.log" >&2 || true; exit 1; }
  fi
  url
}

case "${1:-start}" in
  start) start ;;
  stop)
    if running; then redis-cli -h 127.0.0.1 -p "$(cat "$DIR/port")" shutdown nosave >&2 || true; fi
    ;;
  status)
    if running; then url; else log "not running"; exit 1; fi
    ;;
  url) url ;;
  *)
    log "usage: redis.sh [start|stop|status|url]"
    exit 2
    ;;
esac
