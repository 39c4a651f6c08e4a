"""`croupier play`: play hands in the terminal at a real table, against the room's bots.

The terminal game is a live table (:mod:`croupier.table`): a :class:`TableActor` on a
:class:`FakeClock` with play chips and an in-memory journal, the room's bots
(:class:`~croupier.bots.BotRunner` with the :class:`~croupier.bots.RuleBot` strategy the
server's tables seat, labelled BOT), and the terminal player sitting at seat 1 as player
``you``. So the button, the blinds, missed blinds and waiting for the big blind
(R-POS-6, R-SEAT-3), the decision clock and the time bank (R-TIME-1) are the table's.

Everything printed comes from the events the table delivers to ``you`` (redacted for
that seat, never another player's down card; :mod:`croupier.cli.playview`). At ``you``'s
turn the prompt offers the turn's legal actions; the answer becomes an ordinary table
command (``Act``, ``Draw``, ``ShowCards``, ``UseTimeBank``, ``SitOut``...) and a refusal
is shown with the table's code, the prompt coming back with nothing changed.

Time: bots think on the table clock, which jumps ahead while nobody is waiting for the
terminal; while the prompt waits, the table clock follows the wall clock (the seconds
taken to answer are added before the answer is sent), so a slow answer times out as at
a live table. With ``--auto`` a bot plays seat 1 too and no input is read.

A busted bot leaves the table; the terminal player is offered the table's reload.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import typer
from rich.console import Console

from croupier.bots import BotRunner, RuleBot
from croupier.cli.playview import Scene, turn_table
from croupier.engine.actions import LegalActions
from croupier.engine.errors import EngineError
from croupier.engine.game import Game, find_game
from croupier.engine.rng import SeededShuffler, Shuffler, SystemShuffler
from croupier.table.actor import TableActor
from croupier.table.bank import PlayChips
from croupier.table.clock import FakeClock
from croupier.table.commands import (
    Act,
    Command,
    Draw,
    Leave,
    Reload,
    ShowCards,
    SitDown,
    SitIn,
    SitOut,
    UseTimeBank,
)
from croupier.table.config import TableConfig
from croupier.table.events import ReloadOffered, TableEvent
from croupier.table.journal import InMemoryJournal
from croupier.table.results import CommandResult, TableError

__all__ = ["ME", "PlayResult", "parse_answer", "play_session", "register"]

ME = "you"
"""The terminal player's id at the table."""
BOT_NAMES = ("Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo")
SESSION_SECONDS = 7 * 24 * 3600.0
"""Bound on the table clock of one session (a safety net: hands take a minute or so)."""

Ask = Callable[[str], str]
"""Reads one answer from the terminal player (``typer.prompt``; a list of lines in tests)."""


HELP = """Actions at your turn (the table says whether they are legal):
  f fold · k check · c call · r N raise (bet) to N in all · a all-in · b bring in
  d CARDS discard (e.g. d 2c 7d; d alone stands pat) · s show · m muck
  split / y / n  32-Card Draw split: offer / accept / decline
  t use your time bank · o sit out from the next hand · q leave the table"""


class Unknown(ValueError):
    """An answer that names no action."""


@dataclass(frozen=True, slots=True)
class PlayResult:
    """What a session ended with: the ``Stacks:`` of every player who sat down (by name,
    in seating order), the hands settled, why it stopped, and every event the table
    published (as an internal observer sees them: no hidden card), for checks."""

    stacks: tuple[tuple[str, int], ...]
    hands: int
    reason: str
    table_events: tuple[TableEvent, ...]
    seen: tuple[TableEvent, ...]
    """The events delivered to the terminal player (what the terminal was built from)."""


def options_text(legal: LegalActions, deadline: float, now: float, bank: float) -> str:
    """The prompt: the legal actions of the turn, the seconds left, the time bank."""
    opts = []
    if legal.show_or_muck:
        opts += ["s=show", "m=muck"]
    if legal.split_answer:
        opts += ["y=accept split", "n=decline split"]
    if legal.can_offer_split:
        opts.append("split=offer to split")
    if legal.can_fold:
        opts.append("f=fold")
    if legal.can_check:
        opts.append("k=check")
    if legal.can_call:
        opts.append(f"c=call {legal.call}")
    if legal.can_bring_in:
        opts.append(f"b=bring in {legal.bring_in}")
    if legal.can_raise:
        opts.append(f"r N=raise to N ({legal.min_raise}–{legal.max_raise}), a=all-in")
    if legal.can_draw:
        opts.append(f"d CARDS=discard up to {legal.max_discards} (d alone: stand pat)")
    opts.append("o=sit out next hand")
    if bank > 0:
        opts.append(f"t=time bank {bank:.0f}s")
    opts.append("q=leave")
    left = max(0.0, deadline - now)
    return f"Your action, {left:.0f}s [" + ", ".join(opts) + "]"


def parse_answer(text: str, legal: LegalActions, command_id: str) -> Command:
    """The table command for an answer at the prompt. Only the syntax is checked here:
    whether the action is legal is the table's to say (with its refusal code).

    >>> from croupier.engine.actions import LegalActions
    >>> legal = LegalActions(0, can_fold=True, can_raise=True, min_raise=4, max_raise=200)
    >>> parse_answer("r 10", legal, "c1")
    Act(command_id='c1', player_id='you', kind='raise', amount=10)
    >>> parse_answer("a", legal, "c2").amount
    200
    >>> parse_answer("d 2c 7d", legal, "c3")
    Draw(command_id='c3', player_id='you', discards='2c7d')
    >>> parse_answer("zz", legal, "c4")
    Traceback (most recent call last):
    ...
    croupier.cli.play.Unknown: unknown action 'zz' (? for help)
    """
    words = text.strip().lower().split()
    if not words:
        raise Unknown("type an action (? for help)")
    head, rest = words[0], words[1:]
    simple: dict[str, Command] = {
        "f": Act(command_id, ME, "fold"),
        "fold": Act(command_id, ME, "fold"),
        "k": Act(command_id, ME, "check"),
        "check": Act(command_id, ME, "check"),
        "c": Act(command_id, ME, "call"),
        "call": Act(command_id, ME, "call"),
        "b": Act(command_id, ME, "bring_in"),
        "s": ShowCards(command_id, ME, True),
        "show": ShowCards(command_id, ME, True),
        "m": ShowCards(command_id, ME, False),
        "muck": ShowCards(command_id, ME, False),
        "y": Act(command_id, ME, "accept_split"),
        "n": Act(command_id, ME, "decline_split"),
        "split": Act(command_id, ME, "offer_split"),
        "t": UseTimeBank(command_id, ME),
        "o": SitOut(command_id, ME),
        "q": Leave(command_id, ME),
        "a": Act(command_id, ME, "raise", legal.max_raise),
    }
    if head in simple and not rest:
        return simple[head]
    if head in ("r", "raise", "bet"):
        if len(rest) != 1 or not rest[0].isdigit():
            raise Unknown("raise to how much? e.g. r 12")
        return Act(command_id, ME, "raise", int(rest[0]))
    if head in ("d", "draw"):
        return Draw(command_id, ME, "".join(rest))
    if head.startswith("r") and head[1:].isdigit():  # "r12"
        return Act(command_id, ME, "raise", int(head[1:]))
    raise Unknown(f"unknown action {text.strip()!r} (? for help)")


class Session:
    """One terminal game: the table, its bots, the terminal player's scene."""

    def __init__(
        self,
        config: TableConfig,
        *,
        stack: int,
        shuffler: Shuffler,
        rng: random.Random,
        console: Console,
        ask: Ask | None,
        monotonic: Callable[[], float],
    ) -> None:
        self.config = config
        self.stack = stack
        self.console = console
        self.ask = ask
        self.monotonic = monotonic
        self.clock = FakeClock()
        self.actor = TableActor.open(
            config,
            clock=self.clock,
            journal=InMemoryJournal(),
            shuffler=shuffler,
            rng=rng,
            bank=PlayChips(),
        )
        self.scene = Scene(ME)
        self.seen: list[TableEvent] = []
        self.table_events: list[TableEvent] = []
        self.actor.subscribe(None, self.table_events.append, internal=True)
        self.bots: list[BotRunner] = []
        self._ids = itertools.count(1)
        self.left = False
        self._asked_away = -1

    def _cid(self) -> str:
        return f"you:{next(self._ids)}"

    def _on_event(self, event: TableEvent) -> None:
        self.seen.append(event)
        for line in self.scene.feed(event):
            self.console.print(line, markup=False, highlight=False)

    def _bot(self, player_id: str, name: str) -> BotRunner:
        """A room bot (the server's strategy, labelled BOT); busted, it leaves the table."""
        delay = self.config.bot_delay_seconds

        def observe(event: TableEvent) -> None:
            if player_id == ME:  # --auto: the terminal shows what the seat-1 bot sees
                self._on_event(event)
            d = event.data
            if isinstance(d, ReloadOffered) and d.player_id == player_id:
                leave = Leave(f"{player_id}:bust:{event.version}", player_id)
                self.clock.call_at(self.clock.now() + delay, lambda: self._submit(leave))

        return BotRunner(
            self.actor,
            player_id,
            RuleBot(),
            clock=self.clock,
            delay=delay,
            name=name,
            reload=False,
            observer=observe,
        )

    async def _submit(self, cmd: Command) -> CommandResult | None:
        if not self.actor.alive:
            return None
        try:
            return await self.actor.submit(cmd)
        except TableError:
            return None

    async def seat_everyone(self, seats: int, auto: bool) -> None:
        if auto:
            me = self._bot(ME, f"BOT {BOT_NAMES[0]}")
            self.bots.append(me)
            result = await me.join(self.stack, seat=0)
        else:
            self.actor.subscribe(ME, self._on_event)
            result = await self.actor.submit(SitDown(self._cid(), ME, "You", self.stack, 0))
        if not result.accepted:
            raise TableError(result.code, result.message)
        for i in range(1, seats):
            bot = self._bot(f"bot{i}", f"BOT {BOT_NAMES[i]}")
            self.bots.append(bot)
            result = await bot.join(self.stack, seat=i)
            if not result.accepted:
                raise TableError(result.code, result.message)

    def _away_prompt(self) -> bool:
        """Sitting out (not busted) between hands, not asked since the last hand."""
        s = self.scene
        return (
            s.sitting_out
            and not s.in_hand
            and s.reload is None
            and self._asked_away != s.settled
            and ME in s.seat_of
        )

    def _needs_me(self) -> bool:
        s = self.scene
        if self.ask is None:
            return False
        return s.my_turn is not None or s.reload is not None or self._away_prompt()

    async def run(self, hands: int) -> str:
        """Play until ``hands`` hands are settled; returns why the session stopped."""
        limit = self.clock.now() + SESSION_SECONDS
        while True:
            done = await self.clock.run_until(
                lambda: (
                    self.scene.settled >= hands
                    or self.left
                    or not self.actor.alive
                    or ME not in self.scene.seat_of
                    or self._needs_me()
                ),
                limit=limit,
            )
            s = self.scene
            if not self.actor.alive:
                return "the table stopped"
            if s.settled >= hands:
                return f"{hands} hand{'s' if hands != 1 else ''} played"
            if self.left or ME not in s.seat_of:
                return "you left the table"
            if not done:
                return "not enough players to deal"
            if s.reload is not None:
                await self._answer_reload(s.reload)
            elif s.my_turn is not None:
                await self._answer_turn()
            elif self._away_prompt():
                await self._answer_away()

    async def _read(self, prompt: str) -> str:
        """One answer; the table clock moves on by the seconds it took (R-TIME-1)."""
        assert self.ask is not None
        start = self.monotonic()
        text = self.ask(prompt)
        await self.clock.advance(max(0.0, self.monotonic() - start))
        return text

    def _refused(self, result: CommandResult) -> None:
        self.console.print(f"refused ({result.code}): {result.message}", style="red", markup=False)

    async def _answer_turn(self) -> None:
        """Ask until the table accepts an action for this turn (or the turn is gone)."""
        s = self.scene
        turn = s.my_turn
        assert turn is not None and turn.view is not None and turn.view.legal is not None
        legal = turn.view.legal
        version, deadline = s.turn_version, turn.deadline
        self.console.print(turn_table(s, turn))
        board = " ".join(str(c) for c in turn.view.board)
        self.console.print(f"Board: {board or '—'}", markup=False, highlight=False)
        while True:
            seat = self.actor.table.seats.get(s.seat_of.get(ME, -1))
            bank = seat.time_bank if seat is not None else 0.0
            text = await self._read(options_text(legal, deadline, self.clock.now(), bank))
            if s.turn_version != version or s.my_turn is None:
                self.console.print("Too late: the table did not wait.", markup=False)
                return
            if text.strip() == "?":
                self.console.print(HELP, markup=False, highlight=False)
                continue
            try:
                cmd = parse_answer(text, legal, self._cid())
            except Unknown as exc:
                self.console.print(str(exc), style="red", markup=False)
                continue
            result = await self.actor.submit(cmd)
            if not result.accepted:
                self._refused(result)
                continue
            if isinstance(cmd, Leave):
                self.left = result.data == "now"
                self.console.print("You leave at the end of this hand.", markup=False)
            elif isinstance(cmd, SitOut):
                self.console.print("You will sit out from the next hand.", markup=False)
            elif isinstance(cmd, UseTimeBank):
                deadline = float(result.data)
            if isinstance(cmd, Act | Draw | ShowCards) or s.turn_version != version:
                return

    async def _answer_away(self) -> None:
        """Between hands, sitting out: come back posting what is owed, or wait for the
        big blind (R-SEAT-3), stay out, or leave."""
        s = self.scene
        self._asked_away = s.settled
        while True:
            text = await self._read(
                "You are sitting out. [Enter: sit in (post what you owe),"
                " w: sit in and wait for the big blind, o: stay out this hand, q: leave]"
            )
            word = text.strip().lower()
            cmd: Command
            if word == "":
                cmd = SitIn(self._cid(), ME, True)
            elif word == "w":
                cmd = SitIn(self._cid(), ME, False)
            elif word == "o":
                return
            elif word == "q":
                cmd = Leave(self._cid(), ME)
            else:
                self.console.print("Enter, w, o or q.", style="red", markup=False)
                continue
            result = await self.actor.submit(cmd)
            if not result.accepted:
                self._refused(result)
                continue
            self.left = isinstance(cmd, Leave)
            return

    async def _answer_reload(self, offer: ReloadOffered) -> None:
        """Busted: the table's reload (R-SEAT-1), with its limits and refusal codes."""
        s = self.scene
        while True:
            text = await self._read(
                f"You are out of chips. Reload how much ({offer.min_amount}–{offer.max_amount})?"
                " [Enter or q: leave]"
            )
            word = text.strip().lower()
            if word in ("", "q"):
                s.reload = None
                await self.actor.submit(Leave(self._cid(), ME))
                self.left = True
                return
            if not word.isdigit():
                self.console.print("A number of chips, or Enter to leave.", style="red")
                continue
            result = await self.actor.submit(Reload(self._cid(), ME, int(word)))
            if not result.accepted:
                self._refused(result)
                continue
            s.reload = None
            return

    def result(self, reason: str) -> PlayResult:
        s = self.scene
        stacks = []
        for pid in s.order:
            seat = s.seat_of.get(pid)
            stacks.append((s.name(pid), s.stacks.get(seat, 0) if seat is not None else 0))
        return PlayResult(
            tuple(stacks), s.settled, reason, tuple(self.table_events), tuple(self.seen)
        )


def table_config(game: Game, seats: int, stack: int, *, testing: bool) -> TableConfig:
    """The terminal table: the game's house rules, buy-ins that take ``stack``."""
    bb = max(game.stakes.big_blind, game.min_bet)
    return TableConfig.default(
        game,
        seats=seats,
        buy_in_min=min(40 * bb, stack),
        buy_in_max=max(200 * bb, stack),
        table_id="terminal",
        testing=testing,
    )


def play_session(
    game: Game,
    seats: int,
    stack: int,
    hands: int,
    *,
    seed: int | None,
    console: Console,
    ask: Ask | None,
    monotonic: Callable[[], float] = time.monotonic,
) -> PlayResult:
    """Play ``hands`` hands at a live table (``ask``: the terminal player's answers;
    ``None``: a bot plays seat 1). Returns the final stacks and what happened."""
    config = table_config(game, seats, stack, testing=seed is not None)
    shuffler: Shuffler = SeededShuffler(seed) if seed is not None else SystemShuffler()
    rng = random.Random(seed) if seed is not None else random.SystemRandom()

    async def main() -> PlayResult:
        session = Session(
            config,
            stack=stack,
            shuffler=shuffler,
            rng=rng,
            console=console,
            ask=ask,
            monotonic=monotonic,
        )
        try:
            await session.seat_everyone(seats, ask is None)
            reason = await session.run(hands)
        finally:
            if session.actor.alive:
                await session.actor.stop()
        console.print(f"Session over: {reason}.", markup=False)
        return session.result(reason)

    return asyncio.run(main())


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
        """Play hands in the terminal against bots, at a table with the room's rules."""
        console = Console()
        try:
            sb, bb = (int(x) for x in blinds.split("/"))
            variant, _ = find_game(game)
            g = Game.of_stakes(game, sb, bb)
            config = table_config(g, seats, stack, testing=True)
        except (ValueError, EngineError, TableError) as exc:
            console.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(2) from None
        del config, variant
        ask = (
            None
            if auto
            else (lambda prompt: str(typer.prompt(prompt, default="", show_default=False)))
        )
        try:
            play_session(g, seats, stack, hands, seed=seed, console=console, ask=ask)
        except TableError as exc:
            console.print(f"[red]error ({exc.code}):[/red] {exc}")
            raise typer.Exit(2) from None
