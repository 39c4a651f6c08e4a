"""Every hand of the shared public PHH corpus, replayed through croupier.

Parametrized over ``MANIFEST.tsv``; skipped with a message when ``../shared`` (or
``$CROUPIER_SHARED``) is absent. Hands of the codes in ``PHH_GAMES`` must verify exact;
the others must come out unsupported, by name.
"""

from __future__ import annotations

from typing import Any

import pytest

from croupier.history.phh import HandHistory, read_path
from croupier.history.replay import PHH_GAMES, Status, verify
from tests.history.corpus import CORPUS, MISSING, manifest

# Hands the engine cannot replay exactly, with the reason; empty today. (The big-blind
# ante hands 01-26-14 and 02-04-37 replay exact since antes are dead money of the main
# pot; 03-50-24's "raise to 750000" that covers the opponent's all-in is replayed as the
# fixed-limit raise, see croupier.history.replay._covering_raise.)
KNOWN_BUGS: dict[str, str] = {}


def _params() -> list[Any]:
    rows = manifest()
    if not rows:
        return [pytest.param(None, id="corpus-absent", marks=pytest.mark.skip(reason=MISSING))]
    out = []
    for row in rows:
        marks = []
        if row["file"] in KNOWN_BUGS:  # pragma: no cover - none today
            marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[row["file"]]))
        out.append(pytest.param(row, id=row["file"], marks=marks))
    return out


_cache: dict[str, dict[str, HandHistory]] = {}


def _hand(entry: str) -> HandHistory:
    file, _, k = entry.partition("#")
    if file not in _cache:
        hands: dict[str, HandHistory] = {}
        for label, hh in read_path(CORPUS / file):
            assert isinstance(hh, HandHistory), f"{label}: {hh}"
            hands[label] = hh
        _cache[file] = hands
    label = str(CORPUS / file) + (f"#{k}" if k else "")
    return _cache[file][label]


@pytest.mark.parametrize("row", _params())
def test_corpus_hand(row: dict[str, str] | None) -> None:
    """R-BET-1, R-BET-2, R-BET-4, R-POS-1, R-POT-1, R-POT-3, R-POT-5: each public hand
    replays through the engine to its recorded result (or is unsupported, by name)."""
    assert row is not None
    hh = _hand(row["file"])
    assert hh.variant == row["variant"]
    assert hh.player_count == int(row["players"])
    v = verify(hh)
    if row["variant"] in PHH_GAMES:
        assert v.status is Status.EXACT, v.message
        if row["group"] in ("pluribus", "wsop-2023-43-5"):
            assert v.compared == "finishing_stacks"
    else:
        assert v.status is Status.UNSUPPORTED
        assert row["variant"] in v.message


def test_corpus_half_chip_hands() -> None:
    """R-POT-3: exactly the four Pluribus hands whose source split an odd chip in halves
    need the one-chip tolerance (SOURCES.md); every other hand matches to the chip."""
    rows = manifest()
    if not rows:
        pytest.skip(MISSING)
    half = sorted(
        r["file"]
        for r in rows
        if r["variant"] in PHH_GAMES
        and r["file"] not in KNOWN_BUGS
        and verify(_hand(r["file"])).half_chip
    )
    assert half == [
        "pluribus/32/23.phh",
        "pluribus/41b/204.phh",
        "pluribus/75b/76.phh",
        "pluribus/88/128.phh",
    ]
