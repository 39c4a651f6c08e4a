"""`scripts/rules_coverage.py --check`: fails when a SPEC rule is named by no test or the
page is stale; files that only check the coverage do not count.

rules-coverage: checker
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "rules_coverage", ROOT / "scripts" / "rules_coverage.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _tree(tmp: Path) -> tuple[Path, Path]:
    spec = tmp / "SPEC.md"
    spec.write_text("# spec\n- R-ZZ-1 one rule.\n- R-ZZ-2 another.\n- R-ZZ-3 a third.\n")
    tests = tmp / "repo" / "tests"
    tests.mkdir(parents=True)
    (tests / "test_a.py").write_text('"""R-ZZ-1 and R-ZZ-2..3 are tested here."""\n')
    (tests / "test_checker.py").write_text(f'"""{"rules-coverage: " + "checker"} R-ZZ-9."""\n')
    return spec, tmp / "repo"


def test_check_fails_on_an_uncovered_rule_and_a_stale_page(tmp_path: Path) -> None:
    """The check lists each uncovered rule and a stale page; complete and current: nothing."""
    rc = _script()
    spec, root = _tree(tmp_path)
    out = root / "docs" / "rules-coverage.md"
    out.parent.mkdir()
    out.write_text(rc.render(spec, root))
    assert rc.check(spec, root, out) == []
    (root / "tests" / "test_a.py").write_text('"""R-ZZ-1 and R-ZZ-3 only."""\n')
    problems = rc.check(spec, root, out)
    assert "R-ZZ-2 is named by no test" in problems
    assert any("out of date" in p for p in problems)


def test_a_coverage_checker_does_not_count(tmp_path: Path) -> None:
    """A file marked as a coverage checker names ids without covering them."""
    rc = _script()
    spec, root = _tree(tmp_path)
    (root / "tests" / "test_a.py").write_text('"""R-ZZ-1 only."""\n')
    (root / "tests" / "test_checker.py").write_text(
        f'"""{"rules-coverage: " + "checker"}: looks for R-ZZ-2 and R-ZZ-3."""\n'
    )
    assert rc.uncovered(spec, root) == ["R-ZZ-2", "R-ZZ-3"]
    assert "tests/test_checker.py" not in rc.render(spec, root)


def test_the_engine_coverage_test_is_a_checker() -> None:
    """tests/engine/test_rule_coverage.py names every family rule: it must not count."""
    rc = _script()
    assert rc.CHECKER_MARK in (ROOT / "tests" / "engine" / "test_rule_coverage.py").read_text()
    found = rc.coverage(ROOT)
    assert all("tests/engine/test_rule_coverage.py" not in files for files in found.values())
