"""``croupier.jsontext.loads_json`` reads every JSON text as ``json.loads`` does (the same
value, or the same error), orjson doing the work where it reads the same: the edge parses
every client message with it (R-BET-8: a malformed one is still ``bad_json``, a number
past 64 bits still an ``invalid`` amount, never another value), and the database engines
their JSON columns."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.jsontext import loads_json
from croupier.server.protocol import ProtocolError, parse_client

pytestmark = pytest.mark.rules("R-BET-8")

_scalars = (
    st.none()
    | st.booleans()
    | st.integers()  # unbounded: past 64 bits too
    | st.integers(min_value=-(2**64), max_value=2**64)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()  # lone surrogates included
)
_documents = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=20,
)


def _same(a: Any, b: Any) -> bool:
    """Equal, ``NaN`` equal to itself, and of the same types all the way down."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


@settings(max_examples=400, deadline=None)
@given(_documents, st.booleans())
def test_every_document_reads_as_the_standard_library_reads_it(doc: Any, ascii: bool) -> None:
    text = json.dumps(doc, ensure_ascii=ascii)
    assert _same(loads_json(text), json.loads(text)), text
    try:
        raw = text.encode()
    except UnicodeEncodeError:  # a lone surrogate, unescaped: no UTF-8 bytes for it
        return
    assert _same(loads_json(raw), json.loads(raw)), raw


@pytest.mark.parametrize(
    "text",
    ["{not json", "", "[1,", "[" * 100_000, '{"a": 1', b"\xff\xfe", '"\\ud800', "1 2"],
)
def test_what_the_standard_library_refuses_is_refused_the_same_way(text: str | bytes) -> None:
    try:
        json.loads(text)
    except (ValueError, RecursionError) as exc:
        with pytest.raises(type(exc)):
            loads_json(text)
    else:
        pytest.fail(f"json.loads read {text!r}")


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("{not json", "bad_json"),
        (
            '{"type": "act", "id": "a", "table_id": "t", "action": "raise", "amount": NaN}',
            "invalid",
        ),
        (
            '{"type": "act", "id": "a", "table_id": "t", "action": "raise", '
            '"amount": 99999999999999999999}',
            "invalid",
        ),
        (
            '{"type": "act", "id": "a", "table_id": "t", "action": "raise", "amount": 1e400}',
            "invalid",
        ),
    ],
)
def test_the_edge_refuses_as_before(raw: str, code: str) -> None:
    with pytest.raises(ProtocolError) as err:
        parse_client(raw)
    assert err.value.code == code
    ok = parse_client(
        '{"type": "act", "id": "a", "table_id": "t", "action": "raise", "amount": 12}'
    )
    assert ok.amount == 12
