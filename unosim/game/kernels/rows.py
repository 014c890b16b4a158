"""Observation rows: what each acting seat sees, grouped by (phase, strategy).

Rows are written in counting-sort order so that the rows of one
(phase, strategy) group are contiguous: ``group_start[g] .. group_start[g+1]``
with ``g = phase * n_strategies + strategy``. A row holds what the kernel works out
for the decision (the seat's legal moves and the table fields ``I_*``); the Python side
(``unosim.engine.decisions.Rows``) checks answers against it and copies from it, or from the
batch state, the fields a strategy reads.
"""

from .house import house_row
from .jit import rule
from .layout import (
    C_NO_ACTION_OUT,
    C_PILEUP_REFUSE,
    C_PLAYERS,
    C_WD4_CHALLENGE,
    F_ACTOR,
    F_ALIVE,
    F_COLOUR,
    F_DIR,
    F_FORGOT,
    F_JUMPERS,
    F_MINI_COLOUR,
    F_NEXT,
    F_PENDING,
    F_PHASE,
    F_ROW,
    F_SEAT,
    F_TOP,
    F_TURN,
    I_ARG,
    I_BLUFFABLE,
    I_COLOUR,
    I_DIR,
    I_DRAWN,
    I_HSIZE,
    I_MAY_TAKE,
    I_NLEGAL,
    I_PENALTY,
    I_PHASE,
    I_TOP,
    I_TURN,
    PH_CATCH,
    PH_CHALLENGE,
    PH_DRAWN,
    PH_JUMPIN,
    PH_PILEUP,
    PH_STACK,
    PH_SWAP,
    PH_TURN,
    PH_VOTE,
    ROW_HELD,
)
from .legality import fill_legal, last_card_blocked, wd4_legal
from .tables import COLOUR_OF, N_COLOURED, WILD_DRAW_FOUR

__all__ = ["hold_row", "row_actors", "write_row"]


@rule
def hold_row(s, prev, parity, ns, slot, seat_strat, row_slot, row_seat, row_legal, row_info, dec, dec_w, group_base, group_count):
    """Keep slot ``s``'s held row (``F_ROW <= ROW_HELD``): copy it, with what it was answered so far, from
    buffer ``prev`` to the end of its group in buffer ``parity``, and name the copy held. Returns 1 (a row)."""
    r = ROW_HELD - slot[s, F_ROW]
    seat = row_seat[prev, r]
    g = slot[s, F_PHASE] * ns + seat_strat[s, seat]
    q = group_base[g] + group_count[g]
    group_count[g] += 1
    row_slot[parity, q] = s
    row_seat[parity, q] = seat
    src, dst = row_legal[prev, r], row_legal[parity, q]
    for t in range(src.shape[0]):
        dst[t] = src[t]
    for i in range(row_info.shape[2]):
        row_info[parity, q, i] = row_info[prev, r, i]
    for i in range(dec.shape[2]):
        dec[parity, q, i] = dec[prev, r, i]
    dec_w[parity, q] = dec_w[prev, r]
    slot[s, F_ROW] = ROW_HELD - q
    return 1


@rule
def row_actors(s, slot, cfg, actors):
    """Seats that act in slot ``s``'s phase, written into ``actors``; returns how many.
    Seats eliminated from the match (E-4) never act."""
    ph = slot[s, F_PHASE]
    if ph == PH_VOTE or ph == PH_CATCH or ph == PH_JUMPIN:
        if ph == PH_JUMPIN:  # the seats holding the identical card
            mask = slot[s, F_JUMPERS]
        else:  # everyone still in the match; for a catch, but the forgetful seat
            mask = slot[s, F_ALIVE]
            if ph == PH_CATCH:
                mask &= ~(1 << slot[s, F_FORGOT])
        m = 0
        for p in range(cfg[C_PLAYERS]):
            if (mask >> p) & 1:
                actors[m] = p
                m += 1
        return m
    actors[0] = slot[s, F_TURN] if ph == PH_TURN else slot[s, F_ACTOR]
    return 1


@rule
def write_row(q, r, s, seat, slot, hands, hsize, cfg, row_slot, row_seat, row_legal, row_info, house):
    """Fill observation row ``r`` of buffer ``q`` for ``seat`` of slot ``s`` (``house``: None when every
    house rule is off, ``unosim.game.encoding.copy_flags``)."""
    ph = slot[s, F_PHASE]
    row_slot[q, r] = s
    row_seat[q, r] = seat
    row_info[q, r, I_TOP] = slot[s, F_TOP]
    row_info[q, r, I_COLOUR] = slot[s, F_COLOUR]
    row_info[q, r, I_DIR] = slot[s, F_DIR]
    row_info[q, r, I_TURN] = slot[s, F_TURN]
    row_info[q, r, I_DRAWN] = -1
    row_info[q, r, I_ARG] = -1
    row_info[q, r, I_BLUFFABLE] = 0
    row_info[q, r, I_PHASE] = ph
    row_info[q, r, I_HSIZE] = hsize[s, seat]
    row_info[q, r, I_NLEGAL] = 0
    row_info[q, r, I_MAY_TAKE] = 0
    row_info[q, r, I_PENALTY] = 0
    if ph == PH_TURN:
        bluff, n_legal = fill_legal(s, seat, hands, hsize, slot, cfg, row_legal, q, r, house)
        row_info[q, r, I_BLUFFABLE] = bluff
        row_info[q, r, I_NLEGAL] = n_legal
        return
    for t in range(hands.shape[2]):
        row_legal[q, r, t] = False
    if ph == PH_DRAWN:
        card = slot[s, F_PENDING]
        row_info[q, r, I_DRAWN] = card
        if card == WILD_DRAW_FOUR and not wd4_legal(s, seat, hands, slot, cfg):
            row_info[q, r, I_BLUFFABLE] = cfg[C_WD4_CHALLENGE]
        else:
            row_legal[q, r, card] = True
    elif ph == PH_CHALLENGE:
        row_info[q, r, I_ARG] = slot[s, F_SEAT]
    elif ph == PH_CATCH:
        row_info[q, r, I_ARG] = slot[s, F_FORGOT]
    elif ph == PH_VOTE:
        row_info[q, r, I_ARG] = slot[s, F_SEAT]
    elif ph == PH_JUMPIN:  # P-1: the identical card may be played; the turn comes to F_NEXT
        card = slot[s, F_TOP]
        row_info[q, r, I_ARG] = slot[s, F_SEAT]
        row_info[q, r, I_TURN] = slot[s, F_NEXT]
        row_legal[q, r, card] = True
        row_info[q, r, I_NLEGAL] = hands[s, seat, card]
    elif ph == PH_PILEUP:  # P-5: cards of the mini pile's colour and all wilds may be added
        colour = slot[s, F_MINI_COLOUR]
        row_info[q, r, I_ARG] = colour
        n = 0
        blocked = False
        if house is not None and cfg[C_NO_ACTION_OUT]:
            blocked = last_card_blocked(s, seat, hands) >= 0  # H-4: no going out on it
        for t in range(hands.shape[2]):
            ok = not blocked and hands[s, seat, t] > 0 and (t >= N_COLOURED or COLOUR_OF[t] == colour)
            row_legal[q, r, t] = ok
            n += hands[s, seat, t] * ok
        row_info[q, r, I_NLEGAL] = n
        row_info[q, r, I_MAY_TAKE] = 1 if n == 0 or cfg[C_PILEUP_REFUSE] != 0 else 0
    elif house is not None and (ph == PH_STACK or ph == PH_SWAP):  # H-1, H-2
        house_row(q, r, s, seat, slot, hands, hsize, cfg, row_legal, row_info)
