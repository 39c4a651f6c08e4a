"""`croupier play`: the terminal game is a live table (the table actor, the room's bots,
the table's button, blind, clock and reload rules), shown from the player's own events."""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Iterable

import pytest
from rich.console import Console
from typer.testing import CliRunner

from croupier.cli import app
from croupier.cli.play import ME, PlayResult, play_session
from croupier.engine.events import ForcedBet
from croupier.engine.game import Game
from croupier.table.events import (
    HandBegan,
    HandSettled,
    PlayerLeft,
    PlayerSeated,
    SeatChanged,
    TableEvent,
    TimedOut,
)
from croupier.table.testing import check_event

runner = CliRunner()


class Script:
    """The terminal player's answers, in order; records every prompt it was asked."""

    def __init__(self, lines: Iterable[str], *, default: str | None = None) -> None:
        self.lines = list(lines)
        self.default = default
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.lines:
            return self.lines.pop(0)
        assert self.default is not None, f"no answer left for: {prompt}"
        return self.default


class Answer:
    """Answers by what the prompt offers: check if free, else call; show at showdown."""

    def __init__(self, first: Iterable[str] = ()) -> None:
        self.first = list(first)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.first:
            return self.first.pop(0)
        if "s=show" in prompt:
            return "s"
        if "sitting out" in prompt:
            return ""
        if "Reload" in prompt:
            return "q"
        return "k" if "k=check" in prompt else "c"


def session(
    ask: object, *, hands: int = 3, seats: int = 3, stack: int = 200, seed: int = 1, **kw: object
) -> tuple[PlayResult, str]:
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    result = play_session(
        Game.of_stakes(str(kw.pop("game", "nlhe")), 1, 2),
        seats,
        stack,
        hands,
        seed=seed,
        console=console,
        ask=ask,
        **kw,
    )
    return result, out.getvalue()


def of(events: Iterable[TableEvent], kind: type) -> list[TableEvent]:
    return [e for e in events if isinstance(e.data, kind)]


@pytest.mark.parametrize(
    "game",
    [
        "nlhe",
        "plo",
        "flhe",
        "plo8",
        "7stud",
        "stud8",
        "razz",
        "soko",
        "5cd",
        "27td",
        "32cd",
        "badugi",
    ],
)
def test_auto_play_every_game(game: str) -> None:
    """R-BOT-1, R-POS-5, R-DRAW-1: with --auto the room's bots play complete hands of every
    game at a live table, with no input; chips are conserved (rake aside)."""
    result = runner.invoke(
        app, ["play", "--auto", "--seed", "5", "--hands", "3", "--game", game, "--seats", "3"]
    )
    assert result.exit_code == 0, result.stdout
    assert "Session over: 3 hands played." in result.stdout
    last = [line for line in result.stdout.splitlines() if line.startswith("Stacks: ")][-1]
    stacks = [int(part.rsplit(" ", 1)[1]) for part in last.removeprefix("Stacks: ").split(", ")]
    rake = sum(int(r) for r in re.findall(r"settled \(rake (\d+)\)", result.stdout))
    assert sum(stacks) + rake == 3 * 200
    assert re.findall(r"^BOT \w+ sits at seat", result.stdout, re.M), "bots are labelled BOT"


def test_auto_with_a_seed_is_deterministic() -> None:
    """R-BOT-1: --auto with a seed finishes N hands with no input, the same way each time
    (the table's seeded shuffler, its rng and the fake clock); another seed deals others."""
    args = ["play", "--auto", "--seed", "7", "--hands", "4", "--seats", "4"]
    first = runner.invoke(app, args)
    second = runner.invoke(app, args)
    other = runner.invoke(app, [*args[:3], "8", *args[4:]])
    assert first.exit_code == second.exit_code == other.exit_code == 0
    assert first.stdout == second.stdout
    assert first.stdout.count("settled") == 4 and "Session over: 4 hands played." in first.stdout
    assert other.stdout != first.stdout


def test_human_session_plays_hands_from_its_own_events() -> None:
    """R-BOT-1, R-TIME-3: a human session of a few hands. Every event the terminal was
    built from is the seat's redacted view (no other player's down card); the player's own
    cards are shown, the hands settle at the table."""
    ask = Answer()
    result, out = session(ask, hands=3, seats=3)
    assert result.hands == 3 and result.reason == "3 hands played"
    shown: set[object] = set()
    for event in result.seen:
        check_event(event, ME, shown)
    assert out.count("Your cards: ") == 3
    assert len(ask.prompts) >= 3 and all("Your action" in p for p in ask.prompts)
    settled = of(result.table_events, HandSettled)
    assert len(settled) == 3
    final = dict(settled[-1].data.stacks)
    assert dict(result.stacks) == {"You": final[0], "BOT Bo": final[1], "BOT Cy": final[2]}
    assert sum(final.values()) == 600


def test_illegal_action_refused_and_asked_again() -> None:
    """R-BET-8: an unknown answer and an illegal raise are refused (the raise with the
    table's code), the same prompt comes back and nothing changed at the table."""
    ask = Script(["x", "r 1", "f"], default="k")
    result, out = session(ask, hands=1, seats=2, seed=1)
    assert "unknown action 'x'" in out
    assert "refused (raise_too_small)" in out
    first = ask.prompts[0]
    assert ask.prompts[1] == first and ask.prompts[2] == first
    # the refusals changed nothing: the next event after the turn is the fold
    events = list(result.table_events)
    turn_at = next(i for i, e in enumerate(events) if e.data.type == "turn")
    after = events[turn_at + 1].data
    assert after.type == "acted" and after.action.value == "fold"


def test_cli_refuses_then_plays() -> None:
    """R-BET-8 through the command line: the refusal is printed and the game goes on."""
    result = runner.invoke(
        app,
        ["play", "--seed", "1", "--hands", "1", "--seats", "2"],
        input="x\nr 1\nf\n" + "k\ns\n" * 20,
    )
    assert result.exit_code == 0, result.stdout
    assert "unknown action 'x'" in result.stdout
    assert "refused (raise_too_small)" in result.stdout
    assert "Session over: 1 hand played." in result.stdout


def test_slow_answer_times_out_as_at_a_live_table() -> None:
    """R-TIME-1: while the prompt waits, the table clock follows the wall clock: an answer
    given after the decision clock ran out is too late, the table acted (check or fold)."""
    ticks = iter([0.0, 45.0] + [45.0 + i for i in range(1000)])
    ask = Script(["c"], default="k")
    result, out = session(ask, hands=1, seats=2, monotonic=lambda: next(ticks))
    timed = of(result.table_events, TimedOut)
    assert timed and timed[0].data.seat == 0 and timed[0].data.reason == "timeout"
    assert "Too late: the table did not wait." in out
    assert "You: time is up (timeout)" in out


def test_time_bank_extends_the_clock() -> None:
    """R-TIME-1: 't' uses the time bank (the table's UseTimeBank): an answer 40 s later,
    past the 30 s clock but within clock + bank, is accepted."""
    clock = iter([0.0, 1.0, 10.0, 50.0] + [50.0 + i for i in range(1000)])
    ask = Script(["t", "f"], default="k")
    result, out = session(ask, hands=1, seats=2, monotonic=lambda: next(clock))
    assert "You use the time bank." in out
    assert not of(result.table_events, TimedOut)
    folds = [e for e in result.table_events if e.data.type == "acted"]
    assert folds[0].players[folds[0].data.player] == ME


def test_sitting_out_owes_missed_blinds_as_at_a_live_table() -> None:
    """R-SEAT-3, R-POS-6: the player sits out ('o'), stays out while the blinds pass
    ('o' again between hands), then comes back posting what is owed. The missed blinds
    and the posts are the table's (its own events), and the terminal says the same."""
    ask = Answer(first=["o", "f"])
    # between hands: stay out twice ("o"), then sit in posting what is owed ("")
    answers = iter(["o", "o"])

    def scripted(prompt: str) -> str:
        if "sitting out" in prompt:
            return next(answers, "")
        return ask(prompt)

    result, out = session(scripted, hands=6, seats=4, seed=3)
    events = result.table_events
    began = [e.data for e in of(events, HandBegan)]
    assert ME in began[0].players
    out_hands = [b for b in began if ME not in b.players]
    assert len(out_hands) >= 2
    missed = [e.data.seat for e in of(events, SeatChanged) if e.data.reason == "missed_blinds"]
    assert missed and missed[-1].owes_bb
    back = next(b for b in began[1:] if ME in b.players)
    back_no = back.hand_no
    posts = [
        e.data
        for e in events
        if e.hand_no == back_no and isinstance(e.data, ForcedBet) and e.players[e.data.player] == ME
    ]
    kinds = sorted(p.kind for p in posts)
    owed_sb = missed[-1].owes_sb
    assert kinds == (["big_blind", "dead"] if owed_sb else ["big_blind"])
    # the terminal printed the table's posts and its missed-blind notice
    assert "You missed the big blind" in out
    assert "You are back, posting what is owed at the next hand." in out
    assert "You post the big blind: 2." in out
    # and every button the terminal announced is the table's
    printed = [int(b) for b in re.findall(r"^Button: seat (\d+)", out, re.M)]
    assert printed == [b.button + 1 for b in began]


def test_busted_bot_leaves_and_the_table_moves_the_button() -> None:
    """R-POS-6, R-POS-1, R-SEAT-1: a busted bot is not reloaded, it leaves the table; the
    next hands deal around its empty seat by the table's standard button (the next dealt
    seat clockwise), and the terminal shows exactly the table's buttons and blinds."""
    result, out = session(None, hands=12, seats=4, stack=40, seed=10)
    events = result.table_events
    left = of(events, PlayerLeft)
    assert left and left[0].data.player_id == "bot3" and left[0].data.cashed_out == 0
    gone = left[0].data.seat
    began = [e.data for e in of(events, HandBegan)]
    after = [b for b in began if b.hand_no > left[0].hand_no]
    assert after and all(gone not in b.seats for b in after)
    for prev, cur in itertools.pairwise(began):
        dealt = sorted(cur.seats)
        nxt = min((s for s in dealt if s > prev.button), default=dealt[0])
        assert cur.button == nxt, f"hand {cur.hand_no}"
        assert cur.seats[-1] == cur.button
    printed = [int(b) for b in re.findall(r"^Button: seat (\d+)", out, re.M)]
    assert printed == [b.button + 1 for b in began]
    assert "BOT Di leaves (left) with 0." in out
    seated = {e.data.player_id: e.data.name for e in of(events, PlayerSeated)}
    assert all(name.startswith("BOT ") for name in seated.values())


def test_heads_up_button_posts_the_small_blind() -> None:
    """R-POS-1: when busted bots have left and two players remain, the button posts the
    small blind (the table's heads-up rule, as at a live table)."""
    result, _ = session(None, hands=31, seats=4, stack=40, seed=11)
    heads_up = [e for e in of(result.table_events, HandBegan) if len(e.data.seats) == 2]
    assert heads_up
    for hb in heads_up:
        posts = [
            e.data
            for e in result.table_events
            if e.hand_no == hb.hand_no and isinstance(e.data, ForcedBet)
        ]
        sb = next(p for p in posts if p.kind == "small_blind")
        assert sb.player == 1  # the last engine position is the button


def test_bad_options_exit_2() -> None:
    """Bad input gets a clear error, not a traceback."""
    result = runner.invoke(app, ["play", "--game", "nope"])
    assert result.exit_code == 2
    assert "unknown game" in result.stdout
    result = runner.invoke(app, ["play", "--blinds", "2-4"])
    assert result.exit_code == 2 and "error" in result.stdout
