"""What a report rests on: rules (preset and every changed option), deck copies, strategies per
seat, games, seed and the unosim version, as text and tables every report opens with.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..game.names import code_span, text_line
from ..game.rules import PRESETS, RuleSet
from ..version import __version__

__all__ = ["BASIS_TITLE", "basis_lines", "changed_options", "copies_text", "dataset_basis", "describe_rules", "seats_text"]

BASIS_TITLE = "What this report rests on"
"""Title of the opening section of every report."""

_IGNORED = ("name",)


def _as_dict(rules: RuleSet | dict[str, Any]) -> dict[str, Any]:
    """The options of a rule set; a dict from metadata is read as it is (a dataset written by an
    older version may name options this one does not have)."""
    return rules.to_dict() if isinstance(rules, RuleSet) else dict(rules)


def changed_options(rules: RuleSet | dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The preset a rule set starts from and every option it changes.

    Parameters
    ----------
    rules : RuleSet or dict
        The rule set, or its [`RuleSet.to_dict`][unosim.RuleSet.to_dict] (as stored in a dataset's metadata).

    Returns
    -------
    preset : str
        The preset named by the rule set, or else the preset it differs least from.
    changes : dict
        Option name to value, for every option that differs from that preset.
    """
    values = _as_dict(rules)

    def diff(preset: RuleSet) -> dict[str, Any]:
        base = preset.to_dict()
        return {k: v for k, v in values.items() if k not in _IGNORED and (k not in base or base[k] != v)}

    name = str(values.get("name", ""))
    if name in PRESETS:
        return name, diff(PRESETS[name])
    preset = min(PRESETS, key=lambda p: len(diff(PRESETS[p])))
    return preset, diff(PRESETS[preset])


def describe_rules(rules: RuleSet | dict[str, Any]) -> str:
    """One line: the rule set's name, its preset and every changed option (``OPTION=VALUE``)."""
    name = str(_as_dict(rules).get("name", "?"))
    preset, changes = changed_options(rules)
    label = code_span(name) if name == preset else f"{code_span(name)} (from preset {code_span(preset)})"
    if not changes:
        return f"{label}, as shipped"
    return f"{label} with " + ", ".join(code_span(f"{k}={_value(v)}") for k, v in changes.items())


def _value(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def seats_text(strategies: list[Any]) -> str:
    """The strategy of each seat, ``"random at every seat"`` when they are all the same."""
    names = [text_line(str(s) if not isinstance(s, dict) else _spec_text(s)) for s in strategies]
    if len(set(names)) == 1:
        return f"{names[0]} at every seat"
    return ", ".join(f"seat {i}: {n}" for i, n in enumerate(names))


def _spec_text(spec: dict[str, Any]) -> str:
    from ..strategy.spec import StrategySpec

    return str(StrategySpec.from_dict(spec))


def basis_lines(*, rules: list[str], copies: str, seats: str, games: str, seed: Any,
                version: str | None = None, extra: list[str] | None = None) -> str:
    """The opening paragraph of a report as a Markdown list.

    Parameters
    ----------
    rules : list of str
        One line per rule set (`describe_rules`).
    copies : str
        Deck copies per cell.
    seats : str
        Strategies per seat.
    games : str
        Games played.
    seed : Any
        The seed.
    version : str, optional
        unosim version that wrote the data (default: this one).
    extra : list of str, optional
        Further ``label: text`` lines.
    """
    lines = ["- rules: " + ("; ".join(rules) if rules else "—"), f"- deck copies: {copies}",
             f"- strategies: {seats}", f"- games: {games}", f"- seed: {seed}",
             f"- unosim version: {version or __version__}"]
    lines += [f"- {e}" for e in extra or []]
    return "\n".join(lines)


_NUMBERS = ("no deck", "one deck", "two decks", "three decks", "four decks")


def _decks(n: int) -> str:
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else f"{n} decks"


def _counts(players: list[int]) -> str:
    """``[2, 3, 4, 7]`` -> ``"2–4 and 7 players"``."""
    runs: list[list[int]] = []
    for p in sorted(players):
        if runs and p == runs[-1][-1] + 1:
            runs[-1].append(p)
        else:
            runs.append([p])
    parts = [f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(str(p) for p in r) for r in runs]
    text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{text} player" + ("" if len(players) == 1 and players[0] == 1 else "s")


def copies_text(copies: dict[tuple[str, int], int]) -> str:
    """Deck copies per (rule set, players) in a few words: the usual number, then the exceptions.

    ``{("classic", 2): 1, ..., ("classic", 16): 2, ("classic-house", 16): 2, ("party", 16): 1}`` gives
    ``"one deck; two decks at 16 players for classic and classic-house"``.
    """
    if not copies:
        return "—"
    counts = list(copies.values())
    usual = max(set(counts), key=lambda k: (counts.count(k), -k))
    if len(copies) == 1:
        return _decks(usual)
    parts = [_decks(usual) if len(set(counts)) > 1 else f"{_decks(usual)} in every cell"]
    for k in sorted(set(counts) - {usual}):
        by_table: dict[tuple[int, ...], list[str]] = {}
        for rules in dict.fromkeys(r for r, _ in copies):
            tables = tuple(sorted(p for (r, p), c in copies.items() if r == rules and c == k))
            if tables:
                by_table.setdefault(tables, []).append(rules)
        clauses = [f"at {_counts(list(t))} for {', '.join(names[:-1]) + ' and ' + names[-1] if len(names) > 1 else names[0]}"
                   for t, names in by_table.items()]
        parts.append(f"{_decks(k).split()[0]} " + ", ".join(clauses))
    return "; ".join(parts)


def _configs(meta: dict[str, Any]) -> list[dict[str, Any]]:
    if meta.get("kind") == "experiment":
        return [dict(c["config"], cell=c.get("cell", i)) for i, c in enumerate(meta.get("cells", []))]
    return [dict(meta["config"], cell=0)]


def dataset_basis(meta: dict[str, Any]) -> tuple[str, pd.DataFrame | None]:
    """The opening text of a dataset's report and, for an experiment, a table of its cells.

    Parameters
    ----------
    meta : dict
        The dataset's metadata ([`unosim.runs.read_metadata`][unosim.runs.read_metadata]).

    Returns
    -------
    text : str
        Markdown list: rules, deck copies, strategies, games, seed, version.
    cells : pandas.DataFrame or None
        One row per cell (rules, players, deck copies, strategies, games, seed), or ``None``
        for a single run.
    """
    configs = _configs(meta)
    several = len(configs) > 1  # deck copies have a line of their own
    rules = list(dict.fromkeys(describe_rules({k: v for k, v in c["rules"].items() if k != "deck_copies"} if several
                                              else c["rules"]) for c in configs))
    copies = {(str(c["rules"]["name"]), int(c["players"])): int(c["rules"]["deck_copies"]) for c in configs}
    copy_text = copies_text(copies)
    seat_texts = list(dict.fromkeys(seats_text(c["strategies"]) for c in configs))
    games = sum(int(c["games"]) for c in configs)
    per_cell = {int(c["games"]) for c in configs}
    game_text = f"{games:,}" + (f" ({next(iter(per_cell)):,} per cell, {len(configs)} cells)" if len(configs) > 1
                                and len(per_cell) == 1 else "")
    seed = meta.get("experiment", {}).get("seed", configs[0]["seed"]) if meta.get("kind") == "experiment" \
        else configs[0]["seed"]
    extra = ["matches to the target score" if configs[0].get("match") else "single rounds"]
    text = basis_lines(rules=rules, copies=copy_text, seats="; ".join(seat_texts), games=game_text, seed=seed,
                       version=meta.get("unosim_version"), extra=extra)
    if meta.get("kind") != "experiment":
        return text, None
    cells = pd.DataFrame([{
        "cell": c["cell"], "rules": c["rules"]["name"], "players": c["players"], "deck copies": c["rules"]["deck_copies"],
        "strategies": seats_text(c["strategies"]), "games": c["games"], "seed": c["seed"],
    } for c in configs])
    return text, cells
