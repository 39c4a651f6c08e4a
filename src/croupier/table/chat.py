"""Table chat: the house rules of what may be said at a table, and the cleaning of text.

A line is one of free ``text`` (where the house rules allow free chat), a ``canned``
message or an ``emote``; :func:`chat_line` turns a request into the line to show, or
refuses with one :class:`~croupier.table.results.TableError` code: ``bad_chat`` (not
exactly one of the three), ``canned_only`` (free text where the table allows only canned
messages and emotes), ``empty_message``, ``bad_length``, ``unknown_canned``,
``unknown_emote``.

>>> from croupier.engine.rules import profile
>>> chat_line(profile("room"), text=" gg\u200b wp ")
ChatLine(text='gg wp', canned=None, emote=None)
>>> chat_line(profile("arcade"), text="hi").code, chat_line(profile("arcade"), canned="gg")
('canned_only', ChatLine(text=None, canned='gg', emote=None))

What a player types is shown to everyone at the table, so nothing in it may hide, reorder
or forge other text.

Dropped: control characters (``Cc``, newlines and tabs included: a chat line is one
line), format characters (``Cf``: bidi embeddings/overrides/isolates U+202A..U+202E and
U+2066..U+2069, the marks U+200E/U+200F/U+061C, zero-width space/joiners U+200B..U+200D,
word joiner U+2060, BOM U+FEFF, invisible operators, tag characters …), surrogates,
private-use and unassigned code points. The rest is NFC-normalised and runs of white
space become one space. A message empty after cleaning is refused (``empty_message``).

>>> clean_chat("gg\\u202ewp\\u200b  all\\n")
'ggwp all'
>>> clean_chat("\\u200b\\u2066\\x07")
''
>>> clean_chat("Café ♠ 🂡")
'Café ♠ 🂡'
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Final

from croupier.engine.rules import HouseRules
from croupier.table.results import TableError

__all__ = [
    "CANNED",
    "DROPPED_CATEGORIES",
    "EMOTES",
    "MAX_LENGTH",
    "ChatLine",
    "chat_line",
    "clean_chat",
]

CANNED: Final = ("gl", "gg", "nh", "ty", "wp", "hurry", "oops")
"""The canned messages (the client shows them in the player's language)."""
EMOTES: Final = ("smile", "laugh", "cry", "angry", "thumbs_up", "clap", "think")
MAX_LENGTH: Final = 200
"""The default longest chat line, in characters after cleaning."""

DROPPED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


def clean_chat(text: str) -> str:
    """``text`` without invisible or layout-changing characters (see the module doc)."""
    text = unicodedata.normalize("NFC", text)
    kept = "".join(
        " " if ch in "\t\n\r\x0b\x0c" else ch
        for ch in text
        if ch in "\t\n\r\x0b\x0c" or unicodedata.category(ch) not in DROPPED_CATEGORIES
    )
    return " ".join(kept.split())


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line of chat, as the table shows it: exactly one of the three is set."""

    text: str | None = None
    canned: str | None = None
    emote: str | None = None


def chat_line(
    rules: HouseRules,
    *,
    text: str | None = None,
    canned: str | None = None,
    emote: str | None = None,
    max_length: int = MAX_LENGTH,
) -> ChatLine | TableError:
    """The line a player's request makes at a table with ``rules``, or the refusal (returned,
    not raised: a refusal is an ordinary answer)."""
    if sum(x is not None for x in (text, canned, emote)) != 1:
        return TableError("bad_chat", "send one of text, canned, emote")
    if text is not None:
        if not rules.free_chat:
            return TableError("canned_only", "this table allows only canned messages and emotes")
        cleaned = clean_chat(text)
        if not cleaned:
            return TableError(
                "empty_message",
                "nothing left to send once invisible and control characters are removed",
            )
        if len(cleaned) > max_length:
            return TableError("bad_length", f"1 to {max_length} characters")
        return ChatLine(text=cleaned)
    if canned is not None:
        if canned not in CANNED:
            return TableError("unknown_canned", "not a canned message")
        return ChatLine(canned=canned)
    if emote not in EMOTES:
        return TableError("unknown_emote", "not an emote")
    return ChatLine(emote=emote)
