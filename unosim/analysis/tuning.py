"""Strategy tuning: ``unosim tune`` and [`unosim.tune`][unosim.tune].

Searches the parameters of a strategy for the highest win rate against a field
of opponents, under a rule set and a player count, with CMA-ES (the ``cma``
package): by default the ``tunable`` strategy (`unosim.strategies.tunable`),
or, with ``strategy="rules:FILE"``, the numeric thresholds written in a rule file
(`unosim.analysis.thresholds`). `unosim.analysis.search_space` holds what differs.

Search space
------------
A candidate is a vector ``x`` in the unit cube, one coordinate per *searched*
parameter. For ``tunable``: those of `unosim.strategies.tunable.PARAMETERS`
that the rule set can make matter (`unosim.strategies.tunable.relevant`:
party cards only with a party deck, challenge thresholds only with challenges,
jump-ins only with speed play); coordinate ``x[i]`` maps linearly onto the
parameter's range (`unosim.strategies.tunable.to_params`); the others keep
the starting values. For a rule file: every condition bound and the jump-in
weight the file writes, each over its range (whole numbers rounded from the
coordinate). CMA-ES starts at the starting parameters (default: the strategy's
defaults; a rule file's own numbers) with step size ``sigma`` (default 0.25, a
quarter of every range) and bounds [0, 1].

Fitness
-------
A candidate's fitness is its win rate (the share of its seat-games it won) on
``deals`` deals, each played once per *seating*: the candidate at seat ``r``
(``r = 0 .. P-1``) and the field's strategies filling the other seats in turn
(seat ``r + 1 + k`` holds ``field[(k + r) % len(field)]``), so that it plays
every seat equally often. Generation ``g`` plays the deals ``g·D .. (g+1)·D - 1``
of the search seed: every candidate of a generation meets the same deals
(common random numbers, so their comparison is paired) and every generation new
ones. The budget counts games (deals × seatings × candidates per generation).

Result
------
The tuned candidate is the mean of the final search distribution (CMA-ES's
estimate of the optimum, less noisy than the best single evaluation). It and the
starting point are evaluated on the same ``evaluation_games`` games of a seed never
used by the search, with deal-clustered 95 % intervals and their paired
difference. Written to ``out``: ``tuned.json`` (the parameters, which
``--strategies tuned:OUT/tuned.json`` plays, with the settings and the held-out
figures) or, for a rule file, ``tuned.toml`` (the file with the tuned numbers and a
header comment of the settings and held-out figures, which ``--strategies
rules:OUT/tuned.toml`` plays), ``summary.md``, ``history.csv`` and the progress plot ``progress.png``
/ ``.svg`` (best and mean fitness per generation with 95 % intervals; the best of a generation is
biased upwards by the selection, which is why the tuned candidate is judged on held-out deals).

Resume and reproducibility
--------------------------
Every generation's candidates and fitness values and the history are saved to
``out/state.json`` (plain JSON: nothing in it can run code) after every generation;
running the same command again rebuilds the optimiser by replaying those
generations from the seed (the candidates asked must equal the ones stored,
bit for bit) and continues from there (a larger ``budget`` adds generations),
ending with the same result as an uninterrupted run. The same seed and settings give the same
result, whatever ``jobs`` and backend (`play_candidates`: loky processes or Dask workers share out each
candidate's deals, and every game depends only on its deal).
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ..engine.config import MAX_GAMES, RunConfig, whole_number
from ..game.errors import UnosimInputError
from ..game.kernels import layout as L
from ..game.rules import RuleSet
from ..game.table import Table
from ..runs.options import IN_PROCESS, Execution
from ..strategy.spec import StrategySpec, parse_strategies, split_top_level
from .search_space import SearchSpace, make_space
from .tournament import Z95, cluster_ratio

STATE_FILE = "state.json"
STATE_FORMAT = "unosim-tune-state"
STATE_VERSION = 1
TUNED_FILE = "tuned.json"
DEFAULT_SIGMA = 0.25
DEFAULT_GAMES_PER_CANDIDATE = 2000
DEFAULT_EVALUATION_GAMES = 100_000
EVALUATION_PIECE_DEALS = 50_000
"""Deals the held-out evaluation plays at a time (`evaluate`)."""
_SEARCH, _EVALUATION = 0, 1  # spawn keys of the search and evaluation seeds


class _Normal:
    """``randn(*shape)`` drawing from its own generator (CMA-ES's ``randn`` option)."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(2,)))

    def __call__(self, *shape: int) -> NDArray[np.float64]:
        return self.rng.standard_normal(shape)


def _derived_seed(seed: int, key: int) -> int:
    return int(np.random.SeedSequence(seed, spawn_key=(key,)).generate_state(1, np.uint32)[0])


# ------------------------------------------------------------------ settings
@dataclass(frozen=True)
class TuneSettings:
    """A validated tuning request (see the module docstring)."""

    rules: RuleSet
    players: int
    field: tuple[StrategySpec, ...]
    budget: int
    seed: int
    popsize: int
    deals: int
    sigma: float
    space: SearchSpace
    evaluation_deals: int
    label: str

    @property
    def start(self) -> dict[str, float]:
        """The starting parameters."""
        return self.space.start

    @property
    def names(self) -> tuple[str, ...]:
        """The searched parameters."""
        return self.space.names

    @property
    def seatings(self) -> int:
        """Seatings each deal is played in: the candidate at every seat."""
        return self.players

    @property
    def games_per_generation(self) -> int:
        """Games one generation plays (candidates × deals × seatings)."""
        return self.popsize * self.deals * self.seatings

    @property
    def generations(self) -> int:
        """Whole generations the budget allows."""
        return self.budget // self.games_per_generation

    @property
    def search_seed(self) -> int:
        """Run seed of the search's deals."""
        return _derived_seed(self.seed, _SEARCH)

    @property
    def evaluation_seed(self) -> int:
        """Run seed of the held-out evaluation (never used by the search)."""
        return _derived_seed(self.seed, _EVALUATION)

    def lineup(self, seating: int) -> tuple[int, ...]:
        """Per seat: -1 for the candidate, else the index of the field strategy sitting there."""
        m = len(self.field)
        seats = [-1] * self.players
        for k in range(self.players - 1):
            seats[(seating + 1 + k) % self.players] = (k + seating) % m
        return tuple(seats)

    def config(self, seating: int, seed: int) -> RunConfig:
        """The run of ``seating`` (the start's kind of strategy in the candidate's seat), games of ``seed``."""
        placeholder = self.space.placeholder
        specs = tuple(placeholder if k < 0 else self.field[k] for k in self.lineup(seating))
        return RunConfig(rules=self.rules, players=self.players, strategies=specs, seed=seed, games=1)

    def identity(self) -> dict[str, Any]:
        """Everything that decides the search's generations (the budget only decides how many)."""
        return {
            "rules": self.rules.to_dict(), "players": self.players, "field": [str(s) for s in self.field],
            "seed": self.seed, "popsize": self.popsize, "deals": self.deals, "sigma": self.sigma,
            **self.space.identity(),
        }


def _whole(name: str, value: Any, low: int, flag: str) -> int:
    """``value`` as an ``int`` (a NumPy integer too), at least ``low`` and at most `MAX_GAMES`."""
    return whole_number(name, value, low, MAX_GAMES, flag)


def make_settings(
    *,
    rules: str | RuleSet = "classic",
    players: int = 2,
    against: str | list[str] | tuple[str, ...] = "random",
    budget: int = 1_000_000,
    seed: int = 0,
    overrides: str | list[str] | dict[str, Any] | None = None,
    deck: str | None = None,
    popsize: int | None = None,
    games_per_candidate: int = DEFAULT_GAMES_PER_CANDIDATE,
    sigma: float = DEFAULT_SIGMA,
    start: dict[str, float] | str | Path | None = None,
    evaluation_games: int = DEFAULT_EVALUATION_GAMES,
    name: str = "tuned",
    strategy: str = "tunable",
    search: str | list[str] | tuple[str, ...] | None = None,
) -> TuneSettings:
    """Validate a tuning request before any game is played.

    Parameters
    ----------
    rules, players, overrides, deck
        As for [`unosim.simulate`][unosim.simulate].
    against : str or list
        The field: one or more strategies, comma-separated (``"random"``, ``"random,greedy,attacker"``).
    budget : int
        Games the search may play in all (whole generations of
        ``popsize × games_per_candidate`` games).
    seed : int
        Seed of the search and (through a derived seed) of the held-out evaluation.
    popsize : int, optional
        Candidates per generation (default CMA-ES's ``4 + 3 ln(n)`` for ``n`` searched parameters).
    games_per_candidate : int
        Games each candidate plays per generation (rounded up to whole deals × seatings).
    sigma : float
        Initial step size, as a share of every parameter's range.
    start : dict or path, optional
        Starting parameters of ``tunable`` (default: the strategy's defaults), or a tuned-strategy file
        (a rule file starts from its own numbers; refused with one).
    evaluation_games : int
        Held-out games for the tuned candidate and the starting point each.
    name : str
        Label of the tuned strategy (in ``tuned.json`` / ``tuned.toml`` and error messages).
    strategy : str
        What to tune: ``"tunable"`` (default) or ``"rules:FILE"``, the numeric thresholds written in a
        rule file (a path, or a shipped name); see `unosim.analysis.thresholds` for what is searched.
    search : str or list of str, optional
        ``tunable`` only: the parameters to search (comma-separated or a list; default: every parameter the
        rules let matter, `unosim.strategies.tunable.relevant`); the others keep their ``start`` values.


    Returns
    -------
    TuneSettings

    Raises
    ------
    ValueError
        For any bad value, naming it and what is allowed.
    """
    base = Table.build(rules, players, overrides, deck)
    players = base.players
    seed = RunConfig(base.rules, players, parse_strategies("random", players), seed=seed).seed  # checked as for any run
    items = split_top_level(against) if isinstance(against, str) else [str(a) for a in against]
    if not items:
        raise UnosimInputError("--against is empty; give the opponents, e.g. --against random or --against random,greedy,attacker.")
    field_specs = tuple(StrategySpec.parse(item) for item in items)
    games_per_candidate = _whole("games_per_candidate", games_per_candidate, 1, "--games-per-candidate")
    evaluation_games = _whole("evaluation_games", evaluation_games, 1, "--evaluation-games")
    budget = _whole("budget", budget, 1, "--budget")
    if isinstance(search, str):
        search = [name.strip() for name in search.split(",") if name.strip()]
    space = make_space(strategy, base.rules, players, start, search)
    if popsize is None:
        popsize = 4 + int(3 * math.log(len(space.names)))
    popsize = _whole("popsize", popsize, 2, "--popsize")
    if isinstance(sigma, bool) or not isinstance(sigma, (int, float)) or not 0 < sigma <= 1:
        raise UnosimInputError(f"sigma = {sigma!r}; give the initial step size as a share of every parameter's range, "
                         "above 0 and at most 1 (default 0.25).")
    deals = -(-games_per_candidate // players)
    settings = TuneSettings(
        rules=base.rules, players=players, field=field_specs, budget=budget, seed=seed, popsize=popsize, deals=deals,
        sigma=float(sigma), space=space, evaluation_deals=-(-evaluation_games // players),
        label=name,
    )
    if settings.generations < 1:
        raise UnosimInputError(
            f"budget = {budget:,} games is less than one generation ({popsize} candidates × {deals:,} deals × "
            f"{players} seatings = {settings.games_per_generation:,} games); raise --budget or lower "
            "--popsize / --games-per-candidate."
        )
    return settings


# ------------------------------------------------------------------ evaluation
class Evaluator:
    """Plays candidates against the field: one engine per seating, the candidate swapped in."""

    def __init__(self, settings: TuneSettings, seed: int, isolate: bool = False) -> None:
        from ..engine.driver import Engine, make_strategy

        self.settings = settings
        self._field_labels = [str(s) for s in settings.field]
        self._field = [make_strategy(s, isolate) for s in settings.field]
        self.engines = [(Engine(settings.config(r, seed), isolate=isolate), settings.lineup(r)) for r in range(settings.players)]

    def win_counts(self, params: dict[str, float], first: int, deals: int) -> NDArray[np.int64]:
        """Wins of the candidate per deal (summed over the seatings) on deals ``first .. first + deals - 1``."""
        candidate = self.settings.space.strategy(params)
        wins = np.zeros(deals, np.int64)
        for engine, lineup in self.engines:
            strategies = [candidate, *self._field]
            labels = [self.settings.label, *self._field_labels]
            engine.set_strategies(strategies, labels, [0 if k < 0 else k + 1 for k in lineup])
            played = engine.play(first, deals)
            seat = lineup.index(-1)
            wins += played.rec[:deals, L.R_WINNER] == seat
        return wins


_EVALUATORS: dict[tuple[str, str, int, bool], Evaluator] = {}
"""This process's evaluator (at most one), kept between generations; [`tune`][unosim.analysis.tune] drops it at the end."""


def _win_counts(
    settings: TuneSettings, seed: int, params: dict[str, float], first: int, deals: int, isolate: bool = False
) -> NDArray[np.int64]:
    """`Evaluator.win_counts` with the process's evaluator of (settings, seed), built on first use."""
    key = (json.dumps(settings.identity(), sort_keys=True, default=str), settings.label, seed, isolate)
    if key not in _EVALUATORS:
        _EVALUATORS.clear()
        _EVALUATORS[key] = Evaluator(settings, seed, isolate)
    return _EVALUATORS[key].win_counts(params, first, deals)


def play_candidates(settings: TuneSettings, seed: int, candidates: list[dict[str, float]], first: int, deals: int,
                    pieces: int = 1, isolate: bool = False) -> list[NDArray[np.int64]]:
    """Wins per deal of each candidate on deals ``first .. first + deals - 1`` of ``seed``.

    With ``pieces > 1`` each candidate's deals are split in ``pieces`` consecutive runs of deals
    played through joblib with the backend the caller configured ([`tune`][unosim.analysis.tune] configures it from
    its [`Execution`][unosim.runs.Execution]: loky processes or Dask workers), each worker
    keeping one evaluator; every game depends only on its deal index, so the wins are the same
    whatever ``pieces`` and the backend (tested). ``isolate``: the field's user strategies play
    from processes of their own (`unosim.engine.isolation`).
    """
    if pieces == 1:
        return [_win_counts(settings, seed, params, first, deals, isolate) for params in candidates]
    from joblib import Parallel, delayed

    step = -(-deals // pieces)
    runs = [(lo, min(step, deals - lo)) for lo in range(0, deals, step)]
    wins = Parallel()(delayed(_win_counts)(settings, seed, params, first + lo, n, isolate)
                      for params in candidates for lo, n in runs)
    return [np.concatenate(wins[i * len(runs):(i + 1) * len(runs)]) for i in range(len(candidates))]


def win_rate(wins: NDArray[np.integer], seatings: int) -> tuple[float, float]:
    """Win rate and its deal-clustered standard error from the wins per deal."""
    return cluster_ratio(wins.astype(np.float64), np.full(len(wins), seatings, np.float64))


# ------------------------------------------------------------------ the result
@dataclass
class TuneResult:
    """Outcome of [`tune`][unosim.analysis.tune].

    Attributes
    ----------
    params : dict
        The tuned parameters (``tunable``: every parameter; a rule file: each searched threshold by
        its name, e.g. ``play.rule[2].hand_min``).
    start : dict
        The starting parameters.
    evaluation : dict
        Held-out figures: ``games``, ``seed``, ``win_rate`` with ``low``/``high`` (95 %), the
        starting point's ``start_win_rate``/``start_low``/``start_high`` and the paired
        ``improvement`` with ``improvement_low``/``improvement_high``; ``fair_share`` = 1/P.
    history : pandas.DataFrame
        One row per generation: games so far, best and mean fitness with 95 % intervals, sigma.
    path : Path or None
        Output directory.
    generations, games : int
        Generations run and games played by the search.
    seconds : float
        Wall time of this call.
    """

    params: dict[str, float]
    start: dict[str, float]
    evaluation: dict[str, Any]
    history: pd.DataFrame
    path: Path | None = None
    generations: int = 0
    games: int = 0
    seconds: float = 0.0
    files: list[Path] = field(default_factory=list)
    space: SearchSpace | None = None
    settings: TuneSettings | None = None

    @property
    def spec(self) -> str:
        """The strategy to play: ``tuned:OUT/tuned.json`` or ``rules:OUT/tuned.toml`` (without an output
        directory: ``tunable(...)``; a tuned rule file needs one, [`rule_text`][unosim.analysis.TuneResult.rule_text] gives its text)."""
        if self.space is not None and self.path is not None:
            return self.space.play_spec(self.path / self.space.file_name)
        if self.path is not None:
            return f"tuned:{self.path / TUNED_FILE}"
        if self.space is not None and self.space.prefix == "rules":
            raise UnosimInputError("a tuned rule file plays from a file: give out=DIR to tune(), then play rules:DIR/tuned.toml.")
        return str(StrategySpec("tunable", tuple(sorted(self.params.items()))))

    def rule_text(self) -> str:
        """The tuned rule file's text (without the header comment); only for ``strategy="rules:FILE"``."""
        from .search_space import RuleSpace

        if not isinstance(self.space, RuleSpace):
            raise UnosimInputError("rule_text() is for a tuned rule file (strategy='rules:FILE'); this run tuned `tunable`.")
        return self.space.text_of(self.params)


# ------------------------------------------------------------------ the search
def _load_state(out: Path | None, settings: TuneSettings, overwrite: bool) -> dict[str, Any] | None:
    """The saved state of a run of ``settings`` in ``out`` (plain JSON, checked field by field), or None."""
    if out is None or not (out / STATE_FILE).is_file():
        return None
    try:
        state = json.loads((out / STATE_FILE).read_text(encoding="utf-8"))
        same = _well_formed(state) and state["identity"] == json.loads(json.dumps(settings.identity()))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        same, state = False, None
    if same:
        return state
    if overwrite:
        return None
    raise UnosimInputError(
        f"output directory {out} holds a tuning run of other settings (or an unreadable {STATE_FILE}); give a new "
        "--out directory, the same settings to continue it, or --overwrite to start again."
    )


def _well_formed(state: Any) -> bool:
    """Whether ``state`` has the shape `_save_state` writes (one candidate list and fitness list per generation)."""
    if not isinstance(state, dict) or state.get("format") != STATE_FORMAT or state.get("version") != STATE_VERSION:
        return False
    g, asked, fitness, history = (state.get(k) for k in ("generation", "asked", "fitness", "history"))
    if isinstance(g, bool) or not isinstance(g, int) or g < 0:
        return False
    if not (isinstance(asked, list) and isinstance(fitness, list) and isinstance(history, list)):
        return False
    if not len(asked) == len(fitness) == len(history) == g or not all(isinstance(h, dict) for h in history):
        return False
    numbers = (int, float)
    for xs, fs in zip(asked, fitness):
        if not (isinstance(xs, list) and isinstance(fs, list) and len(xs) == len(fs)):
            return False
        if not all(isinstance(f, numbers) and not isinstance(f, bool) for f in fs):
            return False
        if not all(isinstance(x, list) and all(isinstance(v, numbers) and not isinstance(v, bool) for v in x) for x in xs):
            return False
    return "evaluation" not in state or isinstance(state["evaluation"], dict)


def _optimiser(settings: TuneSettings, state: dict[str, Any]) -> Any:
    """The CMA-ES of ``settings`` after the generations of ``state``, replayed from the seed: each
    generation's candidates are asked again (they must equal the stored ones) and told the stored fitness."""
    import cma

    opts = {"bounds": [0.0, 1.0], "popsize": settings.popsize, "seed": np.nan, "randn": _Normal(settings.seed),
            "verbose": -9, "verb_log": 0, "verb_disp": 0, "tolfun": 0, "tolx": 0, "tolflatfitness": 10**9,
            "tolstagnation": 10**9, "tolfunhist": 0}
    es = cma.CMAEvolutionStrategy(settings.space.x0(), settings.sigma, opts)
    for g, (stored, fitness) in enumerate(zip(state["asked"], state["fitness"])):
        xs = es.ask()
        if np.asarray(xs, np.float64).tolist() != stored:
            raise UnosimInputError(
                f"{STATE_FILE} generation {g + 1}: the optimiser asks other candidates than the ones stored (a state "
                "written by another version of unosim or of the cma library, or an edited file); give a new --out "
                "directory or --overwrite to start again."
            )
        es.tell(xs, fitness)
    return es


def _plain(value: Any) -> Any:
    """``value`` with NumPy scalars and arrays as Python numbers and lists (for JSON)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def _save_state(out: Path, state: dict[str, Any]) -> None:
    tmp = out / (STATE_FILE + ".tmp")
    tmp.write_text(json.dumps(_plain(state), allow_nan=False), encoding="utf-8")
    os.replace(tmp, out / STATE_FILE)


def _generation_row(g: int, games: int, rates: list[tuple[float, float]], pooled: tuple[float, float],
                    sigma: float) -> dict[str, Any]:
    best = max(range(len(rates)), key=lambda i: rates[i][0])
    rate, se = rates[best]
    mean, mean_se = pooled
    return {"generation": g + 1, "games": games, "best": rate, "best_low": rate - Z95 * se, "best_high": rate + Z95 * se,
            "mean": mean, "mean_low": mean - Z95 * mean_se, "mean_high": mean + Z95 * mean_se, "sigma": sigma}


def tune(
    settings: TuneSettings | None = None,
    out: str | Path | None = None,
    execution: Execution | None = None,
    *,
    max_generations: int | None = None,
    **request: Any,
) -> TuneResult:
    """Tune a strategy's parameters against a field with CMA-ES (module docstring).

    Parameters
    ----------
    settings : TuneSettings, optional
        What to tune, from `make_settings`; without it, ``request`` holds the arguments of
        `make_settings`.
    out : str or Path, optional
        Output directory (the state for resuming). Resumes a run of the same settings there;
        the tuned strategy, summary and plot are written by `unosim.reports.tuning.write_outputs`.
    execution : Execution, optional
        ``jobs``, ``backend`` and ``scheduler``: where the candidates play, as for every run (default
        this process; the result does not depend on it); ``overwrite``: start again in an ``out``
        holding a run of other settings; ``quiet``: no progress bar (default True); ``isolate``:
        the field's user strategies from processes of their own. No ``chunk_size``: tuning writes
        no chunk files.
    max_generations : int, optional
        Stop after this many generations in all without evaluating (an interruption, for tests);
        a later call continues.
    **request
        Arguments of `make_settings` (when ``settings`` is not given) and fields of
        [`Execution`][unosim.runs.Execution] on top of ``execution``.

    Returns
    -------
    TuneResult

    Raises
    ------
    ValueError
        Before any game is played, for any bad value.
    """
    from ..runs.execution import compile_engine, parallel
    from ..runs.progress import console

    started = time.perf_counter()
    execution, request = Execution.take(execution, request, IN_PROCESS)
    if execution.chunk_size is not None:
        raise UnosimInputError(f"chunk_size = {execution.chunk_size}: tuning writes no chunk files; leave it unset.")
    if settings is None:
        settings = make_settings(**request)
    elif request:
        raise TypeError(f"tune takes settings or the arguments of make_settings, not both ({', '.join(request)}).")
    quiet, overwrite = execution.quiet, execution.overwrite
    isolate = execution.isolate
    out = Path(out) if out is not None else None
    if out is not None and out.exists() and not out.is_dir():
        raise UnosimInputError(f"--out {out} is a file; give a directory.")
    state = _load_state(out, settings, overwrite)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    resumed = state is not None
    if state is None:
        state = {"format": STATE_FORMAT, "version": STATE_VERSION, "identity": json.loads(json.dumps(settings.identity())),
                 "generation": 0, "asked": [], "fitness": [], "history": []}
    es = _optimiser(settings, state)
    target = settings.generations if max_generations is None else min(settings.generations, max_generations)
    shown = console(quiet)
    if resumed and shown is not None:
        shown.print(f"resuming the tuning run in {out}: {state['generation']} of {settings.generations} generations "
                    f"already done{', evaluated' if 'evaluation' in state else ''}", markup=False, highlight=False,
                    soft_wrap=True)
    if state["generation"] < target or "evaluation" not in state:  # games to play: compile before any worker starts
        compile_engine([settings.config(r, settings.search_seed) for r in range(settings.players)], shown, isolate)
    pieces = execution.jobs or os.cpu_count() or 1  # runs of deals per candidate: the games do not depend on it
    try:
        with parallel(execution, shown):
            return _search_and_evaluate(settings, state, es, out, target, max_generations, pieces, isolate, shown, started)
    finally:
        _EVALUATORS.clear()  # the engines of the evaluator this process kept


def _search_and_evaluate(settings: TuneSettings, state: dict[str, Any], es: Any, out: Path | None, target: int,
                         max_generations: int | None, pieces: int, isolate: bool, shown: Any, started: float) -> TuneResult:
    """The generations of the search up to ``target``, then the held-out evaluation ([`tune`][unosim.analysis.tune]'s
    work, inside its joblib configuration); ``state`` is saved to ``out`` after each step."""
    from ..runs.progress import progress_bar

    space = settings.space
    per_gen = settings.games_per_generation
    with progress_bar(shown, f"tuning · generation {state['generation']}/{target}", target * per_gen,
                      state["generation"] * per_gen) as bar:
        while state["generation"] < target:
            g = state["generation"]
            xs = es.ask()
            wins = play_candidates(settings, settings.search_seed, [space.params(x) for x in xs], g * settings.deals,
                                   settings.deals, pieces, isolate)
            rates = [win_rate(w, settings.seatings) for w in wins]
            fitness = [-r for r, _ in rates]
            es.tell(xs, fitness)
            state["asked"].append(np.asarray(xs, np.float64).tolist())
            state["fitness"].append([float(f) for f in fitness])
            pooled = win_rate(np.sum(wins, axis=0), settings.seatings * len(wins))
            state["history"].append(_generation_row(g, (g + 1) * per_gen, rates, pooled, float(es.sigma)))
            state["generation"] = g + 1
            if out is not None:
                _save_state(out, state)
            if bar is not None:
                progress, task = bar
                row = state["history"][-1]
                progress.update(task, advance=per_gen, description=(
                    f"tuning · generation {g + 1}/{target} · best {row['best']:.4f} · mean {row['mean']:.4f}"))
    history = pd.DataFrame(state["history"])
    params = space.params(es.mean)
    result = TuneResult(params=params, start=settings.start, evaluation={}, history=history, path=out,
                        generations=state["generation"], games=state["generation"] * per_gen, space=space,
                        settings=settings)
    if max_generations is not None and state["generation"] < settings.generations:
        result.seconds = time.perf_counter() - started
        return result
    evaluation = state.get("evaluation")
    if evaluation is None or evaluation.get("params") != params:
        evaluation = _plain(_evaluate(settings, params, shown, pieces, isolate))
        state["evaluation"] = evaluation
        if out is not None:
            _save_state(out, state)
    result.evaluation = {k: v for k, v in evaluation.items() if k != "params"}
    result.seconds = time.perf_counter() - started
    return result


def evaluate(settings: TuneSettings, params: dict[str, float], *, execution: Execution | None = None,
             piece_deals: int = EVALUATION_PIECE_DEALS, **options: Any) -> dict[str, Any]:
    """Held-out figures of ``params`` and of the starting point on the same fresh deals (see [`TuneResult`][unosim.analysis.TuneResult]).

    Parameters
    ----------
    settings : TuneSettings
        What was tuned (`make_settings`): its evaluation seed and size.
    params : dict
        The parameters to evaluate.
    execution : Execution, optional
        ``jobs``, ``backend`` and ``scheduler``: where the games are played (default: this
        process; the figures do not depend on it); ``quiet``: no progress bar (default True);
        ``isolate``: the field's user strategies from processes of their own.
    piece_deals : int
        Deals played at a time (the progress bar moves once a piece; the figures do not depend on it).
    **options
        Fields of [`Execution`][unosim.runs.Execution] on top of ``execution``.
    """
    from ..runs.execution import parallel
    from ..runs.progress import console

    execution, unknown = Execution.take(execution, options, IN_PROCESS)
    if unknown:
        raise TypeError(f"evaluate takes the fields of Execution, not {', '.join(unknown)}.")
    shown = console(execution.quiet)
    with parallel(execution, shown):
        return _evaluate(settings, params, shown, execution.jobs or os.cpu_count() or 1, execution.isolate, piece_deals)


def _evaluate(settings: TuneSettings, params: dict[str, float], shown: Any, pieces: int, isolate: bool,
              piece_deals: int = EVALUATION_PIECE_DEALS) -> dict[str, Any]:
    """`evaluate` inside the caller's joblib configuration, ``pieces`` runs of deals at a time."""
    from ..runs.progress import progress_bar

    if piece_deals < 1:
        raise ValueError(f"piece_deals = {piece_deals} is not allowed; give a whole number of deals from 1.")
    deals = settings.evaluation_deals
    tuned, start = np.zeros(deals, np.int64), np.zeros(deals, np.int64)
    with progress_bar(shown, "held-out evaluation", 2 * deals * settings.seatings, 0) as bar:
        for lo in range(0, deals, piece_deals):
            n = min(piece_deals, deals - lo)
            tuned[lo:lo + n], start[lo:lo + n] = play_candidates(settings, settings.evaluation_seed,
                                                                 [params, settings.start], lo, n, pieces, isolate)
            if bar is not None:
                bar[0].update(bar[1], advance=2 * n * settings.seatings)
    rate, se = win_rate(tuned, settings.seatings)
    rate0, se0 = win_rate(start, settings.seatings)
    diff, diff_se = cluster_ratio((tuned - start).astype(np.float64), np.full(deals, settings.seatings, np.float64))
    return {
        "params": params, "games": deals * settings.seatings, "deals": deals, "seed": settings.evaluation_seed,
        "win_rate": rate, "low": rate - Z95 * se, "high": rate + Z95 * se,
        "start_win_rate": rate0, "start_low": rate0 - Z95 * se0, "start_high": rate0 + Z95 * se0,
        "improvement": diff, "improvement_low": diff - Z95 * diff_se, "improvement_high": diff + Z95 * diff_se,
        "fair_share": 1.0 / settings.players,
    }


__all__ = ["TuneResult", "TuneSettings", "evaluate", "make_settings", "tune"]
