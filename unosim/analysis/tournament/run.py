"""Playing a tournament (in rounds, in precision mode) and its result."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from ...game.errors import UnosimInputError
from ...runs import files, reading
from ...runs.options import IN_PROCESS, Execution
from ...runs.planning import Plan, default_chunk_size, existing_chunk_size
from ...runs.runner import execute
from .design import Design
from .plan import build_plan, existing_deals, extend_metadata
from .settings import Settings, make_settings
from .statistics import analyse


# ------------------------------------------------------------------ the result
@dataclass(frozen=True)
class TournamentResult:
    """Outcome of [`run_tournament`][unosim.analysis.run_tournament] (or [`load_tournament`][unosim.analysis.load_tournament]).

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
    rule_set : dict or None
        Every rule option played ([`RuleSet.to_dict`][unosim.RuleSet.to_dict]), when known.
    user_code : tuple of str
        The strategies of user code in the line-up (`is_user_code`).
    isolated : tuple of str
        Those of them that played from processes of their own (``isolate``); the others played in
        the engine's process, verified after every step.
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
    user_code: tuple[str, ...] = ()
    isolated: tuple[str, ...] = ()
    rule_set: dict[str, Any] | None = None

    @property
    def widest(self) -> float:
        """The widest 95 % half-width of the win rates."""
        return float(self.leaderboard["win_rate_pm"].max())

    @property
    def fair_share(self) -> float:
        """Win rate of a seat when every strategy is equally good: ``1 / players``."""
        return 1.0 / self.players

    def head_to_head_matrix(self, value: str = "beat") -> pd.DataFrame:
        """``value`` (a column of `head_to_head`) as a square table, rows = strategy."""
        order = list(self.leaderboard["strategy"])
        matrix = self.head_to_head.pivot(index="strategy", columns="opponent", values=value)
        return matrix.reindex(index=order, columns=order)

    def to_pandas(self) -> pd.DataFrame:
        """The per-game rows (matches with ``match``), sorted by cell and deal."""
        if self.path is not None:
            return reading.load(self.path)
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
    settings: Settings | None = None,
    out: str | Path | None = None,
    execution: Execution | None = None,
    *,
    on_round: Any = None,
    **request: Any,
) -> TournamentResult:
    """Play a seat-fair tournament (module docstring) and analyse it.

    Parameters
    ----------
    settings : Settings, optional
        What to play, from `make_settings`; without it, ``request`` holds the arguments
        of `make_settings`.
    out : str or Path, optional
        Dataset directory (resumes, and extends a smaller run of the same tournament).
    execution : Execution, optional
        How to play it, as for [`unosim.runs.run`][unosim.runs.run] (``chunk_size`` counts deals per
        cell); default one process, quiet.
    on_round : callable, optional
        Precision mode: called after each round that falls short as ``on_round(games, widest)``
        (games so far, widest win-rate half-width).
    **request
        Arguments of `make_settings` (when ``settings`` is not given) and fields of
        [`Execution`][unosim.runs.Execution] on top of ``execution``.

    Returns
    -------
    TournamentResult

    Raises
    ------
    ValueError
        Before any game is played, for any bad value.
    """
    execution, request = Execution.take(execution, request, IN_PROCESS)
    if settings is None:
        settings = make_settings(**request)
    elif request:
        raise TypeError(f"run_tournament takes settings or the arguments of make_settings, not both ({', '.join(request)}).")
    chunk_size, overwrite = execution.chunk_size, execution.overwrite
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
            raise UnosimInputError(
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
                extend_metadata(out, plan)
            execute(plan, out, execution.replace(overwrite=overwrite))
            overwrite = False
            main, rounds = _read_rows(out, settings.match)
        else:
            new = Plan(plan.meta, tuple(p for p in plan.parts if p.first_game >= played_deals), plan.description)
            result = execute(new, None, execution.replace(overwrite=False))
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
    board, pairs, ratings = labelled(outcome, settings.design)
    return TournamentResult(
        leaderboard=board, head_to_head=pairs, ratings=ratings, design=settings.design, deals=deals,
        games=deals * cells, players=settings.players, rules=settings.rules.name, seed=settings.seed,
        match=settings.match, path=out, table=main if out is None else None, precision=settings.precision,
        seconds=time.perf_counter() - started, rule_set=settings.rules.to_dict(),
        user_code=_user_code(settings.design.strategies), isolated=_user_code(settings.design.strategies) if execution.isolate else (),
    )


def _user_code(strategies: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The strategies (by spec text) that are user code."""
    from ...strategy.registry import is_user_code

    return tuple(s for s in strategies if is_user_code(s.split("(", 1)[0].strip()))


def display_labels(strategies: tuple[str, ...]) -> dict[str, str]:
    """How the tables name each strategy: a rule file by its own ``name``, every other strategy by its spec.

    A rule file's name is used only when it names no other strategy of the tournament and the file can
    still be read; otherwise its spec (``rules(path='...')``) stays.
    """
    from ...strategy.rule_language import load_program
    from ...strategy.spec import StrategySpec

    names: dict[str, str] = {}
    for label in strategies:
        if not label.startswith("rules"):  # only a rule file has a name of its own (and user code is not imported)
            continue
        try:
            spec = StrategySpec.parse(label)
            params = dict(spec.params)
            if spec.name == "rules" and set(params) == {"path"}:
                names[label] = str(load_program(params["path"]).name)
        except (ValueError, OSError):
            continue
    shown = list(names.values())
    return {label: names[label] if label in names and shown.count(names[label]) == 1 and names[label] not in strategies
            else label for label in strategies}


def labelled(tables: tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame],
             design: Design) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The leaderboard, head-to-head and ratings with the strategies named by `display_labels`."""
    mapping = display_labels(tuple(design.strategies))
    if all(k == v for k, v in mapping.items()):
        return tables
    out = []
    for table in tables:
        table = table.copy()
        for column in ("strategy", "opponent"):
            if column in table:
                table[column] = table[column].map(lambda v: mapping.get(v, v))
        out.append(table)
    return out[0], out[1], out[2]


def is_tournament(path: str | Path) -> bool:
    """Whether ``path`` is a dataset directory written by a tournament."""
    try:
        return "tournament" in files.read_metadata(path)
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
    meta = files.read_metadata(path)
    if "tournament" not in meta:
        raise UnosimInputError(f"{path} holds no tournament; give a directory written by `unosim tournament --out`.")
    info = meta["tournament"]
    design = Design.from_dict(info["design"])
    match = bool(info["match"])
    main, rounds = _read_rows(path, match)
    board, pairs, ratings = labelled(analyse(design, main, rounds, deals=int(info["deals"]), match=match,
                                             seed=int(info["seed"]), bootstrap=int(info["bootstrap"])), design)
    return TournamentResult(
        leaderboard=board, head_to_head=pairs, ratings=ratings, design=design, deals=int(info["deals"]),
        games=int(info["games"]), players=int(info["players"]), rules=str(info["rules"]), seed=int(info["seed"]),
        match=match, path=path, precision=info.get("precision"),
        rule_set=(meta.get("cells") or [{}])[0].get("config", {}).get("rules"),
        user_code=_user_code(design.strategies), isolated=tuple(meta.get("execution", {}).get("isolated", ())),
    )


def _read_rows(path: Path, match: bool) -> tuple[pa.Table, pa.Table | None]:
    """The columns the analysis needs (main table, and the rounds of a match tournament)."""
    if match:
        main = reading.read_table(path, columns=["cell", "game", "match_winner", "scores"])
        rounds = reading.read_table(path, columns=["cell", "game", "hand_points"], table="rounds")
        return main, rounds
    return reading.read_table(path, columns=["cell", "game", "winner", "winner_points", "hand_points"]), None


__all__ = ["TournamentResult", "display_labels", "is_tournament", "labelled", "load_tournament", "run_tournament"]
