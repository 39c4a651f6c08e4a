"""JSON text read fast and exactly as the standard library reads it.

orjson parses several times faster than :mod:`json`, and reads every document the same
way, but for a few it refuses (``NaN``, ``Infinity``, a number past a double's range, a
lone surrogate, bytes not in UTF-8) or reads otherwise: an integer past 64 bits becomes a
float. :func:`loads_json` gives those to the standard library, so what it returns, and
the errors it raises, are :func:`json.loads`'s. Both database engines read their JSON
columns with it (a lease round reads a thousand lobby rows, ``bench/bench_leases.py``),
and the edge reads every client message with it.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

__all__ = ["loads_json"]

_DIGITS = bytes(48 if chr(c).isdigit() and c < 128 else 32 for c in range(256))
"""Each ASCII digit to ``0``, every other byte to a space: 19 ``0`` in a row in a document
so translated is maybe an integer past 64 bits, which orjson would read as a float (a
``bytes.translate`` and a search: a fraction of a parse, where a regular expression
cost more than the parse)."""
_LONG_NUMBER = b"0" * 19


def loads_json(text: str | bytes) -> Any:
    """``text`` parsed as :func:`json.loads` would: by orjson, unless it refuses the
    document or might read it otherwise (19 digits in a row: maybe an integer past 64
    bits), then by the standard library (whose errors are raised).

    >>> loads_json('{"a": [1, 2.5, null, "é"]}')
    {'a': [1, 2.5, None, 'é']}
    >>> loads_json('[NaN, 1180591620717411303425, "\\\\ud800"]')
    [nan, 1180591620717411303425, '\ud800']
    """
    raw = text.encode(errors="surrogatepass") if isinstance(text, str) else text
    if _LONG_NUMBER not in raw.translate(_DIGITS):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)
