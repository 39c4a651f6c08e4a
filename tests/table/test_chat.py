"""Table chat rules (table/chat.py): one refusal code each, decided by the table's house
rules, not by the server's edge (issue #11). R-SEAT-2: the arcade allows only canned
messages and emotes."""

from __future__ import annotations

import pytest

from croupier.engine.rules import profile
from croupier.table.chat import CANNED, EMOTES, ChatLine, chat_line
from croupier.table.results import TableError

ROOM, ARCADE = profile("room"), profile("arcade")


@pytest.mark.parametrize(
    ("rules", "kwargs", "code"),
    [
        (ROOM, {}, "bad_chat"),
        (ROOM, {"text": "hi", "canned": "gg"}, "bad_chat"),
        (ARCADE, {"text": "hi"}, "canned_only"),
        (ROOM, {"text": "\u200b\u202e\x07"}, "empty_message"),
        (ROOM, {"text": "x" * 201}, "bad_length"),
        (ROOM, {"canned": "buy me a drink"}, "unknown_canned"),
        (ROOM, {"emote": "rage"}, "unknown_emote"),
    ],
)
def test_refusals(rules: object, kwargs: dict[str, str], code: str) -> None:
    refused = chat_line(rules, **kwargs)  # type: ignore[arg-type]
    assert isinstance(refused, TableError) and refused.code == code


def test_lines() -> None:
    assert chat_line(ROOM, text="  nice\u200d  hand ") == ChatLine(text="nice hand")
    assert chat_line(ROOM, text="x" * 20, max_length=20) == ChatLine(text="x" * 20)
    for canned in CANNED:
        assert chat_line(ARCADE, canned=canned) == ChatLine(canned=canned)
    for emote in EMOTES:
        assert chat_line(ARCADE, emote=emote) == ChatLine(emote=emote)
