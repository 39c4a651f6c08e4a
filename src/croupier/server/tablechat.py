"""A chat line said at a table, checked against the table's house rules (table/chat.py)
and made into the ``chat`` message its watchers receive: the same on the process serving
the table and for a line sent from another process of the room (server/bus.py)."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from croupier.server.arcade import known_look
from croupier.table.chat import chat_line
from croupier.table.results import TableError

if TYPE_CHECKING:
    from croupier.server.app import Services

__all__ = ["chat_message"]


def chat_message(
    sv: Services,
    table_id: str,
    *,
    name: str,
    account_id: int,
    text: str | None,
    canned: str | None,
    emote: str | None,
) -> dict[str, Any] | TableError:
    """The ``chat`` message of ``name`` at ``table_id`` (served here), or why it is refused
    (the table's rules: free text, canned phrases, emotes; the length cap)."""
    live = sv.registry.tables.get(table_id)
    if live is None:
        return TableError("not_subscribed", "watch the table to chat")
    line = chat_line(
        live.actor.table.config.rules,
        text=text,
        canned=canned,
        emote=emote,
        max_length=sv.settings.chat_max_length,
    )
    if isinstance(line, TableError):
        return line
    body: dict[str, Any] = {k: v for k, v in asdict(line).items() if v is not None}
    if line.emote is not None:
        look = known_look(sv, str(account_id)) or {}
        body["emote_set"] = look.get("emotes", "basic")
    return {"type": "chat", "table_id": table_id, "from": name, **body}
