"""Where the shared PHH corpus lives (never copied into the repository).

``CROUPIER_SHARED`` overrides the default ``<repo>/../shared``.
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("CROUPIER_SHARED", REPO / ".." / "shared")).resolve()
CORPUS = SHARED / "corpus" / "phh"
MANIFEST = CORPUS / "MANIFEST.tsv"
MISSING = f"the shared PHH corpus is absent ({MANIFEST} not found; set CROUPIER_SHARED)"


def manifest() -> list[dict[str, str]]:
    """The rows of MANIFEST.tsv (``file``, ``variant``, ``players``, ``group`` …), or []."""
    if not MANIFEST.is_file():
        return []
    with MANIFEST.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


# Known engine bugs, named so the tests flip (strict xfail) once the lead fixes them.
BIG_BLIND_ANTE = (
    "engine bug: settle.build_pots counts antes in the side-pot levels, so a big-blind"
    " ante is returned to the big blind instead of going to the winner who covered every"
    " live bet (repro in docs/phh.md)"
)
