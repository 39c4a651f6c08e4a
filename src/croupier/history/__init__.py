"""Hand histories: PHH read/write, PokerStars-style export."""
