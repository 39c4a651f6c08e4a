#!/usr/bin/env bash
# Serve the poker room at http://127.0.0.1:8000 (embedded SQLite, bots at the public tables).
# Installs what it needs on first run. Options go to `croupier serve` (--port, --db, --host).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
port=${CROUPIER_PORT:-8000}
prev=""
for arg in "$@"; do
  [ "$prev" = "--port" ] && port=$arg
  case "$arg" in --port=*) port=${arg#--port=} ;; esac
  prev=$arg
done
echo "croupier: open http://127.0.0.1:${port}/ in a browser (Ctrl-C stops)" >&2
exec .venv/bin/croupier serve "$@"
