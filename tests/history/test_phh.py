"""PHH text: parsing, formatting, scaling and malformed input."""

from __future__ import annotations

import datetime
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.engine.cards import Card
from croupier.history.phh import (
    HandHistory,
    PhhError,
    Verb,
    dump_phh,
    dump_phhs,
    format_action,
    load_phh,
    load_phhs,
    parse_action,
    read_path,
)

HAND = """
# a comment
variant = "NT"
ante_trimming_status = true
antes = [2.50, 2.50, 2.50]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
starting_stacks = [2067.40, 1987.5, 1171]
actions = [
  "d dh p1 AsKs",  # TOML comment
  "d dh p2 ????",
  "d dh p3 7h??",
  "p3 cbr 47.50 # commentary here",
  "",
  "p1 f",
  "p2 f",
]
players = ["a", "b", "c"]
winnings = [0, 0, 37.5]
time = 00:00:26
hand = 3017243630
table = 'CLEO AVE'
_custom = {x = 1}
"""


def test_parse_fields_and_scale() -> None:
    """Decimal amounts are scaled by the smallest power of ten making all integers."""
    hh = load_phh(HAND)
    assert hh.scale == 10
    assert hh.antes == (25, 25, 25)
    assert hh.blinds_or_straddles == (50, 100, 0)
    assert hh.min_bet == 100
    assert hh.starting_stacks == (20674, 19875, 11710)
    assert hh.winnings == (0, 0, 375)
    assert hh.players == ("a", "b", "c")
    assert hh.ante_trimming_status is True
    assert hh.metadata["time"] == datetime.time(0, 0, 26)
    assert hh.metadata["table"] == "CLEO AVE"
    assert hh.metadata["_custom"] == {"x": 1}
    a = hh.actions
    assert a[0].verb is Verb.DEAL_HOLE and a[0].player == 0
    assert a[0].cards == (Card.parse("As"), Card.parse("Ks"))
    assert a[1].cards == (None, None)
    assert a[2].cards == (Card.parse("7h"), None)
    assert a[3].verb is Verb.BET and a[3].amount == 475 and a[3].commentary == "commentary here"
    assert a[4].verb is Verb.NOOP
    assert sorted(hh.amounts())[-1] == 20674


def test_integer_hand_has_scale_one() -> None:
    """Integer files keep their amounts as they are."""
    hh = load_phh(
        'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [50, 100]\nmin_bet = 100\n'
        'starting_stacks = [10000, 10000]\nactions = ["p2 cbr 250"]\n'
    )
    assert hh.scale == 1 and hh.actions[0].amount == 250


def test_round_trip() -> None:
    """dump_phh writes a hand that load_phh reads back equal, including metadata."""
    hh = load_phh(HAND)
    text = dump_phh(hh)
    assert "starting_stacks = [2067.4, 1987.5, 1171]" in text
    assert '"p3 cbr 47.5 # commentary here"' in text
    assert "time = 00:00:26" in text
    assert load_phh(text) == hh
    hands = load_phhs(dump_phhs([hh, hh]))
    assert hands == [hh, hh]


def test_phhs_tables_in_order() -> None:
    """A .phhs file holds tables [1], [2] … read in file order."""
    one = 'variant = "NT"\nantes = [0, 0]\nstarting_stacks = [1, 2]\nactions = []\n'
    two = one.replace("[1, 2]", "[3, 4]")
    hands = load_phhs(f"[1]\n{one}\n[2]\n{two}")
    assert [h.starting_stacks for h in hands] == [(1, 2), (3, 4)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("d db 2c7h9d", "d db 2c7h9d"),
        ("d dh p10 ????", "d dh p10 ????"),
        ("p1 sm -", "p1 sm -"),
        ("p1 sm", "p1 sm"),
        ("p2 sm Ah??", "p2 sm Ah??"),
        ("p3 sd", "p3 sd"),
        ("p3 sd 7c8d", "p3 sd 7c8d"),
        ("p1 pb", "p1 pb"),
        ("  p2   cc  ", "p2 cc"),
        ("# burn card exposed", "# burn card exposed"),
    ],
)
def test_action_round_trip(text: str, expected: str) -> None:
    """Every PHH action verb parses and formats back canonically."""
    assert format_action(parse_action(text)) == expected


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("p1 xx", "unknown_action"),
        ("p1 cbr", "unknown_action"),
        ("d dh p1 AsKx", "bad_card"),
        ("d db 1c2c3c", "bad_card"),
        ("q1 f", "bad_player"),
        ("p0 f", "bad_player"),
        ("p1 cbr ten", "bad_amount"),
        ("p1 cbr -5", "bad_amount"),
    ],
)
def test_bad_actions(text: str, code: str) -> None:
    """Malformed actions are refused with a code naming the problem."""
    with pytest.raises(PhhError) as info:
        parse_action(text)
    assert info.value.code == code
    assert repr(text) in str(info.value) or text.split()[-1] in str(info.value)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("variant = 'NT'\nantes = [0, 0\n", "bad_toml"),
        ("antes = [0]\nstarting_stacks = [1]\nactions = []", "missing_field"),
        ("variant = 'NT'\nantes = [0, 0]\nstarting_stacks = [1]\nactions = []", "bad_field"),
        ("variant = 'NT'\nantes = 0\nstarting_stacks = [1]\nactions = []", "bad_field"),
        ("variant = 'NT'\nantes = [true]\nstarting_stacks = [1]\nactions = []", "bad_amount"),
        ("variant = 'NT'\nantes = [0]\nstarting_stacks = [inf]\nactions = []", "bad_amount"),
        ("variant = 'NT'\nantes = [0]\nstarting_stacks = [1]\nactions = [1]", "bad_field"),
        (
            "variant = 'NT'\nantes = [0]\nstarting_stacks = [1]\nactions = ['p1 zz']",
            "unknown_action",
        ),
        ("variant = 'NT'\nantes = [0]\nstarting_stacks = [1]\nactions = ['p2 f']", "bad_player"),
        ("variant = 'NT'\nantes = [0]\nstarting_stacks = [1]\nactions = ['d db Zz']", "bad_card"),
    ],
)
def test_bad_files(text: str, code: str) -> None:
    """Malformed files give a clear error with a code and the source."""
    with pytest.raises(PhhError) as info:
        load_phh(text, source="hand.phh")
    assert info.value.code == code
    assert str(info.value).startswith("hand.phh: ")


def test_bad_hand_in_phhs_names_its_index() -> None:
    """An error in the k-th hand of a .phhs file names ``source#k``."""
    good = 'variant = "NT"\nantes = [0]\nstarting_stacks = [1]\nactions = []\n'
    bad = 'variant = "NT"\nantes = [0]\nstarting_stacks = [1]\nactions = ["p1 ??"]\n'
    with pytest.raises(PhhError) as info:
        load_phhs(f"[1]\n{good}[2]\n{bad}", source="x.phhs")
    assert str(info.value).startswith("x.phhs#2: ") and info.value.code == "unknown_action"


def test_read_path_labels(tmp_path: Path) -> None:
    """read_path labels hands ``path`` or ``path#k`` and reports bad hands without hiding
    the good ones."""
    good = 'variant = "NT"\nantes = [0]\nstarting_stacks = [1]\nactions = []\n'
    (tmp_path / "a.phhs").write_text(f"[1]\n{good}[2]\nvariant = 1\n[3]\n{good}")
    (tmp_path / "b.phh").write_text("not toml = = =")
    labels = read_path(tmp_path / "a.phhs")
    assert [lbl.rsplit("/", 1)[-1] for lbl, _ in labels] == ["a.phhs#1", "a.phhs#2", "a.phhs#3"]
    assert isinstance(labels[0][1], HandHistory) and isinstance(labels[2][1], HandHistory)
    assert isinstance(labels[1][1], PhhError) and "a.phhs#2" in str(labels[1][1])
    ((_label, err),) = read_path(tmp_path / "b.phh")
    assert isinstance(err, PhhError) and err.code == "bad_toml" and str(tmp_path) in str(err)


def test_hand_history_validates() -> None:
    """The value type refuses inconsistent lengths and a scale that is not a power of ten."""
    with pytest.raises(PhhError, match="antes has 1 entries for 2 players"):
        HandHistory("NT", (0,), (1, 1), ())
    with pytest.raises(PhhError, match="power of ten"):
        HandHistory("NT", (0, 0), (1, 1), (), scale=20)


def test_decimal_precision_is_exact() -> None:
    """Amounts are read as decimals, never floats: 0.1 + 0.2 style errors cannot occur."""
    hh = load_phh(
        'variant = "NT"\nantes = [0.1, 0.2]\nstarting_stacks = [0.3, 100.07]\nactions = []'
    )
    assert hh.scale == 100 and hh.antes == (10, 20) and hh.starting_stacks == (30, 10007)
    assert Decimal(hh.starting_stacks[1]) / hh.scale == Decimal("100.07")


@settings(max_examples=300, deadline=None)
@given(
    pos=st.integers(min_value=0, max_value=len(HAND) - 1),
    junk=st.text(alphabet="[]=\"'#,.-?0123456789pdcbrfsmAKQJTchx \n", min_size=1, max_size=4),
)
def test_mutated_files_never_crash(pos: int, junk: str) -> None:
    """Any text is either a hand or a PhhError with a code, never another exception."""
    text = HAND[:pos] + junk + HAND[pos + len(junk) :]
    try:
        hh = load_phh(text)
    except PhhError as exc:
        assert exc.code
    else:
        assert load_phh(dump_phh(hh)) == hh


def test_huge_amounts_are_refused() -> None:
    """Absurd amounts are refused instead of building enormous integers."""
    with pytest.raises(PhhError, match="too large"):
        load_phh("variant = 'NT'\nantes = [0]\nstarting_stacks = [1e999999]\nactions = []")
