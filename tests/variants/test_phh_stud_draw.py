"""PHH replay of stud and draw hands (WSOP 2023 Event #43 hands, public PHH dataset, MIT).

The texts below are two hands of the public corpus, trimmed of their metadata; the whole
corpus is replayed by ``tests/history/test_corpus.py`` when ``../shared`` is present.
"""

from __future__ import annotations

from croupier.history.phh import load_phh
from croupier.history.replay import Status, replay, verify

TRIPLE_DRAW = """
variant = 'F2L3D'
antes = [0, 0, 0, 0, 0]
blinds_or_straddles = [125000, 250000, 0, 0, 0]
small_bet = 250000
big_bet = 500000
starting_stacks = [4750000, 5250000, 14550000, 2575000, 2575000]
actions = ['d dh p1 ??????????', 'd dh p2 Kh7c6d2c??', 'd dh p3 AsAd6h3h2h',
  'd dh p4 AcJcThTc3c', 'd dh p5 QdJd5h5d4c', 'p3 cbr 500000', 'p4 f', 'p5 f', 'p1 f',
  'p2 cc', 'p2 sd Kh??', 'p3 sd AsAd', 'd dh p2 5s3d', 'd dh p3 7d2s', 'p2 cbr 250000',
  'p3 cbr 500000', 'p2 cbr 750000', 'p3 cc', 'p2 sd', 'p3 sd 2h', 'd dh p3 4d',
  'p2 cbr 500000', 'p3 cbr 1000000', 'p2 cc', 'p2 sd', 'p3 sd', 'p2 cc', 'p3 cbr 500000',
  'p2 cc', 'p3 sm 6h3h7d2s4d', 'p2 sm']
finishing_stacks = [4625000, 2500000, 17425000, 2575000, 2575000]
"""

STUD_HI_LO = """
variant = 'F7S/8'
antes = [50000, 50000, 50000, 50000, 50000]
bring_in = 75000
small_bet = 250000
big_bet = 500000
starting_stacks = [4475000, 1600000, 14650000, 5675000, 3300000]
actions = ['d dh p1 KdQdQs', 'd dh p2 Qh4d6s', 'd dh p3 Jd7d9h', 'd dh p4 7h4h4c',
  'd dh p5 ??????', 'p4 pb', 'p5 f', 'p1 cbr 250000', 'p2 f', 'p3 f', 'p4 cc', 'd dh p1 6h',
  'd dh p4 2c', 'p1 cc', 'p4 cbr 250000', 'p1 cc', 'd dh p1 Ad', 'd dh p4 Td',
  'p1 cbr 500000', 'p4 cc', 'd dh p1 Kc', 'd dh p4 Jh', 'p1 cbr 500000', 'p4 f']
finishing_stacks = [5675000, 1550000, 14600000, 4625000, 3250000]
"""


def test_triple_draw_with_unknown_discards_replays_exactly() -> None:
    """R-DRAW-1, R-DRAW-3, R-RANK-5: draws in seat order, an unknown discard (``??``) is
    the card the file never named, the final hands and stacks match the record."""
    hh = load_phh(TRIPLE_DRAW)
    r = replay(hh)
    assert r.error is None and r.state is not None
    assert {str(c) for c in r.state.hole_cards[2]} == {"6h", "3h", "7d", "2s", "4d"}
    assert "Kh" not in {str(c) for c in r.state.hole_cards[1]}
    assert verify(hh).status is Status.EXACT


def test_stud_bring_in_with_an_unknown_up_card_replays_exactly() -> None:
    """R-POS-5, R-RANK-7: the 4c brings in although player 5's up card is unknown; the
    later streets are dealt to the live players only; the stacks match the record."""
    hh = load_phh(STUD_HI_LO)
    r = replay(hh)
    assert r.error is None and r.state is not None
    assert [len(h) for h in r.state.hole_cards] == [6, 3, 3, 6, 3]
    assert verify(hh).status is Status.EXACT


def test_a_refused_bring_in_is_reported_with_the_engine_code() -> None:
    """R-POS-5, R-BET-8: a file where the wrong player brings in is a mismatch naming the
    engine's refusal."""
    hh = load_phh(STUD_HI_LO.replace("'p4 pb', 'p5 f'", "'p5 pb', 'p4 f'"))
    v = verify(hh)
    assert v.status is Status.MISMATCH and "not_your_turn" in (v.message or "")
