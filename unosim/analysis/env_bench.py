"""The environment benchmark: learner steps per second with random masked actions.

``unosim bench --env`` measures, in one process and one run (the machines are shared and
noisy: compare figures of the same run):

* [`UnoVectorEnv`][unosim.env.UnoVectorEnv] (``num_envs`` games in one lockstep batch) at 2, 4
  and 16 players, classic and party: every learner step, and those that were decisions (not
  the ``wait`` a game is asked while others answer a follow-up);
* [`UnoEnv`][unosim.env.UnoEnv] (one game at a time) at the same tables, the other seats
  played by compiled strategies inside the engine;
* RLCard's ``uno`` environment at 2 and 4 players, when ``rlcard`` is installed (it is no
  dependency of unosim: ``pip install rlcard`` for the benchmark), with a random legal action
  at every seat;
* the engine itself ([`bench`][unosim.analysis.bench.bench]: games per second with every seat
  played by the opponents' strategy) at each table, the yardstick of the vector environment's
  rows: their decisions and rounds per second over the engine's games per second.

The vector environment's learner is a compiled stand-in (`unosim.env.kernels.random_actions`): it
reads each game's mask and draws one of its legal actions, uniformly, from one uniform per game,
so the figures are the environment's, not a Python policy's.

An RLCard step is any seat's action; a unosim step is the learning seat's (the opponents' turns
are played by the engine in between), so the ratios of steps favour RLCard, and the rounds per
second are given too. Actions are random among the legal ones in every environment.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..game.errors import UnosimInputError
from ..game.rules import RuleSet
from .bench import bench

__all__ = ["ENV_PLAYERS", "ENV_PRESETS", "RLCARD_PLAYERS", "bench_env", "rlcard_rate", "single_rate", "vector_rate"]

ENV_PRESETS = ("classic", "party")
ENV_PLAYERS = (2, 4, 16)
RLCARD_PLAYERS = (2, 4)


def _overrides(rules: str, players: int) -> list[str]:
    return [f"deck_copies={RuleSet.preset(rules).copies_needed(players)}"]


def _check(seconds: float) -> None:
    if not 0 < seconds <= 3600:
        raise UnosimInputError(f"seconds = {seconds}; give a duration from 0 to 3600 seconds.")


def vector_rate(rules: str, players: int, seconds: float, *, num_envs: int = 256, opponents: str = "random",
                seed: int = 0) -> dict[str, Any]:
    """Step [`UnoVectorEnv`][unosim.env.UnoVectorEnv] with random masked actions for about ``seconds``.

    Parameters
    ----------
    rules, players : str, int
        The table.
    seconds : float
        Seconds to step, after a warm-up of 20 steps.
    num_envs : int
        Games stepped together.
    opponents : str
        The other seats' strategy.
    seed : int
        Run seed.

    Returns
    -------
    dict
        ``steps_per_second`` (every learner step), ``decisions_per_second`` (not ``wait``),
        ``rounds_per_second``, ``steps``, ``seconds`` and the settings.
    """
    from ..env.encoding import WAIT
    from ..env.kernels import random_actions
    from ..env.vector import UnoVectorEnv

    _check(seconds)
    env = UnoVectorEnv(num_envs, rules, players, opponents, overrides=_overrides(rules, players))
    rng = np.random.default_rng(seed)
    uniforms, acts = np.empty(num_envs), np.empty(num_envs, np.int64)
    obs, _ = env.reset(seed=seed)

    def act(masks: np.ndarray) -> np.ndarray:  # the stand-in learner: a random legal action per game
        random_actions(masks, rng.random(out=uniforms), acts)
        return acts

    for _ in range(20):
        obs, *_ = env.step(act(obs["action_mask"]))
    steps = waits = rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        act(obs["action_mask"])
        waits += int(np.count_nonzero(acts == WAIT))
        obs, _, ended, _, _ = env.step(acts)
        rounds += int(np.count_nonzero(ended))
        steps += num_envs
    took = time.perf_counter() - start
    return {"env": f"UnoVectorEnv x{num_envs}", "rules": rules, "players": players, "opponents": opponents,
            "steps_per_second": steps / took, "decisions_per_second": (steps - waits) / took,
            "rounds_per_second": rounds / took, "steps": steps, "seconds": took}


def single_rate(rules: str, players: int, seconds: float, *, opponents: str = "random", seed: int = 0) -> dict[str, Any]:
    """Step [`UnoEnv`][unosim.env.UnoEnv] with random masked actions for about ``seconds``
    (after 200 warm-up steps); the same keys as `vector_rate` (every step is a decision)."""
    from ..env.single import UnoEnv

    _check(seconds)
    env = UnoEnv(rules, players, opponents, overrides=_overrides(rules, players))
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)

    def run(n: int) -> int:
        nonlocal obs
        ended = 0
        for _ in range(n):
            obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if done:
                ended += 1
                obs, _ = env.reset()
        return ended

    run(200)
    steps = rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        rounds += run(100)
        steps += 100
    took = time.perf_counter() - start
    return {"env": "UnoEnv", "rules": rules, "players": players, "opponents": opponents,
            "steps_per_second": steps / took, "decisions_per_second": steps / took,
            "rounds_per_second": rounds / took, "steps": steps, "seconds": took}


def rlcard_rate(players: int, seconds: float, *, seed: int = 0) -> dict[str, Any] | None:
    """Step RLCard's ``uno`` environment with a random legal action at every seat for about
    ``seconds`` (whole rounds); ``None`` when ``rlcard`` is not installed. Every seat's step is counted."""
    try:
        import rlcard
    except ImportError:
        return None
    _check(seconds)
    env = rlcard.make("uno", config={"game_num_players": players, "seed": seed})
    rng = np.random.default_rng(seed)
    steps = rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[int(rng.integers(len(legal)))])
            steps += 1
        rounds += 1
    took = time.perf_counter() - start
    return {"env": "RLCard uno", "rules": "classic", "players": players, "opponents": "-",
            "steps_per_second": steps / took, "decisions_per_second": steps / took,
            "rounds_per_second": rounds / took, "steps": steps, "seconds": took}


def bench_env(seconds: float = 10.0, *, rules: str | None = None, players: int | None = None, num_envs: int = 256,
              opponents: str = "random", rlcard: bool = True) -> dict[str, Any]:
    """Measure every environment of the benchmark in one run (see the module doc).

    Parameters
    ----------
    seconds : float
        Seconds per measurement.
    rules, players : str, int, optional
        Only this preset, only this table size (default: classic and party at 2, 4 and 16).
    num_envs : int
        Games of the vector environment.
    opponents : str
        The other seats' strategy in unosim's environments (``random``: compiled).
    rlcard : bool
        Measure RLCard's UNO too (at the chosen player counts among 2 and 4), if installed.

    Returns
    -------
    dict
        ``rows`` (one dict per measurement, as `vector_rate`; unosim's rows carry
        ``vs_rlcard_steps`` and ``vs_rlcard_rounds`` at classic rules, their decisions and rounds
        per second over RLCard's at the same player count, when measured; the vector environment's
        rows carry ``engine_games_per_second``, the engine's games per second at the same table
        measured just before them, and ``vs_engine_decisions`` and ``vs_engine_rounds``, their
        decisions and rounds per second over it) and ``rlcard`` (installed or not; ``None`` when not
        asked, or at no player count RLCard is measured at).
    """
    _check(seconds)
    presets = (rules,) if rules else ENV_PRESETS
    sizes = (players,) if players else ENV_PLAYERS
    for preset in presets:
        RuleSet.preset(preset)  # a wrong name fails before anything is measured
    rows: list[dict[str, Any]] = []
    theirs: dict[int, dict[str, Any]] = {}
    installed: bool | None = None
    for preset in presets:
        for p in sizes:
            engine = bench(preset, p, opponents, seconds)["games_per_second"]
            row = vector_rate(preset, p, seconds, num_envs=num_envs, opponents=opponents)
            row.update(engine_games_per_second=engine, vs_engine_decisions=row["decisions_per_second"] / engine,
                       vs_engine_rounds=row["rounds_per_second"] / engine)
            rows.append(row)
            rows.append(single_rate(preset, p, seconds, opponents=opponents))
            if rlcard and installed is not False and p in RLCARD_PLAYERS and p not in theirs:
                got = rlcard_rate(p, seconds)  # right after unosim's rows of the same size: the same load on the machine
                installed = got is not None
                if got is not None:
                    theirs[p] = got
    for row in rows:
        other = theirs.get(row["players"]) if row["rules"] == "classic" else None  # RLCard plays classic UNO
        if other is not None:
            row["vs_rlcard_steps"] = row["decisions_per_second"] / other["steps_per_second"]
            row["vs_rlcard_rounds"] = row["rounds_per_second"] / other["rounds_per_second"]
    rows += list(theirs.values())
    return {"rows": rows, "rlcard": installed}
