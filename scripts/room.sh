#!/usr/bin/env bash
# Serve the room as N processes sharing one PostgreSQL database (docs/architecture.md,
# "A room on several processes"): each process serves its share of the tables under
# leases, and takes over the tables of a process that dies. Node n1 also runs the
# tournaments and the casino. The processes are started and watched by
# `croupier serve --processes N` (src/croupier/server/processes.py): one at a time, each
# waited for; one that dies is started again.
#
# Usage: bash scripts/room.sh [N]        (default: one process per core, at least 2; N <= 16)
#
# - The database: $CROUPIER_DATABASE_URL, or a throwaway PostgreSQL started by
#   scripts/postgres.sh (installed from Debian's packages if missing).
# - Ports $CROUPIER_PORT (default 8000) … +N-1 on $CROUPIER_HOST (default 127.0.0.1):
#   open any of them in a browser; a table served by another process opens there.
#   $CROUPIER_NODE_URL_SCHEME (default http): the scheme of the addresses told to clients.
# - Ctrl-C stops every process (each gives its tables up to the others as it goes).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh >&2
cores=$(nproc 2>/dev/null || echo 2)
n=${1:-$(( cores > 2 ? cores : 2 ))}
case "$n" in '' | *[!0-9]*) echo "room.sh: N must be a number, not '$n'" >&2; exit 2 ;; esac
[ "$n" -ge 1 ] || { echo "room.sh: N must be at least 1" >&2; exit 2; }
[ "$n" -le 16 ] || { echo "room.sh: N must be at most 16" >&2; exit 2; }
host=${CROUPIER_HOST:-127.0.0.1}
base=${CROUPIER_PORT:-8000}
url=${CROUPIER_DATABASE_URL:-}
if [ -z "$url" ]; then
  url=$(bash scripts/postgres.sh)
fi
if [ -n "${CROUPIER_NODE_URL_SCHEME:-}" ] && [ -z "${CROUPIER_NODE_URL:-}" ]; then
  export CROUPIER_NODE_URL="$CROUPIER_NODE_URL_SCHEME://$host:$base"
fi
echo "room.sh: $n processes on one PostgreSQL database (Ctrl-C stops them; a process that dies is started again, its tables taken over by the others meanwhile)" >&2
exec .venv/bin/croupier serve --processes "$n" --db "$url" --host "$host" --port "$base"
