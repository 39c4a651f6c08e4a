"""`croupier bonus` on a real terminal (R-BONUS-5): the Delete key by itself clears the
bet, with no Enter (a pseudo-terminal drives the installed command), and the key decoder
the command reads the terminal with."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from croupier.cli.keyboard import DELETE, KeyDecoder

ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def _lines(data: bytes) -> list[str | None]:
    d = KeyDecoder()
    return [d.feed(b) for b in data]


def test_decoder_turns_keys_into_lines_and_delete() -> None:
    """R-BONUS-5: Enter ends a line; the Delete key (``ESC [ 3 ~``) yields ``delete`` at
    once and drops what was typed; Backspace erases, and on an empty line it is the Mac
    keyboard's Delete; arrows are ignored."""
    assert [x for x in _lines(b"b25\r") if x is not None] == ["b25"]
    assert [x for x in _lines(b"12\x1b[3~") if x is not None] == [DELETE]
    assert [x for x in _lines(b"15\x7f\r") if x is not None] == ["1"]
    assert [x for x in _lines(b"\x7f") if x is not None] == [DELETE]
    assert [x for x in _lines(b"\x1b[A\x1b[B5\r") if x is not None] == ["5"]
    with pytest.raises(KeyboardInterrupt):
        _lines(b"\x03")


def _command() -> list[str]:
    script = Path(sys.executable).with_name("croupier")
    if script.exists():
        return [str(script), "bonus", "--seed", "3"]
    return [sys.executable, "-c", "from croupier.cli import main; main()", "bonus", "--seed", "3"]


class Terminal:
    """The command on a pseudo-terminal: ``type`` keys, ``wait_for`` output."""

    def __init__(self) -> None:
        import pty

        self.master, slave = pty.openpty()
        env = {**os.environ, "COLUMNS": "120", "TERM": "xterm"}
        self.proc = subprocess.Popen(
            _command(), stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True
        )
        os.close(slave)
        self.out = b""

    def type(self, keys: bytes) -> int:
        mark = len(self.out)
        os.write(self.master, keys)
        return mark

    def wait_for(self, text: str, since: int = 0, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            plain = ANSI.sub(b"", self.out[since:]).decode("utf-8", "replace")
            if text in plain:
                return plain
            left = deadline - time.monotonic()
            if left <= 0 or (
                self.proc.poll() is not None and not select.select([self.master], [], [], 0)[0]
            ):
                raise AssertionError(f"{text!r} not shown; got {plain!r}")
            ready, _, _ = select.select([self.master], [], [], min(left, 0.5))
            if ready:
                try:
                    self.out += os.read(self.master, 4096)
                except OSError:
                    continue

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        os.close(self.master)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_the_delete_key_itself_clears_the_bet_on_a_terminal() -> None:
    """R-BONUS-5: at a terminal, chips are typed then Enter; the Delete key alone (no
    Enter) clears the bet, as does Backspace on an empty line; q quits."""
    term = Terminal()
    try:
        # each step waits for the prompt: the keys are then read one by one (cbreak)
        term.wait_for("bonus 0\r\n> ", timeout=60)
        for keys, shown in [
            (b"25\r", "ante 25"),
            (b"\x1b[3~", "ante 0"),  # the Delete key, nothing else
            (b"5\r", "ante 5"),
            (b"\x7f", "ante 0"),  # a Mac keyboard's Delete (Backspace) on an empty line
        ]:
            mark = term.type(keys)
            term.wait_for(f"{shown}   bonus 0\r\n> ", mark)
        mark = term.type(b"q\r")
        term.wait_for("final balance 1000", mark)
        assert term.proc.wait(20) == 0
    finally:
        term.close()
