"""`croupier phh verify` and `croupier phh show` through typer's CliRunner."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.cli.phh import summary_line
from croupier.history.replay import PHH_GAMES, Status
from tests.history.corpus import CORPUS, MISSING, manifest

runner = CliRunner()

GOOD = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ["d dh p1 AsAd", "d dh p2 KsKd", "p2 cbr 6", "p1 f"]
finishing_stacks = [98, 102]
"""


def _write(tmp_path: Path) -> Path:
    folder = tmp_path / "hands"
    (folder / "sub").mkdir(parents=True)
    (folder / "good.phh").write_text(GOOD)
    (folder / "sub" / "wrong.phh").write_text(GOOD.replace("[98, 102]", "[97, 103]"))
    stud = 'variant = "FK"\nantes = [1, 1]\nbring_in = 1\nsmall_bet = 2\nbig_bet = 4\n'
    stud += "starting_stacks = [9, 9]\nactions = []\n"
    (folder / "many.phhs").write_text(
        f"[1]\n{GOOD}\n[2]\n{stud}\n[3]\n{stud}\n[4]\n" + GOOD.replace("AsAd", "AsXd")
    )
    (folder / "notes.txt").write_text("ignored")
    return folder


def test_verify_reports_mismatches_and_summary(tmp_path: Path) -> None:
    """One line per mismatch starting with the path (``path#k`` in .phhs), then the
    summary; exit status 1 when any hand mismatched."""
    folder = _write(tmp_path)
    result = runner.invoke(app, ["phh", "verify", str(folder)])
    lines = result.stdout.strip().splitlines()
    assert result.exit_code == 1
    assert lines[-1] == "6 hands: 2 exact, 2 mismatched, 2 unsupported (FK: 2)"
    mismatches = lines[:-1]
    assert len(mismatches) == 2
    assert mismatches[0].startswith(f"{folder / 'many.phhs'}#4: unreadable [bad_card]")
    assert mismatches[1].startswith(f"{folder / 'sub' / 'wrong.phh'}: final stacks differ")


def test_verify_exit_zero_when_all_match(tmp_path: Path) -> None:
    """Exact and unsupported hands only: exit status 0; ``-v`` lists every hand."""
    (tmp_path / "a.phh").write_text(GOOD)
    result = runner.invoke(app, ["phh", "verify", "-v", str(tmp_path / "a.phh")])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f"{tmp_path / 'a.phh'}: exact, compared finishing_stacks",
        "1 hands: 1 exact, 0 mismatched, 0 unsupported",
    ]


def test_verify_missing_path(tmp_path: Path) -> None:
    """A path that does not exist is an error (exit status 2), nothing is verified."""
    result = runner.invoke(app, ["phh", "verify", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert "no such file or folder" in result.output


def test_show_prints_canonical_hand(tmp_path: Path) -> None:
    """``show`` prints the hand in canonical PHH and the engine's final stacks."""
    (tmp_path / "a.phh").write_text(GOOD)
    result = runner.invoke(app, ["phh", "show", str(tmp_path / "a.phh")])
    assert result.exit_code == 0
    assert 'actions = ["d dh p1 AsAd", "d dh p2 KsKd", "p2 cbr 6", "p1 f"]' in result.stdout
    assert "# engine stacks = [98, 102]" in result.stdout


def test_verify_corpus() -> None:
    """R-POT-1: the shared corpus: every hand of a supported code exact, the others
    unsupported by name (counts from MANIFEST.tsv), exit status 0."""
    rows = manifest()
    if not rows:
        pytest.skip(MISSING)
    supported = sum(1 for r in rows if r["variant"] in PHH_GAMES)
    others = Counter(r["variant"] for r in rows if r["variant"] not in PHH_GAMES)
    counts = Counter({Status.EXACT: supported, Status.UNSUPPORTED: sum(others.values())})
    result = runner.invoke(app, ["phh", "verify", str(CORPUS)])
    assert result.stdout.strip().splitlines() == [summary_line(counts, others)]
    assert result.exit_code == 0


@pytest.mark.parametrize("game", ["nlhe", "plo", "flhe", "flo8"])
def test_export_then_verify(tmp_path: Path, game: str) -> None:
    """R-CARD-3: seeded bot hands exported by ``croupier phh export`` verify exact."""
    out = tmp_path / "bots.phhs"
    result = runner.invoke(app, ["phh", "export", str(out), "--game", game, "--hands", "8"])
    assert result.exit_code == 0 and "8 hands written" in result.stdout
    check = runner.invoke(app, ["phh", "verify", str(out)])
    assert check.stdout.strip() == "8 hands: 8 exact, 0 mismatched, 0 unsupported"
    assert check.exit_code == 0


def test_export_refuses_bad_options(tmp_path: Path) -> None:
    """Games without a PHH code and a .phh file for several hands are refused (exit 2)."""
    bad_game = runner.invoke(app, ["phh", "export", str(tmp_path / "a.phhs"), "--game", "hplo"])
    assert bad_game.exit_code == 2 and "no PHH variant code" in bad_game.output
    one_file = runner.invoke(app, ["phh", "export", str(tmp_path / "a.phh"), "--hands", "2"])
    assert one_file.exit_code == 2 and not (tmp_path / "a.phh").exists()
