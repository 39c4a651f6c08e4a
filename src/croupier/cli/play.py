"""`croupier play`: play hands in the terminal against simple bots.

The human sits in the first seat; the bots play a simple hand-strength strategy. With
``--auto`` the human seat is played by a bot too (a demo that needs no keyboard).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import typer
from rich.console import Console
from rich.table import Table

from croupier.engine.actions import (
    Action,
    LegalActions,
    bring_in,
    call,
    check,
    decline_split,
    draw,
    fold,
    raise_to,
)
from croupier.engine.cards import format_cards, parse_cards
from croupier.engine.errors import EngineError
from croupier.engine.evaluate import EVALUATORS, category
from croupier.engine.game import Game, find_game
from croupier.engine.rng import SeededShuffler, Shuffler, SystemShuffler
from croupier.engine.state import HandState, apply, auto_showdown_action, legal_actions, start_hand
from croupier.engine.views import view

_STRONG = {"straight_flush", "four_of_a_kind", "full_house", "flush", "straight", "three_of_a_kind"}


def bot_action(state: HandState, legal: LegalActions, rng: random.Random) -> Action:
    """A simple strategy: bet strong made hands, call medium ones, fold weak ones to bets."""
    p = legal.player
    if legal.show_or_muck:
        return auto_showdown_action(state)
    if legal.split_answer:
        return decline_split(p)
    if legal.can_bring_in:
        return bring_in(p)
    hole = state.hole_cards[p]
    if legal.can_draw:
        ranks = [c.rank for c in hole]
        keep = {c for c in hole if ranks.count(c.rank) > 1 or c.rank >= 10}
        discards = [c for c in hole if c not in keep][: legal.max_discards]
        return draw(p, discards)
    board = state.board
    kind = state.game.variant.hands[0]
    strength = 0.3
    if len(hole) + len(board) >= 5 and kind in EVALUATORS:
        value = EVALUATORS[kind](hole, board)
        if value is not None:
            cat = category(kind, value)
            strength = (
                0.9
                if cat in _STRONG
                else 0.7
                if cat == "two_pair"
                else 0.5
                if cat == "one_pair"
                else 0.2
            )
    else:
        ranks = sorted((c.rank for c in hole), reverse=True)
        pair = len(set(ranks)) < len(ranks)
        strength = 0.8 if pair and ranks[0] >= 8 else 0.6 if pair or ranks[0] >= 11 else 0.35
    strength += rng.uniform(-0.15, 0.15)
    pot = max(state.pot, 1)
    if legal.can_raise and strength > 0.75:
        target = (
            legal.min_raise
            + (legal.max_raise - legal.min_raise) * min(1.0, pot / max(legal.max_raise, 1)) // 2
        )
        return raise_to(p, max(legal.min_raise, min(legal.max_raise, int(target))))
    if legal.can_check:
        return check(p)
    if legal.call <= pot * strength:
        return call(p)
    return fold(p)


def _show(console: Console, state: HandState, names: list[str], seat: int) -> None:
    v = view(state, seat)
    table = Table(title=f"{state.game.variant.name} — pot {v.pot}", show_lines=False)
    for col in ("seat", "player", "stack", "bet", "cards"):
        table.add_column(col)
    for p, pv in enumerate(v.players):
        cards = " ".join("??" if c is None else str(c) for c in pv.cards)
        status = " (folded)" if pv.folded else " (all-in)" if pv.all_in else ""
        marker = "▶ " if p == v.actor else ""
        table.add_row(str(p + 1), marker + names[p] + status, str(pv.stack), str(pv.bet), cards)
    console.print(table)
    console.print("Board: " + (format_cards(v.board) or "—"))


def _ask(console: Console, legal: LegalActions) -> Action:
    p = legal.player
    options = []
    if legal.can_fold:
        options.append("f=fold")
    if legal.can_check:
        options.append("k=check")
    if legal.can_call:
        options.append(f"c=call {legal.call}")
    if legal.can_raise:
        options.append(f"r N=raise to N ({legal.min_raise}–{legal.max_raise})")
    if legal.can_draw:
        options.append(f"d CARDS=discard up to {legal.max_discards} (d alone: stand pat)")
    while True:
        text = typer.prompt("Your action [" + ", ".join(options) + "]").strip().lower()
        try:
            if text in ("f", "fold"):
                return fold(p)
            if text in ("k", "check"):
                return check(p)
            if text in ("c", "call"):
                return call(p)
            if text.startswith("r"):
                return raise_to(p, int(text[1:].strip()))
            if text.startswith("d"):
                return draw(p, parse_cards(text[1:]))
        except (ValueError, EngineError) as exc:
            console.print(f"[red]{exc}[/red]")
            continue
        console.print("[red]Unknown action.[/red]")


def play_session(
    game: Game,
    seats: int,
    stack: int,
    hands: int,
    shuffler: Shuffler,
    rng: random.Random,
    console: Console,
    human: Callable[[LegalActions], Action] | None,
) -> list[int]:
    """Play ``hands`` hands, the button moving each hand; returns the final stacks."""
    names = ["You" if human else "BOT Ada"] + [
        f"BOT {n}" for n in ("Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy")
    ]
    names = names[:seats]
    stacks = [stack] * seats
    button = seats - 1
    for number in range(1, hands + 1):
        playing = [s for s in range(seats) if stacks[s] > 0]
        if len(playing) < 2:
            break
        button = next(
            s for s in ((button + k) % seats for k in range(1, seats + 1)) if stacks[s] > 0
        )
        order = [s for s in ((button + k) % seats for k in range(1, seats + 1)) if stacks[s] > 0]
        state, _ = start_hand(game, [stacks[s] for s in order], shuffler.shuffle(game.variant.deck))
        seat_names = [names[s] for s in order]
        human_pos = order.index(0) if human and 0 in order else -1
        console.rule(f"Hand {number}")
        while not state.is_over:
            legal = legal_actions(state)
            assert legal is not None
            if legal.player == human_pos and human is not None and not legal.show_or_muck:
                _show(console, state, seat_names, human_pos)
                try:
                    state, _ = apply(state, human(legal))
                except EngineError as exc:
                    console.print(f"[red]{exc}[/red]")
                continue
            action = bot_action(state, legal, rng)
            state, _ = apply(state, action)
            if action.kind.value not in ("show", "muck"):
                console.print(
                    f"{seat_names[action.player]}: {action.kind.value}"
                    + (f" to {action.amount}" if action.kind.value == "raise" else "")
                )
        result = state.result
        assert result is not None
        for pos, seat in enumerate(order):
            stacks[seat] = result.stacks[pos]
            if state.shown[pos]:
                console.print(f"{seat_names[pos]} shows {format_cards(state.hole_cards[pos])}")
        winners = [seat_names[p] for p in range(len(order)) if result.net[p] > 0]
        console.print(
            f"Board {format_cards(state.board) or '—'}; won by {', '.join(winners) or 'nobody'}"
        )
        console.print("Stacks: " + ", ".join(f"{names[s]} {stacks[s]}" for s in range(seats)))
    return stacks


def register(app: typer.Typer) -> None:
    """Add ``croupier play`` to ``app``."""

    @app.command()
    def play(
        game: str = typer.Option("nlhe", help="Game preset (nlhe, plo, flhe, plo8, …)."),
        seats: int = typer.Option(4, min=2, max=10, help="Players at the table."),
        stack: int = typer.Option(200, min=1, help="Starting stack of each player."),
        blinds: str = typer.Option("1/2", help="Small/big blind."),
        hands: int = typer.Option(5, min=1, help="Hands to play."),
        seed: int | None = typer.Option(None, help="Seed (reproducible deals; not for live play)."),
        auto: bool = typer.Option(False, help="Let a bot play your seat too (demo)."),
    ) -> None:
        """Play hands in the terminal against bots."""
        console = Console()
        try:
            sb, bb = (int(x) for x in blinds.split("/"))
            variant, _ = find_game(game)
            g = Game.of_stakes(game, sb, bb)
        except (ValueError, EngineError) as exc:
            console.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(2) from None
        if not variant.min_players <= seats <= variant.max_players:
            console.print(
                f"[red]error:[/red] {variant.name} seats {variant.min_players}–{variant.max_players}"
            )
            raise typer.Exit(2)
        shuffler: Shuffler = SeededShuffler(seed) if seed is not None else SystemShuffler()
        rng = random.Random(seed)
        human = None if auto else (lambda legal: _ask(console, legal))
        play_session(g, seats, stack, hands, shuffler, rng, console, human)
