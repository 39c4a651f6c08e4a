"""A journal written by the previous release still restores its tables (issue #11: one
versioned codec, stable names, never Python class names). R-CRASH-1.

The fixture ``fixtures/journal-release-c7c5a22.json`` holds the ``table_journal`` rows that
release c7c5a22 wrote while bots played a NLHE table and a Naiko PLO table on the SQL
journal, and what that release recovered from them (``scripts/journal_fixture.py``)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.engine import events as E
from croupier.engine.cards import parse_cards
from croupier.store import Store
from croupier.store.journal import decode_record, encode_record
from croupier.store.schema import table_journal
from croupier.table import codec, plan_recovery
from croupier.table import journal as records
from croupier.table.journal import HandStartRecord, SeatsRecord

FIXTURE = Path(__file__).parent / "fixtures" / "journal-release-c7c5a22.json"


def _fixture() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def test_the_previous_release_journal_restores_its_tables(store: Store) -> None:
    data = _fixture()
    assert data["written_by"].startswith("c7c5a22")
    rows = data["rows"]
    assert {r["type"] for r in rows} >= {"SeatsRecord", "HandStartRecord", "HandEndRecord"}
    assert all("__v__" not in r["body"] for r in rows)  # version 0: before versions existed
    store.db.run(
        lambda c: c.execute(
            sa.insert(table_journal),
            [{**r, "at_ms": 1_700_000_000_000 + i} for i, r in enumerate(rows)],
        )
    )
    for table_id, expected in data["recovery"].items():
        plan = plan_recovery(store.journal.records(table_id))
        assert [[s.seat, s.player_id, s.stack] for s in plan.seats] == expected["seats"]
        assert plan.next_hand == expected["next_hand"]
        assert plan.button == expected["button"]
        assert (plan.void is not None) == expected["void"]
    # every old record re-encodes to the same name and decodes to the same value
    for r in rows:
        record = decode_record(r["type"], r["body"])
        name, body = encode_record(record)
        assert name == r["type"] and body["__v__"] == codec.SCHEMA_VERSION
        assert decode_record(name, body) == record


def test_names_do_not_follow_class_names() -> None:
    """Renaming a class changes nothing stored: the name comes from the registry."""
    record = HandStartRecord(1, (), (0, 1), ("a", "b"), (10, 10), 0, "c", (), b"\x01")
    before = encode_record(record)
    name, qualname = HandStartRecord.__name__, HandStartRecord.__qualname__
    HandStartRecord.__name__ = HandStartRecord.__qualname__ = "HandBeganRecord"
    try:
        assert encode_record(record) == before
        assert decode_record(*before) == record
    finally:
        HandStartRecord.__name__, HandStartRecord.__qualname__ = name, qualname


def test_every_journal_record_has_a_stable_name() -> None:
    kinds = {
        v
        for v in vars(records).values()
        if isinstance(v, type) and dataclasses.is_dataclass(v) and v.__module__ == records.__name__
    } - {records.Recovery}
    assert kinds <= set(codec.RECORDS.values()), kinds - set(codec.RECORDS.values())
    assert len(set(codec.RECORDS.values())) == len(codec.RECORDS)


def test_unknown_kinds_and_versions_are_refused_clearly() -> None:
    from croupier.store import StoreError

    with pytest.raises(StoreError, match="unknown journal record type"):
        decode_record("NoSuchRecord", {"hand_no": 1})
    with pytest.raises(StoreError, match="schema version"):
        decode_record("HandVoidRecord", {"__v__": 99, "hand_no": 1, "seats": [], "reason": "x"})
    with pytest.raises(StoreError, match="does not fit"):
        decode_record("HandVoidRecord", {"seats": []})
    with pytest.raises(StoreError):
        encode_record(SeatsRecord((), "sit").seats)  # type: ignore[arg-type]


def test_every_event_kind_round_trips_through_its_dict() -> None:
    """Engine and Naiko events: ``to_dict()`` and back give the same event (archive, wire)."""
    cards = parse_cards("AsKd")
    samples = [
        E.HoleDealt(1, cards, (False, True)),
        E.Acted(0, E.ActionKind.RAISE, 12, 10, False),
        E.BoardDealt(1, parse_cards("2c3d4h")),
        E.CardBurnt(None),
    ]
    for event in samples:
        assert codec.event_from_dict(event.to_dict()) == event
    assert set(codec.EVENTS) >= {"hole_dealt", "acted", "hand_ended", "pot_awarded"}
    with pytest.raises(codec.CodecError):
        codec.event_from_dict({"type": "no_such_event"})
