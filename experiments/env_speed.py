"""Learner steps per second of the Gymnasium environments with random masked actions, beside RLCard's UNO.

    .venv/bin/python experiments/env_speed.py --rules classic --players 4 --opponents random --seconds 5 --vector 1024 --rlcard

Each step is one action of the learning seat: ``unosim.env.UnoEnv`` (one round per episode, the
other seats played by the given strategies inside the engine; rounds are reset as they end) and,
with ``--vector N``, ``unosim.env.UnoVectorEnv`` with N games (every game's step counted, the
``wait`` steps of games waiting for the others' follow-ups too; the decisions, the steps that were
not ``wait``, are printed beside them). With ``--rlcard`` the same workload runs in RLCard's UNO
environment (``rlcard``, installed for this benchmark only): random legal actions at every seat,
every step counted, since RLCard has no opponents outside the stepping loop.

Both single-game loops draw their random legal action the same way, one ``rng.integers`` index
into the legal actions; the vector loop draws one for every game at once (argmax of uniform noise
over the mask). The machine is shared and noisy: each of ``--rounds`` rounds measures every
environment once, one after the other, the ratios are taken within a round, and the medians of
the rounds are printed last. ``unosim bench --env`` measures the whole grid (vector and single
environments, classic and party, 2, 4 and 16 players) and RLCard in one run.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def unosim_rate(rules: str, players: int, opponents: str, seconds: float) -> tuple[float, int, int]:
    """Steps per second, steps and rounds of ``UnoEnv`` with random masked learner actions."""
    from unosim.env import UnoEnv

    env = UnoEnv(rules, players, opponents, overrides=["deck_copies=2"] if players > 14 else None)
    rng = np.random.default_rng(0)

    def act(mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[rng.integers(len(legal))])

    obs, _ = env.reset(seed=0)
    for _ in range(2000):  # warm-up: compiled helpers loaded, caches warm
        obs, _, done, _, _ = env.step(act(obs["action_mask"]))
        if done:
            obs, _ = env.reset()
    steps = rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(1000):
            obs, _, done, _, _ = env.step(act(obs["action_mask"]))
            steps += 1
            if done:
                rounds += 1
                obs, _ = env.reset()
    return steps / (time.perf_counter() - start), steps, rounds


def vector_rate(rules: str, players: int, opponents: str, num_envs: int, seconds: float) -> tuple[float, float]:
    """Learner steps per second of ``UnoVectorEnv`` with random masked actions: all steps, and
    those that were not the ``wait`` decision."""
    from unosim.env import UnoVectorEnv
    from unosim.env.encoding import WAIT

    env = UnoVectorEnv(num_envs, rules, players, opponents, overrides=["deck_copies=2"] if players > 14 else None)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)

    def act(masks: np.ndarray) -> np.ndarray:
        # a random legal action per row, vectorised: argmax of uniform noise over the legal actions
        return np.argmax(rng.random(masks.shape) * masks, axis=1)

    for _ in range(50):
        obs, *_ = env.step(act(obs["action_mask"]))
    steps = waits = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        acts = act(obs["action_mask"])
        waits += int((acts == WAIT).sum())
        obs, *_ = env.step(acts)
        steps += num_envs
    took = time.perf_counter() - start
    return steps / took, (steps - waits) / took


def rlcard_rate(players: int, seconds: float) -> tuple[float, int, int]:
    """Steps per second, steps and rounds of RLCard's ``uno`` environment with random legal actions."""
    import rlcard

    env = rlcard.make("uno", config={"game_num_players": players, "seed": 0})
    rng = np.random.default_rng(0)
    steps = rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[int(rng.integers(len(legal)))])
            steps += 1
        rounds += 1
    return steps / (time.perf_counter() - start), steps, rounds


def main() -> None:
    """Parse the arguments, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds of each measurement")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of measurements (medians printed)")
    parser.add_argument("--rlcard", action="store_true", help="measure RLCard's UNO environment too")
    parser.add_argument("--vector", type=int, default=0, metavar="N", help="measure UnoVectorEnv with N games too")
    args = parser.parse_args()
    table: dict[str, list[float]] = {}

    def note(name: str, value: float) -> None:
        table.setdefault(name, []).append(value)

    for r in range(args.rounds):
        rate, steps, rounds = unosim_rate(args.rules, args.players, args.opponents, args.seconds)
        note("UnoEnv steps/s", rate)
        line = f"round {r + 1}: UnoEnv {rate:,.0f} ({steps:,} steps, {rounds:,} rounds)"
        if args.vector:
            all_steps, decisions = vector_rate(args.rules, args.players, args.opponents, args.vector, args.seconds)
            note(f"UnoVectorEnv x{args.vector} steps/s", all_steps)
            note(f"UnoVectorEnv x{args.vector} decisions/s", decisions)
            line += f"; UnoVectorEnv x{args.vector} {all_steps:,.0f} ({decisions:,.0f} decisions)"
        if args.rlcard:
            other, steps, rounds = rlcard_rate(args.players, args.seconds)
            note("rlcard steps/s", other)
            note("UnoEnv / rlcard", rate / other)
            if args.vector:
                note(f"UnoVectorEnv x{args.vector} / rlcard", all_steps / other)
                note(f"UnoVectorEnv x{args.vector} decisions / rlcard", decisions / other)
            line += f"; rlcard {other:,.0f} ({steps:,} steps, {rounds:,} rounds)"
        print(line, flush=True)
    print(f"medians of {args.rounds} rounds, {args.rules} {args.players} players vs {args.opponents}, {args.seconds:g} s each:")
    for name, values in table.items():
        m = statistics.median(values)
        print(f"  {name:<40} {m:>12,.2f}" if m < 1000 else f"  {name:<40} {m:>12,.0f}")


if __name__ == "__main__":
    main()
