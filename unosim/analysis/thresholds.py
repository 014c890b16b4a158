"""The numeric thresholds written in a rule file, for ``unosim tune --strategy rules:FILE``.

`find_thresholds` lists every number of a rule file that tuning searches,
each a `Threshold` with its range and the line it is written on;
`substitute` writes new values into the file's text, keeping everything
else (comments, layout, the numbers not searched) as written.

What is searched
----------------
Only numbers the file writes (a bound left open, or a key left at its default,
stays so):

* every numeric condition bound (``NAME_min`` / ``NAME_max``) of a
  ``[[play.rule]]``, a ``[[pile.rule]]``, ``[bluff]``, ``[challenge]`` and
  ``[jump_in]``: whole numbers, hand-size bounds over 0..20 (``hand_max`` over
  1..20: a player deciding holds a card), ``players_min`` / ``players_max``
  over 2..16; a range is widened to the file's value when that lies beyond it;
* ``[jump_in] weight``: 0..1 (widened to the file's value when above 1), at most 6 decimals.

Of these, only those the rule set lets matter (`matters`): mini-pile rules
with a Wild Pile-Up in the deck, ``[bluff]`` / ``[challenge]`` with Wild Draw
Four challenges, ``[jump_in]`` with speed play; a table with ``enabled = false``
is left out.

The ``[uno]`` rates are not searched: they model a player's slips (the best
values are known, never forget and always catch), and a ``forget_rate`` above 0
is played through Python, far slower.

A candidate whose ``NAME_min`` lies above its ``NAME_max`` (or ``non_wild_min``
above ``hand_max``) has the minimum lowered to the maximum, so that every
candidate is a valid file.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..strategy.rule_language import VARIABLES, KeyLocator, RuleFileError

__all__ = [
    "HAND_RANGE", "PLAYERS_RANGE", "WEIGHT_RANGE", "Threshold", "find_thresholds", "matters", "read_values", "repair",
    "substitute",
]

HAND_RANGE = (0, 20)
"""Range searched for a card-count bound (``hand_max``: from 1)."""
PLAYERS_RANGE = (2, 16)
"""Range searched for ``players_min`` / ``players_max``."""
WEIGHT_RANGE = (0.0, 1.0)
"""Range searched for ``[jump_in] weight``."""

_CONDITION_KEYS = [f"{v}_{bound}" for v in VARIABLES for bound in ("min", "max")]
_NUMBER = r"[-+]?[0-9][0-9_]*(?:\.[0-9_]+)?(?:[eE][-+]?[0-9_]+)?"


@dataclass(frozen=True)
class Threshold:
    """One number of a rule file that tuning searches.

    ``name`` is how it is reported (``play.rule[2].hand_min``, ``jump_in.weight``);
    ``table``/``index``/``key`` locate it (``index`` 0-based for ``[[...]]`` rules, else None);
    ``line`` is its 1-based line in the text; ``integer`` says whether values are whole numbers.
    """

    name: str
    table: str
    index: int | None
    key: str
    low: float
    high: float
    start: float
    integer: bool
    line: int

    def value(self, x: float) -> float:
        """The value at unit-cube coordinate ``x`` (clipped to [0, 1]): whole numbers rounded half up, weights to 6 decimals."""
        v = self.low + (self.high - self.low) * min(max(float(x), 0.0), 1.0)
        return int(math.floor(v + 0.5)) if self.integer else round(v, 6)

    def coordinate(self, value: float) -> float:
        """Inverse of `value`: the unit-cube coordinate of ``value``."""
        return (float(value) - self.low) / (self.high - self.low)


def _written(data: dict[str, Any]) -> list[tuple[str, int | None, dict[str, Any]]]:
    """The tables of a parsed rule file that hold condition bounds: (table, rule index or None, its keys)."""
    out: list[tuple[str, int | None, dict[str, Any]]] = []
    for table in ("play", "pile"):
        for i, rule in enumerate(data.get(table, {}).get("rule", [])):
            out.append((f"{table}.rule", i, rule))
    for table in ("bluff", "challenge", "jump_in"):
        if table in data and data[table].get("enabled", True) is not False:  # a table switched off decides nothing
            out.append((table, None, data[table]))
    return out


def _range(key: str, value: float) -> tuple[float, float, bool]:
    if key == "weight":
        return WEIGHT_RANGE[0], max(WEIGHT_RANGE[1], value), False
    low, high = PLAYERS_RANGE if key.startswith("players_") else HAND_RANGE
    if key == "hand_max":
        low = 1
    return min(low, value), max(high, value), True


def find_thresholds(text: str, path: str = "<text>") -> list[Threshold]:
    """Every number of the rule file ``text`` that tuning searches (module docstring), in the order written.

    The file is expected to be valid ([`parse_program`][unosim.strategy.parse_program] it first).

    Raises
    ------
    RuleFileError
        When a searched key is not written as ``key = number`` on a line of its own table (e.g. inside an
        inline table), so that its value cannot be substituted.
    """
    data = tomllib.loads(text)
    where = KeyLocator(text)
    found = []
    for table, index, keys in _written(data):
        names = [k for k in _CONDITION_KEYS if k in keys] + (["weight"] if table == "jump_in" and "weight" in keys else [])
        for key in names:
            value = keys[key]
            label = f"{table}[{index + 1}].{key}" if index is not None else f"{table}.{key}"
            line = where.key(table, key, index) if where.header(table, index) else 0
            if not line or not _pattern(key).match(where.lines[line - 1]):
                raise RuleFileError(
                    f"rule file {path}: {label} = {value!r} cannot be tuned where it is written; write it as "
                    f"{key} = {value!r} on a line of its own below the [{'[' if index is not None else ''}{table}"
                    f"{']' if index is not None else ''}] header (not in an inline table), so that tuning can rewrite it."
                )
            low, high, integer = _range(key, float(value))
            found.append(Threshold(label, table, index, key, low, high, value, integer, line))
    return sorted(found, key=lambda t: t.line)


def matters(threshold: Threshold, rules: Any) -> bool:
    """Whether ``threshold`` can change a game under ``rules`` (a [`RuleSet`][unosim.RuleSet]).

    Mini-pile rules need a deck with a Wild Pile-Up, ``[bluff]`` and ``[challenge]`` need challenges and a
    deck with a Wild Draw Four, ``[jump_in]`` needs speed play; the play rules always matter.
    """
    from ..game.cards import CARD_KIND, KIND_NAMES

    counts = np.asarray(rules.load_deck().counts)

    def held(kind: str) -> bool:
        return bool(counts[CARD_KIND == KIND_NAMES.index(kind)].sum())

    if threshold.table == "pile.rule":
        return held("wild_pile_up")
    if threshold.table in ("bluff", "challenge"):
        return bool(rules.wd4_challenge) and held("wild_draw_four")
    if threshold.table == "jump_in":
        return bool(rules.speed_play)
    return True


def _pattern(key: str) -> re.Pattern[str]:
    return re.compile(rf"^(\s*[\"']?{re.escape(key)}[\"']?\s*=\s*)({_NUMBER})(?=\s*(?:#|$))")


def repair(thresholds: list[Threshold], values: list[float]) -> list[float]:
    """``values`` with every minimum above its maximum (same table and rule) lowered to it (``non_wild_min`` to ``hand_max``)."""
    out = list(values)
    at = {(t.table, t.index, t.key): i for i, t in enumerate(thresholds)}
    pairs = [(f"{v}_min", f"{v}_max") for v in VARIABLES] + [("non_wild_min", "hand_max")]
    for t in thresholds:
        for lo_key, hi_key in pairs:
            if t.key != lo_key:
                continue
            hi = at.get((t.table, t.index, hi_key))
            if hi is not None:
                lo = at[(t.table, t.index, lo_key)]
                out[lo] = min(out[lo], out[hi])
    return out


def substitute(text: str, thresholds: list[Threshold], values: list[float]) -> str:
    """``text`` with each threshold's number replaced by its value (whole numbers as integers); all else kept."""
    lines = text.splitlines(keepends=True)
    for t, value in zip(thresholds, values, strict=True):
        shown = str(int(value)) if t.integer else repr(float(value))
        line = lines[t.line - 1]
        m = _pattern(t.key).match(line)
        assert m is not None, f"{t.name} is no longer written on line {t.line}"
        lines[t.line - 1] = m.group(1) + shown + line[m.end():]
    return "".join(lines)


def read_values(text: str, thresholds: list[Threshold]) -> list[float]:
    """The values the thresholds have in ``text`` (checks a substitution)."""
    data = tomllib.loads(text)
    out = []
    for t in thresholds:
        table: dict[str, Any] = data
        for part in t.table.split("."):
            table = table[part]
        entry: dict[str, Any] = table[t.index] if t.index is not None else table  # type: ignore[index]
        out.append(entry[t.key])
    return out
