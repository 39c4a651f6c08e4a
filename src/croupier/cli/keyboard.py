"""Terminal keyboard for `croupier bonus` (R-BONUS-5): lines typed then Enter, and the
Delete key on its own.

``input()`` only returns a line after Enter, and a terminal's Delete key arrives as an
escape sequence (``ESC [ 3 ~``) that line editing swallows or leaves in the text. On a
terminal, :func:`tty_lines` therefore reads the keys one by one (cbreak mode, echoing
what is typed): Enter ends a line, and the Delete key yields ``"delete"`` at once, with
no Enter, so the bet is cleared by the key itself. :class:`KeyDecoder` is the pure part
(bytes in, lines out) so it is tested without a terminal.

>>> d = KeyDecoder()
>>> [d.feed(b) for b in b"25\\r"]
[None, None, '25']
>>> [d.feed(b) for b in b"\\x1b[3~"]
[None, None, None, 'delete']
>>> [d.feed(b) for b in b"5\\x7f\\x7f"]  # Backspace erases, then on an empty line clears
[None, None, 'delete']
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

__all__ = ["DELETE", "KeyDecoder", "tty_lines"]

DELETE = "delete"
"""What the Delete key yields (``croupier.casino.keys`` maps it to ``clear``)."""

_ESC, _BACKSPACES, _ENTER = 0x1B, (0x7F, 0x08), (0x0D, 0x0A)
_CTRL_C, _CTRL_D = 0x03, 0x04


class EndOfInput(Exception):
    """Ctrl-D on an empty line."""


class KeyDecoder:
    """Bytes from a terminal in cbreak mode to lines; ``echo`` receives what to print.

    ``feed`` returns a finished line (without its Enter), ``"delete"`` for the Delete key
    (``ESC [ 3 ~``, or Backspace/⌫ on an empty line, the Mac keyboard's Delete), or None.
    Other escape sequences (arrows …) are ignored.
    """

    def __init__(self, echo: Callable[[str], None] | None = None) -> None:
        self.echo = echo or (lambda _text: None)
        self.buffer = ""
        self._escape: bytearray | None = None

    def feed(self, byte: int) -> str | None:
        if self._escape is not None:
            return self._escape_byte(byte)
        if byte == _ESC:
            self._escape = bytearray()
            return None
        if byte in _ENTER:
            line, self.buffer = self.buffer, ""
            self.echo("\n")
            return line
        if byte in _BACKSPACES:
            if self.buffer:
                self.buffer = self.buffer[:-1]
                self.echo("\b \b")
                return None
            return self._delete()
        if byte == _CTRL_C:
            raise KeyboardInterrupt
        if byte == _CTRL_D and not self.buffer:
            raise EndOfInput
        if 0x20 <= byte < 0x7F:
            self.buffer += chr(byte)
            self.echo(chr(byte))
        return None

    def _escape_byte(self, byte: int) -> str | None:
        assert self._escape is not None
        self._escape.append(byte)
        seq = bytes(self._escape)
        if seq == b"[" or (seq[:1] == b"[" and not 0x40 <= byte <= 0x7E):
            return None  # a CSI sequence goes on until its final byte
        self._escape = None
        if seq == b"[3~":
            return self._delete()
        return None

    def _delete(self) -> str:
        if self.buffer:
            self.echo("\b \b" * len(self.buffer))
        self.buffer = ""
        self.echo("⌦\n")
        return DELETE


def tty_lines(fd: int, write: Callable[[str], None], prompt: str = "> ") -> Iterator[str]:
    """Lines from the terminal ``fd`` in cbreak mode (restored on exit); see the module."""
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    decoder = KeyDecoder(write)
    try:
        tty.setcbreak(fd)
        # cbreak mode keeps the terminal's echo on some platforms: turn it off, we echo
        mode = termios.tcgetattr(fd)
        mode[3] &= ~termios.ECHO
        termios.tcsetattr(fd, termios.TCSADRAIN, mode)
        write(prompt)
        while True:
            data = os.read(fd, 1)
            if not data:
                return
            try:
                line = decoder.feed(data[0])
            except EndOfInput:
                return
            if line is not None:
                yield line
                write(prompt)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
