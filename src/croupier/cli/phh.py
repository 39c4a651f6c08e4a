"""`croupier phh`: verify and show PHH hand histories.

``croupier phh verify PATH...`` replays every hand of the `.phh`/`.phhs` files given (or
found under the folders given, recursively) and compares the engine's results with the
recorded ones; one line per mismatch, then a summary line; exit status 1 if any hand
mismatched. ``croupier phh show PATH`` prints the hands in canonical PHH with the
engine's final stacks; ``croupier phh export OUT`` plays seeded bot hands and writes them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from croupier.bots import RuleBot
from croupier.engine import actions as A
from croupier.engine.errors import EngineError
from croupier.engine.game import Game
from croupier.engine.rng import SeededShuffler
from croupier.engine.state import HandState, apply, start_hand
from croupier.engine.views import view
from croupier.history.export import phh_code, to_phh
from croupier.history.phh import (
    HandHistory,
    PhhError,
    dump_phh,
    dump_phhs,
    format_amounts,
    read_path,
)
from croupier.history.replay import Status, Verdict, replay, verify

__all__ = ["collect_files", "register", "summary_line", "verify_paths"]

_SUFFIXES = (".phh", ".phhs")


def room_bot_action(state: HandState) -> A.Action:
    """What the room's bot (:class:`~croupier.bots.RuleBot`, the strategy the server's
    tables seat) does for the player to act, from that player's own view only."""
    pos = state.actor
    decision = RuleBot().decide(view(state, pos), pos, state.game)
    if decision.kind == "draw":
        return A.draw(pos, decision.discards)
    if decision.kind in ("show", "muck"):
        return A.show(pos) if decision.kind == "show" else A.muck(pos)
    return A.betting(decision.kind, pos, decision.amount)


def collect_files(paths: Iterable[Path]) -> list[Path]:
    """The `.phh`/`.phhs` files among ``paths`` and under the folders among them, sorted
    per argument. A missing path raises :class:`FileNotFoundError`."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out.extend(sorted(p for p in path.rglob("*") if p.suffix in _SUFFIXES and p.is_file()))
        elif path.is_file():
            out.append(path)
        else:
            raise FileNotFoundError(f"no such file or folder: {path}")
    return out


def _hands(files: Iterable[Path]) -> Iterator[tuple[str, HandHistory | PhhError]]:
    for f in files:
        yield from read_path(f)


def summary_line(counts: Counter[Status], unsupported: Counter[str]) -> str:
    """``N hands: X exact, Y mismatched, Z unsupported (F7S: 6, FR: 5)``.

    >>> c = Counter({Status.EXACT: 3, Status.UNSUPPORTED: 3})
    >>> summary_line(c, Counter({"FR": 1, "F7S": 2}))
    '6 hands: 3 exact, 0 mismatched, 3 unsupported (F7S: 2, FR: 1)'
    """
    total = sum(counts.values())
    line = (
        f"{total} hands: {counts[Status.EXACT]} exact, {counts[Status.MISMATCH]} mismatched,"
        f" {counts[Status.UNSUPPORTED]} unsupported"
    )
    if unsupported:
        names = sorted(unsupported.items(), key=lambda kv: (-kv[1], kv[0]))
        line += " (" + ", ".join(f"{k}: {v}" for k, v in names) + ")"
    return line


def verify_paths(
    files: list[Path], console: Console, err: Console, *, verbose: bool = False
) -> tuple[Counter[Status], Counter[str]]:
    """Verify every hand of ``files``, printing one line per mismatch (every hand with
    ``verbose``); returns the counts by status and by unsupported variant."""
    counts: Counter[Status] = Counter()
    unsupported: Counter[str] = Counter()
    with Progress(
        TextColumn("verifying"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as progress:
        task = progress.add_task("", total=len(files))
        current: str | None = None
        for label, hh in _hands(files):
            file = label.split("#", 1)[0]
            if file != current:
                if current is not None:
                    progress.advance(task)
                current = file
                progress.update(task, description=Path(file).name)
            if isinstance(hh, PhhError):
                counts[Status.MISMATCH] += 1
                console.print(f"{label}: unreadable [{hh.code}]: {hh.message}", markup=False)
                continue
            verdict: Verdict = verify(hh)
            counts[verdict.status] += 1
            if verdict.status is Status.UNSUPPORTED:
                unsupported[verdict.variant] += 1
                if verbose:
                    console.print(f"{label}: {verdict.message}", markup=False)
            elif verdict.status is Status.MISMATCH:
                console.print(f"{label}: {verdict.message}", markup=False)
            elif verbose:
                note = " (within the recorded half chip)" if verdict.half_chip else ""
                console.print(f"{label}: exact, compared {verdict.compared}{note}", markup=False)
        if current is not None:
            progress.advance(task)
    return counts, unsupported


def register(app: typer.Typer) -> None:
    """Add the ``phh`` sub-app (``verify``, ``show``, ``export``) to ``app``."""
    phh_app = typer.Typer(
        name="phh", help="PHH hand histories: verify, show, export.", no_args_is_help=True
    )

    @phh_app.command("verify")
    def verify_cmd(
        paths: Annotated[list[Path], typer.Argument(help="PHH files (.phh, .phhs) or folders.")],
        verbose: Annotated[
            bool, typer.Option("--verbose", "-v", help="A line for every hand.")
        ] = False,
    ) -> None:
        """Replay every hand and compare the engine's results with the recorded ones."""
        console = Console(highlight=False, soft_wrap=True)
        err = Console(stderr=True)
        try:
            files = collect_files(paths)
        except FileNotFoundError as exc:
            err.print(f"error: {exc}", markup=False)
            raise typer.Exit(2) from None
        counts, unsupported = verify_paths(files, console, err, verbose=verbose)
        console.print(summary_line(counts, unsupported), markup=False)
        if counts[Status.MISMATCH]:
            raise typer.Exit(1)

    @phh_app.command("show")
    def show_cmd(
        path: Annotated[Path, typer.Argument(help="A PHH file (.phh or .phhs).")],
    ) -> None:
        """Print each hand in canonical PHH with the engine's final stacks."""
        console = Console(highlight=False, soft_wrap=True)
        if not path.is_file():
            Console(stderr=True).print(f"error: no such file: {path}", markup=False)
            raise typer.Exit(2)
        failed = False
        for label, hh in read_path(path):
            console.print(f"# {label}", markup=False)
            if isinstance(hh, PhhError):
                console.print(f"# unreadable [{hh.code}]: {hh.message}", markup=False)
                failed = True
                continue
            console.print(dump_phh(hh), end="", markup=False)
            try:
                r = replay(hh)
            except ValueError as exc:
                console.print(f"# not replayed: {exc}", markup=False)
                continue
            if r.error is not None:
                console.print(f"# replay stopped: {r.error}", markup=False)
            elif r.state is not None:
                stacks = [s * r.factor for s in r.state.stacks]
                console.print(f"# engine stacks = {format_amounts(stacks, hh.scale)}", markup=False)
            console.print()
        if failed:
            raise typer.Exit(1)

    @phh_app.command("export")
    def export_cmd(
        out: Annotated[Path, typer.Argument(help="File to write (.phhs, or .phh for one hand).")],
        game: Annotated[str, typer.Option(help="Game preset: nlhe, flhe, plo, flo8.")] = "nlhe",
        hands: Annotated[int, typer.Option(min=1, help="Hands to play.")] = 10,
        players: Annotated[int, typer.Option(min=2, max=9, help="Players per hand.")] = 6,
        stack: Annotated[int, typer.Option(min=1, help="Starting stack of each player.")] = 200,
        blinds: Annotated[str, typer.Option(help="Small/big blind.")] = "1/2",
        seed: Annotated[int, typer.Option(help="Seed of the (test-only) shuffle and bots.")] = 1,
    ) -> None:
        """Play seeded bot hands and write them as PHH (a demo of the export)."""
        err = Console(stderr=True)
        try:
            sb, bb = (int(x) for x in blinds.split("/"))
            g = Game.of(game, blinds=(sb, bb))
            phh_code(g)
        except (ValueError, EngineError) as exc:
            err.print(f"error: {exc}", markup=False)
            raise typer.Exit(2) from None
        if out.suffix == ".phh" and hands != 1:
            err.print("error: a .phh file holds one hand; use .phhs", markup=False)
            raise typer.Exit(2)
        shuffler = SeededShuffler(seed)
        records = []
        for _ in range(hands):
            state, events = start_hand(g, [stack] * players, shuffler.shuffle(g.variant.deck))
            while not state.is_over:
                state, more = apply(state, room_bot_action(state))
                events.extend(more)
            records.append(to_phh(g, events, state=state))
        text = dump_phh(records[0]) if out.suffix == ".phh" else dump_phhs(records)
        out.write_text(text, encoding="utf-8")
        Console(highlight=False).print(f"{len(records)} hands written to {out}", markup=False)

    app.add_typer(phh_app)
