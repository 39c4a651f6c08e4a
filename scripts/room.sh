#!/usr/bin/env bash
# Serve the room as N processes sharing one PostgreSQL database (docs/architecture.md,
# "A room on several processes"): each process serves its share of the tables under
# leases, and takes over the tables of a process that dies. Node n1 also runs the
# tournaments and the casino.
#
# Usage: bash scripts/room.sh [N]        (default: one process per core, at least 2)
#
# - The database: $CROUPIER_DATABASE_URL, or a throwaway PostgreSQL started by
#   scripts/postgres.sh (installed from Debian's packages if missing).
# - Ports $CROUPIER_PORT (default 8000) … +N-1 on $CROUPIER_HOST (default 127.0.0.1):
#   open any of them in a browser; a table served by another process opens there.
# - Ctrl-C stops every process (each gives its tables up to the others as it goes).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh >&2
cores=$(nproc 2>/dev/null || echo 2)
n=${1:-$(( cores > 2 ? cores : 2 ))}
case "$n" in '' | *[!0-9]*) echo "room.sh: N must be a number, not '$n'" >&2; exit 2 ;; esac
[ "$n" -ge 1 ] || { echo "room.sh: N must be at least 1" >&2; exit 2; }
host=${CROUPIER_HOST:-127.0.0.1}
base=${CROUPIER_PORT:-8000}
url=${CROUPIER_DATABASE_URL:-}
if [ -z "$url" ]; then
  url=$(bash scripts/postgres.sh)
fi
nodes=$(seq -s, -f "n%g" 1 "$n")
pids=()
stop() {
  trap - EXIT INT TERM
  [ "${#pids[@]}" -gt 0 ] && kill -TERM "${pids[@]}" 2>/dev/null || true
  wait || true
}
trap stop EXIT INT TERM
for i in $(seq 1 "$n"); do
  port=$((base + i - 1))
  CROUPIER_DATABASE_URL="$url" CROUPIER_HOST="$host" CROUPIER_PORT="$port" \
    CROUPIER_NODE_ID="n$i" CROUPIER_NODES="$nodes" \
    CROUPIER_NODE_URL="${CROUPIER_NODE_URL_SCHEME:-http}://$host:$port" \
    .venv/bin/croupier serve &
  pids+=("$!")
  # one at a time: the first migrates the database, each opens its share before the next
  for _ in $(seq 1 600); do
    if ! kill -0 "${pids[-1]}" 2>/dev/null; then
      echo "room.sh: node n$i stopped at start" >&2
      exit 1
    fi
    if .venv/bin/python -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)" \
      "http://$host:$port/health" 2>/dev/null; then
      break
    fi
    sleep 0.2
  done
  echo "room.sh: node n$i serves http://$host:$port/" >&2
done
echo "room.sh: $n processes on $url (Ctrl-C stops them; a process that dies has its tables taken over by the others)" >&2
wait || true
