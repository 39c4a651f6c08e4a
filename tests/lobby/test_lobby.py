"""Lobby domain: default tables, private tables with invitation codes, arcade quick match."""

from __future__ import annotations

import random

import pytest

from croupier.lobby import DEFAULT_TABLES, LobbyError, QuickMatch, invitation_code, private_spec
from croupier.lobby.catalog import CODE_ALPHABET


def test_default_tables_cover_the_issue_list() -> None:
    """R-LOBBY-1: NLHE 1/2 6-max, PLO 1/2, FLHE 2/4, a naiko NLHE and an arcade table, with bots."""
    games = {(s.game, s.profile, s.kind) for s in DEFAULT_TABLES}
    assert ("nlhe", "room", "cash") in games and ("plo", "room", "cash") in games
    assert ("flhe", "room", "cash") in games and ("nlhe", "naiko", "cash") in games
    assert ("nlhe", "arcade", "arcade") in games
    for spec in DEFAULT_TABLES:
        cfg = spec.config()
        assert spec.bots > 0 and cfg.bots_allowed
        assert cfg.buy_in_min > 0
        if cfg.game.structure.is_limit:  # R-SEAT-1: a minimum and no maximum
            assert cfg.buy_in_max == 0
        else:
            assert cfg.buy_in_min <= cfg.buy_in_max
    flhe = next(s for s in DEFAULT_TABLES if s.game == "flhe").game_of()
    assert (flhe.small_bet, flhe.big_bet) == (2, 4)
    arcade = next(s for s in DEFAULT_TABLES if s.kind == "arcade")
    assert arcade.config().rules.rake.kind == "levy"  # its hands' records say levy (R-RAKE-3)
    assert not arcade.config().rules.spectators and arcade.config().seats <= 6


def test_private_table_checks_its_settings() -> None:
    """R-LOBBY-2: the host's variant, mode, blinds, bots and buy-ins; bad ones get a code."""
    spec = private_spec("p1", game="plo", profile="naiko", blinds=(5, 10), bots=True, code="AB")
    assert spec.private and spec.bots > 0 and spec.config().rules.name == "naiko"
    bad = [
        dict(game="nope"),
        dict(blinds=(0, 2)),
        dict(blinds=(3, 2)),
        dict(profile="arcade", blinds=(1, 3)),
        dict(seats=11),
        dict(buy_in_min=500, buy_in_max=100),
    ]
    for kwargs in bad:
        with pytest.raises(LobbyError) as info:
            private_spec("p2", code="AB", **kwargs)  # type: ignore[arg-type]
        assert info.value.code


def test_invitation_codes_are_random_and_readable() -> None:
    codes = {invitation_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(set(c) <= set(CODE_ALPHABET) for c in codes)
    assert not set("01OIL") & set(CODE_ALPHABET)


def test_quick_match_level_gate_and_group_sizes() -> None:
    """R-SEAT-2: level >= 6 only; groups of 2 to 6 drawn at random."""
    q = QuickMatch(min_level=6, wait_seconds=10)
    with pytest.raises(LobbyError) as info:
        q.join("low", level=5, now=0)
    assert info.value.code == "level_too_low" and "low" not in q
    for i in range(8):
        q.join(f"p{i}", level=6 + i, now=float(i))
    groups = q.draw(random.Random(3), now=8)
    assert [len(g) for g in groups] == [6] and len(q) == 2
    assert q.draw(random.Random(3), now=9) == []  # the oldest left has waited 2 s only
    late = q.draw(random.Random(3), now=30)
    assert [len(g) for g in late] == [2] and len(q) == 0
    everyone = set(groups[0]) | set(late[0])
    assert everyone == {f"p{i}" for i in range(8)}


def test_quick_match_is_random() -> None:
    """R-SEAT-2: who is grouped with whom depends on the draw, not the arrival order."""
    seen = set()
    for seed in range(20):
        q = QuickMatch()
        for i in range(7):
            q.join(f"p{i}", level=9, now=0)
        seen.add(tuple(sorted(q.draw(random.Random(seed), now=0)[0])))
    assert len(seen) > 1


def test_single_player_never_matched_alone_and_cancel() -> None:
    q = QuickMatch(wait_seconds=1)
    q.join("solo", level=6, now=0)
    assert q.draw(random.Random(1), now=100) == []
    assert q.cancel("solo") and not q.cancel("solo")


def test_stud_limit_and_spread_specs() -> None:
    """R-POS-5: a stud table's bring-in (the small stake) is twice the ante; a stake too
    small to halve is refused. R-SEAT-1: FL/SL tables have a minimum buy-in and no
    maximum (a maximum asked for is refused). R-BET-5: spread maxima ``1-2-3``."""
    stud = private_spec("s1", game="7stud", blinds=(2, 4), code="AB").game_of()
    assert (stud.stakes.ante, stud.stakes.bring_in, stud.small_bet) == (1, 2, 4)
    with pytest.raises(LobbyError) as info:
        private_spec("s2", game="razz", blinds=(1, 2), code="AB")
    assert info.value.code == "bad_stakes"
    fl = private_spec("f1", game="flhe", blinds=(1, 2), code="AB").config()
    assert fl.buy_in_min == 80 and fl.buy_in_max == 0
    with pytest.raises(LobbyError) as info:
        private_spec("f2", game="slhe", blinds=(1, 2), buy_in_max=500, code="AB")
    assert info.value.code == "bad_buy_in"
    sl = private_spec("sl", game="slhe", blinds=(1, 1), spread="1-2-3", code="AB")
    assert sl.game_of().stakes.spread == (1, 1, 2, 3) and sl.config().buy_in_max == 0
    for game, spread, code in [
        ("nlhe", "1-2-3", "bad_spread"),
        ("slhe", "1-2", "bad_spread"),
        ("slhe", "1-x-3", "bad_spread"),
        ("slhe", "0-2-3", "bad_spread"),
    ]:
        with pytest.raises(LobbyError) as info:
            private_spec("bad", game=game, blinds=(1, 1), spread=spread, code="AB")
        assert info.value.code == code, (game, spread)
    with pytest.raises(LobbyError) as info:  # each maximum at least the big blind
        private_spec("bad", game="slhe", blinds=(1, 2), spread="1-2-3", code="AB")
    assert info.value.code == "bad_game"
