"""Upper bound of the search player: the same search, its worlds the true hidden state (experiment only).

`search` deals its worlds from what its seat saw. This experiment measures how far that costs it: the
clairvoyant search here is the shipped `search` with one change, made by this script's own driver and never
by the strategy: every world is the game's true position, the other seats' real hands and the real draw pile
(``--see hands``), and with ``--see order`` also the game's own random stream from there, so the cards a
playout draws are the cards the game would deal next (the pile's true order), as long as the draws come in
the same order. The playouts' seats still decide by their own streams (a fresh stream per world), so the
worlds differ only in the choices made in them (and, with ``--see hands``, in the draws).

The driver plays each deal once with the measured strategy at every seat in turn, the other seats all
playing the opponent, as `experiments/search_strength.py` (the same deals, the same interval); it hands the
strategy the batch being played (`ClairvoyantSearch.run`) and the strategy reads the true position of a
decision's game from it. Example (the figures in docs/search.md)::

    python experiments/search_ceiling.py --players 6 --games 300 --see hands \\
        --strategy "search(others='random', value='table', policy='rules:lookahead', playouts=2048)" \\
        --set wd4_legal_when=always --set wd4_challenge=false
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from numpy.typing import NDArray
from unosim.strategies.search import SearchStrategy

from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine, Run
from unosim.game.kernels import layout as L
from unosim.game.kernels import rng
from unosim.strategy.observation import Observation
from unosim.strategy.playouts import P_SEAT, Playouts


class ClairvoyantPlayouts(Playouts):
    """`Playouts` whose worlds are replaced by the true position set in `truth` before each call."""

    truth: dict[str, NDArray[Any]] = {}
    order = False

    def play(self, job_row, job_world, job_answer, public, sizes, own, unseen, discard, seeds, answers,  # type: ignore[override]
             lacks=None, kept=None):
        if not self._deal(job_row, job_world, job_answer, public, sizes, own, unseen, seeds, answers, None, None):
            return None
        n = int(job_row.shape[0])
        truth = self.truth
        self.hands[:n] = truth["hands"][job_row]
        self.hsize[:n] = truth["hsize"][job_row]
        self.piles[:n, L.DRAW] = truth["draw"][job_row]
        self.slot[:n, L.F_DRAW_N] = truth["draw"][job_row].sum(axis=1, dtype=np.int64)
        assert (self.hands[np.arange(n), public[job_row, P_SEAT]] == own[job_row]).all()
        if self.order:  # the game's own stream: the same next cards; the seats' streams fresh per world
            self.keys[:n] = truth["key"][job_row]
            self.slot[:n, L.F_RNG] = truth["rng"][job_row]
            mixed = (job_world.astype(np.uint64) + np.uint64(1)) * np.uint64(rng.GOLDEN) ^ seeds[job_row]
            offset = (mixed >> np.uint64(35)).astype(np.int32)
            self.seat_ctr[:n] = offset[:, None] + (1 << 29)
        return self._play_on(n, job_row, public, discard)


class ClairvoyantSearch(SearchStrategy):
    """`SearchStrategy` playing its playouts in the true position of its game, read from `run` (set by the driver)."""

    run: Run | None = None
    order = False

    def _engine(self, obs: Observation) -> Playouts:
        key = (repr(obs.rules), obs.players)
        engine = self._engines.get(key)
        if engine is None:
            engine = ClairvoyantPlayouts(obs.rules, obs.players, self.policy, self.others, self.depth * obs.players)
            engine.order = self.order
            self._engines[key] = engine
        return engine

    def _search(self, obs: Observation, answers: list[list[tuple[int, int, int, int, int]]]) -> NDArray[np.int64] | None:
        assert self.run is not None
        b = self.run.buffers
        live = b.slot[:, L.F_PHASE] != L.PH_NEWGAME
        where = {int(g): s for s, g in enumerate(b.game) if live[s]}
        slots = np.array([where[int(g)] for g in obs.game], np.int64)
        engine = self._engine(obs)
        assert isinstance(engine, ClairvoyantPlayouts)
        engine.truth = {"hands": b.hands[slots].copy(), "hsize": b.hsize[slots].copy(), "draw": b.piles[slots, L.DRAW].copy(),
                        "key": b.keys[slots].copy(), "rng": b.slot[slots, L.F_RNG].copy()}
        return super()._search(obs, answers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strategy", required=True, help="the search measured (a 'search(...)' spec)")
    parser.add_argument("--see", choices=("none", "hands", "order"), default="hands",
                        help="none: the shipped search; hands: true hands and draw pile; order: and the game's own stream")
    parser.add_argument("--opponent", default="random", help="the strategy at every other seat")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200, help="deals; each is played once per seat")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", help="a rule option (repeatable)")
    parser.add_argument("--out", help="save the wins (deal, seat) to this .npy file, for paired comparisons")
    args = parser.parse_args()
    won = np.zeros((args.games, args.players))
    start = time.perf_counter()
    for seat in range(args.players):
        lineup = [args.opponent] * args.players
        lineup[seat] = args.strategy
        config = RunConfig.build(rules=args.rules, players=args.players, strategies=lineup, seed=args.seed, games=args.games,
                                 overrides=args.set or None)
        engine = Engine(config)
        clairvoyant = None
        if args.see != "none":
            strategies = list(engine.strategies)
            k = int(engine.lineup[seat])
            shipped = strategies[k]
            assert isinstance(shipped, SearchStrategy), "the measured strategy must be a search(...)"
            clairvoyant = ClairvoyantSearch.__new__(ClairvoyantSearch)
            clairvoyant.__dict__.update(shipped.__dict__)
            clairvoyant._engines = {}
            clairvoyant.order = args.see == "order"
            strategies[k] = clairvoyant
            engine.set_strategies(strategies, list(engine.strategy_labels), [int(x) for x in engine.lineup])
        run = engine.start(0, args.games)
        if clairvoyant is not None:
            clairvoyant.run = run
        while run.step():
            pass
        won[:, seat] = run.finish().rec[:, L.R_WINNER] == seat
    if args.out:
        np.save(args.out, won)
    per_deal = won.mean(axis=1)
    rate = per_deal.mean()
    half = 1.96 * per_deal.std(ddof=1) / np.sqrt(args.games)
    print(f"{args.strategy} seeing {args.see} vs {args.opponent} x{args.players - 1}, {args.rules} {args.players} players "
          f"{args.set}: {rate:.3f} [{max(0.0, rate - half):.3f}, {min(1.0, rate + half):.3f}] over {won.size} games "
          f"(fair share {1 / args.players:.3f}; {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
