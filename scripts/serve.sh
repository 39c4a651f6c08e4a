#!/usr/bin/env bash
# Serve the poker room at http://127.0.0.1:8000 (embedded SQLite, bots at the public tables).
# Installs what it needs on first run. Options go to `croupier serve` (--port, --db, --host,
# --processes). On a machine of several cores the room runs as one process per core
# (`--processes auto`, at most 8: ports 8000, 8001, …, the tables split between them; a
# table served by another process opens there); on one core, as one process. Give
# `--processes 1` (or CROUPIER_PROCESSES=1) for a single process. Ctrl-C stops them all.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
port=${CROUPIER_PORT:-8000}
processes=${CROUPIER_PROCESSES:-auto}
given=""
prev=""
for arg in "$@"; do
  [ "$prev" = "--port" ] && port=$arg
  case "$arg" in
    --port=*) port=${arg#--port=} ;;
    --processes | --processes=*) given=1 ;;
  esac
  prev=$arg
done
extra=()
[ -n "$given" ] || extra=(--processes "$processes")
echo "croupier: open http://127.0.0.1:${port}/ in a browser (Ctrl-C stops)" >&2
exec .venv/bin/croupier serve "${extra[@]}" "$@"
