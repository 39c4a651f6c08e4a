"""PHH, the open Poker Hand History format: read and write `.phh` and `.phhs` text.

A `.phh` file is one TOML document describing one hand; a `.phhs` file holds several,
as tables ``[1]``, ``[2]``, … (https://phh.readthedocs.io). :func:`load_phh` and
:func:`load_phhs` read them into :class:`HandHistory` values, :func:`dump_phh` and
:func:`dump_phhs` write them back.

Amounts are integer chips. When a file writes decimal amounts (HandHQ has ``2.50``),
every amount of the hand is multiplied by the smallest power of ten that makes all of
them integers; :attr:`HandHistory.scale` keeps that factor (chips per currency unit) so
results can be compared and written back exactly.

>>> hh = load_phh('''
... variant = "NT"
... antes = [0, 0]
... blinds_or_straddles = [0.5, 1]
... min_bet = 1
... starting_stacks = [100, 100.25]
... actions = ["d dh p1 AsKs", "d dh p2 ????", "p2 cbr 3", "p1 f"]
... ''')
>>> hh.scale, hh.blinds_or_straddles, hh.starting_stacks
(100, (50, 100), (10000, 10025))
>>> [str(a) for a in hh.actions[2:]]
['p2 cbr 300', 'p1 f']
>>> hh.actions[1].cards
(None, None)
>>> print(dump_phh(hh), end="")
variant = "NT"
antes = [0, 0]
blinds_or_straddles = [0.5, 1]
min_bet = 1
starting_stacks = [100, 100.25]
actions = ["d dh p1 AsKs", "d dh p2 ????", "p2 cbr 3", "p1 f"]
>>> load_phh(dump_phh(hh)) == hh
True
>>> load_phh('variant = "NT"\\nantes = [0]')
Traceback (most recent call last):
...
croupier.history.phh.PhhError: missing field 'starting_stacks'
"""

from __future__ import annotations

import datetime
import json
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from croupier.engine.cards import RANKS, SUITS, Card
from croupier.engine.errors import CodedError

__all__ = [
    "AMOUNT_FIELDS",
    "HandHistory",
    "PhhAction",
    "PhhError",
    "Verb",
    "dump_phh",
    "dump_phhs",
    "format_action",
    "format_amounts",
    "load_phh",
    "load_phhs",
    "parse_action",
    "read_path",
]

MAX_SCALE: Final = 10**6
"""The largest chip scale accepted (amounts with more than six decimals are refused)."""

MAX_AMOUNT: Final = 10**15
"""The largest amount accepted, in the file's unit."""

AMOUNT_FIELDS: Final = (
    "antes",
    "blinds_or_straddles",
    "bring_in",
    "small_bet",
    "big_bet",
    "min_bet",
    "starting_stacks",
    "finishing_stacks",
    "winnings",
)
"""Fields holding chip amounts (scaled to integers), besides ``cbr`` amounts in actions."""

_LIST_AMOUNTS: Final = frozenset(
    {"antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks", "winnings"}
)
_FIELD_ORDER: Final = (
    "variant",
    "ante_trimming_status",
    "antes",
    "blinds_or_straddles",
    "bring_in",
    "small_bet",
    "big_bet",
    "min_bet",
    "starting_stacks",
    "actions",
)


class PhhError(CodedError):
    """A PHH text that cannot be read: a stable ``code`` and a message naming the place.

    >>> err = PhhError("bad_card", "not a card: 'Xx'", source="a.phh")
    >>> err.code, str(err)
    ('bad_card', "a.phh: not a card: 'Xx'")
    """

    def __init__(self, code: str, message: str, *, source: str | None = None) -> None:
        super().__init__(code, message)
        self.message = message
        self.source = source

    def at(self, source: str) -> PhhError:
        """The same error, located in ``source`` (kept if already located)."""
        return self if self.source else PhhError(self.code, self.message, source=source)

    def __str__(self) -> str:
        return f"{self.source}: {self.message}" if self.source else self.message


class Verb(StrEnum):
    """The action verbs of PHH (``d db``, ``d dh``, ``pN f`` …)."""

    DEAL_BOARD = "db"
    DEAL_HOLE = "dh"
    FOLD = "f"
    CHECK_CALL = "cc"
    BET = "cbr"
    """Complete, bet or raise to a total."""
    SHOW_MUCK = "sm"
    DISCARD = "sd"
    """Stand pat (no cards) or discard."""
    BRING_IN = "pb"
    NOOP = ""


@dataclass(frozen=True, slots=True)
class PhhAction:
    """One PHH action. ``player`` is 0-based (``p1`` is 0): the actor, or for ``d dh`` the
    player dealt to; ``None`` for board deals and no-ops. ``cards`` is ``None`` when the
    action has no card argument (``sm`` alone mucks, ``sd`` alone stands pat), else the
    cards with ``None`` for each unknown ``??``; ``dash`` marks ``sm -`` (show the cards
    already dealt). ``amount`` is the ``cbr`` total in scaled chips.
    """

    verb: Verb
    player: int | None = None
    cards: tuple[Card | None, ...] | None = None
    amount: int | None = None
    dash: bool = False
    commentary: str | None = None

    @property
    def is_dealer(self) -> bool:
        return self.verb in (Verb.DEAL_BOARD, Verb.DEAL_HOLE)

    def __str__(self) -> str:
        return format_action(self)


def _fmt_cards(cards: Iterable[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


def _fmt_amount(chips: int, scale: int) -> str:
    if scale == 1 or chips % scale == 0:
        return str(chips // scale)
    exp = len(str(scale)) - 1
    return format(Decimal(chips).scaleb(-exp).normalize(), "f")


def format_amounts(values: Iterable[int], scale: int = 1) -> str:
    """Chip amounts written back in the file's unit, as a PHH array.

    >>> format_amounts([25, 100, 20674], 10)
    '[2.5, 10, 2067.4]'
    """
    return "[" + ", ".join(_fmt_amount(v, scale) for v in values) + "]"


def format_action(action: PhhAction, scale: int = 1) -> str:
    """PHH text of ``action``, amounts divided by ``scale``.

    >>> format_action(parse_action("p3 cbr 47.50", scale=100), 100)
    'p3 cbr 47.5'
    >>> format_action(parse_action("d dh p2 As??  # note"))
    'd dh p2 As?? # note'
    """
    v = action.verb
    if v is Verb.DEAL_BOARD:
        words = ["d", "db", _fmt_cards(action.cards or ())]
    elif v is Verb.DEAL_HOLE:
        words = ["d", "dh", f"p{(action.player or 0) + 1}", _fmt_cards(action.cards or ())]
    elif v is Verb.NOOP:
        words = []
    else:
        words = [f"p{(action.player or 0) + 1}", v.value]
        if v is Verb.BET:
            words.append(_fmt_amount(action.amount or 0, scale))
        elif action.dash:
            words.append("-")
        elif action.cards is not None:
            words.append(_fmt_cards(action.cards))
    text = " ".join(words)
    if action.commentary is not None:
        text = f"{text} # {action.commentary}" if text else f"# {action.commentary}"
    return text


_CARD_RE: Final = re.compile(r"\?\?|[2-9TJQKA][cdhs]")
_PLAYER_RE: Final = re.compile(r"p([1-9][0-9]*)")


def _parse_cards(text: str, action: str) -> tuple[Card | None, ...]:
    out: list[Card | None] = []
    pos = 0
    while pos < len(text):
        m = _CARD_RE.match(text, pos)
        if m is None:
            raise PhhError(
                "bad_card",
                f"not a card: {text[pos : pos + 2]!r} in action {action!r}"
                " (cards are rank + suit like 'As', 'Td', or '??' for unknown)",
            )
        tok = m.group(0)
        out.append(None if tok == "??" else Card.of(RANKS.index(tok[0]), SUITS.index(tok[1])))
        pos = m.end()
    if not out:
        raise PhhError("bad_card", f"no cards in action {action!r}")
    return tuple(out)


def _player(word: str, action: str) -> int:
    m = _PLAYER_RE.fullmatch(word)
    if m is None:
        raise PhhError("bad_player", f"not a player: {word!r} in action {action!r} (p1, p2, …)")
    return int(m.group(1)) - 1


def _to_decimal(value: object, what: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | Decimal | str):
        raise PhhError("bad_amount", f"{what} must be a number, not {value!r}")
    try:
        d = Decimal(value)
    except InvalidOperation:
        raise PhhError("bad_amount", f"{what} must be a number, not {value!r}") from None
    if not d.is_finite():
        raise PhhError("bad_amount", f"{what}: unknown or infinite amounts are not supported")
    if d < 0:
        raise PhhError("bad_amount", f"{what} must not be negative, not {value}")
    if d > MAX_AMOUNT:
        raise PhhError("bad_amount", f"{what} is too large: {value}")
    return d


def _scale_of(d: Decimal) -> int:
    exp = d.normalize().as_tuple().exponent
    assert isinstance(exp, int)
    return 10 ** (-exp) if exp < 0 else 1


def parse_action(text: str, *, scale: int = 1) -> PhhAction:
    """Parse one action string; ``cbr`` amounts are multiplied by ``scale``.

    >>> parse_action("p2 cbr 300")
    PhhAction(verb=<Verb.BET: 'cbr'>, player=1, cards=None, amount=300, dash=False, commentary=None)
    >>> parse_action("p1 sm -").dash, parse_action("p1 sm").cards
    (True, None)
    >>> parse_action("p1 xx")
    Traceback (most recent call last):
    ...
    croupier.history.phh.PhhError: unknown action 'p1 xx'
    """
    if not isinstance(text, str):
        raise PhhError("bad_action", f"an action must be a string, not {text!r}")
    commentary: str | None = None
    body = text
    if "#" in text:
        i = text.index("#")
        body, commentary = text[:i], text[i + 1 :].strip()
    words = body.split()
    match words:
        case []:
            return PhhAction(Verb.NOOP, commentary=commentary)
        case ["d", "db", cards]:
            return PhhAction(
                Verb.DEAL_BOARD, None, _parse_cards(cards, text), commentary=commentary
            )
        case ["d", "dh", who, cards]:
            return PhhAction(
                Verb.DEAL_HOLE, _player(who, text), _parse_cards(cards, text), commentary=commentary
            )
        case [who, "f" | "cc" | "pb" as verb]:
            return PhhAction(Verb(verb), _player(who, text), commentary=commentary)
        case [who, "sm" | "sd" as verb]:
            return PhhAction(Verb(verb), _player(who, text), commentary=commentary)
        case [who, "sm", "-"]:
            return PhhAction(Verb.SHOW_MUCK, _player(who, text), dash=True, commentary=commentary)
        case [who, "sm" | "sd" as verb, cards]:
            return PhhAction(
                Verb(verb), _player(who, text), _parse_cards(cards, text), commentary=commentary
            )
        case [who, "cbr", amount]:
            d = _to_decimal(amount, f"amount in action {text!r}")
            chips = d * scale
            if chips != chips.to_integral_value():
                raise PhhError("bad_amount", f"amount {amount} in {text!r} is finer than the chip")
            return PhhAction(Verb.BET, _player(who, text), amount=int(chips), commentary=commentary)
    raise PhhError("unknown_action", f"unknown action {text!r}")


@dataclass(frozen=True, slots=True)
class HandHistory:
    """One hand in PHH terms, amounts in integer chips (``scale`` chips per unit).

    ``metadata`` holds every other field of the file (author, event, time, seats, table,
    user-defined ``_fields`` …) in file order, with TOML values as read.
    """

    variant: str
    antes: tuple[int, ...]
    starting_stacks: tuple[int, ...]
    actions: tuple[PhhAction, ...]
    blinds_or_straddles: tuple[int, ...] | None = None
    bring_in: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    min_bet: int | None = None
    ante_trimming_status: bool | None = None
    players: tuple[str, ...] | None = None
    finishing_stacks: tuple[int, ...] | None = None
    winnings: tuple[int, ...] | None = None
    scale: int = 1
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.metadata, MappingProxyType):
            object.__setattr__(self, "metadata", MappingProxyType(dict(self.metadata)))
        n = len(self.starting_stacks)
        if n < 1:
            raise PhhError("bad_field", "starting_stacks must list at least one player")
        for name in ("antes", "blinds_or_straddles", "finishing_stacks", "winnings", "players"):
            value = getattr(self, name)
            if value is not None and len(value) != n:
                raise PhhError("bad_field", f"{name} has {len(value)} entries for {n} players")
        if (
            self.scale < 1
            or self.scale > MAX_SCALE
            or 10 ** (len(str(self.scale)) - 1) != self.scale
        ):
            raise PhhError("bad_field", f"scale must be a power of ten, not {self.scale}")
        for a in self.actions:
            if a.player is not None and not 0 <= a.player < n:
                raise PhhError(
                    "bad_player",
                    f"action {format_action(a, self.scale)!r} names a player"
                    f" beyond the {n} of the hand",
                )

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    def amounts(self) -> list[int]:
        """Every chip amount of the hand (fields and ``cbr`` totals)."""
        out: list[int] = []
        for name in AMOUNT_FIELDS:
            value = getattr(self, name)
            if value is None:
                continue
            out.extend(value if isinstance(value, tuple) else (value,))
        out.extend(a.amount for a in self.actions if a.amount is not None)
        return out

    def __hash__(self) -> int:
        return hash((self.variant, self.starting_stacks, self.actions, self.scale))


# -- reading ------------------------------------------------------------------------------


def _toml(text: str) -> dict[str, Any]:
    if not isinstance(text, str):
        raise PhhError("bad_toml", f"PHH text must be a string, not {type(text).__name__}")
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError("bad_toml", f"not valid TOML: {exc}") from None


def _hand(raw: Mapping[str, Any]) -> HandHistory:
    if not isinstance(raw, Mapping):
        raise PhhError("bad_toml", f"a hand must be a TOML table, not {raw!r}")
    for name in ("variant", "antes", "starting_stacks", "actions"):
        if name not in raw:
            raise PhhError("missing_field", f"missing field {name!r}")
    variant = raw["variant"]
    if not isinstance(variant, str) or not variant:
        raise PhhError("bad_field", f"variant must be a variant code string, not {variant!r}")
    decimals: dict[str, Decimal | list[Decimal]] = {}
    for name in AMOUNT_FIELDS:
        if name not in raw:
            continue
        value = raw[name]
        if name in _LIST_AMOUNTS:
            if not isinstance(value, list):
                raise PhhError("bad_field", f"{name} must be an array of amounts, not {value!r}")
            decimals[name] = [_to_decimal(v, f"{name}[{i}]") for i, v in enumerate(value)]
        else:
            decimals[name] = _to_decimal(value, name)
    actions_raw = raw["actions"]
    if not isinstance(actions_raw, list) or not all(isinstance(a, str) for a in actions_raw):
        raise PhhError("bad_field", "actions must be an array of strings")
    bet_amounts: list[Decimal] = []
    for text in actions_raw:
        words = text.split("#", 1)[0].split()
        if len(words) == 3 and words[1] == "cbr":
            bet_amounts.append(_to_decimal(words[2], f"amount in action {text!r}"))
    scale = 1
    for value in (*decimals.values(), *bet_amounts):
        for d in value if isinstance(value, list) else (value,):
            scale = max(scale, _scale_of(d))
    if scale > MAX_SCALE:
        raise PhhError("bad_amount", "amounts finer than a millionth are not supported")

    def chips(d: Decimal) -> int:
        return int(d * scale)

    kwargs: dict[str, Any] = {}
    for name, value in decimals.items():
        kwargs[name] = tuple(chips(d) for d in value) if isinstance(value, list) else chips(value)
    actions = tuple(parse_action(a, scale=scale) for a in actions_raw)
    trimming = raw.get("ante_trimming_status")
    if trimming is not None and not isinstance(trimming, bool):
        raise PhhError("bad_field", f"ante_trimming_status must be true or false, not {trimming!r}")
    players = raw.get("players")
    if players is not None and (
        not isinstance(players, list) or not all(isinstance(p, str) for p in players)
    ):
        raise PhhError("bad_field", "players must be an array of names")
    known = {*_FIELD_ORDER, *AMOUNT_FIELDS, "players"}
    metadata = {k: v for k, v in raw.items() if k not in known}
    return HandHistory(
        variant=variant,
        actions=actions,
        ante_trimming_status=trimming,
        players=None if players is None else tuple(players),
        scale=scale,
        metadata=metadata,
        **kwargs,
    )


def load_phh(text: str, *, source: str | None = None) -> HandHistory:
    """Read one hand from `.phh` text; errors name ``source`` when given."""
    try:
        return _hand(_toml(text))
    except PhhError as exc:
        raise exc.at(source) if source else exc from None


def load_phhs(text: str, *, source: str | None = None) -> list[HandHistory]:
    """Read every hand of `.phhs` text (tables ``[1]``, ``[2]``, …), in file order.

    >>> hands = load_phhs('[1]\\nvariant = "NT"\\nantes = [0, 0]\\nstarting_stacks = [5, 5]'
    ...                   '\\nactions = []\\n[2]\\nvariant = "FT"\\nantes = [0, 0]'
    ...                   '\\nstarting_stacks = [1, 2]\\nactions = []')
    >>> [h.variant for h in hands]
    ['NT', 'FT']
    """
    doc = _toml_at(text, source)
    hands: list[HandHistory] = []
    for k, (name, raw) in enumerate(doc.items(), start=1):
        where = f"{source}#{k}" if source else f"hand [{name}]"
        if not isinstance(raw, dict):
            raise PhhError("bad_toml", f"expected a table [{k}], found key {name!r}", source=where)
        try:
            hands.append(_hand(raw))
        except PhhError as exc:
            raise exc.at(where) from None
    return hands


def _toml_at(text: str, source: str | None) -> dict[str, Any]:
    try:
        return _toml(text)
    except PhhError as exc:
        raise exc.at(source) if source else exc from None


def read_path(path: str | Path) -> list[tuple[str, HandHistory | PhhError]]:
    """Read a `.phh` or `.phhs` file: ``(label, hand or error)`` for each hand, where the
    label is the path, or ``path#k`` for the k-th hand of a `.phhs` file. A file that
    cannot be read at all gives one ``(path, error)``; a bad hand of a `.phhs` file does
    not hide the others."""
    p = Path(path)
    label = str(p)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [(label, PhhError("unreadable", f"cannot read the file: {exc}", source=label))]
    if p.suffix != ".phhs":
        try:
            return [(label, load_phh(text, source=label))]
        except PhhError as exc:
            return [(label, exc)]
    try:
        doc = _toml_at(text, label)
    except PhhError as exc:
        return [(label, exc)]
    out: list[tuple[str, HandHistory | PhhError]] = []
    for k, (name, raw) in enumerate(doc.items(), start=1):
        where = f"{label}#{k}"
        if not isinstance(raw, dict):
            out.append(
                (where, PhhError("bad_toml", f"expected a table, found {name!r}", source=where))
            )
            continue
        try:
            out.append((where, _hand(raw)))
        except PhhError as exc:
            out.append((where, exc.at(where)))
    return out


# -- writing ------------------------------------------------------------------------------

_BARE_KEY: Final = re.compile(r"[A-Za-z0-9_-]+")


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key, ensure_ascii=False)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | Decimal):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items()) + "}"
    raise PhhError("bad_field", f"cannot write {value!r} in PHH")


def _amount_value(chips: int, scale: int) -> str:
    return _fmt_amount(chips, scale)


def dump_phh(hh: HandHistory) -> str:
    """PHH text of one hand (TOML), amounts divided back by ``hh.scale``."""
    lines = [f"variant = {_value(hh.variant)}"]
    if hh.ante_trimming_status is not None:
        lines.append(f"ante_trimming_status = {_value(hh.ante_trimming_status)}")
    scale = hh.scale

    def amounts(name: str) -> None:
        value = getattr(hh, name)
        if value is None:
            return
        if isinstance(value, tuple):
            text = "[" + ", ".join(_amount_value(v, scale) for v in value) + "]"
        else:
            text = _amount_value(value, scale)
        lines.append(f"{name} = {text}")

    for name in ("antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet", "min_bet"):
        amounts(name)
    amounts("starting_stacks")
    lines.append("actions = " + _value([format_action(a, scale) for a in hh.actions]))
    if hh.players is not None:
        lines.append(f"players = {_value(list(hh.players))}")
    amounts("finishing_stacks")
    amounts("winnings")
    for key, value in hh.metadata.items():
        lines.append(f"{_key(key)} = {_value(value)}")
    return "\n".join(lines) + "\n"


def dump_phhs(hands: Sequence[HandHistory]) -> str:
    """`.phhs` text: each hand as a table ``[1]``, ``[2]``, …"""
    parts = []
    for k, hh in enumerate(hands, start=1):
        parts.append(f"[{k}]\n" + dump_phh(hh))
    return "\n".join(parts)
