#!/usr/bin/env bash
# Play poker in this terminal against bots (installs what it needs on first run).
# Usage: bash scripts/play.sh [croupier play options, e.g. --game plo --seats 6]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
exec .venv/bin/croupier play "$@"
