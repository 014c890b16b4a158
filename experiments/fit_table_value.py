"""Fit the search's ``value='table'`` (or ``'hand'``): the chance that each seat wins a round, given the position at a playout's cut-off.

Games are played by the search's own playout engine (`unosim.strategy.playouts.Playouts`) from
random openings (a number card on top, every hand dealt at random, the first seat drawing), once
stopped after ``D`` turns and once to the end on the same random streams (the first ``D`` turns are
the same game): the stopped game gives the position, the finished one the winner. The model is a
conditional logit over the seats of the table: seat ``j`` wins with probability
``exp(u_j) / sum_k exp(u_k)``, ``u_j = a * ln(cards_j) + b * wilds_j + c * [j moves next] +
d * [j moves after that]`` (``wilds``: the Wild and Wild Draw Four cards held); the share value
``cards ** -1.5`` is the special case ``a = -1.5, b = c = d = 0``. Fitted by maximum likelihood
(scipy), with standard errors from the observed information. Example (the coefficients of
``TABLE_VALUE_DEFAULTS`` in ``strategies/lookahead.py``)::

    python experiments/fit_table_value.py --players 6 --games 400000 --policy random --others random \\
        --set wd4_legal_when=always --set wd4_challenge=false

With ``--model hand`` it fits instead the search's ``value='hand'``: the chance that the seat playing ``--policy``
wins, a logistic over its ``hand_features`` (``strategies/search.py``; the fitted coefficients are
``HAND_VALUE_DEFAULTS``), its log-likelihood compared with that of ``VALUE_DEFAULTS``::

    python experiments/fit_table_value.py --players 2 --games 400000 --policy rules:lookahead --others random \\
        --model hand --depths 6,12,18,24,30,36,48 --set wd4_legal_when=always --set wd4_challenge=false
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.optimize import minimize
from unosim.strategies.lookahead import VALUE_DEFAULTS
from unosim.strategies.search import HAND_VALUE_NAMES, hand_features

from unosim.game.cards import FACES_PER_COLOUR, N_COLOURED, N_TYPES, WILD, WILD_DRAW_FOUR
from unosim.game.kernels import layout as L
from unosim.game.rules import RuleSet
from unosim.strategy import playouts as po
from unosim.strategy.base import DRAW

NAMES = ("ln cards", "wilds", "moves next", "moves second")


def openings(rules: RuleSet, players: int, n: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """``n`` random openings: the public rows, hand sizes, the first seat's hand, its unseen cards and discards."""
    deck = rules.load_deck().array(rules.deck_copies).astype(np.int64)
    cards = np.repeat(np.arange(N_TYPES), deck)
    public = np.zeros((n, po.N_PUBLIC), np.int64)
    own = np.zeros((n, N_TYPES), np.int64)
    discard = np.zeros((n, N_TYPES), np.int64)
    numbers = np.flatnonzero((np.arange(N_TYPES) < N_COLOURED) & (np.arange(N_TYPES) % FACES_PER_COLOUR < 10) & (deck > 0))
    for i in range(n):
        top = int(rng.choice(numbers, p=deck[numbers] / deck[numbers].sum()))
        rest = cards.copy()
        rest = np.delete(rest, np.flatnonzero(rest == top)[0])
        np.add.at(own[i], rng.choice(rest, rules.hand_size, replace=False), 1)
        discard[i, top] = 1
        seat = int(rng.integers(players))
        public[i, [po.P_PHASE, po.P_SEAT, po.P_TURN, po.P_DIR, po.P_TOP, po.P_COLOUR, po.P_NEXT]] = (L.PH_TURN, seat, seat, 1, top,
                                                                                 top // FACES_PER_COLOUR, seat)
        public[i, [po.P_LINK_A, po.P_LINK_B, po.P_LAST, po.P_PENDING]] = -1
        public[i, po.P_ALIVE] = (1 << players) - 1
    sizes = np.full((n, players), rules.hand_size, np.int64)
    unseen = deck[None, :] - own - discard
    return public, sizes, own, unseen, discard


def positions(rules: RuleSet, players: int, policy: str, others: str, depths: list[int], games: int,
              seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features ``(game, seat, feature)`` at the cut-off of every game still open there, its winning seat, and the
    seat that plays ``policy`` (the searching seat) with its ``HAND_VALUE_NAMES`` features ``(game, feature)`` in the last
    array's columns 1 and up (column 0: whether it won)."""
    rng = np.random.default_rng(seed)
    features, winners, own_rows = [], [], []
    per = games // len(depths)
    answers = np.full((per, 1, 5), -1, np.int64)
    answers[:, 0, 0] = DRAW
    answers[:, 0, 2] = 0
    for depth in depths:
        public, sizes, own, unseen, discard = openings(rules, players, per, rng)
        seeds = rng.integers(0, 2**63, per, dtype=np.int64).astype(np.uint64)
        jobs = np.arange(per, dtype=np.int64), np.zeros(per, np.int64), np.zeros(per, np.int64)
        cut = po.Playouts(rules, players, policy, others, depth)
        stopped_at = cut.play(*jobs, public, sizes, own, unseen, discard, seeds, answers)
        ended = po.Playouts(rules, players, policy, others, 0).play(*jobs, public, sizes, own, unseen, discard, seeds, answers)
        assert stopped_at is not None and ended is not None  # the openings leave enough unseen cards
        (stopped, size, turn), end = stopped_at, ended[0]
        hands = cut.hands[:per].astype(np.int64)
        direction = cut.slot[:per, L.F_DIR].astype(np.int64)
        keep = (stopped < 0) & (end >= 0)
        seat = np.arange(players)[None, :]
        x = np.zeros((per, players, len(NAMES)))
        x[:, :, 0] = np.log(np.maximum(size, 1))
        x[:, :, 1] = hands[:, :, WILD] + hands[:, :, WILD_DRAW_FOUR]
        x[:, :, 2] = seat == turn[:, None]
        x[:, :, 3] = seat == (turn[:, None] + direction[:, None]) % players
        features.append(x[keep])
        winners.append(end[keep])
        me = public[:, po.P_SEAT]
        inside = np.ones((per, players), bool)
        y = np.concatenate([(end == me)[:, None], hand_features(hands, size, turn, me, inside)], axis=1)
        own_rows.append(y[keep])
    return np.concatenate(features), np.concatenate(winners).astype(np.int64), np.concatenate(own_rows)


def fit_seat(y: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Maximum-likelihood coefficients of the searching seat's binary logistic (rows of `positions`' last array), their
    standard errors, the mean log-likelihood."""
    won, x = y[:, 0], y[:, 1:]

    def loss(beta: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ beta
        nll = (np.logaddexp(0.0, z) - won * z).sum()
        return nll, x.T @ (1.0 / (1.0 + np.exp(-z)) - won)

    beta = minimize(loss, np.zeros(x.shape[1]), jac=True, method="BFGS").x
    p = 1.0 / (1.0 + np.exp(-(x @ beta)))
    info = (x * (p * (1 - p))[:, None]).T @ x
    return beta, np.sqrt(np.diag(np.linalg.inv(info))), -loss(beta)[0] / len(won)


def fit(x: np.ndarray, won: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Maximum-likelihood coefficients of the conditional logit, their standard errors, the mean log-likelihood."""
    rows = np.arange(len(won))

    def loss(beta: np.ndarray) -> tuple[float, np.ndarray]:
        u = x @ beta
        u -= u.max(axis=1, keepdims=True)
        p = np.exp(u)
        p /= p.sum(axis=1, keepdims=True)
        nll = -(np.log(p[rows, won])).sum()
        grad = -(x[rows, won] - np.einsum("gs,gsf->gf", p, x)).sum(axis=0)
        return nll, grad

    beta = minimize(loss, np.zeros(x.shape[2]), jac=True, method="BFGS").x
    u = x @ beta
    p = np.exp(u - u.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    mean = np.einsum("gs,gsf->gf", p, x)
    info = np.einsum("gs,gsf,gsh->fh", p, x, x) - mean.T @ mean
    return beta, np.sqrt(np.diag(np.linalg.inv(info))), -loss(beta)[0] / len(won)


def report(heading: str, names: tuple[str, ...], width: int, beta: np.ndarray, se: np.ndarray, likelihoods: str) -> None:
    """Print a fit: ``heading``, each coefficient with its standard error, the log-likelihoods per position
    compared (``likelihoods``), and the coefficients as a tuple to paste into the code."""
    print(heading)
    for name, b, s in zip(names, beta, se):
        print(f"  {name:>{width}}: {b:+.3f} ± {s:.3f}")
    print(f"  log-likelihood per position: {likelihoods}")
    print("  coefficients: (" + ", ".join(f"{b:.3f}" for b in beta) + ")")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--games", type=int, default=40000)
    parser.add_argument("--depths", default="6,12,18,24,36,48", help="turns before the cut-off, one share of the games each")
    parser.add_argument("--policy", default="random", help="the playout policy of the first seat")
    parser.add_argument("--others", default="random", help="the playout policy of the other seats")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--model", choices=("table", "hand"), default="table",
                        help="table: the conditional logit over the seats (value='table'); hand: the binary logistic of the "
                             "seat that plays --policy (value='hand', HAND_VALUE_DEFAULTS)")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", help="a rule option (repeatable)")
    args = parser.parse_args()
    start = time.perf_counter()
    rules = RuleSet.preset(args.rules).with_overrides(args.set)
    x, won, y = positions(rules, args.players, args.policy, args.others, [int(d) for d in args.depths.split(",")],
                          args.games, args.seed)
    if args.model == "hand":
        beta, se, ll = fit_seat(y)
        z = y[:, 1:5] @ np.array(VALUE_DEFAULTS)
        old = -(np.logaddexp(0.0, z) - y[:, 0] * z).mean()
        base = y[:, 0].mean()
        report(f"{len(y)} positions at {args.players} players ({args.policy} / {args.others}, {args.rules} {args.set}); "
               f"{time.perf_counter() - start:.0f} s; the seat won {base:.3f}", HAND_VALUE_NAMES, 15, beta, se,
               f"fitted {ll:.4f}, VALUE_DEFAULTS {old:.4f}, constant {base * np.log(base) + (1 - base) * np.log(1 - base):.4f}")
        four, _, ll4 = fit_seat(y[:, :5])
        print("  the terms of value='logistic' alone: (" + ", ".join(f"{b:.3f}" for b in four) + f"), log-likelihood {ll4:.4f}")
        return
    beta, se, ll = fit(x, won)
    share = -(np.log(np.exp(x[..., 0] * -1.5)[np.arange(len(won)), won] / np.exp(x[..., 0] * -1.5).sum(axis=1))).mean()
    report(f"{len(won)} positions at {args.players} players ({args.policy} / {args.others}, {args.rules} {args.set}); "
           f"{time.perf_counter() - start:.0f} s", NAMES, 13, beta, se,
           f"fitted {ll:.4f}, share (cards ** -1.5) {-share:.4f}, uniform {-np.log(args.players):.4f}")


if __name__ == "__main__":
    main()
