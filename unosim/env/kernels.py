"""The environments' compiled helpers: the one encoder of observations and masks, the one mapping of
actions to the engine's answers, and the stepping of one learning seat per game slot.

`answer` and `encode` serve every environment: [`SeatedGame`][unosim.env.SeatedGame]
calls them one step at a time (the AEC and parallel environments), `play` for every slot of
a batch (`SeatLanes`), and [`PolicyStrategy`][unosim.env.PolicyStrategy]
encodes a strategy's rows with `encode`.

`play` is one call of an environment's ``step`` (or ``reset``) over every slot of a batch,
in place of a Python loop per game and per decision step. It checks the actions, answers them
(`answer`), runs the engine's ``advance`` (linked in: no return to Python between the
learner's decisions unless another seat's strategy decides in Python), makes each slot's waiting
learner row its decision step (`collect`), pays the rewards of the games that ended, and
encodes the observations and masks (`encode`):

- `collect`: after ``advance``, the learning seat's waiting row of each slot (its group of
  the row buffers, strategy 0) becomes the slot's decision step;
- `answer`: one action per slot with a step: writes into the engine's decision row what the
  engine's decision call (``engine/decisions.py``) would write for the same answers, and moves the
  slot on to its next follow-up step (the colour of a wild, a link pair, the UNO call) or to none;
- `encode`: the observation vector and the action mask of every slot
  (`unosim.env.encoding`), read from the batch state and the slot's row.

The slot state ``st`` (``[n_slots, N_ST]`` int64) holds per slot: the step asked (``ST_KIND``, a
kind id of [`unosim.env.KIND_NAMES`][unosim.env.KIND_NAMES], -1 none), the card a follow-up is about
(``ST_CARD``), the row in the row buffers (``ST_ROW``), its decision phase (``ST_PHASE``) and the
follow-ups still to ask (``ST_PEND``, bits ``1 << FOLLOW_*`` of
`unosim.game.kernels.follow_ups`, which also orders them). The action numbers and the order of the
observation blocks are defined here, once, and `unosim.env.encoding` names them: the disk
cache of these kernels follows this file (and the engine's kernels, whose digest names the cache
directory), so the compiled code and its constants never part.

Compiled (about 15 s) when an environment is first made on a machine, then loaded from the disk
cache with the engine's kernels; without NRT, as the engine's (`unosim.game.kernels.jit`).
"""

from __future__ import annotations

import numpy as np

from ..game.cards import N_TYPES, WILD_DRAW_FOUR, WILD_DRAWN_TOGETHER
from ..game.kernels import follow_ups as F
from ..game.kernels import jit
from ..game.kernels import layout as L
from ..game.kernels.advance import advance

__all__ = [
    "A_ACCEPT", "A_CALL_UNO", "A_CATCH", "A_CHALLENGE", "A_COLOUR0", "A_DRAW", "A_FORGET_UNO", "A_JUMP_IN", "A_KEEP", "A_LET_GO",
    "A_PLAY_DRAWN", "A_POINT0", "A_STAY", "A_TAKE", "A_WAIT", "BLOCK_ORDER", "N_KINDS", "N_ST", "answer", "collect", "encode",
    "play", "random_actions",
]

K = N_TYPES
# decision kinds: the engine's decision phases (PH_TURN .. PH_SWAP, 0..9), then the follow-ups
PLAY, DRAWN, COLOUR, CHALLENGE, CATCH, PILEUP, VOTE, JUMPIN, STACK, SWAP, LINK, UNO, WAIT_KIND = range(13)
N_KINDS = 13
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
ST_KIND, ST_CARD, ST_ROW, ST_PHASE, ST_PEND = range(5)
N_ST = 5

# observation block starts, in the order of encoding.Spaces.blocks (the offsets array ``off``)
(O_KIND, O_HAND, O_TOP, O_DISCARD, O_COLOUR, O_REVERSED, O_HAND_SIZES, O_ALIVE, O_TURN, O_TARGET, O_LINKED, O_MINI_SIZE,
 O_MINI_COLOUR, O_DRAWN, O_CARD, O_BLUFFABLE, O_MAY_TAKE, O_PENALTY, O_END) = range(19)
BLOCK_ORDER = ("kind", "hand", "top", "discard", "colour", "reversed", "hand_sizes", "alive", "turn", "target", "linked",
               "mini_size", "mini_colour", "drawn", "card", "bluffable", "may_take", "penalty")

_TARGET_PHASES = sum(1 << ph for ph in (L.PH_CATCH, L.PH_CHALLENGE, L.PH_VOTE, L.PH_JUMPIN, L.PH_STACK, L.PH_SWAP))
"""The decision phases whose row names a seat (``I_ARG``): the observation's ``target`` block."""


@jit.kernel
def collect(parity, ns, catchers, group_base, group_count, row_slot, slot, st, counts, dec):  # pragma: no cover - compiled
    """Make each learner row of buffer ``parity`` (strategy 0's groups) its slot's step; slots without
    one get none; a held slot (``layout.ROW_HELD``) keeps its step, at its row's new place. The catch
    rows of the strategies of bits ``catchers`` (``always_catch_mask``) are answered yes here, as their
    ``catch_uno`` would. ``counts`` gets the number of learner rows and of the other strategies' rows
    still to ask in Python; returns -1 when a slot has two learner rows (one learning seat per slot),
    else 0."""
    for s in range(st.shape[0]):
        if slot[s, L.F_ROW] <= L.ROW_HELD:
            continue
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
            if slot[s, L.F_ROW] == L.ROW_HELD - r:
                st[s, ST_ROW] = r
                n += 1
                continue
            if st[s, ST_KIND] >= 0:
                return -1
            st[s, ST_KIND] = ph  # a phase's first step is the kind of the same number
            st[s, ST_ROW] = r
            st[s, ST_PHASE] = ph
            n += 1
    others = 0
    for g in range(group_count.shape[0]):
        k = g % ns
        if k == 0:
            continue
        if g // ns == L.PH_CATCH and (catchers >> k) & 1:
            for r in range(group_base[g], group_base[g] + group_count[g]):
                dec[parity, r, L.D_FLAG] = 1
        else:
            others += group_count[g]
    counts[0] = n
    counts[1] = others
    return 0


@jit.kernel
def _linkable(slot, s, players, relink_must_differ):  # pragma: no cover - compiled
    """Bits of the seats a Wild Drawn Together may link now (``observation.gather_rows``)."""
    mask = slot[s, L.F_ALIVE]
    a, b = slot[s, L.F_LINK_A], slot[s, L.F_LINK_B]
    if relink_must_differ and a >= 0:
        mask &= ~((1 << a) | (1 << b))
    return mask & ((1 << players) - 1)


@jit.kernel
def _count(bits):  # pragma: no cover - compiled
    n = 0
    while bits:
        bits &= bits - 1
        n += 1
    return n


_STEP_KIND = np.full(3, -1, np.int64)
_STEP_KIND[[F.FOLLOW_COLOUR, F.FOLLOW_LINK, F.FOLLOW_UNO]] = COLOUR, LINK, UNO
"""The decision kind that asks each follow-up (`unosim.game.kernels.follow_ups`)."""


@jit.kernel
def _next_step(st, s):  # pragma: no cover - compiled
    """Move slot ``s`` on to its next follow-up, in the engine's order, or to no step."""
    pend = st[s, ST_PEND]
    for step in F.FOLLOW_UP_ORDER:
        if pend & (1 << step):
            st[s, ST_PEND] = pend & ~(1 << step)
            st[s, ST_KIND] = _STEP_KIND[step]
            return 1
    st[s, ST_KIND] = -1
    return 0


@jit.kernel
def answer(acts, st, parity, seat, players, link0, swap0, pairs, relink_must_differ, slot, row_info, row_legal, dec,
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
            n_linkable = _count(_linkable(slot, s, players, relink_must_differ)) if card == WILD_DRAWN_TOGETHER else 0
            st[s, ST_PEND] = F.follow_ups(kind, card, card >= 0, hsize, n_linkable)
            st[s, ST_CARD] = card
        elif kind == COLOUR:
            dec[parity, r, L.D_COLOUR] = a - A_COLOUR0
        elif kind == CHALLENGE:
            dec[parity, r, L.D_FLAG] = a == A_CHALLENGE
        elif kind == CATCH:
            dec[parity, r, L.D_FLAG] = a == A_CATCH
        elif kind == PILEUP or kind == STACK:  # P-5 add a card or take the mini pile; H-1 stack a card or take the total
            card = a if a < K else -1
            if card >= 0 and not row_legal[parity, r, card]:
                return -1 - s
            dec[parity, r, L.D_CARD] = card
            dec[parity, r, L.D_A] = -1
            dec[parity, r, L.D_FORGET] = 0
            st[s, ST_PEND] = F.follow_ups(kind, card, card >= 0, hsize, 0)
            st[s, ST_CARD] = card
        elif kind == SWAP:  # H-2
            dec[parity, r, L.D_FLAG] = (seat + a - swap0) % players
        elif kind == VOTE:
            dec[parity, r, L.D_FLAG] = (seat + a - A_POINT0) % players
        elif kind == JUMPIN:
            jump = a == A_JUMP_IN
            dec_w[parity, r] = 1.0 if jump else 0.0
            dec[parity, r, L.D_FLAG] = 0
            st[s, ST_PEND] = F.follow_ups(kind, -1, jump, hsize, 0)
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
        waiting += _next_step(st, s)
    return waiting


@jit.rule
def _encode_table(o, s, seat, P, off, slot, hands, hsize, piles):  # pragma: no cover - compiled
    """Write the blocks of slot ``s``'s observation ``o`` that only the game's state decides (not the
    step asked): the hand, the piles, the colour, the direction, the seats' sizes, who is alive and
    linked, the mini pile. Inlined into `encode` (a call per game, with its eleven arguments, cost
    more than a tenth of a full encoding)."""
    o_hand, o_top, o_discard, o_colour, o_reversed = off[O_HAND], off[O_TOP], off[O_DISCARD], off[O_COLOUR], off[O_REVERSED]
    o_sizes, o_alive, o_linked, o_mini, o_mini_colour = off[O_HAND_SIZES], off[O_ALIVE], off[O_LINKED], off[O_MINI_SIZE], off[O_MINI_COLOUR]
    # views: the loops index from 0, and run to the view's length: a trip count known only when running
    # is vectorised, where the constant K would be unrolled into one load and store per card type
    src, dst = hands[s, seat], o[o_hand : o_hand + K]
    for t in range(src.shape[0]):
        dst[t] = src[t]
    top = slot[s, L.F_TOP]
    if 0 <= top < K:
        o[o_top + top] = 1
        src, dst = piles[s, L.DISC], o[o_discard : o_discard + K]
        for t in range(src.shape[0]):
            dst[t] = src[t]
        o[o_discard + top] += 1
    colour = slot[s, L.F_COLOUR]
    if 0 <= colour < 4:
        o[o_colour + colour] = 1
    o[o_reversed] = slot[s, L.F_DIR] < 0
    alive = slot[s, L.F_ALIVE]
    sizes, alive_at = o[o_sizes : o_sizes + P], o[o_alive : o_alive + P]
    p = seat
    for i in range(P):
        sizes[i] = hsize[s, p]
        alive_at[i] = (alive >> p) & 1
        p += 1
        if p == P:
            p = 0
    for linked in (slot[s, L.F_LINK_A], slot[s, L.F_LINK_B]):
        if 0 <= linked < P:
            o[o_linked + (linked - seat + P) % P] = 1
    mini = slot[s, L.F_MINI_N]
    o[o_mini] = mini
    mini_colour = slot[s, L.F_MINI_COLOUR]
    if mini > 0 and 0 <= mini_colour < 4:
        o[o_mini_colour + mini_colour] = 1


@jit.kernel
def encode(obs, mask, st, idle, wait, keep, parity, seat, players, off, link0, swap0, pairs, relink_must_differ,
           slot, hands, hsize, piles, row_info, row_legal):  # pragma: no cover - compiled
    """Write every slot's observation vector and action mask. A slot without a step is asked ``wait``
    when ``wait`` (the vector environment), else its kind block and mask stay zero; in the vector
    environment an ``idle`` slot (no game) is all zero but for that. ``keep``: the engine has not run
    since ``obs`` and ``mask`` were last written (the game's state is the same), so a slot asked ``wait``
    then and without a step now keeps them as they are, and any other slot rewrites only the blocks of
    its step, not `_encode_table`'s. Returns -1, or the first slot whose step has no legal action."""
    P = players
    o_kind, o_turn, o_target, o_drawn, o_card = off[O_KIND], off[O_TURN], off[O_TARGET], off[O_DRAWN], off[O_CARD]
    o_bluffable, o_may_take, o_penalty, o_end = off[O_BLUFFABLE], off[O_MAY_TAKE], off[O_PENALTY], off[O_END]
    for s in range(obs.shape[0]):
        kind = st[s, ST_KIND]
        if keep and kind < 0 and mask[s, A_WAIT] != 0:
            continue
        o = obs[s]
        m = mask[s]
        m[:] = 0
        if keep:  # the table is as last written: only the step's own blocks change
            o[o_kind : o_kind + N_KINDS] = 0
            o[o_turn : o_target + P] = 0
            o[o_drawn : o_end] = 0
        else:
            o[:] = 0
            if wait and idle[s]:
                o[o_kind + WAIT_KIND] = 1
                m[A_WAIT] = 1
                continue
            _encode_table(o, s, seat, P, off, slot, hands, hsize, piles)
        r = st[s, ST_ROW]
        turn = row_info[parity, r, L.I_TURN] if kind >= 0 else slot[s, L.F_TURN]
        if 0 <= turn < P:
            o[o_turn + (turn - seat + P) % P] = 1
        if kind < 0:
            if wait:
                o[o_kind + WAIT_KIND] = 1
                m[A_WAIT] = 1
            continue
        info = row_info[parity, r]
        o[o_kind + kind] = 1
        phase = info[L.I_PHASE]
        arg = info[L.I_ARG]
        if (_TARGET_PHASES >> phase) & 1 and 0 <= arg < P:
            o[o_target + (arg - seat + P) % P] = 1
        drawn = info[L.I_DRAWN]
        if kind == DRAWN and 0 <= drawn < K:  # the drawn decision only, not its follow-ups
            o[o_drawn + drawn] = 1
        card = st[s, ST_CARD]
        if card >= 0 and kind != UNO:  # a strategy's forget_uno is not told the card either
            o[o_card + card] = 1
        bluffable = info[L.I_BLUFFABLE] != 0
        o[o_bluffable] = kind == PLAY and bluffable
        o[o_may_take] = kind == PILEUP and info[L.I_MAY_TAKE] != 0
        if kind == STACK:
            o[o_penalty] = info[L.I_PENALTY]
        # the mask
        legal = True
        if kind == PLAY or kind == PILEUP or kind == STACK:
            row = row_legal[parity, r]
            for t in range(row.shape[0]):  # vectorised (`_encode_table`)
                m[t] = row[t]
            if kind == PLAY:
                if bluffable:
                    m[WILD_DRAW_FOUR] = 1
                m[A_DRAW] = 1
            elif kind == STACK:  # taking the total is always allowed (H-1)
                m[A_TAKE] = 1
            else:
                m[A_TAKE] = info[L.I_MAY_TAKE] != 0
                legal = m[A_TAKE] != 0
                for t in range(K):
                    legal |= m[t] != 0
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
        elif kind == VOTE or kind == SWAP:  # a seat other than oneself, still in the match: point at it, or swap with it
            first = A_POINT0 if kind == VOTE else swap0
            alive = slot[s, L.F_ALIVE]
            legal = False
            for i in range(1, P):
                m[first + i] = (alive >> ((seat + i) % P)) & 1
                legal |= m[first + i] != 0
        elif kind == JUMPIN:
            m[A_JUMP_IN] = 1
            m[A_STAY] = 1
        elif kind == LINK:
            ok = _linkable(slot, s, P, relink_must_differ)
            legal = False
            for q in range(pairs.shape[0]):
                m[link0 + q] = ((ok >> ((seat + pairs[q, 0]) % P)) & 1) & ((ok >> ((seat + pairs[q, 1]) % P)) & 1)
                legal |= m[link0 + q] != 0
        elif kind == UNO:
            m[A_CALL_UNO] = 1
            m[A_FORGET_UNO] = 1
        if not legal:
            return s
    return -1


_ONES = np.uint64(0x0101010101010101)
_HIGHS = np.uint64(0x8080808080808080)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@jit.kernel
def _legal_bytes(words, j, w0, w1, lo, hi):  # pragma: no cover - compiled
    """One in each byte of ``words[j]`` that is not zero, zero in the others; the bytes of the row's
    first word ``w0`` below ``lo`` and of its last word ``w1`` above ``hi`` (other rows) zero."""
    w = words[j]
    w |= w >> np.uint64(4)
    w |= w >> np.uint64(2)
    w |= w >> np.uint64(1)
    w &= _ONES
    if j == w0:
        w &= lo
    if j == w1:
        w &= hi
    return w


def random_actions(mask, uniforms, out):
    """A random legal action per row of ``mask``: ``out[i]`` is legal action number ``floor(uniforms[i] * n)``
    (counted from 0 in increasing action numbers) of row ``i``'s ``n`` legal ones, uniform among them
    for ``uniforms`` uniform on [0, 1); -1 for a row without a legal action. A stand-in learner
    that reads the mask (the environment benchmark's); compiled (`_random_actions`)."""
    _random_actions(np.ascontiguousarray(mask), uniforms, out)


@jit.kernel
def _random_actions(mask, uniforms, out):  # pragma: no cover - compiled
    """`random_actions` for a C-contiguous ``mask``. A byte mask whose size is a multiple of 8 is read
    eight actions at a time: each word's legal actions are counted at once, and the chosen one is found
    in its word without a loop over its bytes."""
    m = mask.shape[1]
    if not (mask.itemsize == 1 and mask.size % 8 == 0):
        for i in range(mask.shape[0]):
            row = mask[i]
            n = 0
            for a in range(m):
                n += row[a] != 0
            k = int(uniforms[i] * n)
            out[i] = -1
            for a in range(m):
                k -= row[a] != 0
                if k < 0:
                    out[i] = a
                    break
        return
    words = mask.reshape(-1).view(np.uint64)
    for i in range(mask.shape[0]):
        b0 = i * m
        w0, w1 = b0 >> 3, (b0 + m - 1) >> 3  # the row's bytes b0 .. b0 + m - 1 lie in words w0 .. w1
        lo = _ALL << np.uint64(8 * (b0 & 7))
        hi = _ALL >> np.uint64(8 * (-(b0 + m) & 7))
        n = 0
        for j in range(w0, w1 + 1):
            n += int((_legal_bytes(words, j, w0, w1, lo, hi) * _ONES) >> np.uint64(56))  # the top byte sums the eight
        k = int(uniforms[i] * n)
        out[i] = -1
        for j in range(w0, w1 + 1):
            x = _legal_bytes(words, j, w0, w1, lo, hi)
            upto = x * _ONES  # byte t: the legal actions in bytes 0 .. t
            c = int(upto >> np.uint64(56))
            if k < c:  # the chosen one is in this word: at byte t, the number of bytes with at most k before
                past = ((upto | _HIGHS) - np.uint64(k + 1) * _ONES) & _HIGHS  # bytes holding more than k
                t = 8 - int(((past >> np.uint64(7)) * _ONES) >> np.uint64(56))
                out[i] = 8 * j + t - b0
                break
            k -= c


# the parameters and state of `play` (``pst``, int64)
(P_MODE, P_STATUS, P_PARITY, P_ASKED, P_DECIDED, P_FIRST, P_SEAT, P_PLAYERS, P_NS, P_LINK0, P_RELINK, P_WAIT, P_FOREVER,
 P_POINTS, P_BAD, P_PLAYED, P_SWAP0, P_CATCH, N_P) = range(19)
# modes
M_STEP, M_LOOP, M_START, M_RESET, M_ENCODE = range(5)
# statuses
S_OK, S_ILLEGAL, S_DECIDE, S_EXTEND, S_CHECK, S_WAIT, S_ANSWER, S_MASK, S_ROWS = range(9)


@jit.kernel
def _zero(a):  # pragma: no cover - compiled
    for i in range(a.shape[0]):
        a[i] = 0


@jit.kernel
def _reset_run(pst, games, seats, rows, records, work):  # pragma: no cover - compiled
    """Put the run's state back as ``Engine.start(pst[P_FIRST], 1)`` makes it (a fresh ``Run``)."""
    slot, game, keys, hands, hsize, piles, opening = games
    seat_ctr, seat_dec, seat_w = seats.seat_ctr, seats.seat_dec, seats.seat_w
    row_slot, row_seat, row_legal, row_info, dec, dec_w, group_count = (
        rows.row_slot, rows.row_seat, rows.row_legal, rows.row_info, rows.dec, rows.dec_w, rows.group_count)
    rec, rec_points, rec_open, match_scores, ev, nev = records
    ctr, actors, err = work.ctr, work.actors, work.err  # scratch keeps the sorted deck the deal copies
    for a in (slot.reshape(-1), row_slot.reshape(-1), row_seat.reshape(-1), row_info.reshape(-1), dec.reshape(-1),
              hsize.reshape(-1), seat_ctr.reshape(-1), seat_dec.reshape(-1), rec.reshape(-1), match_scores.reshape(-1),
              ev.reshape(-1)):
        _zero(a)
    for b in (hands.reshape(-1), piles.reshape(-1), opening.reshape(-1), rec_open.reshape(-1)):
        _zero(b)
    _zero(row_legal.reshape(-1))
    _zero(seat_w.reshape(-1))
    _zero(dec_w.reshape(-1))
    _zero(keys)
    _zero(rec_points.reshape(-1))
    _zero(actors)
    _zero(nev)
    _zero(group_count)
    _zero(ctr)
    for s in range(slot.shape[0]):
        slot[s, L.F_PHASE] = L.PH_NEWGAME
        slot[s, L.F_ROW] = -1
        game[s] = -1
    ctr[L.CT_NEXT] = pst[P_FIRST]
    ctr[L.CT_END] = pst[P_FIRST] + 1
    err[0] = -1
    pst[P_PARITY] = 0


@jit.kernel
def _show(shown, mask, st, idle, current, keep):  # pragma: no cover - compiled
    """Write the copies of ``shown`` (the masks, games and idle flags a policy is shown) from the
    arrays `play` reads again. ``keep`` (`encode`'s keep pass): when only a few mask rows may have
    been rewritten (a step, or a shown mask without ``wait``), only those are copied."""
    shown_mask, shown_current, shown_idle = shown
    n, n_actions = mask.shape
    rewritten = n
    if keep:
        rewritten = 0
        for s in range(n):
            rewritten += st[s, ST_KIND] >= 0 or shown_mask[s, A_WAIT] == 0
    if 8 * rewritten > n:  # one block: a row's loop is too short for its vector code (a few rows: row by row)
        src, dst = mask.reshape(-1), shown_mask.reshape(-1)
        for a in range(src.shape[0]):
            dst[a] = src[a]
    else:
        for s in range(n):
            if st[s, ST_KIND] >= 0 or shown_mask[s, A_WAIT] == 0:
                src, dst = mask[s], shown_mask[s]
                for a in range(n_actions):
                    dst[a] = src[a]
    for s in range(mask.shape[0]):
        shown_current[s] = current[s]
        shown_idle[s] = idle[s]


_MULTI_ACTOR = sum(1 << ph for ph in L.MULTI_ACTOR)
"""The decision phases with a row per seat: their rows cannot be held (``layout.ROW_HELD``)."""


@jit.kernel
def _hold(st, slot, idle):  # pragma: no cover - compiled
    """After `answer`: hold the row of each slot with a follow-up still to ask (``layout.ROW_HELD``:
    ``advance`` keeps it and plays the other slots on), give back the row of each slot answered in full;
    return whether the engine may run now: no row of a phase with a row per seat (a jump-in's UNO call)
    is answered in part, and some slot not held has a game to play. Without holding, every game would
    wait while any answered a follow-up (figures in docs/performance.md)."""
    free = 0
    blocked = False
    for s in range(st.shape[0]):
        ph, r = st[s, ST_PHASE], st[s, ST_ROW]
        if ph >= 0 and (_MULTI_ACTOR >> ph) & 1:
            blocked |= st[s, ST_KIND] >= 0
            free += 1
        elif r < 0:
            free += not idle[s]
        elif st[s, ST_KIND] >= 0:
            slot[s, L.F_ROW] = L.ROW_HELD - r
        else:
            slot[s, L.F_ROW] = r
            free += 1
    return not blocked and free > 0


@jit.kernel
def play(pst, rv, acts, st, counts, mask, idle, current, rewards, ended, winners, off, pairs,
         games, seats, rows, records, work, cfg, rkey, house, programs, shown, obs):  # pragma: no cover - compiled
    """One call of an environment: answer the learner's steps, let the engine play on, encode.

    ``pst[P_MODE]``: ``M_STEP`` checks ``acts`` against ``mask`` (the first slot refused goes to
    ``pst[P_BAD]``, nothing is answered), answers every slot's step, and when no slot has a step left
    runs the engine (``advance``) until the learner is asked again in some slot or no game is left;
    ``M_LOOP`` goes on with that after Python returned (``S_DECIDE``: the other seats' Python
    strategies have rows, to ask before the engine goes on; ``S_EXTEND``: a run dealt for ever needs
    more games planned); ``M_START`` starts there with a fresh run; ``M_RESET`` first puts the run back
    as a fresh one of game ``pst[P_FIRST]`` (one slot); ``M_ENCODE`` only encodes. Each game that ended
    (its slot holds another game, or none) gets its reward, ``ended`` and winner. Returns the status
    (also in ``pst[P_STATUS]``); the observations and masks are written on ``S_OK``: in the vector
    environment (``P_WAIT``) an ``M_STEP`` that did not run the engine rewrites only the slots that had
    a step (``obs`` and ``mask`` must then be the previous call's). ``pst[P_PLAYED]`` is 1 when the
    engine was run (or resumed) in the call. On ``S_OK`` the copies in ``shown`` (`_show`) are
    written too: what a policy is shown is never what the call reads again.
    """
    slot, game, hands, hsize, piles = games.slot, games.game, games.hands, games.hsize, games.piles
    row_slot, row_legal, row_info, dec, dec_w = rows.row_slot, rows.row_legal, rows.row_info, rows.dec, rows.dec_w
    group_base, group_count = rows.group_base, rows.group_count
    rec, rec_points, nev = records.rec, records.rec_points, records.nev
    ctr, err = work.ctr, work.err
    mode = pst[P_MODE]
    seat, players, link0, swap0 = pst[P_SEAT], pst[P_PLAYERS], pst[P_LINK0], pst[P_SWAP0]
    relink, wait = pst[P_RELINK] != 0, pst[P_WAIT] != 0
    n = st.shape[0]
    if mode == M_STEP or mode == M_START or mode == M_RESET:
        for s in range(n):
            rewards[s] = 0.0
            ended[s] = False
            winners[s] = -2
    if mode == M_RESET:
        _reset_run(pst, games, seats, rows, records, work)
        for s in range(n):
            current[s] = -1
            idle[s] = False
    if mode == M_START or mode == M_RESET:
        pst[P_ASKED] = 0
        pst[P_DECIDED] = 0
    go = mode != M_ENCODE
    pst[P_PLAYED] = 0
    if mode == M_STEP:
        n_actions = mask.shape[1]
        for s in range(n):
            a = acts[s]
            if a < 0 or a >= n_actions or mask[s, a] == 0:
                pst[P_BAD] = s
                pst[P_STATUS] = S_ILLEGAL
                return S_ILLEGAL
        pending = answer(acts, st, pst[P_PARITY], seat, players, link0, swap0, pairs, relink, slot, row_info, row_legal, dec,
                         dec_w)
        if pending < 0:
            pst[P_BAD] = -1 - pending
            pst[P_STATUS] = S_ANSWER
            return S_ANSWER
        ready = _hold(st, slot, idle)
        go = pending == 0 or ready
    if go:
        pst[P_PLAYED] = 1
    while go:
        if pst[P_ASKED]:
            if counts[1] > 0 and pst[P_DECIDED] == 0:
                pst[P_STATUS] = S_DECIDE
                return S_DECIDE
            pst[P_DECIDED] = 0
            pst[P_PARITY] = 1 - pst[P_PARITY]
            pst[P_ASKED] = 0
        if pst[P_FOREVER] and ctr[L.CT_END] - ctr[L.CT_NEXT] < n:
            pst[P_STATUS] = S_EXTEND
            return S_EXTEND
        parity = pst[P_PARITY]
        nev[0] = 0
        ctr[L.CT_WAIT] = 0
        ctr[L.CT_PAUSED] = 0
        n_rows = advance(games, seats, rows, records, work, cfg, pst[P_FIRST], rkey[0], parity, house, programs)
        if err[0] >= 0:
            pst[P_STATUS] = S_CHECK
            return S_CHECK
        if ctr[L.CT_WAIT] or ctr[L.CT_PAUSED]:  # matches and traces only: never in an environment
            pst[P_STATUS] = S_WAIT
            return S_WAIT
        pst[P_ASKED] = n_rows > 0
        first = pst[P_FIRST]
        for s in range(n):
            now_idle = slot[s, L.F_PHASE] == L.PH_IDLE and not idle[s]
            if game[s] != current[s] or now_idle:
                old = current[s]
                if old >= 0:
                    i = old - first
                    winner = rec[i, L.R_WINNER]
                    if rec[i, L.R_TRUNCATED] != 0:
                        rewards[s] = 0.0 if pst[P_POINTS] else rv[1]
                    elif pst[P_POINTS]:
                        if winner == seat:
                            total = 0
                            for p in range(players):
                                total += rec_points[i, p]
                            rewards[s] = total - rec_points[i, winner]
                        else:
                            rewards[s] = -rec_points[i, seat]
                    else:
                        rewards[s] = rv[0] if winner == seat else rv[2]
                    ended[s] = True
                    winners[s] = winner
                current[s] = game[s]
                if now_idle:
                    idle[s] = True
        if collect(parity, pst[P_NS], pst[P_CATCH], group_base, group_count, row_slot, slot, st, counts, dec) < 0:
            pst[P_STATUS] = S_ROWS
            return S_ROWS
        if counts[0] or n_rows == 0:
            break
    keep = wait and mode == M_STEP and pst[P_PLAYED] == 0
    bad = encode(obs, mask, st, idle, wait, keep, pst[P_PARITY], seat, players, off, link0, swap0, pairs, relink, slot, hands,
                 hsize, piles, row_info, row_legal)
    if bad >= 0:
        pst[P_BAD] = bad
        pst[P_STATUS] = S_MASK
        return S_MASK
    _show(shown, mask, st, idle, current, keep)
    pst[P_STATUS] = S_OK
    return S_OK
