"""The swap cross-check of card values: the same deals played twice, once as dealt and once
with one number card of one hand swapped for a card of the kind (common random numbers).

Design
------
For a rule preset, a player count ``P`` and the deals ``0 .. n-1`` of a seed (the same
deals an ordinary run of that seed plays, every seat ``random``), each deal is played:

* **as dealt**: exactly the game an ordinary run plays (a test checks the records agree);
* once per card kind ``k`` of the deck, **swapped**: after the deal (hands and the first
  card, with its effect), one seat ``s`` (uniform over the seats) gives one of the
  number cards of its opening hand (uniform over them) to the draw pile and takes a card
  of kind ``k`` from it (uniform over the draw pile's cards of that kind). Everything
  else — the other hands, the first card, the game's random stream — is the deal's.

The seat, the number card and the uniform choosing the kind card are drawn once per
deal (from ``numpy.random.SeedSequence(seed, spawn_key=(players, chunk))``) and
shared by every kind. A deal where the seat holds no number card, or the draw pile no
card of the kind, cannot be swapped for that kind and is left out of its estimate.

Estimands
---------
**Swap value** of kind ``k``: the mean over swappable deals of
``1[s wins | swapped] - 1[s wins | as dealt]``, in percentage points, with a 95 %
interval from the paired differences (one pair per deal, so the pairs are
independent). It is the effect of *this* exchange — one more ``k`` and one number
card fewer, the other hands unchanged, the draw pile holding the number card instead —
averaged over the hands as dealt, so mostly a first copy (the share ``first_copy_share``
of swaps took the seat from 0 to 1 card of the kind).

**Regression value** (`unosim.analysis.cardvalue`, all seats, on the as-dealt games
of the same run): the slope of winning on the count of ``k`` in naturally dealt hands,
other kinds' counts and the seat offset held fixed. It compares *different* deals, and
averages the effects of the first, second, ... copy with the weights of least squares.

Where they may differ: (1) non-linearity — the swap averages the step ``c -> c + 1`` over
the dealt counts ``c`` (mostly 0 -> 1), the regression fits one slope through all
steps (see its first- and second-copy values); (2) where the card comes from — in a
natural deal one more ``k`` in a hand means one fewer somewhere among the other hands
and the pile, in the swap it comes from the draw pile only, so opponents keep their
cards; (3) the number card given up is a random one of the hand, in the regression
whatever number cards the hand happens to hold. Under ``random`` play both should agree
within their intervals where the value is linear in the count.

**Variance reduction** = (variance of the swapped outcome + variance of the as-dealt one)
/ variance of their paired difference: 1 means playing the same deal twice gained
nothing over independent deals; games diverge within a few turns, so it is small.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ..game.cards import CARD_KIND, KIND_NAMES
from ..game.errors import UnosimInputError
from ..runs.results import read_result, write_result
from ..version import __version__
from .compare import Variant, parse_players
from .stats import paired_difference

SWAP_FILE = "_cardswap.json"
"""Marker file of a swap cross-check directory (settings); ``values.csv`` next to it."""
CHUNK = 4096
"""Deals played together; the per-deal choices are drawn per chunk of this many deals."""
_NUMBER_TYPES = CARD_KIND == 0


@dataclass(frozen=True)
class SwapResult:
    """Result of [`swap_values`][unosim.analysis.swap_values].

    Attributes
    ----------
    values : pandas.DataFrame
        One row per (players, kind): ``swap_value``, ``swap_low``, ``swap_high``,
        ``swap_se`` (pp), ``pairs`` (swappable deals), ``first_copy_share``,
        ``variance_reduction``, ``win_dealt`` and ``win_swapped`` (the two win rates of
        the swapped seat, %), and the regression estimate on the as-dealt games:
        ``regression_value``, ``regression_low``, ``regression_high``,
        ``regression_first_copy`` (pp, all seats), ``games``.
    settings : dict
        What was played (rules, players, games, seed, kinds).
    """

    values: pd.DataFrame
    settings: dict[str, Any]

    def save(self, out: str | Path) -> list[Path]:
        """Write ``values.csv`` and then ``_cardswap.json`` into ``out``, whole or not at all
        (`unosim.runs.results.write_result`: a failed write leaves the previous result)."""
        return write_result(out, SWAP_FILE, self.settings, {"values.csv": lambda p: self.values.to_csv(p, index=False)})

    @classmethod
    def read(cls, path: str | Path) -> SwapResult:
        """Read a result written by [`save`][unosim.analysis.SwapResult.save].

        Raises
        ------
        ValueError
            When its table is not the one written with its settings (`unosim.runs.results.read_result`).
        """
        path = Path(path)
        settings = read_result(path, SWAP_FILE, "swap cross-check")
        return cls(pd.read_csv(path / "values.csv"), settings)


def swap_kinds(counts: NDArray[np.integer], kinds: list[str] | str | None = None) -> list[str]:
    """The action kinds of a deck (per-type ``counts``), or the ones asked for, checked."""
    present = [name for k, name in enumerate(KIND_NAMES) if k and np.asarray(counts)[CARD_KIND == k].sum() > 0]
    if kinds is None:
        return present
    asked = [k.strip() for k in kinds.split(",")] if isinstance(kinds, str) else list(kinds)
    for name in asked:
        if name not in present:
            raise UnosimInputError(f"kind {name!r} is not an action kind of this deck; choose from: {', '.join(present)}.")
    if not asked:
        raise UnosimInputError(f"no kinds given; choose from: {', '.join(present)}.")
    return asked


def play_deals(engine: Any, first: int, n: int, choice: NDArray[np.float64], kind: int | None
               ) -> tuple[Any, NDArray[np.int64], NDArray[np.bool_], NDArray[np.bool_]]:
    """Play deals ``first .. first + n - 1`` with ``engine`` (batch size at least ``n``), as
    dealt (``kind=None``) or with the swap of the module docstring for kind id ``kind``.

    ``choice`` holds three uniforms per deal (seat, number card, kind card). Returns the
    engine's raw records (`unosim.engine.driver.Played`), the chosen seat per deal, whether
    the deal could be swapped, and whether the seat held no card of the kind before.
    """
    run = engine.start(first, n)
    run.deal_all()
    opening, draw = run.dealt()
    P = engine.config.players
    rows = np.arange(n)
    seat = np.minimum((choice[:, 0] * P).astype(np.int64), P - 1)
    opening = opening[rows, seat].astype(np.int64)  # (n, hand size) card types
    is_number = _NUMBER_TYPES[opening]
    numbers = is_number.sum(axis=1)
    ok = numbers > 0
    before = np.zeros(n, bool)
    if kind is not None:
        of_kind = (CARD_KIND == kind).astype(np.int64)
        before = (of_kind[opening].sum(axis=1) == 0)
        pile = draw.astype(np.int64) * of_kind[None, :]
        in_pile = pile.sum(axis=1)
        ok &= in_pile > 0
        # the j-th number card of the hand (j uniform), the m-th card of the kind in the pile (m uniform)
        j = np.minimum((choice[:, 1] * numbers).astype(np.int64), np.maximum(numbers - 1, 0))
        pos = np.argmax(np.cumsum(is_number, axis=1) > j[:, None], axis=1)
        m = np.minimum((choice[:, 2] * in_pile).astype(np.int64), np.maximum(in_pile - 1, 0))
        card = np.argmax(np.cumsum(pile, axis=1) > m[:, None], axis=1)
        run.exchange(rows[ok], seat[ok], pos[ok], card[ok])
    while run.step():
        pass
    return run.finish(), seat, ok, before


def _choices(seed: int, players: int, chunk: int, n: int) -> NDArray[np.float64]:
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(players, chunk)))
    return rng.random((n, 3))


def _swap_cell(rules: str, p: int, games: int, seed: int, names: list[str], quiet: bool) -> list[dict[str, Any]]:
    """The swap and regression values of every kind ``names`` at ``p`` players (one worker's share)."""
    import sys

    from ..engine.config import RunConfig
    from ..engine.driver import Engine
    from ..engine.records import records_table
    from ..game.kernels import layout as L
    from .cardvalue import COLUMNS, Kinds, fit_cell, seat_chunk, value_table

    variant = Variant(rules, ())
    rows = []
    ruleset = variant.rules(p)
    config = RunConfig.build(rules=ruleset, players=p, strategies="random", seed=seed, games=games)
    engine = Engine(config, batch_size=min(CHUNK, games))
    won: dict[str | None, list[NDArray[np.bool_]]] = {None: []}
    swappable: dict[str, list[NDArray[np.bool_]]] = {k: [] for k in names}
    first_copy: dict[str, list[NDArray[np.bool_]]] = {k: [] for k in names}
    reg_chunks = []
    reg_kinds = Kinds.of_deck(ruleset.load_deck().counts, hand_size=ruleset.hand_size, copies=ruleset.deck_copies)
    for c, first in enumerate(range(0, games, CHUNK)):
        n = min(CHUNK, games - first)
        if not quiet:
            print(f"\rswap cross-check: {p} players, deals {first:,}-{first + n - 1:,} of {games:,}", end="",
                  file=sys.stderr, flush=True)
        choice = _choices(seed, p, c, n)
        played, seat, _, _ = play_deals(engine, first, n, choice, None)
        won[None].append(played.rec[:, L.R_WINNER] == seat)
        reg_chunks.append(seat_chunk(records_table(config, played).select(COLUMNS), reg_kinds))
        for name in names:
            played, seat, ok, before = play_deals(engine, first, n, choice, KIND_NAMES.index(name))
            won.setdefault(name, []).append(played.rec[:, L.R_WINNER] == seat)
            swappable[name].append(ok)
            first_copy[name].append(before)
    if not quiet:
        print(file=sys.stderr)
    try:
        regression = value_table(fit_cell(partial(iter, reg_chunks), reg_kinds, p), reg_kinds)
        regression = regression[regression["scope"] == "all seats"].set_index("kind")
    except ValueError:  # too few games for the regression's design
        regression = None
    dealt = np.concatenate(won[None]).astype(float)
    for name in names:
        ok = np.concatenate(swappable[name])
        swapped = np.concatenate(won[name]).astype(float)
        d = paired_difference(dealt[ok], swapped[ok])
        reg = regression.loc[name] if regression is not None and name in regression.index else None
        rows.append({
            "rules": rules, "players": p, "kind": name,
            "swap_value": 100 * d.diff, "swap_low": 100 * d.low, "swap_high": 100 * d.high, "swap_se": 100 * d.se,
            "pairs": d.n, "first_copy_share": float(np.concatenate(first_copy[name])[ok].mean()),
            "variance_reduction": d.variance_reduction,
            "win_dealt": 100 * d.mean_a, "win_swapped": 100 * d.mean_b,
            "regression_value": np.nan if reg is None else reg["value"],
            "regression_low": np.nan if reg is None else reg["low"],
            "regression_high": np.nan if reg is None else reg["high"],
            "regression_first_copy": np.nan if reg is None else reg["first_copy"],
            "games": games,
        })
    return rows


def swap_values(
    rules: str = "classic",
    players: str | int | list[int] = "2,4,8",
    *,
    games: int = 20_000,
    seed: int = 0,
    kinds: list[str] | str | None = None,
    quiet: bool = True,
    jobs: int | None = 1,
) -> SwapResult:
    """Card values by the swap experiment and by regression on the same deals, side by side.

    Parameters
    ----------
    rules : str
        A preset (``classic``, ``classic-house``, ``party``); every seat plays ``random``.
    players : str, int or list of int
        Player counts: ``4``, ``"2,4,8"`` or ``"2-16"``.
    games : int
        Deals per player count (each played once as dealt and once per kind swapped).
    seed : int
        Seed of the deals (the deals of ``unosim simulate --seed SEED``).
    kinds : str or list of str, optional
        Kinds to swap in (default: every action kind of the deck).
    quiet : bool
        No progress line on stderr (worker processes never show one).
    jobs : int or None
        Worker processes, one player count each (``None``: one per core); the values do not
        depend on it.

    Returns
    -------
    SwapResult

    Raises
    ------
    ValueError
        Before any game is played, for an unknown preset or kind, a bad player count
        or fewer than 2 games.
    """
    from .compare import check_playable

    counts = parse_players(players)
    variant = Variant(rules, ())
    if isinstance(games, bool) or not isinstance(games, int) or games < 2:
        raise UnosimInputError(f"games = {games!r}; give a whole number ≥ 2 (deals per player count).")
    for p in counts:
        check_playable(variant, p)
    deck = variant.rules(counts[0]).load_deck()
    names = swap_kinds(np.asarray(deck.counts), kinds)
    if isinstance(jobs, bool) or (jobs is not None and (not isinstance(jobs, int) or jobs < 1)):
        raise UnosimInputError(f"jobs = {jobs!r}; give a whole number ≥ 1 (or leave it out for every core).")
    if jobs == 1 or len(counts) == 1:
        rows = [row for p in counts for row in _swap_cell(rules, p, games, seed, names, quiet)]
    else:
        import joblib

        from ..engine.config import RunConfig
        from ..engine.driver import compile_kernels

        # compile (or load the cache) here first: the workers then load it instead of compiling side by side
        compile_kernels([RunConfig.build(rules=variant.rules(p), players=p, strategies="random", seed=seed, games=games)
                         for p in counts])
        parts = joblib.Parallel(n_jobs=-1 if jobs is None else min(jobs, len(counts)))(
            joblib.delayed(_swap_cell)(rules, p, games, seed, names, True) for p in counts)
        rows = [row for part in parts for row in part]
    settings = {"kind": "card-value-swap", "rules": rules, "players": counts, "games": games, "seed": seed,
                "kinds": names, "strategy": "random", "unosim_version": __version__}
    return SwapResult(pd.DataFrame(rows), settings)


__all__ = ["CHUNK", "SWAP_FILE", "SwapResult", "play_deals", "swap_kinds", "swap_values"]
