"""The lobby's access rules, asked by the server's edge (issue #11: the edge decides nothing).

R-LOBBY-2 (a private table admits its host and its code), R-SEAT-2 (arcade level; no
spectators at the arcade, the table's own rule)."""

from __future__ import annotations

from croupier.lobby import DEFAULT_TABLES, private_spec
from croupier.lobby.access import ArcadeGate, seat_refusal, watch_refusal
from croupier.lobby.arcade import parse_schedule

NOON, EVENING = 12 * 3600, 20 * 3600
GATE = ArcadeGate(parse_schedule("18:00-23:00"), min_level=6)


def _seat(spec, **kw):  # type: ignore[no-untyped-def]
    args = {"arcade_rules": False, "code": None, "account_id": 1, "level": 10, "now": EVENING}
    args.update(kw)
    refused = seat_refusal(spec, gate=GATE, **args)
    return None if refused is None else refused.code


def test_private_table_admits_host_and_code_only() -> None:
    spec = private_spec("private-x", game="nlhe", blinds=(1, 2), code="ABCD2345", host=7)
    assert watch_refusal(spec, code="ABCD2345", account_id=None) is None
    assert watch_refusal(spec, code=None, account_id=7) is None
    refused = watch_refusal(spec, code="ABCD2346", account_id=8)
    assert refused is not None and refused.code == "bad_code"
    assert _seat(spec, code=None, account_id=8) == "bad_code"
    assert _seat(spec, code="ABCD2345", account_id=8) is None
    assert _seat(spec, code="", account_id=8) == "bad_code"


def test_public_arcade_needs_hours_and_level_private_arcade_only_level() -> None:
    arcade = next(s for s in DEFAULT_TABLES if s.kind == "arcade")
    assert _seat(arcade) is None
    assert _seat(arcade, now=NOON) == "arcade_closed"
    assert _seat(arcade, level=5) == "level_too_low"
    private = private_spec(
        "private-y", game="nlhe", profile="arcade", blinds=(1, 2), code="ABCD2345", host=1
    )
    assert _seat(private, now=NOON) is None  # hours are the public arcade's
    assert _seat(private, level=5) == "level_too_low"
    cash = next(s for s in DEFAULT_TABLES if s.kind == "cash")
    assert _seat(cash, level=0, now=NOON) is None
    assert _seat(cash, level=0, arcade_rules=True) == "level_too_low"
