"""The per-game record (one row per game), and for match runs the per-round and
per-match records: the schemas in one place.

=====================  ==================  ==============================================
column                 type                meaning
=====================  ==================  ==============================================
``game``               int64               global game index within the run (replay key)
``seed``               int64               run seed (with ``game``: the game's random stream)
``players``            int8                players at the table
``dealer``             int8                dealer's seat (seat 0..P-1; clockwise = +1)
``winner``             int8, nullable      winning seat; null if truncated
``winner_offset``      int8, nullable      winner's seat offset from the dealer: 1 = first
                                           player, P = dealer (docs/rules.md S-4)
``turns``              int32               turns (T-7)
``cards_played``       int32               cards played onto the discard pile
``cards_drawn``        int32               cards drawn into hands, any reason
``truncated``          bool                stopped at ``max_turns`` (E-5)
``winner_points``      int32               points left in the other hands (E-3); 0 if truncated
``challenges``         int16               Wild Draw Four challenges (W-2)
``challenges_won``     int16               challenges that caught a bluff
``uno_penalties``      int16               forgotten UNO calls caught (U-2)
``jump_ins``           int16               speed-play jump-ins (P-1)
``wrong_jump_ins``     int16               wrong jump-ins (P-3)
``pileups``            int16               mini piles started (P-5)
``pileup_cards``       int16               cards taken from mini piles
``point_taken_draws``  int16               cards drawn through Point Taken (A-4)
``link_echo_draws``    int16               cards drawn as link echoes (P-7)
``stacks``             int16               stacking plays (H-1)
``stack_max``          int16               largest total drawn at the end of a chain (H-1;
                                           0 if none, and always 0 with ``stacking=none``)
``stack_cards``        int16               cards drawn from chains of two or more penalty
                                           cards (H-1)
``seven_swaps``        int16               hands swapped by a 7 (H-2)
``zero_passes``        int16               hands passed on by a 0 (H-2)
``action_jump_ins``    int16               jump-ins with an action card (H-3; also counted
                                           in ``jump_ins``)
``blocked_finishes``   int16               turns on which a player holding one action card
                                           or wild, playable but for H-4, had to draw
``played_<kind>``      int16               cards of each kind played (``KIND_NAMES``)
``strategies``         list<string>        strategy of each seat (index = seat)
``hand_points``        list<int16>         points left in each seat's hand
``opening_hand``       list<list<int8>>    each seat's opening hand as card types
                                           (encoding: `unosim.game.cards`); empty for a
                                           seat eliminated from the match (E-4)
=====================  ==================  ==============================================

Per-seat values are list columns indexed by seat; `seats` turns a frame
into one row per (game, seat) with the seat's offset from the dealer.

Matches (``RunConfig.match``, E-3/E-4) give two tables. The **rounds** table
has one row per round: the per-game columns above, where ``game`` is the
index of the match (the replay key) and a column ``round`` (int32, from 0)
follows it; rows are in (game, round) order. ``dealer`` moves one seat left
each round (S-4); a truncated round (E-5) scores nothing. With ``elimination``
(E-4) a seat whose total reaches the target drops out: in the later rounds of
its match it is dealt nothing (``hand_points`` 0, ``opening_hand`` empty), is
never the dealer or the winner, and the dealer moves to the next seat still
in the match; seat offsets (``winner_offset``) still count every seat. The **matches** table
(the main table of a match run) has one row per match:

=======================  ==============  ==============================================
column                   type            meaning
=======================  ==============  ==============================================
``game``                 int64           global match index within the run (replay key)
``seed``                 int64           run seed
``players``              int8            players at the table
``rounds``               int32           rounds played
``first_dealer``         int8            dealer of round 0 (seat)
``match_winner``         int8            seat that won the match: highest total
                                         (``winner_takes``, E-3) or lowest (``penalty``,
                                         E-4); ties broken uniformly at random. With
                                         ``elimination``: the last seat left, or the
                                         lowest total among the seats left when they
                                         all reach the target in the same round
``match_winner_offset``  int8            its offset from the first dealer: 1 = first
                                         player of round 0, P = first dealer
``truncated_rounds``     int32           rounds stopped at ``max_turns`` (scored nothing)
``scores``               list<int32>     final total of each seat (index = seat)
``strategies``           list<string>    strategy of each seat (index = seat)
=======================  ==============  ==============================================

A match ends after the first round in which a total reaches ``target_score``
(or after 10,000 rounds, reachable only when rounds keep truncating).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from ..game.cards import KIND_NAMES
from ..game.kernels import layout as L

if TYPE_CHECKING:
    import pandas as pd

    from .batch import Played
    from .config import RunConfig

__all__ = ["HOUSE_COLUMNS", "matches_table", "opening_hand_bytes", "opening_hand_lists", "records_table", "rounds_table", "seats"]

_COUNTS = {
    "challenges": L.R_CHALLENGES,
    "challenges_won": L.R_CHALLENGES_WON,
    "uno_penalties": L.R_UNO_PENALTIES,
    "jump_ins": L.R_JUMP_INS,
    "wrong_jump_ins": L.R_WRONG_JUMP_INS,
    "pileups": L.R_PILEUPS,
    "pileup_cards": L.R_PILEUP_CARDS,
    "point_taken_draws": L.R_POINT_TAKEN_DRAWS,
    "link_echo_draws": L.R_LINK_ECHO_DRAWS,
    "stacks": L.R_STACKS,
    "stack_max": L.R_STACK_MAX,
    "stack_cards": L.R_STACK_CARDS,
    "seven_swaps": L.R_SEVEN_SWAPS,
    "zero_passes": L.R_ZERO_PASSES,
    "action_jump_ins": L.R_ACTION_JUMP_INS,
    "blocked_finishes": L.R_BLOCKED,
}
HOUSE_COLUMNS = ("stacks", "stack_max", "stack_cards", "seven_swaps", "zero_passes", "action_jump_ins", "blocked_finishes")
"""The per-game columns of the house rules (docs/rules.md §10, H-1..H-4): 0 in every game while their options are off."""


def _per_seat(values: np.ndarray, type_: pa.DataType) -> pa.ListArray:
    n, p = values.shape[:2]
    offsets = pa.array(np.arange(0, (n + 1) * p, p, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, pa.array(values.reshape(n * p), type=type_))


def _strategies(config: RunConfig, n: int) -> pa.ListArray:
    """The ``strategies`` column of ``n`` rows: each seat's strategy spec."""
    names = np.array([str(s) for s in config.strategies], dtype=object)
    return _per_seat(np.broadcast_to(names, (n, config.players)), pa.string())


def records_table(config: RunConfig, played: Played) -> pa.Table:
    """Turn the raw records of [`Engine.play`][unosim.engine.Engine.play] (single rounds) into the per-game table."""
    n = played.rec.shape[0]
    games = np.arange(played.first, played.first + n, dtype=np.int64)
    return pa.table(_game_columns(config, played.rec, played.points, played.opening, games))


def rounds_table(config: RunConfig, played: Played) -> pa.Table:
    """The per-round table of a match run: the per-game columns plus ``round`` after ``game``."""
    assert played.round_game is not None
    cols = _game_columns(config, played.rec, played.points, played.opening, played.round_game)
    cols = {"game": cols.pop("game"), "round": pa.array(played.rec[:, L.R_ROUND]), **cols}
    return pa.table(cols)


def matches_table(config: RunConfig, played: Played) -> pa.Table:
    """The per-match table of a match run (one row per match, in match order)."""
    assert played.round_game is not None and played.match_scores is not None and played.match_winner is not None
    n = played.match_scores.shape[0]
    P = config.players
    rec = played.rec
    match = played.round_game - played.first
    rounds = np.bincount(match, minlength=n)
    truncated = np.bincount(match, weights=rec[:, L.R_TRUNCATED], minlength=n)
    first_dealer = np.zeros(n, np.int8)
    opening_round = rec[:, L.R_ROUND] == 0
    first_dealer[match[opening_round]] = rec[opening_round, L.R_DEALER]
    winner = played.match_winner
    offset = (winner - first_dealer) % P
    offset[offset == 0] = P
    return pa.table({
        "game": pa.array(np.arange(played.first, played.first + n, dtype=np.int64)),
        "seed": pa.array(np.full(n, config.seed, np.int64)),
        "players": pa.array(np.full(n, P, np.int8)),
        "rounds": pa.array(rounds.astype(np.int32)),
        "first_dealer": pa.array(first_dealer),
        "match_winner": pa.array(winner.astype(np.int8)),
        "match_winner_offset": pa.array(offset.astype(np.int8)),
        "truncated_rounds": pa.array(truncated.astype(np.int32)),
        "scores": _per_seat(played.match_scores, pa.int32()),
        "strategies": _strategies(config, n),
    })


def _game_columns(
    config: RunConfig, rec: np.ndarray, hand_points: np.ndarray, opening: np.ndarray, games: np.ndarray
) -> dict[str, pa.Array]:
    """The per-game columns of records ``rec`` (one row per game or round)."""
    n = rec.shape[0]
    P = config.players
    winner = rec[:, L.R_WINNER]
    truncated = rec[:, L.R_TRUNCATED].astype(bool)
    dealer = rec[:, L.R_DEALER]
    offset = (winner - dealer) % P
    offset[offset == 0] = P
    points = hand_points.astype(np.int32)
    winner_points = points.sum(axis=1) - np.where(truncated, 0, points[np.arange(n), np.maximum(winner, 0)])
    winner_points[truncated] = 0
    cols: dict[str, pa.Array] = {
        "game": pa.array(games.astype(np.int64)),
        "seed": pa.array(np.full(n, config.seed, np.int64)),
        "players": pa.array(np.full(n, P, np.int8)),
        "dealer": pa.array(dealer.astype(np.int8)),
        "winner": pa.array(winner.astype(np.int8), mask=truncated),
        "winner_offset": pa.array(offset.astype(np.int8), mask=truncated),
        "turns": pa.array(rec[:, L.R_TURNS]),
        "cards_played": pa.array(rec[:, L.R_PLAYED]),
        "cards_drawn": pa.array(rec[:, L.R_DRAWN]),
        "truncated": pa.array(truncated),
        "winner_points": pa.array(winner_points.astype(np.int32)),
    }
    for name, col in _COUNTS.items():
        cols[name] = pa.array(rec[:, col].astype(np.int16))
    for k, kind in enumerate(KIND_NAMES):
        cols[f"played_{kind}"] = pa.array(rec[:, L.R_KIND0 + k].astype(np.int16))
    cols["strategies"] = _strategies(config, n)
    cols["hand_points"] = _per_seat(hand_points, pa.int16())
    cols["opening_hand"] = opening_hand_lists(_byte_rows(opening.reshape(n, -1).astype(np.int8)), np.full(n, P))
    return cols


def opening_hand_lists(stored: pa.Array | pa.ChunkedArray, players: NDArray[np.integer]) -> pa.Array | pa.ChunkedArray:
    """The ``opening_hand`` column from its stored form (`opening_hand_bytes`).

    Row ``i`` of ``stored`` holds ``players[i]`` hands of equally many cards, seat after seat, one
    byte a card; a hand whose first byte is -1 was never dealt (E-4 elimination) and becomes an
    empty list. A chunked column gives a chunked column; the cards are not copied when every seat
    of a chunk was dealt.
    """
    seats: NDArray[np.int64] = np.asarray(players, np.int64)
    if isinstance(stored, pa.ChunkedArray):
        ends = np.cumsum([len(c) for c in stored.chunks])
        return pa.chunked_array([_hand_lists(c, seats[e - len(c):e]) for c, e in zip(stored.chunks, ends, strict=True)],
                                pa.list_(pa.list_(pa.int8())))
    return _hand_lists(stored, seats)


def _hand_lists(stored: pa.Array, players: NDArray[np.int64]) -> pa.ListArray:
    """`opening_hand_lists` of one array."""
    n = len(stored)
    offsets = np.frombuffer(stored.buffers()[1], np.int32, n + 1, stored.offset * 4).astype(np.int64)
    first, last = int(offsets[0]), int(offsets[-1])
    data = stored.buffers()[2] if last > first else pa.py_buffer(b"")
    cards = np.frombuffer(data, np.int8, last - first, first)
    lengths = np.diff(offsets)
    if n and (players == players[0]).all() and (lengths == lengths[0]).all():  # one table size: offsets by arange
        p, size = int(players[0]), int(lengths[0]) // max(int(players[0]), 1)
        if size and (cards[::size] >= 0).all():
            flat = pa.Array.from_buffers(pa.int8(), last - first, [None, data], offset=first)
            inner = pa.ListArray.from_arrays(pa.array(np.arange(0, last - first + 1, size, dtype=np.int32)), flat)
            return pa.ListArray.from_arrays(pa.array(np.arange(0, n * p + 1, p, dtype=np.int32)), inner)
    per_seat = np.repeat(lengths // np.maximum(players, 1), players)  # each hand's size
    seat_index = np.arange(len(per_seat)) - np.repeat(np.cumsum(players) - players, players)
    starts = np.repeat(offsets[:-1] - first, players) + seat_index * per_seat
    dealt = per_seat > 0
    dealt[dealt] = cards[starts[dealt]] >= 0
    flat = pa.array(cards[np.repeat(dealt, per_seat)], pa.int8())
    sizes = np.where(dealt, per_seat, 0)
    inner = pa.ListArray.from_arrays(pa.array(np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32)), flat)
    return pa.ListArray.from_arrays(pa.array(np.concatenate([[0], np.cumsum(players)]).astype(np.int32)), inner)


def _byte_rows(rows: NDArray[np.int8]) -> pa.BinaryArray:
    """One byte string per row of a 2-d int8 array."""
    n, width = rows.shape
    offsets = np.arange(0, (n + 1) * width, width, dtype=np.int32)
    return pa.Array.from_buffers(pa.binary(), n, [None, pa.py_buffer(offsets), pa.py_buffer(np.ascontiguousarray(rows))])


def opening_hand_bytes(column: pa.Array) -> pa.BinaryArray:
    """The stored form of an ``opening_hand`` column: one byte string a row, each seat's hand in
    turn (as many bytes as cards), a hand never dealt written as -1 bytes of the row's hand size.

    Parquet decodes one byte string a row several times faster than a list of lists of bytes:
    this is what a 10-million-game dataset's load is made of. `opening_hand_lists` reads it back.
    """
    column = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    import pyarrow.compute as pc

    players = pc.list_value_length(column).to_numpy(zero_copy_only=False).astype(np.int64)
    hands = pc.list_flatten(column)
    sizes = pc.list_value_length(hands).to_numpy(zero_copy_only=False).astype(np.int64)
    cards = pc.list_flatten(hands).to_numpy(zero_copy_only=False).astype(np.int8)
    row_starts = np.cumsum(players) - players
    size = np.maximum.reduceat(sizes, row_starts) if len(sizes) else np.zeros(0, np.int64)  # the row's hand size
    per_seat = np.repeat(size, players)
    if (sizes == per_seat).all():
        out = cards
    else:  # never-dealt hands padded with -1
        out = np.full(int(per_seat.sum()), -1, np.int8)
        out[np.repeat(sizes > 0, per_seat)] = cards
    offsets = np.concatenate([[0], np.cumsum(players * size)]).astype(np.int32)
    return pa.Array.from_buffers(pa.binary(), len(players), [None, pa.py_buffer(offsets), pa.py_buffer(out)])


def seats(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (game, seat): seat, offset from the dealer, strategy, hand points, won.

    Works on the Arrow-backed list columns of [`unosim.load`][unosim.load] without a Python
    loop over games.
    """
    import pandas as pd  # not at import: the workers of a run build tables, never frames
    import pyarrow.compute as pc

    P = frame["players"].to_numpy().astype(np.int64)
    rows = np.repeat(np.arange(len(frame)), P)
    seat = np.arange(len(rows)) - np.repeat(np.cumsum(P) - P, P)
    out = pd.DataFrame({"game": frame["game"].to_numpy()[rows], "seat": seat})
    offset = (seat - frame["dealer"].to_numpy()[rows]) % P[rows]
    out["offset"] = np.where(offset == 0, P[rows], offset)
    names = pc.list_flatten(pa.array(frame["strategies"]))
    if pa.types.is_dictionary(names.type):  # as unosim.load reads it
        names = names.dictionary_decode()
    out["strategy"] = names.to_numpy(zero_copy_only=False)
    out["hand_points"] = pc.list_flatten(pa.array(frame["hand_points"])).to_numpy(zero_copy_only=False)
    out["won"] = frame["winner"].to_numpy()[rows] == seat
    return out
