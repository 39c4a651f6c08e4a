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
