"""Compiled helpers of the environments with one learning seat per game slot (:class:`~unosim.env.seats.SeatLanes`).

Three kernels over every slot of a batch, in place of a Python loop per game and per decision step:

- :func:`collect`: after the engine's ``advance``, the learning seat's waiting row of each slot (its
  group of the row buffers, strategy 0) becomes the slot's decision step;
- :func:`answer`: one action per slot with a step: writes into the engine's decision row what the
  engine's decision call (``engine/decisions.py``) would write for the same answers, and moves the
  slot on to its next follow-up step (the colour of a wild, a link pair, the UNO call) or to none;
- :func:`encode`: the observation vector and the action mask of every slot
  (:mod:`unosim.env.encoding`), read from the batch state and the slot's row.

The slot state ``st`` (``[n_slots, N_ST]`` int64) holds per slot: the step asked (``ST_KIND``, a
kind id of :data:`unosim.env.encoding.KIND_NAMES`, -1 none), the card a follow-up is about
(``ST_CARD``), the row in the row buffers (``ST_ROW``), its decision phase (``ST_PHASE``) and the
follow-ups still to ask (``ST_PEND``, bits ``1 << kind``). The action numbers are this module's
constants, checked against :mod:`unosim.env.encoding` by :mod:`unosim.env.seats` at import (the
disk cache of these kernels follows this file only).

Compiled when an environment is first made, cached on disk with the engine's kernels.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..game.cards import N_TYPES, NAMES_A_COLOUR, WILD_DRAW_FOUR, WILD_DRAWN_TOGETHER
from ..game.kernels import layout as L

__all__ = ["ACTIONS", "N_ST", "answer", "collect", "encode", "warm_up"]

K = N_TYPES
# decision kinds: the engine's decision phases (PH_TURN .. PH_JUMPIN, 0..7), then the follow-ups
PLAY, DRAWN, COLOUR, CHALLENGE, CATCH, PILEUP, VOTE, JUMPIN, LINK, UNO, WAIT_KIND = range(11)
N_KINDS = 11
# actions (unosim.env.encoding)
A_DRAW = K
A_PLAY_DRAWN, A_KEEP = K + 1, K + 2
A_COLOUR0 = K + 3
A_CHALLENGE, A_ACCEPT = K + 7, K + 8
A_CATCH, A_LET_GO = K + 9, K + 10
A_TAKE = K + 11
A_JUMP_IN, A_STAY = K + 12, K + 13
A_CALL_UNO, A_FORGET_UNO = K + 14, K + 15
A_WAIT = K + 16
A_POINT0 = K + 17
ACTIONS = (A_DRAW, A_PLAY_DRAWN, A_KEEP, A_COLOUR0, A_CHALLENGE, A_ACCEPT, A_CATCH, A_LET_GO, A_TAKE, A_JUMP_IN, A_STAY,
           A_CALL_UNO, A_FORGET_UNO, A_WAIT, A_POINT0, N_KINDS)
"""The constants above, in the order :mod:`unosim.env.seats` compares them with :mod:`unosim.env.encoding`."""

ST_KIND, ST_CARD, ST_ROW, ST_PHASE, ST_PEND = range(5)
N_ST = 5

# observation block starts, in the order of encoding.Spaces.blocks (the offsets array ``off``)
(O_KIND, O_HAND, O_TOP, O_DISCARD, O_COLOUR, O_REVERSED, O_HAND_SIZES, O_ALIVE, O_TURN, O_TARGET, O_LINKED, O_MINI_SIZE,
 O_MINI_COLOUR, O_DRAWN, O_CARD, O_BLUFFABLE, O_MAY_TAKE, O_END) = range(18)
BLOCK_ORDER = ("kind", "hand", "top", "discard", "colour", "reversed", "hand_sizes", "alive", "turn", "target", "linked",
               "mini_size", "mini_colour", "drawn", "card", "bluffable", "may_take")

_NEEDS_COLOUR = np.zeros(K, np.bool_)
_NEEDS_COLOUR[list(NAMES_A_COLOUR)] = True


@njit(cache=True, nogil=True)
def collect(parity, ns, group_base, group_count, row_slot, st, counts):  # pragma: no cover - compiled
    """Make each learner row of buffer ``parity`` (strategy 0's groups) its slot's step; slots without
    one get none. ``counts`` gets the number of those rows and of the other strategies' rows (asked in
    Python); returns -1 when a slot has two learner rows (one learning seat per slot), else 0."""
    for s in range(st.shape[0]):
        st[s, ST_KIND] = -1
        st[s, ST_CARD] = -1
        st[s, ST_ROW] = -1
        st[s, ST_PHASE] = -1
        st[s, ST_PEND] = 0
    n = 0
    for ph in range(L.N_DECISION_PHASES):
        g = ph * ns
        for r in range(group_base[g], group_base[g] + group_count[g]):
            s = row_slot[parity, r]
            if st[s, ST_KIND] >= 0:
                return -1
            st[s, ST_KIND] = ph  # a phase's first step is the kind of the same number
            st[s, ST_ROW] = r
            st[s, ST_PHASE] = ph
            n += 1
    others = 0
    for g in range(group_count.shape[0]):
        if g % ns:
            others += group_count[g]
    counts[0] = n
    counts[1] = others
    return 0


@njit(cache=True, nogil=True)
def _linkable(slot, s, players, relink_must_differ):  # pragma: no cover - compiled
    """Bits of the seats a Wild Drawn Together may link now (``observation.gather_seats``)."""
    mask = slot[s, L.F_ALIVE]
    a, b = slot[s, L.F_LINK_A], slot[s, L.F_LINK_B]
    if relink_must_differ and a >= 0:
        mask &= ~((1 << a) | (1 << b))
    return mask & ((1 << players) - 1)


@njit(cache=True, nogil=True)
def _count(bits):  # pragma: no cover - compiled
    n = 0
    while bits:
        bits &= bits - 1
        n += 1
    return n


@njit(cache=True, nogil=True)
def _next_step(st, s):  # pragma: no cover - compiled
    """Move slot ``s`` on to its next follow-up (colour, link, UNO call), or to no step."""
    pend = st[s, ST_PEND]
    for kind in (COLOUR, LINK, UNO):
        if pend & (1 << kind):
            st[s, ST_PEND] = pend & ~(1 << kind)
            st[s, ST_KIND] = kind
            return 1
    st[s, ST_KIND] = -1
    return 0


@njit(cache=True, nogil=True)
def answer(acts, st, parity, seat, players, link0, pairs, relink_must_differ, slot, row_info, row_legal, dec,
           dec_w):  # pragma: no cover - compiled
    """Answer the step of every slot that has one with ``acts[slot]`` (checked against its mask); write
    the decision row as the engine's decision call does. Returns the slots with a step still asked, or
    ``-1 - slot`` for a slot whose action the engine would refuse (never, for an action of its mask)."""
    waiting = 0
    for s in range(st.shape[0]):
        kind = st[s, ST_KIND]
        if kind < 0:
            continue
        a = acts[s]
        r = st[s, ST_ROW]
        hsize = row_info[parity, r, L.I_HSIZE]
        card = -1
        shed = False
        if kind == PLAY or kind == DRAWN:
            if kind == PLAY:
                card = a if a < K else -1
            else:
                flag = a == A_PLAY_DRAWN
                dec[parity, r, L.D_FLAG] = flag
                card = row_info[parity, r, L.I_DRAWN] if flag else -1
            if card >= 0 and not row_legal[parity, r, card] and not (card == WILD_DRAW_FOUR and row_info[parity, r, L.I_BLUFFABLE]):
                return -1 - s
            dec[parity, r, L.D_CARD] = card
            dec[parity, r, L.D_A] = -1
            dec[parity, r, L.D_FORGET] = 0
            if card >= 0:
                pend = 0
                if _NEEDS_COLOUR[card]:
                    pend |= 1 << COLOUR
                if card == WILD_DRAWN_TOGETHER and _count(_linkable(slot, s, players, relink_must_differ)) >= 2:
                    pend |= 1 << LINK
                if hsize == 2:
                    pend |= 1 << UNO
                st[s, ST_PEND] = pend
                st[s, ST_CARD] = card
        elif kind == COLOUR:
            dec[parity, r, L.D_COLOUR] = a - A_COLOUR0
        elif kind == CHALLENGE:
            dec[parity, r, L.D_FLAG] = a == A_CHALLENGE
        elif kind == CATCH:
            dec[parity, r, L.D_FLAG] = a == A_CATCH
        elif kind == PILEUP:
            card = a if a < K else -1
            if card >= 0 and not row_legal[parity, r, card]:
                return -1 - s
            dec[parity, r, L.D_CARD] = card
            dec[parity, r, L.D_A] = -1
            dec[parity, r, L.D_FORGET] = 0
            shed = card >= 0
        elif kind == VOTE:
            dec[parity, r, L.D_FLAG] = (seat + a - A_POINT0) % players
        elif kind == JUMPIN:
            jump = a == A_JUMP_IN
            dec_w[parity, r] = 1.0 if jump else 0.0
            dec[parity, r, L.D_FLAG] = 0
            shed = jump
        elif kind == LINK:
            q = a - link0
            dec[parity, r, L.D_A] = (seat + pairs[q, 0]) % players
            dec[parity, r, L.D_B] = (seat + pairs[q, 1]) % players
        elif kind == UNO:
            # U-1: a jump-in's call goes where its phase reads it
            if st[s, ST_PHASE] == L.PH_JUMPIN:
                dec[parity, r, L.D_FLAG] = a == A_FORGET_UNO
            else:
                dec[parity, r, L.D_FORGET] = a == A_FORGET_UNO
        if shed and hsize == 2:
            st[s, ST_PEND] = 1 << UNO
            st[s, ST_CARD] = -1
        waiting += _next_step(st, s)
    return waiting


@njit(cache=True, nogil=True)
def encode(obs, mask, st, idle, wait, parity, seat, players, off, link0, pairs, relink_must_differ,
           slot, hands, hsize, piles, row_info, row_legal):  # pragma: no cover - compiled
    """Write every slot's observation vector and action mask. A slot without a step is asked ``wait``
    when ``wait`` (the vector environment), else its kind block and mask stay zero; an ``idle`` slot
    (no game) is all zero but for that. Returns -1, or the first slot whose step has no legal action."""
    P = players
    for s in range(obs.shape[0]):
        o = obs[s]
        m = mask[s]
        o[:] = 0
        m[:] = 0
        kind = st[s, ST_KIND]
        if idle[s]:
            if wait:
                o[off[O_KIND] + WAIT_KIND] = 1
                m[A_WAIT] = 1
            continue
        hb = off[O_HAND]
        for t in range(K):
            o[hb + t] = hands[s, seat, t]
        top = slot[s, L.F_TOP]
        if 0 <= top < K:
            o[off[O_TOP] + top] = 1
            db = off[O_DISCARD]
            for t in range(K):
                o[db + t] = piles[s, L.DISC, t]
            o[db + top] += 1
        colour = slot[s, L.F_COLOUR]
        if 0 <= colour < 4:
            o[off[O_COLOUR] + colour] = 1
        o[off[O_REVERSED]] = slot[s, L.F_DIR] < 0
        alive = slot[s, L.F_ALIVE]
        for i in range(P):
            p = (i + seat) % P
            o[off[O_HAND_SIZES] + i] = hsize[s, p]
            o[off[O_ALIVE] + i] = (alive >> p) & 1
        r = st[s, ST_ROW]
        turn = row_info[parity, r, L.I_TURN] if kind >= 0 else slot[s, L.F_TURN]
        if 0 <= turn < P:
            o[off[O_TURN] + (turn - seat + P) % P] = 1
        for linked in (slot[s, L.F_LINK_A], slot[s, L.F_LINK_B]):
            if 0 <= linked < P:
                o[off[O_LINKED] + (linked - seat + P) % P] = 1
        mini = slot[s, L.F_MINI_N]
        o[off[O_MINI_SIZE]] = mini
        mini_colour = slot[s, L.F_MINI_COLOUR]
        if mini > 0 and 0 <= mini_colour < 4:
            o[off[O_MINI_COLOUR] + mini_colour] = 1
        if kind < 0:
            if wait:
                o[off[O_KIND] + WAIT_KIND] = 1
                m[A_WAIT] = 1
            continue
        o[off[O_KIND] + kind] = 1
        phase = row_info[parity, r, L.I_PHASE]
        arg = row_info[parity, r, L.I_ARG]
        if (phase == L.PH_CATCH or phase == L.PH_CHALLENGE or phase == L.PH_VOTE or phase == L.PH_JUMPIN) and 0 <= arg < P:
            o[off[O_TARGET] + (arg - seat + P) % P] = 1
        drawn = row_info[parity, r, L.I_DRAWN]
        if 0 <= drawn < K:
            o[off[O_DRAWN] + drawn] = 1
        card = st[s, ST_CARD]
        if card >= 0:
            o[off[O_CARD] + card] = 1
        bluffable = row_info[parity, r, L.I_BLUFFABLE] != 0
        o[off[O_BLUFFABLE]] = kind == PLAY and bluffable
        o[off[O_MAY_TAKE]] = kind == PILEUP and row_info[parity, r, L.I_MAY_TAKE] != 0
        # the mask (seats._step)
        if kind == PLAY or kind == PILEUP:
            for t in range(K):
                m[t] = row_legal[parity, r, t]
            if kind == PLAY:
                if bluffable:
                    m[WILD_DRAW_FOUR] = 1
                m[A_DRAW] = 1
            else:
                m[A_TAKE] = row_info[parity, r, L.I_MAY_TAKE] != 0
        elif kind == DRAWN:
            m[A_PLAY_DRAWN] = row_legal[parity, r, drawn] or (drawn == WILD_DRAW_FOUR and bluffable)
            m[A_KEEP] = 1
        elif kind == COLOUR:
            for c in range(4):
                m[A_COLOUR0 + c] = 1
        elif kind == CHALLENGE:
            m[A_CHALLENGE] = 1
            m[A_ACCEPT] = 1
        elif kind == CATCH:
            m[A_CATCH] = 1
            m[A_LET_GO] = 1
        elif kind == VOTE:
            for i in range(1, P):
                m[A_POINT0 + i] = (alive >> ((seat + i) % P)) & 1
        elif kind == JUMPIN:
            m[A_JUMP_IN] = 1
            m[A_STAY] = 1
        elif kind == LINK:
            ok = _linkable(slot, s, P, relink_must_differ)
            for q in range(pairs.shape[0]):
                m[link0 + q] = ((ok >> ((seat + pairs[q, 0]) % P)) & 1) & ((ok >> ((seat + pairs[q, 1]) % P)) & 1)
        elif kind == UNO:
            m[A_CALL_UNO] = 1
            m[A_FORGET_UNO] = 1
        legal = False
        for a in range(m.shape[0]):
            if m[a]:
                legal = True
                break
        if not legal:
            return s
    return -1


def warm_up(b, players: int, pairs: np.ndarray, off: np.ndarray, n_actions: int, obs_size: int) -> None:
    """Call each kernel once on empty state of batch ``b`` (compiles them, or loads them from the cache)."""
    st = np.full((0, N_ST), -1, np.int64)
    collect(0, 1, b.group_base, b.group_count, b.row_slot, st, np.zeros(2, np.int64))
    answer(np.zeros(0, np.int64), st, 0, 0, players, 0, pairs, False, b.slot, b.row_info, b.row_legal, b.dec, b.dec_w)
    encode(np.zeros((0, obs_size), np.int16), np.zeros((0, n_actions), np.int8), st, np.zeros(0, np.bool_), True, 0, 0,
           players, off, 0, pairs, False, b.slot, b.hands, b.hsize, b.piles, b.row_info, b.row_legal)
