"""Seat-fair tournaments: a balanced design of tables, every deal replayed under every rotation
(common random numbers), win rates with deal-clustered intervals, head-to-head shares and
Bradley–Terry ratings.

Design
------
The strategies ``S[0..n-1]`` (distinct specs) are placed at tables of ``P`` seats:

* **n = P**: one table, the strategies in the order given.
* **n < P** (fewer strategies than seats): strategies repeat. If ``n`` divides ``P``
  one table holds the list repeated in order (``S[s % n]`` at seat ``s``; e.g. 2
  strategies at 6 seats alternate ``A B A B A B``). Otherwise ``n`` tables are
  used, table ``t`` holding ``S[(s + t) % n]`` at seat ``s``, so that over the
  tables every strategy holds exactly ``P`` seats (e.g. 4 strategies at 6 seats:
  ``ABCDAB``, ``BCDABC``, ``CDABCD``, ``DABCDA``). Every pair meets in every game.
* **n > P** (more strategies than seats): a balanced incomplete block design. All
  ``C(n, P)`` combinations when there are at most :data:`MAX_TABLES` of them
  (every strategy in ``C(n-1, P-1)`` tables, every pair in ``C(n-2, P-2)``);
  otherwise a cyclic design: the ``n`` translates ``B + t (mod n)`` of a base
  block ``B``, every strategy in exactly ``P`` tables, and pairs as even as the
  base block allows (a pair ``{i, j}`` meets as many times as ``j - i`` occurs
  as a difference in ``B``; a perfect difference set gives every pair the same
  count; otherwise the block with the smallest spread found by a fixed search is
  used and :meth:`Design.pair_meetings` shows the counts).

Every table is played in all its distinct **rotations**: in rotation ``r`` seat
``s`` holds the table's entry ``(s + r) % P``. A table whose line-up repeats
with period ``k`` (``A B A B A B``: ``k = 2``) has ``k`` distinct rotations,
otherwise ``P``; over them every strategy holds every seat equally often (a
repeated rotation would replay identical games). Each (table, rotation) is one
**cell**, and every cell plays the same deals
``0 .. D-1`` with the tournament seed. The engine keys all randomness of a game
by (seed, game index), so the same index is the same deal — the same dealer
and the same opening hand at every seat — in every cell: each deal is replayed
under every rotation of every table (common random numbers). Within one deal
each strategy therefore holds every seat, and so every seat offset from the
dealer, equally often: neither seat luck nor card luck favours anyone.
``--games N`` asks for about ``N`` games in all: ``D = ceil(N / cells)`` deals,
``D × cells`` games.

Estimates
---------
Per strategy, over its seat-games (a strategy holding two seats of a game counts
twice; the fair share is ``1/P``): **win rate** (truncated games are won by
nobody), **points won** (E-3: the points the seat scored, 0 when it did not win;
matches: its final total) and **points left in hand** (matches: per round). The
games of one deal are dependent, so every interval treats the deal as the
cluster: a ratio estimator ``sum(y_d) / sum(m_d)`` over deals ``d`` with the
cluster-robust (CR1) variance ``G/(G-1) · sum((y_d - r m_d)^2) / (sum m_d)^2`` —
the same as ordinary least squares on a constant with standard errors clustered
by deal — and a normal 95 % interval.

**Head-to-head**, for each ordered pair (A, B), over the games in which both
played: the share A won, the share B won, and A's share of the games won by one
of the two (``beat``; 0.5 = even), each with a deal-clustered interval.

**Ratings**: a Bradley–Terry (Luce) model fitted with :func:`choix.ilsr_pairwise_dense`
to the comparisons "the winner beat every other seat's strategy" (top-1 rank
breaking, consistent for the Luce model of who wins a table:
``P(i wins) ∝ exp(rating_i)``); ratings are log-strengths centred on 0. The 95 %
interval is the percentile interval of a bootstrap over deals (resampled in up to
:data:`BOOTSTRAP_BLOCKS` blocks of consecutive deals, which are independent).

Precision mode
--------------
``precision=h`` plays in rounds: after each round the widest win-rate half-width
``w`` is computed and, while ``w > h`` and the games stay within ``max_games``,
the deals are extended (to about ``D (w/h)^2``, at least one chunk more). Rounds
extend the same dataset; a run interrupted and started again resumes.

Dataset
-------
An experiment dataset (:mod:`unosim.runs.dataset`) with one cell per (table,
rotation); the metadata has a ``tournament`` entry (strategies, design, deals,
settings) and every row the columns ``cell``, ``table`` and ``rotation`` first.
``game`` is the deal: rows with the same ``game`` share the deal; ``strategies``
names the strategy of each seat.
"""

from __future__ import annotations

import itertools
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from ..engine.config import RunConfig
from ..game.rules import RuleSet
from ..runs import dataset
from ..runs.execution import check_options
from ..runs.planning import Part, Plan, default_chunk_size, describe_deck, describe_strategies, existing_chunk_size, new_metadata
from ..runs.runner import execute
from ..strategy.spec import StrategySpec, split_top_level

MAX_TABLES = 120
"""Largest number of tables for which every combination of strategies is played."""
MAX_STRATEGIES = 64
"""Most strategies in one tournament."""
BOOTSTRAP_BLOCKS = 1000
"""Deals are resampled in at most this many blocks of consecutive deals."""
DEFAULT_BOOTSTRAP = 200
"""Bootstrap replicates of the ratings."""
DEFAULT_MAX_GAMES = 10_000_000
"""Default cap of a precision run (games in all)."""
RATING_ALPHA = 0.01
"""Regularisation of the Bradley–Terry fit (choix ``alpha``): about 0.02 pseudo-comparisons
per pair, so a strategy that never wins still gets a finite rating."""
Z95 = 1.959963984540054
_BASE_BLOCK_CANDIDATES = 20_000


# ------------------------------------------------------------------ the design
@dataclass(frozen=True)
class Design:
    """Tables of a seat-fair tournament (see the module docstring).

    Attributes
    ----------
    strategies : tuple of str
        Strategy labels (specs as text), in the order given.
    players : int
        Seats per table.
    tables : tuple of tuple of int
        For each table, the strategy index at each seat of rotation 0.
    kind : str
        ``"single"``, ``"repeat"``, ``"all-combinations"`` or ``"cyclic"``.
    """

    strategies: tuple[str, ...]
    players: int
    tables: tuple[tuple[int, ...], ...]
    kind: str

    def lineup(self, table: int, rotation: int) -> tuple[int, ...]:
        """Strategy index at each seat of ``table`` in ``rotation`` (seat ``s`` holds entry ``(s + r) % P``)."""
        base = self.tables[table]
        return tuple(base[(s + rotation) % self.players] for s in range(self.players))

    def rotations(self, table: int) -> int:
        """Distinct rotations of ``table``: the period of its line-up (``P`` unless it repeats)."""
        base = self.tables[table]
        return next(k for k in range(1, self.players + 1) if all(base[(s + k) % self.players] == base[s] for s in range(self.players)))

    def cells(self) -> list[tuple[int, int, tuple[int, ...]]]:
        """Every (table, rotation, line-up), in cell order (tables outermost)."""
        return [(t, r, self.lineup(t, r)) for t in range(len(self.tables)) for r in range(self.rotations(t))]

    def lineups(self) -> NDArray[np.int64]:
        """Strategy index per (cell, seat)."""
        return np.array([lineup for _, _, lineup in self.cells()], np.int64).reshape(-1, self.players)

    def seat_counts(self) -> NDArray[np.int64]:
        """Cells in which strategy ``k`` holds seat ``s``, shape (strategies, seats); every
        entry is equal in a seat-fair design."""
        counts = np.zeros((len(self.strategies), self.players), np.int64)
        for _, _, lineup in self.cells():
            for seat, k in enumerate(lineup):
                counts[k, seat] += 1
        return counts

    def pair_meetings(self) -> NDArray[np.int64]:
        """Tables at which strategies ``i`` and ``j`` both sit (diagonal: tables of ``i``)."""
        n = len(self.strategies)
        meet = np.zeros((n, n), np.int64)
        for table in self.tables:
            present = sorted(set(table))
            for i in present:
                for j in present:
                    meet[i, j] += 1
        return meet

    def describe(self) -> dict[str, Any]:
        """The design as JSON-able data (written into the dataset metadata)."""
        return {
            "kind": self.kind,
            "strategies": list(self.strategies),
            "players": self.players,
            "tables": [list(t) for t in self.tables],
            "rotations": [self.rotations(t) for t in range(len(self.tables))],
            "cells": len(self.cells()),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Design:
        """Inverse of :meth:`describe`."""
        return cls(tuple(data["strategies"]), int(data["players"]), tuple(tuple(t) for t in data["tables"]), data["kind"])


def make_design(strategies: list[str] | tuple[str, ...], players: int, *, max_tables: int = MAX_TABLES) -> Design:
    """The balanced design of tables for ``strategies`` at ``players`` seats (module docstring)."""
    labels = tuple(strategies)
    n, P = len(labels), players
    if n == P:
        return Design(labels, P, (tuple(range(n)),), "single")
    if n < P:
        if P % n == 0:
            return Design(labels, P, (tuple(s % n for s in range(P)),), "repeat")
        return Design(labels, P, tuple(tuple((s + t) % n for s in range(P)) for t in range(n)), "repeat")
    if math.comb(n, P) <= max_tables:
        return Design(labels, P, tuple(itertools.combinations(range(n), P)), "all-combinations")
    block = _base_block(n, P)
    return Design(labels, P, tuple(tuple((b + t) % n for b in block) for t in range(n)), "cyclic")


def _base_block(n: int, size: int) -> tuple[int, ...]:
    """A base block of a cyclic design on Z_n: ``size`` residues with 0, its differences as even as found.

    Exhaustive over the blocks containing 0 when there are at most
    ``_BASE_BLOCK_CANDIDATES``, else that many drawn by a fixed generator (so
    the design never changes between runs).
    """
    def spread(block: tuple[int, ...]) -> tuple[int, int]:
        diffs = np.bincount([(a - b) % n for a in block for b in block if a != b], minlength=n)[1:]
        return int(diffs.max() - diffs.min()), int(diffs.max())

    if math.comb(n - 1, size - 1) <= _BASE_BLOCK_CANDIDATES:
        candidates: Any = ((0, *rest) for rest in itertools.combinations(range(1, n), size - 1))
    else:
        rng = np.random.default_rng(np.random.SeedSequence(20261130))
        candidates = (
            (0, *sorted(int(x) for x in rng.choice(np.arange(1, n), size - 1, replace=False)))
            for _ in range(_BASE_BLOCK_CANDIDATES)
        )
    return min(candidates, key=lambda block: (spread(block), block))


# ------------------------------------------------------------------ settings
@dataclass(frozen=True)
class Settings:
    """A validated tournament request (everything that decides its rows and its analysis)."""

    specs: tuple[StrategySpec, ...]
    design: Design
    rules: RuleSet
    players: int
    seed: int
    games: int
    match: bool
    precision: float | None
    max_games: int
    batch_size: int | None
    bootstrap: int

    @property
    def labels(self) -> tuple[str, ...]:
        """Strategy labels (specs as text), in the order given."""
        return self.design.strategies

    @property
    def n_cells(self) -> int:
        """Seatings: (table, rotation) cells."""
        return len(self.design.cells())

    def config(self, lineup: tuple[int, ...], deals: int) -> RunConfig:
        """The run configuration of one cell (every cell shares the seed: common random numbers)."""
        return RunConfig(
            rules=self.rules,
            players=self.players,
            strategies=tuple(self.specs[k] for k in lineup),
            seed=self.seed,
            games=deals,
            batch_size=self.batch_size,
            match=self.match,
        )


def parse_strategy_list(strategies: str | list[Any] | tuple[Any, ...]) -> tuple[StrategySpec, ...]:
    """The distinct strategies of a tournament: a comma-separated text or a list of specs.

    Raises
    ------
    ValueError
        Naming every unknown strategy at once, a repeated one, or fewer than two.
    """
    from ..strategy.registry import REGISTRY, make, resolve

    items = split_top_level(strategies) if isinstance(strategies, str) else [str(s) for s in strategies]
    unknown = []
    for item in items:
        name = item.split("(")[0].strip()
        if name.startswith("rules:"):  # issue 13: a rule file, checked (naming its line) by StrategySpec.parse
            continue
        try:
            resolve(name)
        except ValueError:
            unknown.append(name)
    if unknown:
        raise ValueError(
            f"unknown {'strategy' if len(unknown) == 1 else 'strategies'} {', '.join(map(repr, unknown))}: not "
            f"registered and not an importable 'package.module:Class'. Known strategies: {', '.join(sorted(REGISTRY))}."
        )
    specs = [StrategySpec.parse(item) for item in items]
    for spec in specs:
        make(spec.name, dict(spec.params))  # parameter values are checked by the constructor
    labels = [str(s) for s in specs]
    if len(specs) < 2:
        raise ValueError(
            f"a tournament needs at least 2 different strategies; got {len(specs)} ({', '.join(labels) or 'none'}). "
            "Give a comma-separated list, e.g. --strategies random,greedy."
        )
    repeated = next((label for label in labels if labels.count(label) > 1), None)
    if repeated is not None:
        raise ValueError(
            f"strategy {repeated!r} is listed twice; give each strategy once (with fewer strategies than "
            "seats they repeat at the table by themselves)."
        )
    if len(specs) > MAX_STRATEGIES:
        raise ValueError(f"{len(specs)} strategies; a tournament takes at most {MAX_STRATEGIES}.")
    return tuple(specs)


def make_settings(
    *,
    rules: Any = "party",
    players: int = 6,
    strategies: str | list[Any] | tuple[Any, ...] = "random,greedy",
    games: int = 60_000,
    seed: int = 0,
    match: bool = False,
    precision: float | None = None,
    max_games: int | None = None,
    overrides: list[str] | dict[str, Any] | None = None,
    deck: str | None = None,
    batch_size: int | None = None,
    bootstrap: int = DEFAULT_BOOTSTRAP,
) -> Settings:
    """Validate a tournament request before any game is played.

    Raises
    ------
    ValueError
        For any bad value, saying what is allowed.
    """
    base = RunConfig.build(
        rules=rules, players=players, strategies="random", seed=seed, games=1, batch_size=batch_size,
        match=match, overrides=overrides, deck=deck,
    )
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games = {games!r}; give a whole number of games ≥ 1 (--games).")
    if precision is not None and (isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0 < precision < 0.5):
        raise ValueError(
            f"precision = {precision!r}; give the wanted 95 % half-width of every win rate, a number "
            "above 0 and below 0.5, e.g. --precision 0.005."
        )
    if max_games is not None:
        if precision is None:
            raise ValueError("--max-games only applies with --precision; use --games for a fixed number of games.")
        if isinstance(max_games, bool) or not isinstance(max_games, int) or max_games < games:
            raise ValueError(f"max_games = {max_games!r}; give a whole number ≥ --games ({games:,}).")
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, int) or bootstrap < 10:
        raise ValueError(f"bootstrap = {bootstrap!r}; give a whole number of bootstrap replicates ≥ 10.")
    specs = parse_strategy_list(strategies)
    design = make_design([str(s) for s in specs], players)
    return Settings(
        specs=specs,
        design=design,
        rules=base.rules,
        players=players,
        seed=seed,
        games=games,
        match=match,
        precision=float(precision) if precision is not None else None,
        max_games=max_games if max_games is not None else max(DEFAULT_MAX_GAMES, games),
        batch_size=batch_size,
        bootstrap=bootstrap,
    )


# ------------------------------------------------------------------ plans
def build_plan(settings: Settings, deals: int, chunk_size: int) -> Plan:
    """The dataset metadata and the chunks of every cell for deals ``0 .. deals-1``."""
    size = min(chunk_size, deals)
    chunks = -(-deals // size)
    cells = settings.design.cells()
    pattern = dataset.file_pattern(chunks, cells=len(cells))
    meta = new_metadata("experiment", chunk_size=size, chunks=chunks, pattern=pattern)
    meta["experiment"] = {
        "name": "tournament",
        "description": "seat-fair tournament: " + ", ".join(settings.labels),
        "seed": settings.seed,
        "games_per_cell": deals,
        "source": "unosim tournament",
        "settings": {},
    }
    meta["tournament"] = {
        "strategies": [s.to_dict() for s in settings.specs],
        "labels": list(settings.labels),
        "design": settings.design.describe(),
        "rules": settings.rules.name,
        "players": settings.players,
        "seed": settings.seed,
        "deals": deals,
        "games": deals * len(cells),
        "match": settings.match,
        "precision": settings.precision,
        "max_games": settings.max_games,
        "bootstrap": settings.bootstrap,
    }
    meta["strategy_params"] = describe_strategies(settings.specs)  # compared on resume: an edited rule file is a change
    parts, described = [], []
    for c, (table, rotation, lineup) in enumerate(cells):
        config = settings.config(lineup, deals)
        described.append({
            "cell": c, "table": table, "rotation": rotation, "rules": settings.rules.name, "players": settings.players,
            "lineup": [settings.labels[k] for k in lineup], "seed": settings.seed, "config": config.to_dict(),
            "deck": describe_deck(config),
        })
        columns = (("cell", c), ("table", table), ("rotation", rotation))
        for i in range(chunks):
            first = i * size
            parts.append(Part(config, c, i, first, min(size, deals - first), pattern.format(cell=c, chunk=i), columns))
    meta["cells"] = described
    description = f"{settings.rules.name} · {settings.players} players · {len(settings.labels)} strategies"
    return Plan(json.loads(json.dumps(meta)), tuple(parts), description)


def _shape_free(meta: dict[str, Any]) -> dict[str, Any]:
    """The identity of a tournament dataset without its number of deals (which rounds extend)."""
    ident = json.loads(json.dumps(dataset.identity(meta)))
    for cell in ident.get("cells") or []:
        cell.get("config", {}).pop("games", None)
    chunking = ident.get("chunking") or {}
    for key in ("chunks", "file_pattern"):
        chunking.pop(key, None)
    return ident


def existing_deals(out: Path | None, plan: Plan) -> int | None:
    """Deals of the tournament already in ``out`` when it is this tournament (any number of deals)."""
    if out is None or not (out / dataset.METADATA_FILE).is_file():
        return None
    try:
        old = dataset.read_metadata(out)
    except ValueError:
        return None
    if "tournament" not in old or _shape_free(old) != _shape_free(plan.meta):
        return None
    return int(old["tournament"]["deals"])


def _extend_metadata(out: Path, plan: Plan) -> None:
    """Rewrite ``out``'s metadata for a larger number of deals of the same tournament (keeping
    its creation time), so that the runner resumes it and plays only the new chunks."""
    old = dataset.read_metadata(out)
    dataset.write_metadata(out, {**plan.meta, "created": old.get("created", plan.meta["created"])})


# ------------------------------------------------------------------ the result
@dataclass(frozen=True)
class TournamentResult:
    """Outcome of :func:`run_tournament` (or :func:`load_tournament`).

    Attributes
    ----------
    leaderboard : pandas.DataFrame
        One row per strategy, best rating first: seat-games, win rate with its 95 %
        interval (``win_rate_lo``, ``win_rate_hi``, half-width ``win_rate_pm``), mean
        points won and left in hand with half-widths, rating with its interval.
    head_to_head : pandas.DataFrame
        One row per ordered pair (``strategy``, ``opponent``): games together, the share
        of them each won (``won`` with interval, ``opponent_won``) and the strategy's share
        of the games won by one of the two (``beat`` with interval).
    ratings : pandas.DataFrame
        Bradley–Terry log-strengths (mean 0), bootstrap standard error and 95 % interval.
    design : Design
        The tables played.
    deals, games : int
        Deals, and games in all (deals × cells; matches with ``match``).
    players : int
    rules : str
        The preset's name.
    seed : int
    match : bool
    path : Path or None
        Dataset directory, or ``None`` for an in-memory tournament.
    table : pyarrow.Table or None
        The rows of an in-memory tournament.
    precision : float or None
        The half-width asked for (precision mode).
    seconds : float
        Wall time of the call that played it (0 for a loaded one).
    """

    leaderboard: pd.DataFrame
    head_to_head: pd.DataFrame
    ratings: pd.DataFrame
    design: Design
    deals: int
    games: int
    players: int
    rules: str
    seed: int
    match: bool
    path: Path | None = None
    table: pa.Table | None = field(default=None, repr=False)
    precision: float | None = None
    seconds: float = 0.0

    @property
    def widest(self) -> float:
        """The widest 95 % half-width of the win rates."""
        return float(self.leaderboard["win_rate_pm"].max())

    @property
    def fair_share(self) -> float:
        """Win rate of a seat when every strategy is equally good: ``1 / players``."""
        return 1.0 / self.players

    def head_to_head_matrix(self, value: str = "beat") -> pd.DataFrame:
        """``value`` (a column of :attr:`head_to_head`) as a square table, rows = strategy."""
        order = list(self.leaderboard["strategy"])
        matrix = self.head_to_head.pivot(index="strategy", columns="opponent", values=value)
        return matrix.reindex(index=order, columns=order)

    def to_pandas(self) -> pd.DataFrame:
        """The per-game rows (matches with ``match``), sorted by cell and deal."""
        if self.path is not None:
            return dataset.load(self.path)
        assert self.table is not None
        return self.table.to_pandas().sort_values(["cell", "game"], kind="stable").reset_index(drop=True)

    @property
    def title(self) -> str:
        """One line saying what was played."""
        unit = "matches" if self.match else "games"
        return f"{self.rules} · {self.players} players · {self.deals:,} deals × {self.design_cells} seatings = {self.games:,} {unit}"

    @property
    def design_cells(self) -> int:
        """Seatings played: (table, rotation) cells."""
        return len(self.design.cells())


# ------------------------------------------------------------------ running
def run_tournament(
    *,
    rules: Any = "party",
    players: int = 6,
    strategies: str | list[Any] | tuple[Any, ...] = "random,greedy",
    games: int = 60_000,
    seed: int = 0,
    match: bool = False,
    precision: float | None = None,
    max_games: int | None = None,
    overrides: list[str] | dict[str, Any] | None = None,
    deck: str | None = None,
    batch_size: int | None = None,
    bootstrap: int = DEFAULT_BOOTSTRAP,
    out: str | Path | None = None,
    jobs: int | None = 1,
    backend: str = "loky",
    scheduler: Any = None,
    chunk_size: int | None = None,
    overwrite: bool = False,
    quiet: bool = True,
    on_round: Any = None,
) -> TournamentResult:
    """Play a seat-fair tournament (module docstring) and analyse it.

    Parameters
    ----------
    rules, players, overrides, deck, batch_size, match
        As for :func:`unosim.simulate`.
    strategies : str or list
        At least two distinct strategies: ``"random,greedy"`` or a list of specs
        (registered names, ``name(param=value)``, ``package.module:Class``).
    games : int
        About this many games in all (rounded up to whole deals × seatings); with
        ``precision``, the size of the first round.
    seed : int
        Tournament seed; every seating plays the deals of this seed.
    precision : float, optional
        Play in rounds until every win rate's 95 % half-width is at most this.
    max_games : int, optional
        Precision mode: stop at this many games in all (default 10,000,000).
    bootstrap : int
        Bootstrap replicates of the ratings.
    out : str or Path, optional
        Dataset directory (resumes, and extends a smaller run of the same tournament).
    jobs, backend, scheduler, chunk_size, overwrite, quiet
        As for :func:`unosim.runs.runner.run`; ``chunk_size`` counts deals per cell.
    on_round : callable, optional
        Precision mode: called after each round that falls short as ``on_round(games, widest)``
        (games so far, widest win-rate half-width).

    Returns
    -------
    TournamentResult

    Raises
    ------
    ValueError
        Before any game is played, for any bad value.
    """
    settings = make_settings(
        rules=rules, players=players, strategies=strategies, games=games, seed=seed, match=match,
        precision=precision, max_games=max_games, overrides=overrides, deck=deck, batch_size=batch_size,
        bootstrap=bootstrap,
    )
    check_options(jobs=jobs, backend=backend, scheduler=scheduler, chunk_size=chunk_size)
    started = time.perf_counter()
    out = Path(out) if out is not None else None
    cells = settings.n_cells
    deals = -(-settings.games // cells)
    max_deals = max(deals, settings.max_games // cells)
    size = chunk_size or existing_chunk_size(out) or default_chunk_size(deals)
    if settings.precision is not None:
        size = min(size, deals)
        deals = min(max_deals, -(-deals // size) * size)  # rounds end on whole chunks
    have = existing_deals(out, build_plan(settings, deals, size))
    if have is not None and have > deals:
        if settings.precision is None and not overwrite:
            raise ValueError(
                f"output directory {out} holds this tournament with more games ({have * cells:,}); give "
                f"--games {have * cells} or more to use it, a new --out directory, or --overwrite to replace it."
            )
        if settings.precision is not None:
            deals = have  # resume a precision run where it stopped
    held: list[tuple[pa.Table, pa.Table | None]] = []
    played_deals = 0
    widest = None
    while True:
        plan = build_plan(settings, deals, size)
        if widest is not None:
            plan = Plan(plan.meta, plan.parts, f"{plan.description} · widest ±{widest:.4f} → ±{settings.precision:g}")
        if out is not None:
            if existing_deals(out, plan) is not None and not overwrite:
                _extend_metadata(out, plan)
            execute(plan, out, jobs=jobs, backend=backend, scheduler=scheduler, overwrite=overwrite, quiet=quiet)
            overwrite = False
            main, rounds = _read_rows(out, settings.match)
        else:
            new = Plan(plan.meta, tuple(p for p in plan.parts if p.first_game >= played_deals), plan.description)
            result = execute(new, None, jobs=jobs, backend=backend, scheduler=scheduler, overwrite=False, quiet=quiet)
            assert result.table is not None
            held.append((result.table, result.rounds))
            main = pa.concat_tables([t for t, _ in held], promote_options="default")
            rounds = pa.concat_tables([r for _, r in held if r is not None]) if settings.match else None
        played_deals = deals
        outcome = analyse(settings.design, main, rounds, deals=deals, match=settings.match, seed=settings.seed,
                          bootstrap=settings.bootstrap if settings.precision is None else 0)
        widest = float(outcome[0]["win_rate_pm"].max())
        if settings.precision is None or widest <= settings.precision or deals >= max_deals:
            break
        if on_round is not None:
            on_round(deals * cells, widest)
        wanted = math.ceil(deals * (widest / settings.precision) ** 2 * 1.1)
        deals = min(max_deals, -(-max(wanted, deals + size) // size) * size)
    if settings.precision is not None:
        outcome = analyse(settings.design, main, rounds, deals=deals, match=settings.match, seed=settings.seed,
                          bootstrap=settings.bootstrap)
    board, pairs, ratings = outcome
    return TournamentResult(
        leaderboard=board, head_to_head=pairs, ratings=ratings, design=settings.design, deals=deals,
        games=deals * cells, players=settings.players, rules=settings.rules.name, seed=settings.seed,
        match=settings.match, path=out, table=main if out is None else None, precision=settings.precision,
        seconds=time.perf_counter() - started,
    )


def is_tournament(path: str | Path) -> bool:
    """Whether ``path`` is a dataset directory written by a tournament."""
    try:
        return "tournament" in dataset.read_metadata(path)
    except ValueError:
        return False


def load_tournament(path: str | Path) -> TournamentResult:
    """Analyse the tournament dataset in ``path`` again (same numbers as when it was played).

    Raises
    ------
    ValueError
        If ``path`` is not a complete tournament dataset.
    """
    path = Path(path)
    meta = dataset.read_metadata(path)
    if "tournament" not in meta:
        raise ValueError(f"{path} holds no tournament; give a directory written by `unosim tournament --out`.")
    info = meta["tournament"]
    design = Design.from_dict(info["design"])
    match = bool(info["match"])
    main, rounds = _read_rows(path, match)
    board, pairs, ratings = analyse(design, main, rounds, deals=int(info["deals"]), match=match,
                                    seed=int(info["seed"]), bootstrap=int(info["bootstrap"]))
    return TournamentResult(
        leaderboard=board, head_to_head=pairs, ratings=ratings, design=design, deals=int(info["deals"]),
        games=int(info["games"]), players=int(info["players"]), rules=str(info["rules"]), seed=int(info["seed"]),
        match=match, path=path, precision=info.get("precision"),
    )


def _read_rows(path: Path, match: bool) -> tuple[pa.Table, pa.Table | None]:
    """The columns the analysis needs (main table, and the rounds of a match tournament)."""
    if match:
        main = dataset.read_table(path, columns=["cell", "game", "match_winner", "scores"])
        rounds = dataset.read_table(path, columns=["cell", "game", "hand_points"], table="rounds")
        return main, rounds
    return dataset.read_table(path, columns=["cell", "game", "winner", "winner_points", "hand_points"]), None


# ------------------------------------------------------------------ statistics
def cluster_ratio(y: NDArray[np.floating], m: NDArray[np.floating]) -> tuple[float, float]:
    """Ratio mean ``sum(y) / sum(m)`` over clusters and its cluster-robust (CR1) standard error.

    ``y[d]`` is the sum of the outcomes of cluster ``d`` (here: a deal), ``m[d]``
    its number of observations; clusters with ``m == 0`` are left out. Equals
    the clustered standard error of OLS on a constant (statsmodels'
    ``cov_type="cluster"``): ``sqrt(G/(G-1) · sum((y - r m)^2)) / sum(m)``.
    """
    keep = m > 0
    y, m = np.asarray(y, float)[keep], np.asarray(m, float)[keep]
    total = m.sum()
    if total == 0:
        return float("nan"), float("nan")
    ratio = y.sum() / total
    g = len(m)
    if g < 2:
        return float(ratio), float("nan")
    resid = y - ratio * m
    return float(ratio), float(np.sqrt(g / (g - 1) * np.sum(resid**2)) / total)


@dataclass(frozen=True)
class _Rows:
    """Per-game arrays of a tournament, seat values already mapped to strategies."""

    deal: NDArray[np.int64]
    strat: NDArray[np.int64]  # (games, seats) strategy index
    won: NDArray[np.bool_]  # (games, seats)
    points: NDArray[np.float64]  # (games, seats) points scored
    cell: NDArray[np.int64]


def _per_seat(column: pa.ChunkedArray, players: int) -> NDArray[np.float64]:
    flat = pc.list_flatten(column).to_numpy(zero_copy_only=False)
    return flat.reshape(-1, players).astype(np.float64)


def _rows(design: Design, main: pa.Table, match: bool) -> _Rows:
    P = design.players
    lineups = design.lineups()
    cell = main.column("cell").to_numpy().astype(np.int64)
    deal = main.column("game").to_numpy().astype(np.int64)
    winner_col = main.column("match_winner" if match else "winner")
    winner = pc.fill_null(winner_col, -1).to_numpy().astype(np.int64)
    won = winner[:, None] == np.arange(P)[None, :]
    if match:
        points = _per_seat(main.column("scores"), P)
    else:
        points = won * main.column("winner_points").to_numpy().astype(np.float64)[:, None]
    return _Rows(deal=deal, strat=lineups[cell], won=won, points=points, cell=cell)


def _by_deal(deal: NDArray[np.int64], values: NDArray[Any], deals: int) -> NDArray[np.float64]:
    return np.bincount(deal, weights=values.astype(np.float64), minlength=deals).astype(np.float64)


def analyse(
    design: Design,
    main: pa.Table,
    rounds: pa.Table | None,
    *,
    deals: int,
    match: bool,
    seed: int,
    bootstrap: int,
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Leaderboard, head-to-head and ratings of a tournament's rows (module docstring).

    ``bootstrap=0`` skips the rating intervals (precision rounds).
    """
    n = len(design.strategies)
    rows = _rows(design, main, match)
    if match:
        assert rounds is not None
        r_strat = design.lineups()[rounds.column("cell").to_numpy().astype(np.int64)]
        r_deal = rounds.column("game").to_numpy().astype(np.int64)
        r_hand = _per_seat(rounds.column("hand_points"), design.players)
    else:
        r_strat, r_deal = rows.strat, rows.deal
        r_hand = _per_seat(main.column("hand_points"), design.players)
    wins = np.zeros((len(rows.deal), n))
    seats = np.zeros((len(rows.deal), n))
    board = []
    for k in range(n):
        mine = rows.strat == k
        seats[:, k] = mine.sum(axis=1)
        wins[:, k] = (mine & rows.won).sum(axis=1)
        m = _by_deal(rows.deal, seats[:, k], deals)
        rate, rate_se = cluster_ratio(_by_deal(rows.deal, wins[:, k], deals), m)
        points, points_se = cluster_ratio(_by_deal(rows.deal, (mine * rows.points).sum(axis=1), deals), m)
        r_mine = r_strat == k
        hand, hand_se = cluster_ratio(
            _by_deal(r_deal, (r_mine * r_hand).sum(axis=1), deals), _by_deal(r_deal, r_mine.sum(axis=1), deals)
        )
        board.append({
            "strategy": design.strategies[k],
            "seat_games": int(seats[:, k].sum()),
            "wins": int(wins[:, k].sum()),
            "win_rate": rate,
            "win_rate_lo": rate - Z95 * rate_se,
            "win_rate_hi": rate + Z95 * rate_se,
            "win_rate_pm": Z95 * rate_se,
            "points": points,
            "points_pm": Z95 * points_se,
            "hand_points": hand,
            "hand_points_pm": Z95 * hand_se,
        })
    pairs = _head_to_head(design, rows.deal, wins > 0, seats > 0, deals)
    ratings = fit_ratings(design, rows, deals=deals, seed=seed, bootstrap=bootstrap)
    leaderboard = pd.DataFrame(board).merge(ratings, on="strategy")
    leaderboard = leaderboard.sort_values(["rating", "win_rate"], ascending=False, kind="stable").reset_index(drop=True)
    leaderboard.insert(0, "rank", np.arange(1, n + 1))
    return leaderboard, pairs, ratings


def _head_to_head(
    design: Design, deal: NDArray[np.int64], won: NDArray[np.bool_], present: NDArray[np.bool_], deals: int
) -> pd.DataFrame:
    """Every ordered pair: the games both played, the share each won, the first's share of the pair's wins."""
    out = []
    n = len(design.strategies)
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            both = present[:, i] & present[:, j]
            games = _by_deal(deal, both, deals)
            won_i, won_i_se = cluster_ratio(_by_deal(deal, both & won[:, i], deals), games)
            won_j, _ = cluster_ratio(_by_deal(deal, both & won[:, j], deals), games)
            decided = _by_deal(deal, both & (won[:, i] | won[:, j]), deals)
            beat, beat_se = cluster_ratio(_by_deal(deal, both & won[:, i], deals), decided)
            out.append({
                "strategy": design.strategies[i],
                "opponent": design.strategies[j],
                "games": int(both.sum()),
                "won": won_i,
                "won_lo": won_i - Z95 * won_i_se,
                "won_hi": won_i + Z95 * won_i_se,
                "opponent_won": won_j,
                "beat": beat,
                "beat_lo": beat - Z95 * beat_se,
                "beat_hi": beat + Z95 * beat_se,
            })
    return pd.DataFrame(out)


def comparison_blocks(
    design: Design, rows: _Rows, *, deals: int, blocks: int = BOOTSTRAP_BLOCKS
) -> NDArray[np.float64]:
    """Pairwise comparison counts per block of deals, shape (blocks, n, n).

    Entry ``[b, i, j]``: in the games of block ``b``, how often a seat of ``i``
    won while a seat of ``j`` (``j != i``) lost — top-1 rank breaking.
    """
    n = len(design.strategies)
    n_blocks = max(1, min(blocks, deals))
    lineups = design.lineups()
    per_cell = np.stack([np.bincount(lineup, minlength=n) for lineup in lineups]).astype(np.float64)
    has_winner = rows.won.any(axis=1)
    block = (rows.deal * n_blocks // max(deals, 1))[has_winner]
    winner_strat = (rows.strat * rows.won).sum(axis=1)[has_winner]
    key = (block * lineups.shape[0] + rows.cell[has_winner]) * n + winner_strat
    keys, games = np.unique(key, return_counts=True)  # games per (block, cell, winning strategy)
    cell = keys // n % lineups.shape[0]
    comp = np.zeros((n_blocks, n, n))
    np.add.at(comp, (keys // n // lineups.shape[0], keys % n), per_cell[cell] * games[:, None])
    comp[:, np.arange(n), np.arange(n)] = 0.0
    return comp


def bradley_terry(comparisons: NDArray[np.float64]) -> NDArray[np.float64]:
    """Bradley–Terry log-strengths (mean 0) of a pairwise win-count matrix, fitted with choix."""
    import choix

    return np.asarray(choix.ilsr_pairwise_dense(comparisons, alpha=RATING_ALPHA, max_iter=10_000, tol=1e-10))


def fit_ratings(design: Design, rows: _Rows, *, deals: int, seed: int, bootstrap: int) -> pd.DataFrame:
    """Ratings with bootstrap standard errors and percentile intervals (NaN when ``bootstrap == 0``)."""
    blocks = comparison_blocks(design, rows, deals=deals)
    rating = bradley_terry(blocks.sum(axis=0))
    n = len(design.strategies)
    se = lo = hi = np.full(n, np.nan)
    if bootstrap:
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0x7A7,)))
        weights = rng.multinomial(len(blocks), np.full(len(blocks), 1.0 / len(blocks)), size=bootstrap)
        draws = np.array([bradley_terry(np.tensordot(w, blocks, axes=1)) for w in weights.astype(float)])
        se = draws.std(axis=0, ddof=1)
        lo, hi = np.percentile(draws, [2.5, 97.5], axis=0)
    return pd.DataFrame({"strategy": list(design.strategies), "rating": rating, "rating_se": se,
                         "rating_lo": lo, "rating_hi": hi})


__all__ = [
    "Design",
    "TournamentResult",
    "Z95",
    "analyse",
    "bradley_terry",
    "cluster_ratio",
    "is_tournament",
    "load_tournament",
    "make_design",
    "make_settings",
    "run_tournament",
]
