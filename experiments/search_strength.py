"""Win rate of one strategy against the same opponent at every other seat, seat-fair, with a deal-clustered interval.

Each deal (game index) is played once with the measured strategy at every seat in turn, the other seats
all playing the opponent, on the same cards (the same seed and game index). The win rate is the share of
those games it wins; its 95 % interval treats the games of one deal as one cluster (a normal
interval on the per-deal means, clipped to [0, 1]). Example (the figures in docs/search.md)::

    python experiments/search_strength.py --players 2 --games 500 --strategy "search(playouts=8192)" \\
        --set wd4_legal_when=always --set wd4_challenge=false
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine
from unosim.game.kernels import layout as L


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strategy", required=True, help="the strategy measured (a spec, e.g. 'search(playouts=1024)')")
    parser.add_argument("--opponent", default="random", help="the strategy at every other seat")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200, help="deals; each is played once per seat")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", help="a rule option (repeatable)")
    parser.add_argument("--out", help="save the wins, one row per deal and one column per seat of the strategy (.npy), "
                                      "to compare two strategies deal by deal")
    args = parser.parse_args()
    won = np.zeros((args.games, args.players))
    start = time.perf_counter()
    for seat in range(args.players):
        lineup = [args.opponent] * args.players
        lineup[seat] = args.strategy
        config = RunConfig.build(rules=args.rules, players=args.players, strategies=lineup, seed=args.seed, games=args.games,
                                 overrides=args.set or None)
        won[:, seat] = Engine(config).play(0, args.games).rec[:, L.R_WINNER] == seat
    if args.out:
        np.save(args.out, won)
    per_deal = won.mean(axis=1)
    rate = per_deal.mean()
    half = 1.96 * per_deal.std(ddof=1) / np.sqrt(args.games)
    print(f"{args.strategy} vs {args.opponent} x{args.players - 1}, {args.rules} {args.players} players {args.set}: "
          f"{rate:.3f} [{max(0.0, rate - half):.3f}, {min(1.0, rate + half):.3f}] over {won.size} games "
          f"(fair share {1 / args.players:.3f}; {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
