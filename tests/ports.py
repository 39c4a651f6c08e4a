"""Free loopback ports for servers the tests start, restart and kill.

A port the kernel hands out for ``bind(("127.0.0.1", 0))`` lies in the ephemeral range
(``/proc/sys/net/ipv4/ip_local_port_range``, 32768–60999 by default): the range every
outgoing connection takes its local port from. A test that kills a server and starts it
again on the same port can then find it taken, for as long as one of the machine's
outgoing connections (another test's client, a health probe) happens to hold it as its
local port: the new server cannot bind and exits. So the ports handed out here lie just
below the ephemeral range, where no connection goes unless a server binds it, and are
drawn from the system's randomness (the same in no two xdist workers, whatever seed
pytest-randomly gives ``random``).

>>> port = free_port()
>>> 1024 <= port < ephemeral_range()[0] or port >= ephemeral_range()[1]
True
"""

from __future__ import annotations

import random
import socket
from pathlib import Path

SPAN = 12_000
"""How many ports below the ephemeral range are drawn from."""

_DRAW = random.SystemRandom()


def ephemeral_range() -> tuple[int, int]:
    """The kernel's range for outgoing connections' local ports (Linux; else IANA's)."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 49152, 65535


def bindable(port: int) -> bool:
    """Whether a server could listen on ``127.0.0.1:port`` now."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A port free now, outside the ephemeral range when the machine leaves room below
    it (else one the kernel picks)."""
    low, _ = ephemeral_range()
    start = max(1024, low - SPAN)
    if low - start >= 100:
        for _ in range(200):
            port = _DRAW.randrange(start, low)
            if bindable(port):
                return port
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
