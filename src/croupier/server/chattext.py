"""Chat text cleaning: what a player types is shown to everyone at the table, so nothing in
it may hide, reorder or forge other text.

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
from typing import Final

__all__ = ["DROPPED_CATEGORIES", "clean_chat"]

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
