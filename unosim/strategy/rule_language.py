"""Rule-strategy files: read, check and hold a priority-rule program.

A rule strategy is a TOML file describing every decision of a strategy as an
ordered list of rules with conditions (format: ``docs/rule_bots.md``).
[`load_program`][unosim.strategy.load_program] reads a file (or a shipped name, ``strategies/rules/``)
into a [`RuleProgram`][unosim.strategy.RuleProgram]; a bad file raises [`RuleFileError`][unosim.strategy.RuleFileError] naming the
file, the line, the key, the value and what is allowed, before any game is
played. `unosim.strategy.rule_strategy` plays a program.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..game import inputs
from ..game.cards import CARD_COLOUR, CARD_FACE, CARD_KIND, COLOUR_NAMES, COLOURED_FACE_NAMES, KIND_NAMES, N_TYPES
from ..game.errors import UnosimInputError
from ..strategies import RULES_DIR

__all__ = [
    "COLOUR_CHOICES", "CRITERIA", "DIRECTIONS", "DRAWN_CHOICES", "GROUPS", "KeyLocator", "MAX_COUNT", "NUMERIC", "OTHERWISE_CHOICES",
    "SEAT_CHOICES", "SHIPPED_DIR", "TOP_KEYS", "VAR_HAND", "VAR_NEXT", "VAR_NON_WILD", "VAR_OPPONENT", "VAR_PLAYERS",
    "VAR_SMALLEST", "VARIABLES", "card_selector", "Conditions", "load_program", "parse_program", "resolve_path", "Rule",
    "RuleFileError", "RuleProgram", "shipped_rule_files",
]

SHIPPED_DIR = RULES_DIR
"""Directory of the shipped rule files (``rules:NAME`` plays ``SHIPPED_DIR / NAME.toml``)."""

MAX_COUNT = 1000
"""Largest hand-size bound a condition may name."""

CRITERIA = ("points", "colour", "variety")
"""Tie-break criteria of ``prefer``, applied in the order given, then at random in proportion to copies."""

COLOUR_CHOICES = ("most", "least", "random", "most_played")
"""``[colour] choose`` values."""
SEAT_CHOICES = ("fewest", "most", "random")
"""``[point_taken] target`` and ``[link] pair`` values."""
DRAWN_CHOICES = ("legal", "never", "rules")
"""``[drawn] play`` values."""
OTHERWISE_CHOICES = ("play", "draw")
"""``[play] otherwise`` values: what to do when no rule fires."""

NUMERIC = {
    "hand": "cards I hold",
    "non_wild": "non-wild cards I hold",
    "next_hand": "cards the next player holds",
    "smallest_opponent": "cards the opponent holding fewest holds",
    "players": "players at the table",
    "opponent_hand": "cards held by the player of the Wild Draw Four",
}
"""Numeric condition variables (keys ``NAME_min`` / ``NAME_max``, both included) and what they count."""

VAR_HAND, VAR_NON_WILD, VAR_NEXT, VAR_SMALLEST, VAR_PLAYERS, VAR_OPPONENT = range(6)
VARIABLES = tuple(NUMERIC)
"""Numeric variables in their encoded order (``VAR_*``)."""

DIRECTIONS = {"clockwise": 1, "counter-clockwise": -1}

GROUPS = {
    "any": np.ones(N_TYPES, bool),
    "coloured": CARD_COLOUR >= 0,
    "wilds": CARD_COLOUR < 0,
    "action": (CARD_COLOUR >= 0) & (CARD_FACE >= 10),
}
"""Card selectors naming a group of kinds (besides the kinds themselves, faces and colours)."""

_COLOUR_FACE = re.compile(r"^(red|yellow|green|blue)\s+(.+)$")


class RuleFileError(UnosimInputError):
    """A rule file that cannot be played: the message names file, line, key, value and what is allowed."""


@dataclass(frozen=True)
class Conditions:
    """Conditions of one rule (or decision): numeric bounds, direction, card colour.

    ``low[v] <= value of variable v <= high[v]`` for each numeric variable
    ``v`` (``VAR_*``); ``direction`` 0 (any), +1 or -1; ``colour_most`` -1 (any),
    1 (the card's colour is a colour held most) or 0 (it is not).
    """

    low: tuple[int, ...] = (0,) * len(VARIABLES)
    high: tuple[int, ...] = (MAX_COUNT,) * len(VARIABLES)
    direction: int = 0
    colour_most: int = -1

    def active(self) -> list[int]:
        """The numeric variables this rule bounds."""
        return [v for v in range(len(VARIABLES)) if self.low[v] > 0 or self.high[v] < MAX_COUNT]


@dataclass(frozen=True)
class Rule:
    """One play (or mini-pile) rule: the cards it selects (``cards[type]``), or ``draw``; its conditions.

    ``draw`` is True for a play rule ``card = "draw"`` (draw instead of playing)
    and for a mini-pile rule ``card = "take"`` (take the pile; it fires only
    when taking is allowed: nothing may be added, or ``pileup_may_refuse``).
    """

    index: int
    cards: NDArray[np.bool_]
    draw: bool
    conditions: Conditions
    prefer: tuple[str, ...]
    label: str
    line: int

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rule) and self.describe() == other.describe()

    def __hash__(self) -> int:
        return hash(str(self.describe()))

    def describe(self) -> tuple[Any, ...]:
        """A comparable description (used for equality)."""
        return (self.index, tuple(self.cards.tolist()), self.draw, self.conditions, self.prefer, self.label)


@dataclass(frozen=True)
class RuleProgram:
    """Every decision of a rule strategy, checked (see ``docs/rule_bots.md`` for each field's meaning)."""

    name: str
    source: str
    play: tuple[Rule, ...]
    play_prefer: tuple[str, ...] = ("points",)
    otherwise_draw: bool = False
    pile: tuple[Rule, ...] = ()
    pile_prefer: tuple[str, ...] = ("points",)
    drawn: str = "legal"
    colour: str = "most"
    bluff: Conditions | None = None
    challenge: Conditions | None = None
    point_taken: str = "fewest"
    link: str = "fewest"
    jump_weight: float = 1.0
    jump_conditions: Conditions = field(default_factory=Conditions)
    forget_uno_rate: float = 0.0
    catch_uno_rate: float = 1.0
    description: str = ""
    text: str = field(default="", compare=False)
    """The file's text as read (written into run metadata; comments and layout do not change the program)."""


# ---------------------------------------------------------------- locating keys in the text
class KeyLocator:
    """Finds the line of a key in the TOML text (``tomllib`` keeps no positions)."""

    _HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?")

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.is_header = [False] * len(self.lines)
        self.headers: dict[str, list[int]] = {}
        """Each table name -> the lines (1-based) of its headers in file order: found in one pass, so
        locating every rule of a long file takes linear time."""
        for i, line in enumerate(self.lines):
            m = self._HEADER.match(line)
            if m:
                self.is_header[i] = True
                self.headers.setdefault(m.group(2).replace(" ", ""), []).append(i + 1)

    def header(self, table: str, index: int | None = None) -> int:
        """Line (1-based) of the header ``[table]`` or the ``index``-th ``[[table]]``; 0 when absent."""
        lines = self.headers.get(table, [])
        at = 0 if index is None else index
        return lines[at] if 0 <= at < len(lines) else 0

    def key(self, table: str, key: str, index: int | None = None) -> int:
        """Line of ``key = ...`` inside ``[table]`` (top level: ``table = ""``); the table's header when not found."""
        start = self.header(table, index) if table else 0
        pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=")
        for i in range(start, len(self.lines)):
            if self.is_header[i]:
                break
            if pattern.match(self.lines[i]):
                return i + 1
        return max(start, 1)


class _Reader:
    """Checks the parsed TOML, raising [`RuleFileError`][unosim.strategy.RuleFileError] with the line of the offending key."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.where = KeyLocator(text)

    def fail(self, table: str, key: str, value: Any, allowed: str, index: int | None = None) -> RuleFileError:
        line = self.where.key(table, key, index) if key else self.where.header(table, index)
        full = f"{table}.{key}" if table and key else (key or table)
        if index is not None:
            full = f"{table}[{index + 1}].{key}" if key else f"{table}[{index + 1}]"
        shown = "(missing)" if value is _MISSING else _toml(value)
        return RuleFileError(f"rule file {self.path}, line {line}: {full} = {shown} is not allowed; {allowed}")

    def unknown(self, table: str, data: dict[str, Any], allowed: list[str], index: int | None = None) -> None:
        for key in data:
            if key not in allowed:
                raise self.fail(table, key, data[key], f"the keys allowed here are: {', '.join(allowed)}.", index)

    def choice(self, table: str, data: dict[str, Any], key: str, choices: tuple[str, ...], default: str) -> str:
        value = data.get(key, default)
        if value not in choices:
            raise self.fail(table, key, value, f"use one of: {', '.join(repr(c) for c in choices)}.")
        return str(value)

    def number(self, table: str, data: dict[str, Any], key: str, low: float, high: float, default: float) -> float:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
            raise self.fail(table, key, value, f"use a number from {low:g} to {high:g}.")
        return float(value)

    def text(self, table: str, data: dict[str, Any], key: str, default: str) -> str:
        value = data.get(key, default)
        if not isinstance(value, str):
            raise self.fail(table, key, value, "use a quoted string.")
        return value

    def prefer(self, table: str, data: dict[str, Any], default: tuple[str, ...], index: int | None = None) -> tuple[str, ...]:
        value = data.get("prefer", list(default))
        items = [value] if isinstance(value, str) else value
        ok = isinstance(items, list) and items and all(v in CRITERIA for v in items) and len(set(items)) == len(items)
        if not ok:
            raise self.fail(
                table, "prefer", value,
                f"use one or more distinct tie-break criteria, best first, from {', '.join(CRITERIA)} "
                '(e.g. prefer = ["colour", "points"]).', index,
            )
        return tuple(items)

    def conditions(self, table: str, data: dict[str, Any], allowed: list[str], index: int | None = None) -> Conditions:
        """The condition keys of ``data`` among ``allowed`` (names as written in the file)."""
        low = [0] * len(VARIABLES)
        high = [MAX_COUNT] * len(VARIABLES)
        for v, name in enumerate(VARIABLES):
            for bound, arr in (("min", low), ("max", high)):
                key = f"{name}_{bound}"
                if key not in data:
                    continue
                if key not in allowed:
                    raise self.fail(table, key, data[key], f"the keys allowed here are: {', '.join(allowed)}.", index)
                value = data[key]
                top = 16 if name == "players" else MAX_COUNT
                bottom = 2 if name == "players" else 0
                if isinstance(value, bool) or not isinstance(value, int) or not bottom <= value <= top:
                    raise self.fail(table, key, value, f"use a whole number from {bottom} to {top} ({NUMERIC[name]}).", index)
                arr[v] = value
            if low[v] > high[v]:
                raise self.fail(
                    table, f"{name}_min", low[v],
                    f"it is above {name}_max = {high[v]}, so the condition can never hold; make {name}_min at most {name}_max.",
                    index,
                )
        if low[VAR_NON_WILD] > high[VAR_HAND]:
            raise self.fail(
                table, "non_wild_min", low[VAR_NON_WILD],
                f"it is above hand_max = {high[VAR_HAND]}, so the condition can never hold (non-wild cards are part of the hand).",
                index,
            )
        direction = 0
        if "direction" in data:
            value = data["direction"]
            if value not in DIRECTIONS:
                raise self.fail(table, "direction", value, f"use one of: {', '.join(repr(d) for d in DIRECTIONS)}.", index)
            direction = DIRECTIONS[value]
        colour_most = -1
        if "colour_held_most" in data:
            value = data["colour_held_most"]
            if not isinstance(value, bool):
                raise self.fail(table, "colour_held_most", value, "use true or false.", index)
            colour_most = int(value)
        return Conditions(tuple(low), tuple(high), direction, colour_most)


_MISSING = object()


def _toml(value: Any) -> str:
    """``value`` as it is written in TOML (``true``, ``"skip"``, ``["a", "b"]``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    return repr(value)

_TABLE_CONDITIONS = [f"{v}_{b}" for v in VARIABLES[:5] for b in ("min", "max")] + ["direction"]
"""Conditions on the table, allowed in every decision that takes conditions."""


def card_selector(value: Any) -> NDArray[np.bool_] | None:
    """The card types one selector names (a kind, group, face, colour, or ``"red 7"``), None when unknown."""
    if not isinstance(value, str):
        return None
    v = value.strip().lower().replace("-", "_")
    if v in GROUPS:
        return GROUPS[v].copy()
    if v in KIND_NAMES:
        return CARD_KIND == KIND_NAMES.index(v)
    if v in COLOURED_FACE_NAMES:
        return (CARD_COLOUR >= 0) & (CARD_FACE == COLOURED_FACE_NAMES.index(v))
    if v in COLOUR_NAMES:
        return CARD_COLOUR == COLOUR_NAMES.index(v)
    m = _COLOUR_FACE.match(value.strip().lower())
    if m:
        face = m.group(2).strip().replace(" ", "_").replace("-", "_")
        if face in COLOURED_FACE_NAMES:
            return (CARD_COLOUR == COLOUR_NAMES.index(m.group(1))) & (CARD_FACE == COLOURED_FACE_NAMES.index(face))
    return None


_SELECTOR_HELP = (
    '"any", "coloured", "action", "wilds", a kind ('
    + ", ".join(KIND_NAMES)
    + '), a face ("0".."9", "skip", ...), a colour ("red", ...), a coloured face ("red 7", "blue skip"), '
    "or a list of these"
)
_CARD_HELP = 'use "draw" (draw instead), ' + _SELECTOR_HELP + ' (without "draw").'
_PILE_CARD_HELP = 'use "take" (take the pile), ' + _SELECTOR_HELP + ' (without "take").'


def _rule(r: _Reader, table: str, i: int, data: Any, default_prefer: tuple[str, ...], pile: bool) -> Rule:
    if not isinstance(data, dict):
        raise r.fail(table, "", data, "each rule is a [[" + table + "]] table.", i)
    allowed = ["card", "prefer", "name", *_TABLE_CONDITIONS, "colour_held_most"]
    r.unknown(table, data, allowed, i)
    help_text = _PILE_CARD_HELP if pile else _CARD_HELP
    if "card" not in data:
        what = "adds" if pile else "plays"
        raise r.fail(table, "card", _MISSING, f"every rule names the cards it {what} with card = ...; " + help_text, i)
    value = data["card"]
    items = value if isinstance(value, list) else [value]
    word, other = ("take", "draw") if pile else ("draw", "take")  # a mini-pile rule takes the pile, a play rule draws
    draw = items == [word]
    if other in items:
        instead = ('a mini-pile rule takes the pile with card = "take" (it fires only when taking is allowed: nothing '
                   'may be added, or the rule option pileup_may_refuse).' if pile else
                   'a play rule draws instead with card = "draw"; "take" is for [[pile.rule]] (take the mini pile).')
        raise r.fail(table, "card", value, instead, i)
    if not draw and word in items:
        raise r.fail(table, "card", value, f'write card = "{word}" alone (a rule that names cards adds or plays one of '
                     f'them); put the cards in a rule of their own.', i)
    cards = np.zeros(N_TYPES, bool)
    if not draw:
        if not items:
            raise r.fail(table, "card", value, help_text, i)
        for item in items:
            mask = card_selector(item)
            if mask is None:
                raise r.fail(table, "card", value, help_text, i)
            cards |= mask
    conditions = r.conditions(table, data, allowed, i)
    if draw and "prefer" in data:
        raise r.fail(table, "prefer", data["prefer"], f'a "{word}" rule chooses no card, so it has no tie-break; remove prefer.', i)
    if conditions.colour_most >= 0:
        if draw:
            raise r.fail(table, "colour_held_most", data["colour_held_most"],
                         f'a "{word}" rule plays no card, so no card colour is tested; remove the condition.', i)
        if conditions.colour_most == 1 and not (cards & (CARD_COLOUR >= 0)).any():
            raise r.fail(table, "colour_held_most", True, "wild cards have no colour, so no card of this rule can match; "
                         "remove the condition or name coloured cards.", i)
    if conditions.high[VAR_HAND] < 1:
        raise r.fail(table, "hand_max", conditions.high[VAR_HAND], "a player deciding holds at least 1 card; use 1 or more.", i)
    prefer = r.prefer(table, data, default_prefer, i) if "prefer" in data else default_prefer
    label = data.get("name", "")
    if not isinstance(label, str):
        raise r.fail(table, "name", label, "use a quoted string.", i)
    if not label:
        label = ("take the pile" if pile else "draw instead") if draw else " or ".join(str(x) for x in items)
    return Rule(i, cards, draw, conditions, prefer, label, r.where.header(table, i))


TOP_KEYS = ["name", "description", "play", "pile", "drawn", "colour", "bluff", "challenge", "point_taken", "link", "jump_in", "uno"]
"""Keys and tables allowed at the top of a rule file."""


def parse_program(text: str, path: str = "<text>") -> RuleProgram:
    """Read and check a rule program from TOML ``text`` (``path`` names it in errors; a leading
    UTF-8 byte-order mark is dropped)."""
    text = text.removeprefix("\ufeff")
    try:
        data = inputs.parse_toml(text, f"rule file {path}")
    except tomllib.TOMLDecodeError as exc:
        raise RuleFileError(f"rule file {path} is not valid TOML: {exc}.") from None
    except inputs.InputFileError as exc:
        raise RuleFileError(str(exc)) from None
    r = _Reader(path, text)
    r.unknown("", data, TOP_KEYS)
    tables: dict[str, dict[str, Any]] = {}
    for key in TOP_KEYS[2:]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise r.fail("", key, value, f"{key} is a table: write [{key}] on its own line and its keys below it.")
        tables[key] = value
    name = r.text("", data, "name", Path(path).stem)
    description = r.text("", data, "description", "")

    play = tables["play"]
    r.unknown("play", play, ["prefer", "otherwise", "rule"])
    play_prefer = r.prefer("play", play, ("points",))
    otherwise = r.choice("play", play, "otherwise", OTHERWISE_CHOICES, "play")
    rules = play.get("rule", [])
    if not isinstance(rules, list):
        raise r.fail("play", "rule", rules, "write each rule as a [[play.rule]] table.")
    play_rules = tuple(_rule(r, "play.rule", i, d, play_prefer, False) for i, d in enumerate(rules))

    pile = tables["pile"]
    r.unknown("pile", pile, ["prefer", "rule"])
    pile_prefer = r.prefer("pile", pile, ("points",))
    rules = pile.get("rule", [])
    if not isinstance(rules, list):
        raise r.fail("pile", "rule", rules, "write each rule as a [[pile.rule]] table.")
    pile_rules = tuple(_rule(r, "pile.rule", i, d, pile_prefer, True) for i, d in enumerate(rules))

    drawn = tables["drawn"]
    r.unknown("drawn", drawn, ["play"])
    colour = tables["colour"]
    r.unknown("colour", colour, ["choose"])

    def optional(key: str, extra: list[str]) -> Conditions | None:
        t = tables[key]
        if key not in data:
            return None
        r.unknown(key, t, ["enabled", *_TABLE_CONDITIONS, *extra])
        enabled = t.get("enabled", True)
        if not isinstance(enabled, bool):
            raise r.fail(key, "enabled", enabled, "use true or false.")
        cond = r.conditions(key, t, [*_TABLE_CONDITIONS, *extra])
        return cond if enabled else None

    bluff = optional("bluff", [])
    challenge = optional("challenge", ["opponent_hand_min", "opponent_hand_max"])

    jump = tables["jump_in"]
    r.unknown("jump_in", jump, ["weight", *_TABLE_CONDITIONS])
    weight = r.number("jump_in", jump, "weight", 0.0, 1000.0, 1.0)
    if abs(round(weight * 1e6) - weight * 1e6) > 1e-3:
        raise r.fail("jump_in", "weight", jump.get("weight"), "use at most 6 decimals (e.g. 0.25).")
    weight = round(weight * 1e6) / 1e6  # the compiled interpreter holds it in millionths: the same number
    uno = tables["uno"]
    r.unknown("uno", uno, ["forget_rate", "catch_rate"])
    point_taken = tables["point_taken"]
    r.unknown("point_taken", point_taken, ["target"])
    link = tables["link"]
    r.unknown("link", link, ["pair"])
    return RuleProgram(
        name=name,
        source=path,
        play=play_rules,
        play_prefer=play_prefer,
        otherwise_draw=otherwise == "draw",
        pile=pile_rules,
        pile_prefer=pile_prefer,
        drawn=r.choice("drawn", drawn, "play", DRAWN_CHOICES, "legal"),
        colour=r.choice("colour", colour, "choose", COLOUR_CHOICES, "most"),
        bluff=bluff,
        challenge=challenge,
        point_taken=r.choice("point_taken", point_taken, "target", SEAT_CHOICES, "fewest"),
        link=r.choice("link", link, "pair", SEAT_CHOICES, "fewest"),
        jump_weight=weight,
        jump_conditions=r.conditions("jump_in", jump, _TABLE_CONDITIONS),
        forget_uno_rate=r.number("uno", uno, "forget_rate", 0.0, 1.0, 0.0),
        catch_uno_rate=r.number("uno", uno, "catch_rate", 0.0, 1.0, 1.0),
        description=description,
        text=text,
    )


def shipped_rule_files() -> list[str]:
    """Names of the rule files shipped in ``strategies/rules`` (play one as ``rules:NAME``)."""
    return sorted(p.stem for p in SHIPPED_DIR.glob("*.toml"))


def resolve_path(path_or_name: str) -> Path:
    """The file of a rule strategy: an existing path, or a shipped name (``wild-saver``)."""
    path = Path(path_or_name)
    if inputs.is_pinned(path) or path.is_file():
        return path
    shipped = SHIPPED_DIR / f"{path_or_name}.toml"
    if "/" not in str(path_or_name) and shipped.is_file():
        return shipped
    raise RuleFileError(
        f"rule file {str(path_or_name)!r} is neither a readable file nor a shipped rule strategy "
        f"({', '.join(shipped_rule_files())}); give the path of a rule TOML file (format: docs/rule_bots.md)."
    )


def load_program(path_or_name: str | Path) -> RuleProgram:
    """Read and check a rule file (a path, or the name of a shipped one).

    Raises
    ------
    RuleFileError
        A ``ValueError`` naming the file, the line, the key, the value and what is allowed.
    """
    path = resolve_path(str(path_or_name))
    try:
        text = inputs.read_text(path, "rule file")
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleFileError(f"rule file {path} cannot be read: {exc}.") from None
    except inputs.InputFileError as exc:
        raise RuleFileError(str(exc)) from None
    return parse_program(text, str(path_or_name))
