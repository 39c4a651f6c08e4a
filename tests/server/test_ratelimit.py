"""The flood indicator of a connection's token bucket (server/ratelimit.py): a client that
keeps sending into an empty bucket is a flood however slowly the server reads it, and a
client that calms down is forgiven."""

from __future__ import annotations

from croupier.server.ratelimit import Bucket
from croupier.server.ws import FLOOD_REFUSALS


def _flood(per_message: float, messages: int, rate: float = 200.0, burst: int = 60) -> int:
    """The most refusals counted while a server reads a flood one message every
    ``per_message`` seconds."""
    bucket = Bucket.full(rate=rate, burst=burst, now=0.0)
    most = 0
    for n in range(messages):
        bucket, _ = bucket.take(n * per_message)
        most = max(most, bucket.refused)
    return most


def test_a_flood_is_one_however_slowly_the_server_reads_it() -> None:
    """R-FAIR-1 (abuse): a flood read by a fast server (0.1 ms a message) or by a busy one
    (1 ms: a token comes back every 5 messages) reaches the closing count; before, each
    token that came back forgave the flood, and a server slower than 10,000 messages a
    second never closed it (the edge test's flake)."""
    assert _flood(0.0001, 400) >= FLOOD_REFUSALS
    assert _flood(0.001, 400) >= FLOOD_REFUSALS
    assert _flood(0.004, 2000) >= FLOOD_REFUSALS  # 250 a second against 200


def test_a_client_within_its_rate_is_never_counted() -> None:
    """R-FAIR-1: a client sending at its rate (a burst first) is never refused."""
    assert _flood(0.005, 2000) == 0
    assert _flood(0.0, 60) == 0


def test_a_client_that_calms_down_is_forgiven() -> None:
    """R-FAIR-1: refusals are forgiven once the client let its bucket refill to half; a
    one-token bucket forgives at every accepted message."""
    bucket = Bucket.full(rate=10.0, burst=20, now=0.0)
    for _ in range(30):  # 20 accepted, 10 refused
        bucket, _ = bucket.take(0.0)
    assert bucket.refused == 10
    bucket, ok = bucket.take(0.5)  # 5 tokens back: accepted, not yet calm
    assert ok and bucket.refused == 10
    bucket, ok = bucket.take(1.5)  # 14 back: calm again
    assert ok and bucket.refused == 0
    one = Bucket.full(rate=1.0, burst=1, now=0.0)
    one, _ = one.take(0.0)
    one, ok = one.take(0.0)
    assert not ok and one.refused == 1
    one, ok = one.take(1.0)
    assert ok and one.refused == 0
