"""What ``unosim tune`` searches: a `SearchSpace` per kind of strategy.

A search space names the searched parameters, maps a point of the unit cube
(what CMA-ES searches) onto their values, starts at a given point, builds the
strategy a parameter set plays, and writes the tuned strategy as a file that
``--strategies`` plays. `make_space` picks the space of a ``strategy``
argument:

``tunable`` (the default)
    `TunableSpace`: the parameters of `unosim.strategies.tunable`
    that the rule set can make matter, each mapped linearly onto its range;
    written as ``tuned.json`` (``--strategies tuned:OUT/tuned.json``).
``rules:FILE``
    `RuleSpace`: the numeric thresholds written in a rule file
    (`unosim.analysis.thresholds`); written as ``tuned.toml``, the file's
    text with the tuned numbers (``--strategies rules:OUT/tuned.toml``).
"""

from __future__ import annotations

import copy
import json
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..game.errors import UnosimInputError
from ..game.rules import RuleSet
from ..strategy.base import Strategy
from ..strategy.spec import StrategySpec

__all__ = ["RuleSpace", "SearchSpace", "TunableSpace", "make_space"]


class SearchSpace(ABC):
    """The parameters a tuning run searches and how a parameter set becomes a strategy.

    Attributes
    ----------
    names : tuple of str
        The searched parameters, in the order of the search vector.
    start : dict
        The starting parameters (for ``tunable``: every parameter; the unsearched keep these values).
    placeholder : StrategySpec
        A strategy of this kind, seated for the engine's configuration before candidates are swapped in.
    file_name : str
        Name of the tuned strategy's file in the output directory.
    prefix : str
        The ``--strategies`` prefix that plays that file (``tuned``, ``rules``).
    """

    names: tuple[str, ...]
    start: dict[str, float]
    placeholder: StrategySpec
    file_name: str
    prefix: str

    def x0(self) -> NDArray[np.float64]:
        """The start as a point of the unit cube."""
        return np.clip(self.to_vector(self.start), 0.0, 1.0)

    @abstractmethod
    def to_vector(self, params: dict[str, float]) -> NDArray[np.float64]:
        """Unit-cube coordinates of ``params`` (one per searched parameter)."""

    @abstractmethod
    def params(self, x: NDArray[np.floating]) -> dict[str, float]:
        """The parameter set at unit-cube point ``x`` (clipped to the cube)."""

    @abstractmethod
    def strategy(self, params: dict[str, float]) -> Strategy:
        """The strategy playing ``params``."""

    @abstractmethod
    def identity(self) -> dict[str, Any]:
        """What decides the search besides the table and the budget (JSON-able; compared when resuming)."""

    @abstractmethod
    def describe(self) -> str:
        """What is tuned, for the summary (Markdown)."""

    @abstractmethod
    def render(self, params: dict[str, float], tuned: dict[str, Any], evaluation: dict[str, Any], out: Path) -> str:
        """The text of the tuned strategy's file ``out / file_name``; ``tuned`` holds the settings (``rules_text``
        describes the rule set) and ``evaluation`` the held-out figures."""

    def play_spec(self, path: Path) -> str:
        """The ``--strategies`` entry that plays the file `render` wrote at ``path``."""
        return f"{self.prefix}:{path}"


class TunableSpace(SearchSpace):
    """The ``tunable`` strategy's parameters that ``rules`` at ``players`` can make matter, or the ``search`` ones.

    ``start`` sets some parameters (default: the strategy's defaults), or is a tuned-strategy file; ``search``
    names the parameters to search (default: `unosim.strategies.tunable.relevant`).
    """

    file_name = "tuned.json"
    prefix = "tuned"

    def __init__(self, rules: RuleSet, players: int, start: dict[str, float] | str | Path | None = None,
                 search: list[str] | tuple[str, ...] | None = None) -> None:
        from unosim.strategies import tunable

        if search is None:
            self.names = tuple(tunable.relevant(rules, players))
        else:
            unknown = [name for name in search if name not in tunable.NAMES]
            if unknown or not search or len(set(search)) < len(search):
                what = f"unknown parameter {unknown[0]!r}" if unknown else ("nothing" if not search else "a parameter twice")
                raise UnosimInputError(f"search names {what}; give distinct parameters of tunable, comma-separated, e.g. "
                                 f"--only look_action,look_colour_share (all: {', '.join(tunable.NAMES)}).")
            self.names = tuple(search)
        values = tunable.load_tuned(start)["params"] if isinstance(start, (str, Path)) else start
        self.start = dict(tunable.DEFAULTS)
        if values is not None:
            unknown = sorted(set(values) - set(tunable.NAMES))
            if unknown:
                raise UnosimInputError(f"start: unknown parameter {unknown[0]!r}; the parameters are: {', '.join(tunable.NAMES)}.")
            self.start.update({k: float(v) for k, v in values.items()})
        tunable.TunableStrategy(**self.start)  # refuses a value out of its range, naming it
        self.placeholder = StrategySpec("tunable")

    def to_vector(self, params: dict[str, float]) -> NDArray[np.float64]:
        from unosim.strategies import tunable

        return tunable.to_vector(params, self.names)

    def params(self, x: NDArray[np.floating]) -> dict[str, float]:
        from unosim.strategies import tunable

        return tunable.to_params(x, self.names, self.start)

    def strategy(self, params: dict[str, float]) -> Strategy:
        from unosim.strategies.tunable import TunableStrategy

        return TunableStrategy(**params)

    def identity(self) -> dict[str, Any]:
        return {"start": self.start, "names": list(self.names)}

    def describe(self) -> str:
        return "`tunable`"

    def render(self, params: dict[str, float], tuned: dict[str, Any], evaluation: dict[str, Any], out: Path) -> str:
        from unosim.strategies.tunable import FORMAT

        data = {"format": FORMAT, "strategy": "tunable", "name": tuned["name"], "params": params,
                "tuned": {k: v for k, v in tuned.items() if k not in ("name", "rules_text")}, "evaluation": evaluation}
        return json.dumps(data, indent=2) + "\n"


class RuleSpace(SearchSpace):
    """The numeric thresholds written in a rule file that ``rules`` let matter (`unosim.analysis.thresholds`),
    starting from the file's values.

    Raises
    ------
    ValueError
        When the file cannot be read or played, or writes no number to tune.
    """

    file_name = "tuned.toml"
    prefix = "rules"

    def __init__(self, path: str, rules: RuleSet) -> None:
        from ..strategy.rule_language import load_program
        from ..strategy.rule_strategy import RuleStrategy
        from .thresholds import find_thresholds, matters

        self.path = path
        self.program = load_program(path)  # names the line of a bad file
        self.text = self.program.text
        written = find_thresholds(self.text, path)
        self.thresholds = [t for t in written if matters(t, rules)]
        if not self.thresholds:
            unused = (f" (it writes {', '.join(t.name for t in written)}, which cannot change a game under these rules: "
                      "mini-pile rules need a Wild Pile-Up, [bluff] and [challenge] need wd4_challenge, [jump_in] "
                      "needs speed_play)") if written else ""
            raise UnosimInputError(
                f"strategy = rules:{path}: the rule file writes no numeric threshold to tune{unused}; tuning searches "
                "the numbers a file writes: condition bounds (NAME_min / NAME_max of a [[play.rule]], [[pile.rule]], "
                "[bluff], [challenge] or [jump_in]) and [jump_in] weight. Write the thresholds to tune into the "
                "file (e.g. hand_min = 3 on a rule), or tune the tunable strategy (--strategy tunable)."
            )
        self.names = tuple(t.name for t in self.thresholds)
        self.start = {t.name: t.start for t in self.thresholds}
        self.placeholder = StrategySpec.parse(f"rules:{path}")
        self._base = RuleStrategy(path=path)

    def to_vector(self, params: dict[str, float]) -> NDArray[np.float64]:
        return np.asarray([t.coordinate(params[t.name]) for t in self.thresholds], np.float64)

    def params(self, x: NDArray[np.floating]) -> dict[str, float]:
        from .thresholds import repair

        values = repair(self.thresholds, [t.value(v) for t, v in zip(self.thresholds, np.asarray(x), strict=True)])
        return dict(zip(self.names, values, strict=True))

    def text_of(self, params: dict[str, float]) -> str:
        """The rule file's text with ``params`` written in."""
        from .thresholds import read_values, substitute

        values = [params[name] for name in self.names]
        text = substitute(self.text, self.thresholds, values)
        assert read_values(text, self.thresholds) == values, "a threshold was not rewritten where it was found"
        return text

    def strategy(self, params: dict[str, float]) -> Strategy:
        from ..strategy.rule_language import parse_program

        candidate = copy.copy(self._base)  # the same file, its numbers replaced
        candidate.program = parse_program(self.text_of(params), self.path)
        return candidate

    def identity(self) -> dict[str, Any]:
        return {"strategy": f"rules:{self.path}", "text": self.text, "start": self.start, "names": list(self.names)}

    def describe(self) -> str:
        return f"rule file `{self.path}`"

    def render(self, params: dict[str, float], tuned: dict[str, Any], evaluation: dict[str, Any], out: Path) -> str:
        from ..strategy.rule_language import parse_program

        ev = evaluation
        changes = ", ".join(f"{n} {self.start[n]:g} → {params[n]:g}" for n in self.names)
        header = [
            f"# Tuned by `unosim tune --strategy rules:{self.path}` (label {tuned['name']!r}): {tuned['rules_text']} rules, "
            f"{tuned['players']} players, against {tuned['against']};",
            f"# seed {tuned['seed']}, budget {tuned['budget']:,} games: {tuned['generations']} generations of "
            f"{tuned['popsize']} candidates × {tuned['games_per_candidate']:,} games ({tuned['games']:,} games).",
            f"# Held-out win rate {ev['win_rate']:.4f} [{ev['low']:.4f}, {ev['high']:.4f}] (95 %, {ev['games']:,} games on "
            f"fresh deals, seed {ev['seed']}; fair share {ev['fair_share']:.4f});",
            f"# the file as written: {ev['start_win_rate']:.4f} [{ev['start_low']:.4f}, {ev['start_high']:.4f}]; "
            f"paired improvement {ev['improvement']:+.4f} [{ev['improvement_low']:+.4f}, {ev['improvement_high']:+.4f}].",
            f"# Tuned: {changes}.",
        ]
        text = "\n".join(header) + "\n\n" + self.text_of(params)
        parse_program(text, str(out / self.file_name))  # it plays
        return text


def make_space(strategy: str, rules: RuleSet, players: int, start: dict[str, float] | str | Path | None,
               search: list[str] | tuple[str, ...] | None = None) -> SearchSpace:
    """The search space of ``strategy``: ``"tunable"`` or ``"rules:FILE"`` (module docstring); ``search``: the
    ``tunable`` parameters to search (default: those the rules let matter).

    Raises
    ------
    ValueError
        For a strategy that cannot be tuned, a ``start`` or ``search`` given with a rule file, or an unknown name.
    """
    text = str(strategy).strip()
    if text == "tunable":
        return TunableSpace(rules, players, start, search)
    if text.startswith("rules:") and text[len("rules:"):].strip():
        if search is not None:
            raise UnosimInputError("search applies to the tunable strategy only; a rule file is tuned on every threshold "
                             "written in it: write only those to tune, or drop --only.")
        if start is not None:
            raise UnosimInputError(
                f"start = {str(start)!r} applies to the tunable strategy only; a rule file is tuned from the numbers "
                "written in it: edit them, or give another file as --strategy rules:FILE."
            )
        return RuleSpace(text[len("rules:"):].strip(), rules)
    raise UnosimInputError(
        f"strategy = {text!r} cannot be tuned; give tunable (the default: its numeric parameters) or rules:FILE "
        "(the numeric thresholds written in a rule file, e.g. --strategy rules:bots/holder.toml)."
    )
