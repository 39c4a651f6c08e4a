"""The pure rules engine: no I/O, no asyncio, no clock, no global random."""
