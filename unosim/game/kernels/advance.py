"""The phase machine: one call moves every slot of a batch to its next decision.

One pass over the slots: each slot applies the decision waiting for it (read
in place from the previous call's decision rows), runs the phases that need
no decision (card effects, passing the turn, the end of a game, dealing the
next game into a finished slot) until it waits for a decision again, and
writes its observation row(s) straight into the region of its
(phase, strategy) group. Rows of one group are therefore contiguous and the
Python side hands them to their strategy as views. A turn row with nothing to
play, for a strategy that declared what its ``play`` then draws
(``forced_draw_uniforms``), is taken back at once and the slot plays on. Row buffers are double
buffered (``parity``): the rows written now never overwrite decisions that
later slots of this pass still have to read. A slot whose row an environment
has answered only in part (``F_ROW <= ROW_HELD``: its follow-ups are still
being asked) is not played on: its row moves into the rows written now
(``rows.hold_row``), so the other slots need not wait for it. Each rule function is inlined
at exactly one dispatch site below, which keeps the compiled kernel small.
The phase loop is written out in ``advance`` itself, not in a rule of its
own: numba's inliner copies a callee's whole IR at each inlined call, so a
rule holding the loop, with every rule inlined in it, would be built and then
copied whole into ``advance``.
"""

from numba import int64

from .deal import deal_round, new_game, next_round
from .effects import apply_catch, apply_challenge, apply_pileup, apply_votes, resolve_effects
from .finish import end_round, record, start_turn, win
from .house import house_step
from .jit import kernel, rule
from .layout import (
    C_ALL_COMPILED,
    C_CHECK,
    C_FORCED0,
    C_MATCH,
    C_N_STRATS,
    C_NO_CHALLENGE,
    C_PLAYERS,
    C_POLICY0,
    C_TRACE,
    CT_END,
    CT_NEXT,
    CT_PAUSED,
    CT_ROUNDS,
    CT_TRACE_ROOM,
    CT_WAIT,
    D_A,
    D_B,
    D_CARD,
    D_COLOUR,
    D_FLAG,
    D_FORGET,
    F_ACTOR,
    F_ALIVE,
    F_JUMPERS,
    F_NEXT,
    F_PHASE,
    F_ROW,
    F_SEAT,
    F_TURN,
    I_BLUFFABLE,
    I_NLEGAL,
    MULTI_ACTOR,
    N_DECISION_PHASES,
    PH_CATCH,
    PH_CHALLENGE,
    PH_COLOUR,
    PH_DRAWN,
    PH_EFFECTS,
    PH_END,
    PH_IDLE,
    PH_JUMPIN,
    PH_NEWGAME,
    PH_PILEUP,
    PH_ROUND,
    PH_STACK,
    PH_START_TURN,
    PH_SWAP,
    PH_TURN,
    PH_VOTE,
    PH_WIN,
    PH_WINDOW,
    R_MATCH,
    ROW_AUTO,
    ROW_HELD,
)
from .piles import cards_accounted
from .policy import POLICY_RULES, jump_weight, pick_vote, policy_decision
from .prefetch import prefetch_row, prefetch_slot
from .rows import hold_row, row_actors, write_row
from .rule_policy import rules_decision
from .speed import apply_jumpin, start_jumpin
from .state import advance_types
from .tally import lowest_bit
from .turn import apply_colour, apply_drawn, apply_turn

PREFETCH_AHEAD = 4
"""Slots ahead whose state ``advance`` prefetches (``unosim.game.kernels.prefetch``)."""
DEC_AHEAD = 2
"""Slots ahead whose decision row ``advance`` prefetches (their slot row was asked for earlier)."""

__all__ = ["advance", "compile_advance", "compiled_multi", "decision", "scatter_multi"]


@rule
def scatter_multi(prev, row_slot, row_seat, dec, dec_w, group_base, group_count, seat_dec, seat_w, ns):
    """Copy the decisions of multi-actor phases (one row per seat) into ``seat_dec`` (and the
    jump-in reaction weights into ``seat_w``)."""
    for ph in MULTI_ACTOR:
        for k in range(ns):
            g = ph * ns + k
            for r in range(group_base[g], group_base[g] + group_count[g]):
                seat_dec[row_slot[prev, r], row_seat[prev, r]] = dec[prev, r, D_FLAG]
                if ph == PH_JUMPIN:
                    seat_w[row_slot[prev, r], row_seat[prev, r]] = dec_w[prev, r]


@rule
def compiled_multi(s, ph, slot, keys, hands, hsize, seat_strat, seat_ctr, seat_dec, seat_w, cfg, programs):
    """Votes (every seat) and jump-ins (the seats that may jump in): when every seat that answers
    has a compiled policy, write their answers into ``seat_dec``/``seat_w`` and return True."""
    n = cfg[C_PLAYERS]
    alive = slot[s, F_ALIVE]
    mask = int64(alive if ph == PH_VOTE else slot[s, F_JUMPERS]) & ((int64(1) << n) - 1)
    m = mask  # the answering seats' bits, visited lowest first (no test per seat)
    if not cfg[C_ALL_COMPILED]:  # a mixed line-up: every seat that answers must have a compiled policy
        while m:
            p = lowest_bit(m)
            m &= m - 1
            if cfg[C_POLICY0 + seat_strat[s, p]] == 0:
                return False
        m = mask
    if ph == PH_VOTE:
        while m:
            p = lowest_bit(m)
            m &= m - 1
            seat_dec[s, p] = pick_vote(cfg[C_POLICY0 + seat_strat[s, p]], s, p, keys, hsize, seat_ctr, n, alive, cfg,
                                       programs)
    else:
        while m:
            p = lowest_bit(m)
            m &= m - 1
            seat_w[s, p] = jump_weight(cfg[C_POLICY0 + seat_strat[s, p]], s, p, keys, hands, hsize, slot, seat_ctr, cfg, programs)
    return True


@rule
def decision(s, ph, prev, dec, slot, keys, hands, hsize, piles, seat_strat, seat_ctr, seat_dec, seat_w, cfg, actors, house, programs):
    """The decision waiting for slot ``s`` in decision phase ``ph``: ``(got, card, colour, flag, forget, pair, program)``.

    Read from its answered row (``F_ROW`` >= 0, then cleared), taken as the automatic draw of
    ``ROW_AUTO``, or made here by the compiled policies (multi-actor answers go to
    ``seat_dec``/``seat_w``); ``got`` is False when a strategy in Python has to answer first, or when
    a rule strategy does: then ``program`` is the offset of its program in ``cfg`` (else -1), and
    ``advance`` calls the interpreter (``rule_policy.rules_decision``) itself, in the copy for
    ``layout.PROGRAMS_ON`` only."""
    r = slot[s, F_ROW]
    if r == ROW_AUTO:
        slot[s, F_ROW] = -1
        return True, -1, -1, 1, 0, -1, -1
    if r >= 0:
        slot[s, F_ROW] = -1
        pair = dec[prev, r, D_A] * 16 + dec[prev, r, D_B] if dec[prev, r, D_A] >= 0 else -1
        return True, dec[prev, r, D_CARD], dec[prev, r, D_COLOUR], dec[prev, r, D_FLAG], dec[prev, r, D_FORGET], pair, -1
    # no row answered yet: a strategy with a compiled policy decides here
    if ph == PH_VOTE or ph == PH_JUMPIN:
        got = compiled_multi(s, ph, slot, keys, hands, hsize, seat_strat, seat_ctr, seat_dec, seat_w, cfg, programs)
        return got, -1, -1, 0, 0, -1, -1
    if ph == PH_CATCH:
        return False, -1, -1, 0, 0, -1, -1
    actor = slot[s, F_TURN] if ph == PH_TURN else slot[s, F_ACTOR]
    k = seat_strat[s, actor]
    pol = cfg[C_POLICY0 + k]
    if programs is not None and pol >= POLICY_RULES and not (house is not None and (ph == PH_STACK or ph == PH_SWAP)):
        return False, -1, -1, 0, 0, -1, pol - POLICY_RULES  # H-1/H-2 are house_policy's for every policy
    if pol != 0:
        card, colour, flag, pair = policy_decision(pol, ph, s, keys, hands, hsize, piles, slot, seat_ctr, cfg, actors, house)
        return True, card, colour, flag, 0, pair, -1
    if ph == PH_CHALLENGE and (cfg[C_NO_CHALLENGE] >> k) & 1:
        return True, -1, -1, 0, 0, -1, -1  # declared in advance: no challenge
    return False, -1, -1, 0, 0, -1, -1


@kernel
def advance(games, seats, rows, records, work, cfg, first, rkey, parity, house, programs):
    """Advance every slot to its next decision; return the number of rows written.

    The arrays come in the records of ``unosim.game.kernels.state`` (``games``, ``seats``, ``rows``,
    ``records``, ``work``), unpacked here. Rows are written into buffer ``parity`` (the first axis of
    the row arrays); decisions are read from the other one. ``group_count`` holds the previous call's
    row counts on entry and this call's on return. ``scratch`` (deck size) and ``actors`` (at least
    64: seats acting, or the candidate cards of a compiled policy) are work buffers: kernels do not
    allocate. ``ctr`` holds the batch counters ``CT_*``. Match runs (``cfg[C_MATCH]``) write one
    record row per round and the match results into ``match_scores`` (see ``layout``); single-round
    runs write row ``game - first`` and leave ``match_scores`` untouched. New games are keyed by the
    run's key ``rkey``. ``house`` is ``layout.HOUSE_OFF`` or ``layout.HOUSE_ON``: its type selects the
    compiled copy, with or without the house rules' code (here and in the rules and kernels it is
    passed to); ``programs`` (``layout.PROGRAMS_OFF`` or ``layout.PROGRAMS_ON``) in the same way the
    copy with or without the rule strategies' interpreter.
    """
    slot, game, keys, hands, hsize, piles, opening = games
    seat_strat, seat_ctr, seat_dec, seat_w = seats
    row_slot, row_seat, row_legal, row_info, dec, dec_w, group_base, group_count = rows
    rec, rec_points, rec_open, match_scores, ev, nev = records
    ctr, deck, scratch, actors, err = work
    ns = cfg[C_N_STRATS]
    prev = 1 - parity
    scatter_multi(prev, row_slot, row_seat, dec, dec_w, group_base, group_count, seat_dec, seat_w, ns)
    for g in range(group_count.shape[0]):
        group_count[g] = 0
    total = 0
    n_slots = slot.shape[0]
    for s in range(n_slots):
        if s + PREFETCH_AHEAD < n_slots:
            prefetch_slot(s + PREFETCH_AHEAD, slot, hands, piles, seat_strat)
        if s + DEC_AHEAD < n_slots and slot[s + DEC_AHEAD, F_ROW] >= 0:  # its slot row is on its way
            prefetch_row(dec, prev, slot[s + DEC_AHEAD, F_ROW] * dec.strides[1])
        if slot[s, F_ROW] <= ROW_HELD:  # answered in part (an environment's follow-ups): kept, not played on
            total += hold_row(s, prev, parity, ns, slot, seat_strat, row_slot, row_seat, row_legal, row_info, dec, dec_w,
                              group_base, group_count)
            continue
        while True:
            # run the slot until it waits for a decision (or has no game left, or no room to record a match round)
            paused = False  # for room in the trace buffer: it then waits for nothing
            while True:
                if cfg[C_TRACE] and slot[s, F_ROW] < 0 and nev[0] > ctr[CT_TRACE_ROOM]:
                    ctr[CT_PAUSED] = 1
                    paused = True
                    break
                ph = slot[s, F_PHASE]
                if ph < N_DECISION_PHASES:
                    answered = slot[s, F_ROW] >= 0  # rows were answered in Python (multi-actor answers are in seat_dec/seat_w)
                    got, card, colour, flag, forget, pair, program = decision(
                        s, ph, prev, dec, slot, keys, hands, hsize, piles, seat_strat, seat_ctr, seat_dec, seat_w, cfg, actors, house,
                        programs)
                    if programs is not None:  # pruned with the interpreter from the other copies, before inlining
                        if program >= 0:
                            card, colour, flag, pair = rules_decision(program, ph, s, keys, hands, hsize, piles, slot, seat_ctr, cfg,
                                                                      house)
                            got = True
                    if not got:
                        break
                    if house is not None and (ph == PH_STACK or ph == PH_SWAP) and house_step(
                        s, int64(ph), int64(card), int64(flag), int64(-1), int64(-1), slot, game, keys, hands, hsize, piles, cfg, ev, nev):
                        ph = PH_TURN  # H-1: a stack is played as the victim's turn
                    if ph == PH_TURN:
                        apply_turn(s, card, colour, forget, pair, slot, game, keys, hands, hsize, piles, seat_strat, cfg, ev, nev, house)
                    elif ph == PH_DRAWN:
                        apply_drawn(s, flag, colour, forget, pair, slot, game, hands, hsize, piles, cfg, ev, nev)
                    elif ph == PH_COLOUR:
                        apply_colour(s, colour, slot, game, cfg, ev, nev)
                    elif ph == PH_CHALLENGE:
                        apply_challenge(s, flag, slot, game, keys, hands, hsize, piles, cfg, ev, nev, house)
                    elif ph == PH_CATCH:
                        apply_catch(s, seat_dec, slot, game, keys, hands, hsize, piles, cfg, ev, nev)
                    elif ph == PH_VOTE:
                        apply_votes(s, seat_dec, slot, game, keys, hands, hsize, piles, cfg, ev, nev, actors, house)
                    elif ph == PH_PILEUP:
                        apply_pileup(s, card, forget, slot, game, keys, hands, hsize, piles, cfg, ev, nev)
                    elif ph == PH_JUMPIN:
                        apply_jumpin(s, seat_w, seat_dec, answered, slot, game, keys, hands, hsize, piles, cfg, ev, nev)
                elif ph == PH_EFFECTS:
                    resolve_effects(s, slot, game, keys, hands, hsize, piles, cfg, ev, nev, house)
                elif ph == PH_START_TURN:
                    start_turn(s, slot, game, cfg, ev, nev)
                elif ph == PH_WINDOW:
                    start_jumpin(s, slot[s, F_SEAT], slot[s, F_NEXT], slot, game, keys, hands, hsize, piles, cfg, ev, nev, house)
                elif ph == PH_WIN:
                    win(s, slot, game, keys, hands, hsize, piles, cfg, ev, nev)
                elif ph == PH_END:
                    if cfg[C_MATCH]:
                        i = ctr[CT_ROUNDS]
                        if i >= rec.shape[0]:
                            ctr[CT_WAIT] = 1  # record buffers full: wait here until Python grows them
                            break
                        ctr[CT_ROUNDS] = i + 1
                        rec[i, R_MATCH] = game[s] - first
                    else:
                        i = game[s] - first
                    record(s, i, slot, hands, opening, rec, rec_points, rec_open)
                    if cfg[C_MATCH]:
                        end_round(s, slot, game, keys, hands, match_scores, first, cfg)
                    else:
                        slot[s, F_PHASE] = PH_NEWGAME
                elif ph == PH_NEWGAME and ctr[CT_NEXT] >= ctr[CT_END]:
                    slot[s, F_PHASE] = PH_IDLE
                    game[s] = -1
                elif ph == PH_NEWGAME or ph == PH_ROUND:
                    if ph == PH_ROUND:
                        dealer = next_round(s, slot, cfg)
                    else:
                        number = ctr[CT_NEXT]
                        ctr[CT_NEXT] = number + 1
                        dealer = new_game(s, number, rkey, slot, game, keys, hands, hsize, piles, seat_ctr, cfg)
                    deal_round(s, dealer, deck, scratch, slot, game, keys, hands, hsize, piles, opening, cfg, ev, nev)
                else:
                    break
            if paused:
                break
            ph = slot[s, F_PHASE]
            if ph == PH_IDLE or ph == PH_END:
                break
            if cfg[C_CHECK] and not cards_accounted(s, hands, hsize, piles, slot, deck, cfg[C_PLAYERS]):
                err[0] = s
                return 0
            m = row_actors(s, slot, cfg, actors)
            k = g = r = 0
            for i in range(m):
                k = seat_strat[s, actors[i]]
                g = ph * ns + k
                r = group_base[g] + group_count[g]
                group_count[g] += 1
                write_row(parity, r, s, actors[i], slot, hands, hsize, cfg, row_slot, row_seat, row_legal, row_info, house)
                slot[s, F_ROW] = r
            if ph == PH_TURN and cfg[C_FORCED0 + k] and row_info[parity, r, I_NLEGAL] == 0 and row_info[parity, r, I_BLUFFABLE] == 0:
                # nothing to play, and the strategy declared what its play draws then (forced_draw_uniforms):
                # the row is not asked (the next row of its group takes its place); draw now, as ROW_AUTO answers
                group_count[g] -= 1
                seat_ctr[s, actors[0]] += cfg[C_FORCED0 + k] - 1
                slot[s, F_ROW] = ROW_AUTO
                continue
            total += m
            break
    return total


def compile_advance(house: int | None, programs: int | None) -> None:
    """Compile ``advance`` (or load it from the disk cache) for the records the engine builds, in the
    copy ``house`` and ``programs`` select (``layout.HOUSE_OFF`` or ``layout.HOUSE_ON``,
    ``layout.PROGRAMS_OFF`` or ``layout.PROGRAMS_ON``), without playing a game."""
    advance.compile(advance_types(house, programs))
