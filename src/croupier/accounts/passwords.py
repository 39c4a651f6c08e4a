"""Password hashing: argon2id with the OWASP parameters (m = 19 MiB, t = 2, p = 1).

>>> hasher = PasswordHashing()
>>> h = hasher.hash("correct horse")
>>> h.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
True
>>> hasher.verify(h, "correct horse"), hasher.verify(h, "wrong horse")
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

__all__ = ["OWASP_MEMORY_KIB", "OWASP_PARALLELISM", "OWASP_TIME_COST", "PasswordHashing"]

OWASP_MEMORY_KIB = 19 * 1024
OWASP_TIME_COST = 2
OWASP_PARALLELISM = 1


@dataclass(frozen=True)
class PasswordHashing:
    """argon2id hashing; parameters below OWASP's minimum are refused."""

    memory_kib: int = OWASP_MEMORY_KIB
    time_cost: int = OWASP_TIME_COST
    parallelism: int = OWASP_PARALLELISM
    _hasher: PasswordHasher = field(init=False, repr=False, compare=False)
    _dummy: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.memory_kib < OWASP_MEMORY_KIB or self.time_cost < OWASP_TIME_COST:
            raise ValueError("argon2id parameters below the OWASP minimum (m=19 MiB, t=2)")
        hasher = PasswordHasher(
            time_cost=self.time_cost,
            memory_cost=self.memory_kib,
            parallelism=self.parallelism,
            hash_len=32,
            salt_len=16,
            type=Type.ID,
        )
        object.__setattr__(self, "_hasher", hasher)
        object.__setattr__(self, "_dummy", hasher.hash("not a password: timing equalizer"))

    def hash(self, password: str) -> str:
        """A new salted hash of ``password``."""
        return self._hasher.hash(password)

    def verify(self, stored: str, password: str) -> bool:
        """Whether ``password`` matches ``stored`` (False for a malformed hash)."""
        try:
            return self._hasher.verify(stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def verify_dummy(self, password: str) -> None:
        """Spend the time of a real verification (for unknown users)."""
        self.verify(self._dummy, password)

    def needs_rehash(self, stored: str) -> bool:
        """Whether ``stored`` was made with other (older) parameters."""
        try:
            return self._hasher.check_needs_rehash(stored)
        except InvalidHashError:
            return True
