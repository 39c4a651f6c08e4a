#!/usr/bin/env bash
# Create .venv (if needed) and install croupier with its pinned dependencies.
# Usage: bash scripts/bootstrap.sh [dev]     (dev: also the test and benchmark tools)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "croupier needs Python 3.11 or newer (found: $("$PY" --version 2>&1))" >&2
  exit 1
fi
# A venv left broken by an interrupted first run (no python, or no pip) is made anew.
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
  rm -f .venv/.croupier-installed .venv/.croupier-installed-dev
  "$PY" -m venv --clear .venv || {
    echo "python3 -m venv failed: install the venv module (apt-get install python3-venv)" >&2
    exit 1
  }
fi
extra=""
[ "${1:-}" = "dev" ] && extra="[dev]"
stamp=".venv/.croupier-installed${extra:+-dev}"
# Reinstall when the stamp is older than the build inputs: pyproject, setup.py or any C source.
stale() {
  [ ! -f "$stamp" ] && return 0
  [ pyproject.toml -nt "$stamp" ] || [ setup.py -nt "$stamp" ] && return 0
  [ -n "$(find src -name '*.c' -newer "$stamp" -print -quit)" ]
}
if stale; then
  .venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip >/dev/null 2>&1 || true
  .venv/bin/python -m pip install -q --disable-pip-version-check -e ".${extra}"
  touch "$stamp"
fi
