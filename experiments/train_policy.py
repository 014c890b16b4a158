"""Train a small linear policy with CMA-ES to beat ``random`` at 2-player classic, then measure it.

    .venv/bin/python experiments/train_policy.py --out experiments/policy_classic_2.json

The learner: CMA-ES (``cma``, a project dependency) over 84 numbers: one score per action (a
fixed preference order of the actions), a weight for choosing a colour by the cards held of
that colour, and one for playing a card by the cards held of its colour. They make the
``weights`` and ``bias`` of a :class:`unosim.env.policy.LinearPolicy`. Evolution strategies
rather than a policy-gradient library: no further dependency, a deterministic policy, and a
fitness (the win rate over fixed seeds) that is cheap to measure in the lockstep vector
environment. Each candidate plays ``--games`` rounds against ``random`` (the same deals for all
candidates of a generation); a few minutes on one core.

The saved file plays as a strategy, ``--strategies policy:PATH``; the script ends by playing
``--eval`` games of it against ``random`` through the engine, in both seats.
"""

from __future__ import annotations

import argparse
import time

import cma
import numpy as np
from threadpoolctl import threadpool_limits

from unosim.engine.config import RunConfig
from unosim.engine.driver import play_tables
from unosim.env import UnoVectorEnv
from unosim.env import encoding as E
from unosim.env.policy import LinearPolicy
from unosim.game.cards import CARD_COLOUR, N_TYPES


def make_policy(x: np.ndarray, spaces: E.Spaces) -> LinearPolicy:
    """The linear policy of the parameter vector ``x`` (bias per action, then two weights)."""
    n = spaces.n_actions
    bias = x[:n].astype(np.float64)
    weights = np.zeros((n, spaces.obs_size))
    hand = spaces.blocks["hand"].start
    for c in range(4):
        of_colour = hand + np.flatnonzero(CARD_COLOUR == c)
        weights[E.COLOUR0 + c, of_colour] = x[n]  # choose the colour held most
        for t in np.flatnonzero(CARD_COLOUR[:N_TYPES] == c):
            weights[t, of_colour] = x[n + 1]  # play from the colour held most
    return LinearPolicy(spaces.players, weights, bias)


def win_rate(env: UnoVectorEnv, policy: LinearPolicy, seed: int) -> float:
    """Wins of ``policy`` over games ``0 .. num_envs - 1`` of the run ``seed`` (one per slot)."""
    obs, info = env.reset(seed=seed)
    n = env.num_envs
    results: dict[int, float] = {}
    games = info["game"].copy()
    while len(results) < n:
        acts = policy.act(obs["observation"], obs["action_mask"])
        obs, reward, ended, _, info = env.step(acts)
        for i in np.flatnonzero(ended):
            results[int(games[i])] = float(reward[i] > 0)
        games = info["game"].copy()
    return float(np.mean(list(results.values())))


def evaluate(path: str, games: int) -> tuple[float, float]:
    """Win rate of the policy file against ``random`` through the engine, in seat 0 and in seat 1."""
    rates = []
    for seat in (0, 1):
        lineup = [f"policy:{path}", "random"] if seat == 0 else ["random", f"policy:{path}"]
        config = RunConfig.build(rules="classic", players=2, strategies=lineup, seed=2024, games=games)
        winners = play_tables(config, 0, games)[0].column("winner").to_numpy()
        rates.append(float(np.mean(winners == seat)))
    return rates[0], rates[1]


def main() -> None:
    """Train, save, measure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="experiments/policy_classic_2.json")
    parser.add_argument("--games", type=int, default=400, help="rounds per candidate")
    parser.add_argument("--generations", type=int, default=30)
    parser.add_argument("--eval", type=int, default=100_000, help="rounds of the final measurement, per seat")
    args = parser.parse_args()
    threadpool_limits(1)  # small matrix products: BLAS threads only contend for the cores
    # one game per slot; a round of a poor candidate stops after 300 turns (no win) instead of 5,000
    env = UnoVectorEnv(args.games, "classic", 2, "random", games=args.games, overrides=["max_turns=300"])
    spaces = env.game.spaces
    x0 = np.zeros(spaces.n_actions + 2)  # start from a prior: play a card rather than draw, play the drawn card, call UNO
    x0[:N_TYPES] = x0[E.PLAY_DRAWN] = x0[E.CALL_UNO] = x0[E.ACCEPT] = 1.0
    es = cma.CMAEvolutionStrategy(x0, 0.5, {"popsize": 12, "seed": 1, "verbose": -9})
    start = time.perf_counter()
    best, best_rate = x0, 0.0
    for gen in range(args.generations):
        xs = es.ask()
        rates = [win_rate(env, make_policy(np.asarray(x), spaces), seed=gen) for x in xs]
        es.tell(xs, [-r for r in rates])
        mean_rate = win_rate(env, make_policy(es.mean, spaces), seed=10_000)  # held-out deals
        if mean_rate > best_rate:
            best, best_rate = np.array(es.mean), mean_rate
        print(f"generation {gen:3d}: best candidate {max(rates):.3f}, mean policy {mean_rate:.3f} on held-out deals "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
    make_policy(best, spaces).save(args.out)
    print(f"saved {args.out} (held-out win rate {best_rate:.3f})")
    seat0, seat1 = evaluate(args.out, args.eval)
    print(f"policy vs random, {args.eval:,} rounds per seat: wins {seat0:.3f} in seat 0, {seat1:.3f} in seat 1, "
          f"{(seat0 + seat1) / 2:.3f} overall")


if __name__ == "__main__":
    main()
