"""The client's dictionaries: French and English have the same keys, the same placeholders,
no empty string, and every key the page and the scripts use exists (no browser needed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import croupier

WEB = Path(croupier.__file__).parent / "web"


def load(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def used_keys() -> tuple[set[str], set[str]]:
    """Keys named literally in index.html and the JS modules, and the prefixes of keys the
    scripts build from data (``log.acted.${…}``)."""
    html = (WEB / "index.html").read_text(encoding="utf-8")
    keys = set(re.findall(r'data-i18n="([^"]+)"', html))
    for attrs in re.findall(r'data-i18n-attr="([^"]+)"', html):
        keys.update(pair.split(":")[1] for pair in attrs.split(";"))
    prefixes: set[str] = set()
    for js in (WEB / "js").glob("*.js"):
        text = js.read_text(encoding="utf-8")
        for lit in re.findall(r'["`]((?:[a-z_]+\.)+[a-z_0-9]+)["`]', text):
            keys.add(lit)
        prefixes.update(re.findall(r"`((?:[a-z_]+\.)+)\$\{", text))
    return keys, prefixes


def test_same_keys_in_both_languages() -> None:
    """Every string exists in French and in English, and none is empty."""
    en, fr = load("en"), load("fr")
    assert set(en) == set(fr), {"only_en": set(en) - set(fr), "only_fr": set(fr) - set(en)}
    assert all(v.strip() for v in en.values())
    assert all(v.strip() for v in fr.values())
    assert len(en) > 300


def test_same_placeholders() -> None:
    """A translation fills the same ``{placeholders}`` as the English text."""
    en, fr = load("en"), load("fr")
    bad = {
        k: (en[k], fr[k])
        for k in en
        if set(re.findall(r"\{(\w+)\}", en[k])) != set(re.findall(r"\{(\w+)\}", fr[k]))
    }
    assert bad == {}


def test_french_is_translated() -> None:
    """Most French strings differ from the English ones (a dictionary copied over would not)."""
    en, fr = load("en"), load("fr")
    same = [k for k in en if en[k] == fr[k]]
    assert len(same) < len(en) // 5, same


def test_every_used_key_exists() -> None:
    """No key named by the page or the scripts is missing; every built prefix has entries."""
    en = load("en")
    keys, prefixes = used_keys()
    dotted = {k for k in keys if "." in k and not k.endswith((".js", ".json", ".html", ".css"))}
    known_non_keys = {"croupier.lang", "croupier.session", "croupier-web.1"}
    missing = sorted(
        k
        for k in dotted - known_non_keys
        if k not in en and not any(k.startswith(p) for p in ("i18n.",))
    )
    assert missing == []
    for p in prefixes:
        assert any(k.startswith(p) for k in en), p
