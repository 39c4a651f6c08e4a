#!/usr/bin/env bash
# Start a throwaway PostgreSQL for croupier's tests and print its URL (and nothing else) on stdout.
#
# Usage: bash scripts/postgres.sh [start|stop|status|url]     (default: start)
#
# - Installs PostgreSQL from the Debian packages with apt-get when no server binaries are found
#   (runs `apt-get update` first only if the package is unknown to apt).
# - Creates a cluster in $CROUPIER_PG_DIR (default: ${TMPDIR:-/tmp}/croupier-postgres), starts it on
#   127.0.0.1 on a free port, creates the database `croupier`, and prints
#   postgresql://postgres@127.0.0.1:PORT/croupier
# - Idempotent: run it again and it prints the URL of the running cluster (restarting it if stopped).
# - As root (CI) the server runs as the `postgres` user (created if missing); otherwise as you.
# - Trust authentication on 127.0.0.1 only: a test database, never a production setup.
set -euo pipefail

DIR="${CROUPIER_PG_DIR:-${TMPDIR:-/tmp}/croupier-postgres}"
DATA="$DIR/data"
DB="croupier"
log() { echo "postgres.sh: $*" >&2; }

find_bindir() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$d" ] && [ -x "$d/initdb" ]; then
    echo "$d"
    return 0
  fi
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
    return 0
  fi
  return 1
}

install_postgres() {
  if [ "$(id -u)" -ne 0 ]; then
    log "PostgreSQL is not installed and installing it needs root (apt-get install postgresql)"
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-cache show postgresql >/dev/null 2>&1; then
    log "package postgresql unknown to apt: running apt-get update"
    apt-get update -qq >&2
  fi
  log "installing postgresql"
  apt-get install -y -qq --no-install-recommends postgresql >&2
}

BIN=$(find_bindir || true)
if [ -z "$BIN" ]; then
  install_postgres
  BIN=$(find_bindir) || { log "no PostgreSQL binaries after installation"; exit 1; }
fi

# Run PostgreSQL tools as the postgres user when we are root (initdb refuses root).
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    if ! id postgres >/dev/null 2>&1; then
      useradd --system --home-dir "$DIR" --shell /bin/sh postgres >&2
    fi
    if command -v runuser >/dev/null 2>&1; then
      runuser -u postgres -- "$@"
    else
      su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
    fi
  else
    "$@"
  fi
}

free_port() {
  local py
  for py in python3 python; do
    if command -v "$py" >/dev/null 2>&1; then
      "$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
      return 0
    fi
  done
  local p
  for p in $(seq 54320 54420); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return 0
    fi
  done
  log "no free port found"
  exit 1
}

url() { echo "postgresql://postgres@127.0.0.1:$(cat "$DIR/port")/$DB"; }

running() {
  [ -f "$DATA/PG_VERSION" ] && as_owner "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1
}

start() {
  mkdir -p "$DIR"
  if [ "$(id -u)" -eq 0 ]; then
    as_owner true  # creates the postgres user if missing
    chown postgres "$DIR"
  fi
  if [ ! -f "$DATA/PG_VERSION" ]; then
    log "creating a cluster in $DATA"
    as_owner "$BIN/initdb" -D "$DATA" -U postgres -A trust -E UTF8 --no-locale >"$DIR/initdb.log" 2>&1 ||
      { cat "$DIR/initdb.log" >&2; exit 1; }
  fi
  if ! running; then
    free_port >"$DIR/port"
    [ "$(id -u)" -ne 0 ] || chown postgres "$DIR/port"
    log "starting on 127.0.0.1:$(cat "$DIR/port")"
    as_owner "$BIN/pg_ctl" -D "$DATA" -l "$DIR/server.log" -w -t 60 start \
      -o "-c listen_addresses=127.0.0.1 -p $(cat "$DIR/port") -c unix_socket_directories='$DIR' -c fsync=off -c max_connections=200" \
      >&2 || { tail -n 30 "$DIR/server.log" >&2; exit 1; }
  fi
  local port
  port=$(cat "$DIR/port")
  if ! as_owner "$BIN/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1; then
    as_owner "$BIN/createdb" -h 127.0.0.1 -p "$port" -U postgres "$DB" >&2
  fi
  url
}

case "${1:-start}" in
  start) start ;;
  stop)
    if running; then as_owner "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >&2; fi
    ;;
  status)
    if running; then url; else log "not running"; exit 1; fi
    ;;
  url) url ;;
  *)
    log "usage: postgres.sh [start|stop|status|url]"
    exit 2
    ;;
esac
