"""Structured logging: one logger per package, written as text or as JSON lines.

Each package logs under its own name (``croupier.table``, ``croupier.store``,
``croupier.server``, ``croupier.lobby``, ``croupier.tournament``) with the standard
:mod:`logging` API; what a line is about goes in ``extra`` as plain fields (``event`` names
the kind of line, e.g. ``table_crashed``, ``store_retry``, ``command_refused``,
``connection_opened``). :func:`configure` sends every ``croupier.*`` line to one stream, as
readable text or as one JSON object per line (``CROUPIER_LOG_FORMAT=json``) that a log
collector can index by field. The engine never logs: it has no I/O.

>>> import io, json, logging
>>> out = io.StringIO()
>>> configure(level="INFO", fmt="json", stream=out)
>>> logging.getLogger("croupier.table").info(
...     "table %s refused %s", "t1", "not_your_turn",
...     extra={"event": "command_refused", "table": "t1", "code": "not_your_turn"})
>>> line = json.loads(out.getvalue())
>>> line["logger"], line["event"], line["table"], line["message"]
('croupier.table', 'command_refused', 't1', 'table t1 refused not_your_turn')
>>> reset()
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, Final, TextIO

__all__ = ["FORMATS", "JsonLinesFormatter", "configure", "reset"]

FORMATS: Final = ("text", "json")
ROOT: Final = "croupier"

#: Attributes every LogRecord has; anything else on a record came from ``extra``.
_STANDARD: Final = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {
    "message",
    "asctime",
    "taskName",
}

_TEXT: Final = "%(asctime)s %(levelname)s %(name)s: %(message)s%(fields)s"


class JsonLinesFormatter(logging.Formatter):
    """One JSON object per record: ``ts`` (UTC, ISO 8601), ``level``, ``logger``,
    ``message``, every ``extra`` field, and ``exception`` (the traceback) if any."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        out.update(_fields(record))
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str, ensure_ascii=False)


class _TextFormatter(logging.Formatter):
    """The readable form: the message, then the ``extra`` fields as ``key=value``."""

    def format(self, record: logging.LogRecord) -> str:
        extra = _fields(record)
        record.fields = (" " + " ".join(f"{k}={v}" for k, v in extra.items())) if extra else ""
        return super().format(record)


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in record.__dict__.items() if k not in _STANDARD and k != "fields"}


_handler: logging.Handler | None = None


def configure(level: str = "INFO", fmt: str = "text", stream: TextIO | None = None) -> None:
    """Send every ``croupier.*`` line at ``level`` or above to ``stream`` (stderr), as
    ``text`` or ``json`` lines. Calling it again replaces the previous configuration."""
    if fmt not in FORMATS:
        raise ValueError(f"log format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    numeric = logging.getLevelName(level.upper())
    if not isinstance(numeric, int):
        raise ValueError(f"unknown log level {level!r}")
    reset()
    global _handler
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonLinesFormatter() if fmt == "json" else _TextFormatter(_TEXT))
    root = logging.getLogger(ROOT)
    root.addHandler(handler)
    root.setLevel(numeric)
    root.propagate = False
    _handler = handler


def reset() -> None:
    """Undo :func:`configure`: ``croupier.*`` lines propagate to the root logger again."""
    global _handler
    root = logging.getLogger(ROOT)
    if _handler is not None:
        root.removeHandler(_handler)
        _handler = None
    root.setLevel(logging.NOTSET)
    root.propagate = True
