"""Spin prize pools (R-TOUR-2) and registration refusals (R-TOUR-1, R-TOUR-3, R-TOUR-4,
R-BOT-1): each refusal has a code and changes nothing."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

import pytest

from croupier.tournament.errors import TournamentError
from croupier.tournament.money import PlayCashier
from croupier.tournament.registration import Registration, Status, TournamentSpec
from croupier.tournament.scheduled import scheduled
from croupier.tournament.sitngo import sit_and_go
from croupier.tournament.spin import spin
from tests.tournament.kit import register_bots, run


class Fixed:
    """An rng whose draw lands at ``x`` (of a million)."""

    def __init__(self, x: int) -> None:
        self.x = x

    def randrange(self, stop: int, /) -> int:
        return self.x % stop


def _spin_registration(cashier: PlayCashier) -> Registration:
    reg = Registration(spin("spin-1", "Spin 10", buy_in=10), cashier)
    for p in ("a", "b", "c"):
        reg.register(p)
    return reg


@pytest.mark.parametrize(
    ("x", "multiplier", "prizes"),
    [
        (0, 2, (20,)),
        (773_800, 4, (40,)),
        (908_900, 6, (60,)),
        (988_900, 10, (100,)),
        (998_900, 25, (250,)),
        (999_700, 100, (1000, 100, 100)),
        (999_850, 200, (2000, 200, 200)),
        (999_999, 1000, (10000, 1000, 1000)),
    ],
)
def test_spin_pool_is_the_multiplier_times_one_buy_in(
    x: int, multiplier: int, prizes: tuple[int, ...]
) -> None:
    """R-TOUR-10, R-TOUR-2: the multiplier is drawn at the start; the winner gets it times
    ONE buy-in (not the three), 2nd and 3rd 10 % each at 100× and above; the house keeps
    or adds the difference to the three buy-ins, so the pool is exactly the prizes."""
    cashier = PlayCashier({p: 10 for p in "abc"})
    reg = _spin_registration(cashier)
    assert cashier.pool("spin-1") == 30
    launch = reg.start(Fixed(x))
    assert launch.multiplier is not None and launch.multiplier.multiplier == multiplier
    assert launch.pool == sum(prizes) and prizes[0] == 10 * multiplier
    assert launch.prizes == prizes
    assert cashier.pool("spin-1") == launch.pool
    assert cashier.house == 30 - launch.pool


def test_spin_played_to_the_end_pays_three_places_on_a_big_multiplier() -> None:
    """R-TOUR-10, R-TOUR-4: a 100× Spin of three bots ends with 1,000 to the winner and
    100 each to 2nd and 3rd; the house added the 1,170 above the buy-ins."""
    spec = spin("spin-2", "Spin 10", buy_in=10, between_hands=1.0)
    cashier = PlayCashier({f"b{i}": 10 for i in range(3)})
    reg = register_bots(spec, 3, cashier)

    class Rng(random.Random):
        def randrange(self, *args: int, **kwargs: int) -> int:  # type: ignore[override]
            if args == (1_000_000,):
                return 999_700
            return super().randrange(*args, **kwargs)

    async def go() -> None:
        result = await run(reg, 4, rng=Rng(4))
        d = result.director
        assert d.finished
        assert result.launch.pool == 1200
        assert sorted(p.prize for p in d.placings) == [100, 100, 1000]
        assert {chips for _, _, chips in result.settled} == {3 * spec.starting_stack}

    asyncio.run(go())
    assert sorted(cashier.balances.values()) == [100, 100, 1000]
    assert cashier.pool("spin-2") == 0 and cashier.house == -1170


def _state(reg: Registration, cashier: PlayCashier) -> tuple[object, ...]:
    return (
        reg.status,
        tuple(reg.entrants),
        dict(cashier.balances),
        dict(cashier.pools),
        reg.launch,
    )


def test_registration_refusals_change_nothing() -> None:
    """R-TOUR-1, R-TOUR-4, R-BOT-1: register twice, without the balance, a bot where bots
    are not allowed, a bad id, when full, after the start: each refused with its code,
    nothing moved."""
    cashier = PlayCashier({"ann": 100, "bob": 99, "cat": 100, "dan": 100})
    spec = sit_and_go("sng-r", "SNG 2", seats=2, buy_in=100, bots_allowed=False)
    reg = Registration(spec, cashier)
    reg.register("ann")
    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: reg.register("ann"), "already_registered"),
        (lambda: reg.register("bob"), "insufficient_funds"),
        (lambda: reg.register("robot", is_bot=True), "bots_not_allowed"),
        (lambda: reg.register(""), "bad_player"),
        (lambda: reg.unregister("cat"), "not_registered"),
        (lambda: reg.start(random.Random(1)), "not_enough_entrants"),
    ]
    for attempt, code in cases:
        before = _state(reg, cashier)
        with pytest.raises(TournamentError) as err:
            attempt()
        assert err.value.code == code
        assert _state(reg, cashier) == before
    reg.register("cat")
    before = _state(reg, cashier)
    with pytest.raises(TournamentError) as err:
        reg.register("dan")
    assert err.value.code == "tournament_full" and _state(reg, cashier) == before
    reg.start(random.Random(1))
    assert reg.status is Status.RUNNING
    closed: list[tuple[Callable[[], object], str]] = [
        (lambda: reg.register("dan"), "registration_closed"),
        (lambda: reg.unregister("ann"), "registration_closed"),
        (lambda: reg.start(random.Random(1)), "registration_closed"),
        (reg.cancel, "registration_closed"),
    ]
    for attempt, code in closed:
        before = _state(reg, cashier)
        with pytest.raises(TournamentError) as err:
            attempt()
        assert err.value.code == code and _state(reg, cashier) == before
    assert cashier.balances == {"ann": 0, "bob": 99, "cat": 0, "dan": 100}


def test_scheduled_registration_window_refund_and_cancel() -> None:
    """R-TOUR-3: registration opens and closes at the published times; unregistering
    refunds; a tournament short of entrants at its start is cancelled and refunded."""
    cashier = PlayCashier({p: 50 for p in ("ann", "bob", "cat")})
    spec = scheduled("mtt-w", "MTT", opens_at=100.0, starts_at=200.0, buy_in=50, min_entrants=3)
    reg = Registration(spec, cashier)
    for now, code in [(99.0, "registration_not_open"), (200.0, "registration_closed")]:
        before = _state(reg, cashier)
        with pytest.raises(TournamentError) as err:
            reg.register("ann", now=now)
        assert err.value.code == code and _state(reg, cashier) == before
    reg.register("ann", now=100.0)
    reg.register("bob", now=150.0)
    reg.unregister("bob", now=160.0)
    assert cashier.balances["bob"] == 50 and cashier.pool("mtt-w") == 50
    reg.register("bob", now=170.0)
    with pytest.raises(TournamentError) as err:
        reg.start(random.Random(1))
    assert err.value.code == "not_enough_entrants"
    reg.cancel()
    assert reg.status is Status.CANCELLED
    assert cashier.balances == {"ann": 50, "bob": 50, "cat": 50} and cashier.pool("mtt-w") == 0


@pytest.mark.parametrize(
    ("terms", "code"),
    [
        ({"tournament_id": "a:b"}, "bad_spec"),
        ({"seats": 11, "max_entrants": 11}, "bad_spec"),
        ({"seats": 6, "max_entrants": 9}, "bad_spec"),
        ({"kind": "spin"}, "bad_spec"),
        ({"kind": "scheduled"}, "bad_spec"),
        ({"buy_in": -1}, "bad_spec"),
        ({"max_entrants": 5000, "kind": "scheduled", "opens_at": 0, "starts_at": 1}, "bad_spec"),
    ],
)
def test_bad_terms_are_refused(terms: dict[str, object], code: str) -> None:
    """R-TOUR-1..3: terms that cannot work are refused before any registration."""
    args: dict[str, object] = {"tournament_id": "t", "name": "T"} | terms
    with pytest.raises(TournamentError) as err:
        TournamentSpec(**args)  # type: ignore[arg-type]
    assert err.value.code == code
