"""Playouts on the engine's own kernels: positions set into a batch of game slots and played out.

A search strategy (``strategies/search.py``) scores the answers of a decision by playing games on
from the position, in worlds consistent with what its seat saw. This module holds the machinery:

- `fill_worlds` deals each world (the cards the seat has not seen, dealt at random to the
  other hands by their sizes; the rest is the draw pile) and sets one slot per (world, answer) to
  the decision's position, the answer already written into the slot's decision row;
- `Playouts` owns a batch of slots of its own (never the real game's: a separate copy of
  every state array, built here) and plays every slot to the end of its round with the
  `advance` kernel, the searching seat deciding by one compiled
  policy and the other seats by another (``random`` or ``greedy``); it returns each slot's winner.

The slots of one world share its random-stream key (common random numbers): two answers played in
the same world draw the same cards for as long as their games stay alike. Every key comes from
numbers the strategy drew from its own (game, seat) stream, so playouts, like everything else, do
not depend on the batch size.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..game.cards import N_TYPES
from ..game.encoding import copy_flags, encode_flags, encode_rules
from ..game.kernels import layout as L
from ..game.kernels import rng
from ..game.kernels import state as S
from ..game.kernels.advance import advance
from ..game.kernels.policy import POLICY_GREEDY, POLICY_RANDOM, POLICY_RULES
from ..game.rules import RuleSet
from .rule_language import load_program, shipped_rule_files
from .rule_programs import encode_program

__all__ = [
    "P_ALIVE", "P_COLOUR", "P_DIR", "P_LAST", "P_LINK_A", "P_LINK_B", "P_NEXT", "P_PENALTY", "P_PENDING", "P_PHASE",
    "P_SEAT", "P_TOP", "P_TURN", "P_TURNS", "N_PUBLIC", "PLAYOUT_POLICIES", "Playouts", "fill_worlds", "world_key",
]

PLAYOUT_POLICIES = {"random": POLICY_RANDOM, "greedy": POLICY_GREEDY, **{f"rules:{name}": POLICY_RULES for name in shipped_rule_files()}}
"""The compiled policies a playout may be played with: ``random``, ``greedy``, and each shipped rule file
(``rules:NAME``, e.g. ``rules:wild-saver``) run by the compiled rule interpreter."""

# ---- columns of a decision's public state (one int64 row per decision) --------
P_PHASE = 0  # the decision phase (layout.PH_*)
P_SEAT = 1  # the acting seat
P_TURN = 2  # the seat whose turn it is
P_DIR = 3
P_TOP = 4
P_COLOUR = 5
P_LINK_A = 6
P_LINK_B = 7
P_ALIVE = 8  # bit mask of the seats in the round
P_PENALTY = 9  # the pending chain's total (stack phase, H-1)
P_LAST = 10  # the player of the card on top (stack phase)
P_NEXT = 11  # the seat whose turn comes next (swap phase, H-2)
P_PENDING = 12  # the card just drawn (drawn phase)
P_TURNS = 13  # turns played so far (as far as the seat knows)
N_PUBLIC = 14


@njit(cache=True)
def world_key(seed, world):  # pragma: no cover - compiled
    """The 64-bit key of world ``world`` of a decision whose seed is ``seed``."""
    return rng.mix64(rng.mix64(np.uint64(seed)) ^ rng.mix64(np.uint64(world) + np.uint64(0x632BE59BD9B4E019)))


@njit(cache=True)
def _uniform(state):  # pragma: no cover - compiled
    """The next uniform in [0, 1) of the stream ``state`` (a one-element counter array)."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    return float(rng.mix64(state[0]) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _has_groups(group_size, i, p):  # pragma: no cover - compiled
    """Whether seat ``p`` of row ``i`` is dealt by groups (see `fill_worlds`)."""
    for g in range(group_size.shape[2]):
        if group_size[i, p, g] > 0:
            return True
    return False


@njit(cache=True)
def _deal_groups(group_size, group_weight, i, p, held, scratch, left, state, hands, s):  # pragma: no cover - compiled
    """Deal seat ``p``'s ``held`` cards of row ``i`` by its groups from the first ``left`` cards of ``scratch`` into
    ``hands[s, p]`` (each dealt card moved past the cards left, as `fill_worlds` does); False when too few are left."""
    n_groups = group_size.shape[2]
    dealt = 0
    for g in range(n_groups + 1):
        k = held - dealt if g == n_groups else min(group_size[i, p, g], held - dealt)
        for _ in range(k):
            if left == 0:
                return False
            total = 0.0
            if g < n_groups:
                for q in range(left):
                    total += group_weight[i, p, g, scratch[q]]
            j = left - 1
            if total > 0.0:
                x = _uniform(state) * total
                for q in range(left):
                    w = group_weight[i, p, g, scratch[q]]
                    if w > 0.0:
                        j = q  # the last card with a weight, should rounding leave x >= 0
                        x -= w
                        if x < 0.0:
                            break
            else:
                j = min(int(_uniform(state) * left), left - 1)
            c = scratch[j]
            left -= 1
            scratch[j] = scratch[left]
            hands[s, p, c] += 1
            dealt += 1
    return True


@njit(cache=True)
def fill_worlds(job_row, job_world, job_answer, public, sizes, own, unseen, seeds, answers, lacks, kept, group_size,
                group_weight, slot, game, keys, hands, hsize, piles, seat_strat, seat_ctr, seat_dec, seat_w, dec,
                scratch):  # pragma: no cover
    """Set slot ``s`` to decision ``job_row[s]`` in world ``job_world[s]`` with answer ``job_answer[s]`` given.

    Parameters: per decision row ``i``, ``public[i]`` (columns ``P_*``), ``sizes[i]`` every seat's hand
    size, ``own[i]`` the seat's own cards, ``unseen[i]`` the counts of the cards it has not seen (the
    other hands and the draw pile), ``seeds[i]`` its 64-bit seed, ``answers[i, j]`` its answers
    ``(card, colour, flag, link a, link b)``, ``lacks[i, p, t]`` nonzero for the card types seat ``p`` is
    known to lack and ``kept[i, p]`` how many of seat ``p``'s cards are dealt without them (the cards it
    held when the lack was seen; its later draws are dealt from every unseen card; 0: no constraint; a
    seat left with no allowed card gets any). ``group_size[i, p, g]`` and ``group_weight[i, p, g, t]`` (no groups when
    the last axis of ``group_size`` is empty or seat ``p``'s sizes are all 0) instead deal seat ``p``'s hand as groups of
    cards: group ``g``'s cards one by one, each unseen card left drawn in proportion to the group's weight of its type
    (uniformly when no card left has a weight), then the cards beyond the groups' sizes uniformly; ``lacks`` and
    ``kept`` are then not used for that seat. A world is dealt once, into the first of its slots (slots
    of one world must follow each other), and copied into the others. Answers go into the decision rows
    of buffer 1 (``dec[1, s]``, ``F_ROW = s``): `advance` called with parity 0 reads them.
    Returns False when a row's unseen cards do not cover the other hands (no world can be dealt).
    """
    n = job_row.shape[0]
    players = hands.shape[1]
    k = hands.shape[2]
    state = np.zeros(1, np.uint64)
    for s in range(n):
        i = job_row[s]
        w = job_world[s]
        me = public[i, P_SEAT]
        key = world_key(seeds[i], w)
        if s > 0 and job_row[s - 1] == i and job_world[s - 1] == w:
            for p in range(players):
                hsize[s, p] = hsize[s - 1, p]
                for t in range(k):
                    hands[s, p, t] = hands[s - 1, p, t]
            for t in range(k):
                piles[s, L.DRAW, t] = piles[s - 1, L.DRAW, t]
            draw_n = slot[s - 1, L.F_DRAW_N]
        else:
            u = 0
            for t in range(k):
                for _ in range(unseen[i, t]):
                    scratch[u] = t
                    u += 1
            state[0] = key
            left = u
            for p in range(players):
                hsize[s, p] = sizes[i, p]
                for t in range(k):
                    hands[s, p, t] = own[i, t] if p == me else 0
                if p == me:
                    continue
                if _has_groups(group_size, i, p):
                    if not _deal_groups(group_size, group_weight, i, p, sizes[i, p], scratch, left, state, hands, s):
                        return False
                    left -= sizes[i, p]
                    continue
                for d in range(sizes[i, p]):
                    if left == 0:
                        return False
                    j = min(int(_uniform(state) * left), left - 1)
                    if d < kept[i, p]:  # instead a uniform card among those the seat may hold, if any
                        allowed = 0
                        for q in range(left):
                            allowed += lacks[i, p, scratch[q]] == 0
                        if allowed > 0:
                            r = min(int(_uniform(state) * allowed), allowed - 1)
                            for q in range(left):
                                if lacks[i, p, scratch[q]] == 0:
                                    if r == 0:
                                        j = q
                                        break
                                    r -= 1
                    c = scratch[j]
                    left -= 1
                    scratch[j] = scratch[left]
                    hands[s, p, c] += 1
            for t in range(k):
                piles[s, L.DRAW, t] = 0
            for j in range(left):
                piles[s, L.DRAW, scratch[j]] += 1
            draw_n = left
        for t in range(k):
            piles[s, L.MINI, t] = 0
        for f in range(slot.shape[1]):
            slot[s, f] = 0
        top = public[i, P_TOP]
        slot[s, L.F_PHASE] = public[i, P_PHASE]
        slot[s, L.F_ROW] = s
        slot[s, L.F_ACTOR] = me
        slot[s, L.F_TURN] = public[i, P_TURN]
        slot[s, L.F_DIR] = public[i, P_DIR]
        slot[s, L.F_TOP] = top
        slot[s, L.F_COLOUR] = public[i, P_COLOUR]
        slot[s, L.F_TURNS] = public[i, P_TURNS]
        slot[s, L.F_DRAW_N] = draw_n
        slot[s, L.F_PENDING] = public[i, P_PENDING]
        slot[s, L.F_SEAT] = me
        slot[s, L.F_NEXT] = public[i, P_NEXT]
        slot[s, L.F_LINK_A] = public[i, P_LINK_A]
        slot[s, L.F_LINK_B] = public[i, P_LINK_B]
        slot[s, L.F_MINI_COLOUR] = -1
        slot[s, L.F_FORGOT] = -1
        slot[s, L.F_LAST_PLAYER] = public[i, P_LAST]
        slot[s, L.F_WINNER] = -1
        slot[s, L.F_ALIVE] = public[i, P_ALIVE]
        slot[s, L.F_STACK] = public[i, P_PENALTY]
        slot[s, L.F_CHAIN] = 1 if public[i, P_PENALTY] > 0 else 0
        game[s] = s
        keys[s] = rng.mix64(key ^ np.uint64(0x2545F4914F6CDD1D))
        for p in range(players):
            seat_strat[s, p] = 0 if p == me else 1
            seat_ctr[s, p] = 0
            seat_dec[s, p] = 0
            seat_w[s, p] = 0.0
        a = job_answer[s]
        dec[1, s, L.D_CARD] = answers[i, a, 0]
        dec[1, s, L.D_COLOUR] = answers[i, a, 1]
        dec[1, s, L.D_FLAG] = answers[i, a, 2]
        dec[1, s, L.D_FORGET] = 0
        dec[1, s, L.D_A] = answers[i, a, 3]
        dec[1, s, L.D_B] = answers[i, a, 4]
    return True


@njit(cache=True)
def _set_discards(job_row, discard, public, piles, slot):  # pragma: no cover - compiled
    """The discard pile below the top card of each slot (the row's discard counts, top card taken out)."""
    for s in range(job_row.shape[0]):
        i = job_row[s]
        top = public[i, P_TOP]
        n = 0
        for t in range(discard.shape[1]):
            c = discard[i, t] - (1 if t == top else 0)
            piles[s, L.DISC, t] = c
            n += c
        slot[s, L.F_DISC_N] = n


class Playouts:
    """A batch of engine slots of its own, for playouts under one rule set and table size.

    Parameters
    ----------
    rules : RuleSet
        The rules of the game searched.
    players : int
        Seats at the table.
    policy : str
        The compiled policy the searching seat plays in the playouts (a name of `PLAYOUT_POLICIES`).
    others : str
        The compiled policy the other seats play.
    depth : int
        Turns a playout plays before it stops (0: to the end of the round, or the rules' ``max_turns``).

    Notes
    -----
    The arrays grow to the largest batch asked for and are kept between calls. They belong to this
    object alone: no array of the real game is read or written here.
    """

    def __init__(self, rules: RuleSet, players: int, policy: str, others: str, depth: int = 0) -> None:
        self.players = players
        self.hand_size = rules.hand_size
        rules_cfg = encode_rules(rules, players)
        if depth > 0:
            rules_cfg[L.C_MAX_TURNS] = min(int(rules_cfg[L.C_MAX_TURNS]), depth)  # playouts count turns from 0
        lineup = np.zeros(L.N_CFG - L.C_N_STRATS, np.int32)
        lineup[L.C_N_STRATS - L.C_N_STRATS] = 2
        programs: list[NDArray[np.int32]] = []
        for k, name in enumerate((policy, others)):
            pol = PLAYOUT_POLICIES[name]
            if pol == POLICY_RULES:  # the program's words follow cfg's fixed part; the policy id points at them
                pol += L.N_CFG + sum(len(words) for words in programs)
                programs.append(encode_program(load_program(name.removeprefix("rules:"))))
            else:  # random and greedy play a legal drawn card (not a wild needing a colour) and never challenge
                lineup[L.C_AUTO_DRAWN - L.C_N_STRATS] |= 1 << k
                lineup[L.C_NO_CHALLENGE - L.C_N_STRATS] |= 1 << k
            lineup[L.C_POLICY0 + k - L.C_N_STRATS] = pol
        lineup[L.C_ALL_COMPILED - L.C_N_STRATS] = 1
        flags = encode_flags(match=False, trace=False, check=False)
        self.cfg = np.concatenate([rules_cfg, flags, lineup, *programs]).astype(np.int32)
        self.house, self.programs = copy_flags(rules_cfg, self.cfg[L.C_POLICY0 : L.C_POLICY0 + 2])
        self.deck = rules.load_deck().array(rules.deck_copies).astype(np.int16)
        self.capacity = 0
        self._allocate(64)

    def _allocate(self, batch: int) -> None:
        P, K = self.players, N_TYPES
        caps = [batch * P if phase in L.MULTI_ACTOR else batch for phase in range(L.N_DECISION_PHASES) for _ in range(2)]
        rows = int(sum(caps))
        self.capacity = batch
        self.slot = np.zeros((batch, L.N_FIELDS), np.int32)
        self.game = np.zeros(batch, np.int64)
        self.keys = np.zeros(batch, np.uint64)
        self.hands = np.zeros((batch, P, K), np.int8)
        self.hsize = np.zeros((batch, P), np.int32)
        self.piles = np.zeros((batch, 3, K), np.int8)
        self.seat_strat = np.zeros((batch, P), np.int32)
        self.seat_ctr = np.zeros((batch, P), np.int32)
        self.seat_dec = np.zeros((batch, P), np.int32)
        self.seat_w = np.zeros((batch, P), np.float64)
        self.opening = np.zeros((batch, P, self.hand_size), np.int8)
        self.rec = np.zeros((batch, L.N_REC), np.int32)
        self.points = np.zeros((batch, P), np.int16)
        self.rec_open = np.zeros((batch, P, self.hand_size), np.int8)
        self.match_scores = np.zeros((1, 1), np.int32)
        self.row_slot = np.zeros((2, rows), np.int32)
        self.row_seat = np.zeros((2, rows), np.int32)
        self.row_legal = np.zeros((2, rows, K), np.bool_)
        self.row_info = np.zeros((2, rows, L.N_INFO), np.int32)
        self.dec = np.zeros((2, rows, L.N_DEC), np.int32)
        self.dec_w = np.zeros((2, rows), np.float64)
        self.group_base = np.concatenate([[0], np.cumsum(caps)[:-1]]).astype(np.int64)
        self.group_count = np.zeros(len(caps), np.int64)
        self.scratch = S.deal_scratch(self.deck)
        self.actors = np.zeros(max(P, 64), np.int64)
        self.ev = np.zeros((1, L.N_EV_COLS), np.int32)
        self.nev = np.zeros(1, np.int64)
        self.err = np.full(1, -1, np.int64)

    def play(self, job_row: NDArray[np.int64], job_world: NDArray[np.int64], job_answer: NDArray[np.int64],
             public: NDArray[np.int64], sizes: NDArray[np.int64], own: NDArray[np.int64], unseen: NDArray[np.int64],
             discard: NDArray[np.int64], seeds: NDArray[np.uint64],
             answers: NDArray[np.int64], lacks: NDArray[np.int8] | None = None,
             kept: NDArray[np.int64] | None = None, group_size: NDArray[np.int64] | None = None,
             group_weight: NDArray[np.float64] | None = None) -> tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int32]] | None:
        """Play one game on from each job's position (see `fill_worlds`; ``lacks`` and ``kept``, ``group_size`` and
        ``group_weight``: no constraint when None); the winning seat of each (-1: the playout stopped at its depth, or the round
        at ``max_turns``), the hand sizes it ended with and the seat whose turn it was then, or None when
        some row's worlds cannot be dealt."""
        if not self._deal(job_row, job_world, job_answer, public, sizes, own, unseen, seeds, answers, lacks, kept, group_size,
                          group_weight):
            return None
        return self._play_on(int(job_row.shape[0]), job_row, public, discard)

    def _deal(self, job_row: NDArray[np.int64], job_world: NDArray[np.int64], job_answer: NDArray[np.int64],
              public: NDArray[np.int64], sizes: NDArray[np.int64], own: NDArray[np.int64], unseen: NDArray[np.int64],
              seeds: NDArray[np.uint64], answers: NDArray[np.int64], lacks: NDArray[np.int8] | None,
              kept: NDArray[np.int64] | None, group_size: NDArray[np.int64] | None = None,
              group_weight: NDArray[np.float64] | None = None) -> bool:
        """Deal each job's world into the first slots (`fill_worlds`); False when some row's worlds cannot be dealt."""
        n = int(job_row.shape[0])
        if lacks is None or kept is None:
            lacks = np.zeros((public.shape[0], sizes.shape[1], N_TYPES), np.int8)
            kept = np.zeros(sizes.shape, np.int64)
        if group_size is None or group_weight is None:
            group_size = np.zeros((*sizes.shape, 0), np.int64)
            group_weight = np.zeros((*sizes.shape, 0, N_TYPES), np.float64)
        if n > self.capacity:
            self._allocate(max(n, 2 * self.capacity))
        scratch = np.zeros(max(int(unseen.sum(axis=1).max(initial=0)), 1), np.int16)
        ok = fill_worlds(job_row, job_world, job_answer, public, sizes, own, unseen, seeds, answers, lacks, kept, group_size,
                         group_weight, self.slot, self.game, self.keys, self.hands, self.hsize, self.piles, self.seat_strat,
                         self.seat_ctr, self.seat_dec, self.seat_w, self.dec, scratch)
        return bool(ok)

    def _play_on(self, n: int, job_row: NDArray[np.int64], public: NDArray[np.int64],
                 discard: NDArray[np.int64]) -> tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int32]]:
        """Set each job's discard pile and play the first ``n`` slots, their worlds dealt, to their end or depth."""
        _set_discards(job_row, discard, public, self.piles, self.slot)
        ctr = np.zeros(L.N_CTR, np.int64)
        ctr[L.CT_NEXT] = ctr[L.CT_END] = n
        self.group_count[:] = 0
        self.rec[:n, L.R_WINNER] = -1
        games = S.Games(self.slot[:n], self.game[:n], self.keys[:n], self.hands[:n], self.hsize[:n], self.piles[:n],
                      self.opening[:n])
        seats = S.Seats(self.seat_strat[:n], self.seat_ctr[:n], self.seat_dec[:n], self.seat_w[:n])
        rows = S.Rows(self.row_slot, self.row_seat, self.row_legal, self.row_info, self.dec, self.dec_w, self.group_base,
                    self.group_count)
        records = S.Records(self.rec[:n], self.points[:n], self.rec_open[:n], self.match_scores, self.ev, self.nev)
        work = S.Work(ctr, self.deck, self.scratch, self.actors, self.err)
        parity = 0
        while True:
            n_rows = advance(games, seats, rows, records, work, self.cfg, 0, np.uint64(0), parity, self.house, self.programs)
            if n_rows == 0:
                break
            # only a forgotten UNO call asks (never made by these policies): every seat catches it
            self.dec[parity, :, L.D_FLAG] = 1
            parity = 1 - parity
        return self.rec[:n, L.R_WINNER].copy(), self.hsize[:n].copy(), self.slot[:n, L.F_TURN].copy()
