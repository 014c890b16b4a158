"""The benchmark: single-core games per second of the engine.

``unosim bench --rules classic --players 4 --strategies random --seconds 10 --json``
plays games in one process, with no workers, for about ``seconds`` seconds
after a warm-up (numba compilation and a first batch), and reports games per
second. Without ``--rules`` it runs the standard grid. The machines are
shared and noisy: compare figures taken in the same run.
"""

from __future__ import annotations

import platform
import time
from typing import Any

from ..engine.config import RunConfig
from ..engine.driver import Engine
from ..engine.fast_paths import compiled_policy
from ..game.encoding import check_supported
from ..game.errors import UnosimInputError
from ..game.kernels import layout as L
from ..game.rules import RuleSet
from ..version import __version__

__all__ = ["GRID_PLAYERS", "GRID_PRESETS", "TOURNAMENT_STRATEGIES", "bench", "bench_tournament", "grid"]

GRID_PRESETS = ("classic", "party")
GRID_PLAYERS = (2, 4, 8, 16)


def _config(
    rules: str, players: int, strategies: str, seed: int, batch_size: int | None, overrides: list[str] | None = None
) -> RunConfig:
    options = [f"deck_copies={RuleSet.preset(rules).copies_needed(players)}", *(overrides or [])]
    return RunConfig.build(rules=rules, players=players, strategies=strategies, seed=seed, batch_size=batch_size, overrides=options)


def bench(
    rules: str = "classic",
    players: int = 4,
    strategies: str = "random",
    seconds: float = 10.0,
    *,
    seed: int = 0,
    batch_size: int | None = None,
    compiled: bool = True,
    overrides: list[str] | None = None,
) -> dict[str, Any]:
    """Play for about ``seconds`` seconds on one core; return the measured rates.

    ``overrides``: rule options on top of the preset (``["stacking=mixed"]``), as ``--set``.

    Games are played in chunks of 25 batches (whole chunks are counted, so a
    measurement can run a little over ``seconds``). ``compiled=False`` makes
    the shipped strategies decide through their Python methods (the
    lockstep path every user strategy takes) instead of their compiled
    in-kernel versions; both play identical games.

    Returns
    -------
    dict
        ``games_per_second``, ``games``, ``seconds``, ``mean_turns``,
        ``turns_per_second`` and the settings.
    """
    if not 0 < seconds <= 3600:
        raise UnosimInputError(f"seconds = {seconds}; give a duration from 0 to 3600 seconds.")
    config = _config(rules, players, strategies, seed, batch_size, overrides)
    engine = Engine(config, compiled=compiled)
    engine.play(0, 2 * engine.batch_size)  # warm-up: compilation, first touch of buffers
    chunk = 25 * engine.batch_size
    games = 0
    turns = 0
    start = time.perf_counter()
    while True:
        played = engine.play(games, chunk)
        games += chunk
        turns += int(played.rec[:, L.R_TURNS].sum())
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return {
        "rules": rules,
        "players": players,
        "strategies": strategies,
        "batch_size": engine.batch_size,
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1),
        "mean_turns": round(turns / games, 3),
        "turns_per_second": round(turns / elapsed, 1),
        "compiled_strategies": compiled and any(compiled_policy(s) for s in engine.strategies),
        "unosim_version": __version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }


def grid(seconds: float, strategies: str = "random", compiled: bool = True) -> list[dict[str, Any]]:
    """The standard grid: every playable preset of `GRID_PRESETS` × `GRID_PLAYERS`."""
    results = []
    for preset in GRID_PRESETS:
        try:
            check_supported(RuleSet.preset(preset), 2)
        except ValueError:
            continue
        for players in GRID_PLAYERS:
            results.append(bench(preset, players, strategies, seconds, compiled=compiled))
    return results


# ------------------------------------------------------------------ tournaments
TOURNAMENT_STRATEGIES = ("random", "greedy", "diversity", "ranking", "wild-saver", "attacker")
"""The six strategies of the standard tournament bench."""


def bench_tournament(
    rules: str = "party",
    players: int = 6,
    strategies: str = ",".join(TOURNAMENT_STRATEGIES),
    seconds: float = 10.0,
    *,
    seed: int = 0,
    batch_size: int | None = None,
    compiled: bool = True,
    verify: bool = True,
) -> dict[str, Any]:
    """Games per second of a seat-fair tournament on one core.

    ``verify`` (default on, as a tournament plays): check after every step that no strategy changed
    what it must not touch (`unosim.engine.integrity`).

    Builds the tournament's seatings ([`unosim.analysis.tournament`][unosim.analysis.tournament]) and
    plays the same deals under each seating in turn, one batch at a time, for
    about ``seconds`` seconds after a warm-up of every seating; counts every game.

    Raises
    ------
    ValueError
        Before any work, for unknown strategies (naming every one) or a bad table.
    """
    from .tournament import make_settings

    if not 0 < seconds <= 3600:
        raise UnosimInputError(f"seconds = {seconds}; give a duration from 0 to 3600 seconds.")
    overrides = [f"deck_copies={RuleSet.preset(rules).copies_needed(players)}"]
    settings = make_settings(rules=rules, players=players, strategies=strategies, overrides=overrides,
                             seed=seed, batch_size=batch_size)
    engines = [Engine(settings.config(lineup, 1), compiled=compiled, verify=verify) for _, _, lineup in settings.design.cells()]
    for engine in engines:
        engine.play(0, 2 * engine.batch_size)  # warm-up: compilation, first touch of buffers
    chunk = engines[0].batch_size
    games = turns = 0
    deal = 0
    start = time.perf_counter()
    while True:
        for engine in engines:
            played = engine.play(deal, chunk)
            games += chunk
            turns += int(played.rec[:, L.R_TURNS].sum())
        deal += chunk
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return {
        "rules": rules,
        "players": players,
        "strategies": ",".join(settings.labels),
        "seatings": len(engines),
        "batch_size": engines[0].batch_size,
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1),
        "mean_turns": round(turns / games, 3),
        "compiled_strategies": compiled and any(compiled_policy(s) for e in engines for s in e.strategies),
        "unosim_version": __version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
