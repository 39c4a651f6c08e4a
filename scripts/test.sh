#!/usr/bin/env bash
# The whole test suite: lint, types, import contracts, then pytest (with PostgreSQL).
# Usage: bash scripts/test.sh [pytest args]
# Long soak/load runs are off by default: CROUPIER_SOAK=1 turns them on.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh dev
export PATH="$PWD/.venv/bin:$PATH"

echo "== C extensions (the evaluator and the simulation core must have built)"
python - <<'PY'
import sys
from croupier.analysis import fastsim
from croupier.engine.evaluate import BACKEND
problems = []
if BACKEND != "c":
    problems.append("croupier.engine.evaluate._ceval did not build (pure Python fallback in use)")
if not fastsim.AVAILABLE:
    problems.append(f"croupier.analysis._csim did not build: {fastsim.UNAVAILABLE_REASON}")
if problems:
    sys.exit("\n".join(problems) + "\nrebuild: .venv/bin/python -m pip install -e '.[dev]' (needs a C compiler)")
print("evaluator: c, simulation core: c")
PY
echo "== ruff"
ruff check src tests bench scripts
ruff format --check src tests bench scripts
echo "== mypy (strict, every package)"
mypy src/croupier
echo "== import contracts"
lint-imports
echo "== rules coverage (every SPEC rule named by a test)"
python scripts/rules_coverage.py --check

if [ -f scripts/postgres.sh ] && [ -z "${CROUPIER_TEST_POSTGRES_URL:-}" ]; then
  echo "== PostgreSQL"
  url=$(bash scripts/postgres.sh) || { echo "could not start PostgreSQL" >&2; exit 1; }
  export CROUPIER_TEST_POSTGRES_URL="$url"
  echo "PostgreSQL at $url"
fi

if [ -f scripts/redis.sh ] && [ -z "${CROUPIER_TEST_REDIS_URL:-}" ]; then
  echo "== Redis"
  url=$(bash scripts/redis.sh) || { echo "could not start Redis" >&2; exit 1; }
  export CROUPIER_TEST_REDIS_URL="$url"
  echo "Redis at $url"
fi

if [ -f scripts/chromium.sh ]; then
  echo "== Chromium (browser tests)"
  bash scripts/chromium.sh >/dev/null || { echo "could not install Chromium" >&2; exit 1; }
fi

run_pytest() {
  set +e
  python -m pytest -n 2 -q "$@"
  local status=$?
  set -e
  if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests: that is a failure here" >&2
    return 1
  fi
  return "$status"
}

if [ "$#" -gt 0 ]; then
  echo "== pytest $*"
  run_pytest "$@"
  exit $?
fi
# The browser tests hold Playwright's event loop for the whole session of a worker, which
# would break tests that start their own asyncio loop: they run in a pytest of their own.
status=0
echo "== pytest (everything but the browser)"
run_pytest --ignore=tests/web || status=$?
echo "== pytest (browser, headless Chromium)"
run_pytest tests/web || status=$?
exit "$status"
