"""croupier: an open online poker room.

The rules engine lives in :mod:`croupier.engine` (pure, no I/O); hand histories in
:mod:`croupier.history`; the command line in :mod:`croupier.cli`.
"""

__version__ = "0.1.0"
