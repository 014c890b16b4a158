"""The strategy conformance suite: ``unosim check`` and [`unosim.check`][unosim.check].

Like scikit-learn's ``check_estimator``, one suite is run over any strategy
(a registered name, ``module:Class`` or ``name(param=value)``) to show that
the engine can use it everywhere:

``describable``
    ``get_params()`` returns exactly the constructor's keyword parameters with
    the values given (defaults otherwise), ``repr`` works, and the strategy is
    rebuilt from its parameters.
``picklable``
    A pickle round trip (as joblib and Dask workers need) gives an equal
    strategy that plays identical games.
``legal decisions``
    Every preset (classic, classic-house, party) and classic with the four
    house rules (``stacking=mixed``, ``seven_zero``, jump-ins with action
    cards, ``go_out_on_action=false``: the ``stack`` and ``swap_with``
    decisions) at 2, 6 and 16 players, the strategy in every seat and
    alternating with ``random``, plays complete games with every decision
    legal and card conservation checked.
``shapes and dtypes``
    Every answer has the shape and a numeric dtype the engine expects (the
    engine checks each answer; this check fails when it refuses one).
``deterministic``
    Two runs with the same seed give identical records.
``batch independent``
    Two batch sizes give identical records.
``fair play``
    At every table the strategy reads only the observation it is given and changes nothing
    else: no caller's frames, no search of the garbage collector (`unosim.engine.fair_play`),
    and after every step the hands, piles, other strategies' answers, the strategies and the
    rules are as they were (`unosim.engine.integrity`).

A failure names the check, the table, and (from the engine) the decision and
the game.
"""

from __future__ import annotations

import pickle
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..game.errors import UnosimInputError

HOUSE_RULES = ("stacking=mixed", "seven_zero=true", "speed_play=true", "jump_in_cards=numbers_and_actions", "go_out_on_action=false")
"""Rule overrides that switch on the four house rules (docs/rules.md §10, H-1 to H-4) together."""
RULE_SETS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("classic", "classic", ()),
    ("classic-house", "classic-house", ()),
    ("party", "party", ()),
    ("classic with house rules", "classic", HOUSE_RULES),
)
"""Rule sets the suite plays, as ``(label, preset, overrides)``: every preset, and classic with every house rule."""
PLAYER_COUNTS = (2, 6, 16)
"""Table sizes the suite plays."""
LINEUPS = ("alone", "mixed")
"""The strategy in every seat, or alternating with ``random`` (seat 0 is the strategy)."""
DECISIONS = (
    "play", "play_drawn", "choose_colour", "challenge", "forget_uno", "catch_uno",
    "point_at", "choose_link", "add_to_pile", "jump_in", "stack", "swap_with",
)  # fmt: skip
"""The decision methods of [`unosim.Strategy`][unosim.Strategy]."""
CHECKS = ("describable", "picklable", "legal decisions", "shapes and dtypes", "deterministic", "batch independent", "fair play")
"""The checks, in the order they are run and reported."""

_SHAPE_WORDS = ("expected an array of shape", "expected numbers", "expected whole numbers", "not finite")


@dataclass(frozen=True)
class Failure:
    """One failed check: which check, on which table, and the message."""

    check: str
    table: str
    message: str

    def __str__(self) -> str:
        where = f" ({self.table})" if self.table else ""
        return f"check {self.check!r} failed{where}: {self.message}"


@dataclass
class ConformanceReport:
    """What [`check`][unosim.check] found.

    Attributes
    ----------
    strategy : str
        The strategy spec checked.
    tables : int
        Tables (rule set × players × lineup) played.
    games : int
        Games played in all.
    seconds : float
        Wall time of the suite.
    passed : dict
        Check name to the number of times it passed.
    failures : list of Failure
        Every failed check (empty when the strategy conforms).
    """

    strategy: str
    tables: int = 0
    games: int = 0
    seconds: float = 0.0
    passed: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CHECKS, 0))
    failures: list[Failure] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no check failed."""
        return not self.failures

    def message(self) -> str:
        """The first failure as one paragraph, or a one-line success."""
        if self.ok:
            return f"strategy {self.strategy!r} passed every check ({self.tables} tables, {self.games:,} games)."
        more = len(self.failures) - 1
        tail = f" ({more} more failure{'s' * (more > 1)})" if more else ""
        return f"strategy {self.strategy!r}: {self.failures[0]}{tail}"

    def rows(self) -> list[tuple[str, str, str]]:
        """``(check, result, detail)`` per check, for a summary table."""
        out = []
        for name in CHECKS:
            failed = [f for f in self.failures if f.check == name]
            if failed:
                out.append((name, "FAIL", str(failed[0].message)))
            elif self.passed[name]:
                out.append((name, "ok", f"{self.passed[name]} passed"))
            else:
                out.append((name, "not run", "an earlier check failed"))
        return out


def _table_label(rule_set: str, players: int, lineup: str) -> str:
    return f"{rule_set}, {players} players, {lineup}"


def _config(spec: Any, preset: str, overrides: tuple[str, ...], players: int, lineup: str, seed: int, games: int) -> Any:
    from ..game.rules import RuleSet
    from .config import RunConfig

    seats = [str(spec) if lineup == "alone" or seat % 2 == 0 else "random" for seat in range(players)]
    copies = RuleSet.preset(preset).with_overrides(list(overrides)).copies_needed(players)
    return RunConfig.build(
        rules=preset, players=players, strategies=seats, seed=seed, games=games, overrides=[*overrides, f"deck_copies={copies}"]
    )


def _crash_message(exc: BaseException) -> str:
    """A strategy's own exception as one line naming the decision it came from."""
    frames = traceback.extract_tb(exc.__traceback__)
    decision = next((f.name for f in reversed(frames) if f.name in DECISIONS), None)
    where = f" in decision {decision!r}" if decision else ""
    last = frames[-1] if frames else None
    at = f" at {last.filename}:{last.lineno}" if last else ""
    return f"raised {type(exc).__name__}: {exc}{where}{at}"


def _play(config: Any, games: int, batch_size: int, strategies: list[Any] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Records and points of ``games`` games (every answer checked, card conservation checked)."""
    from .driver import Engine
    from .fair_play import Watch

    engine = Engine(config, batch_size=batch_size, check=True, compiled=False)
    if strategies is not None:
        engine.set_strategies(strategies, engine.strategy_labels, engine.lineup.tolist())
    engine.decisions.watch = Watch()
    played = engine.play(0, games)
    return played.rec[:games].copy(), played.points[:games].copy()


def _describable(spec: Any, report: ConformanceReport) -> Any:
    """Build the strategy, compare ``get_params()`` with the constructor, rebuild it; return it or None."""
    from ..strategy import registry

    cls = registry.resolve(spec.name)
    strategy = registry.make(spec.name, dict(spec.params))
    names = cls.param_names()
    params = strategy.get_params()
    problem = None
    if list(params) != names:
        problem = f"get_params() gives {sorted(params)}, the constructor takes {sorted(names)}"
    else:
        import inspect

        init = cls.__init__  # the constructor of this very class (inspect.signature(cls) would show the metaclass)
        defaults = {k: p.default for k, p in inspect.signature(init).parameters.items() if k in names}
        expected = {**defaults, **dict(spec.params)}
        wrong = [k for k in names if not _same(params[k], expected[k])]
        if wrong:
            k = wrong[0]
            problem = f"get_params()[{k!r}] is {params[k]!r}, the constructor was given {expected[k]!r}"
    if problem is None:
        text = repr(strategy)
        rebuilt = registry.make(spec.name, params)
        if repr(rebuilt) != text or not _same(rebuilt.get_params(), params):
            problem = f"rebuilt from get_params() it differs: {rebuilt!r} != {text}"
    if problem:
        report.failures.append(Failure("describable", "", problem))
        return None
    report.passed["describable"] += 1
    return strategy


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # e.g. arrays
        return repr(a) == repr(b)


def _picklable(strategy: Any, report: ConformanceReport) -> Any:
    """Pickle round trip; return the copy or None."""
    try:
        copy = pickle.loads(pickle.dumps(strategy))
    except Exception as exc:  # noqa: BLE001 - any failure to pickle is the finding
        report.failures.append(Failure("picklable", "", f"pickle round trip failed: {type(exc).__name__}: {exc}"))
        return None
    if type(copy) is not type(strategy) or repr(copy) != repr(strategy):
        report.failures.append(Failure("picklable", "", f"the pickled copy differs: {copy!r} != {strategy!r}"))
        return None
    return copy


def check(strategy: str | type, *, games: int = 12, seed: int = 0) -> ConformanceReport:
    """Run the conformance suite over one strategy (see the module doc for the checks).

    Parameters
    ----------
    strategy : str or type
        A registered name (``greedy``), an entry point (``mymodule:MyStrategy``),
        either with parameters (``greedy(forget_uno_rate=0.1)``), or a
        [`Strategy`][unosim.Strategy] subclass defined in an importable module.
    games : int
        Games per table (24 tables; kept small so that the suite takes seconds).
    seed : int
        Run seed of every table.

    Returns
    -------
    ConformanceReport
        ``report.ok`` is True when every check passed; ``report.message()``
        names the first failed check, the table, the decision and the game.

    Raises
    ------
    ValueError
        Before anything is played, for an unknown strategy or parameter (the
        message lists the known strategies) or a bad ``games``.
    """
    from ..strategy.spec import StrategySpec
    from .driver import StrategyError, TamperingError

    if isinstance(strategy, type):
        strategy = f"{strategy.__module__}:{strategy.__qualname__}"
    if isinstance(games, bool) or not isinstance(games, int) or not 2 <= games <= 100_000:
        raise UnosimInputError(f"games = {games!r}; give a whole number of games per table from 2 to 100000.")
    spec = StrategySpec.parse(str(strategy))
    report = ConformanceReport(strategy=str(spec))
    start = time.perf_counter()
    try:
        built = _describable(spec, report)
    except Exception as exc:  # noqa: BLE001 - e.g. get_params() reading an attribute the constructor never set
        report.failures.append(Failure("describable", "", f"get_params() failed: {type(exc).__name__}: {exc}"))
        built = None
    copy = _picklable(built, report) if built is not None else None
    if built is None:
        report.seconds = time.perf_counter() - start
        return report
    small = max(1, games // 3)
    for rule_set, preset, overrides in RULE_SETS:
        for players in PLAYER_COUNTS:
            for lineup in LINEUPS:
                label = _table_label(rule_set, players, lineup)
                config = _config(spec, preset, overrides, players, lineup, seed, games)
                report.tables += 1
                try:
                    rec, points = _play(config, games, small)
                    report.games += games
                    report.passed["legal decisions"] += 1
                    report.passed["shapes and dtypes"] += 1
                    report.passed["fair play"] += 1
                    if players == 6:  # determinism, batch size and the pickled copy: once per rule set and lineup
                        again = _play(config, games, small)
                        _compare(report, "deterministic", label, (rec, points), again, "a second run with the same seed")
                        other = _play(config, games, games)
                        _compare(report, "batch independent", label, (rec, points), other, f"batch size {games} (not {small})")
                        if copy is not None:
                            copies = _play(config, games, small, _copies(config))
                            _compare(report, "picklable", label, (rec, points), copies, "the pickled strategy")
                        report.games += 3 * games
                except TamperingError as exc:
                    report.failures.append(Failure("fair play", label, str(exc)))
                except StrategyError as exc:
                    name = "shapes and dtypes" if any(w in str(exc) for w in _SHAPE_WORDS) else "legal decisions"
                    report.failures.append(Failure(name, label, str(exc)))
                except Exception as exc:  # noqa: BLE001 - a strategy's crash is a finding, reported with its decision
                    report.failures.append(Failure("legal decisions", label, _crash_message(exc)))
                if report.failures:
                    report.seconds = time.perf_counter() - start
                    return report
    report.seconds = time.perf_counter() - start
    return report


def _copies(config: Any) -> list[Any]:
    """The table's strategies, each through a pickle round trip."""
    from ..strategy import registry

    specs = {str(s): s for s in config.strategies}
    return [pickle.loads(pickle.dumps(registry.make(s.name, dict(s.params)))) for s in specs.values()]


def _compare(report: ConformanceReport, name: str, label: str, first: tuple, second: tuple, what: str) -> None:
    """Record check ``name`` as passed when both runs gave identical records, else name the first game that differs."""
    rec_a, pts_a = first
    rec_b, pts_b = second
    differs = np.flatnonzero((rec_a != rec_b).any(axis=1) | (pts_a != pts_b).any(axis=1))
    if len(differs):
        report.failures.append(Failure(name, label, f"game {int(differs[0])} differs with {what}"))
    else:
        report.passed[name] += 1


__all__ = ["CHECKS", "ConformanceReport", "Failure", "check"]
