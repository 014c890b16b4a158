"""Turn passing and truncation (T-6, T-7, E-5), winning (E-1, E-2), game records, match scoring (E-3, E-4)."""

from numba import int64

from ..rules import choice_code
from .jit import kernel, leaf, rule
from .layout import (
    C_ELIMINATION,
    C_LAST_DRAWS,
    C_MAX_TURNS,
    C_PLAYERS,
    C_SCORING,
    C_STACKING,
    C_TARGET,
    C_TRACE,
    DR_LAST,
    EV_TRUNCATE,
    EV_TURN,
    EV_WIN,
    F_ACTION_JUMP_INS,
    F_ALIVE,
    F_BLOCKED,
    F_CHAIN,
    F_CHALLENGES,
    F_CHALLENGES_WON,
    F_DEALER,
    F_DIR,
    F_DRAWN,
    F_JUMP_INS,
    F_KIND0,
    F_LINK_ECHO_DRAWS,
    F_NEXT,
    F_PENDING,
    F_PHASE,
    F_PILEUP_CARDS,
    F_PILEUPS,
    F_PLAYED,
    F_POINT_TAKEN_DRAWS,
    F_ROUND,
    F_SEVEN_SWAPS,
    F_STACK,
    F_STACK_CARDS,
    F_STACK_MAX,
    F_STACKS,
    F_TRUNCATED,
    F_TURN,
    F_TURNS,
    F_UNO_PENALTIES,
    F_WINNER,
    F_WRONG_JUMP_INS,
    F_ZERO_PASSES,
    MAX_ROUNDS,
    PH_END,
    PH_NEWGAME,
    PH_ROUND,
    PH_START_TURN,
    PH_TURN,
    R_ACTION_JUMP_INS,
    R_BLOCKED,
    R_CHALLENGES,
    R_CHALLENGES_WON,
    R_DEALER,
    R_DRAWN,
    R_JUMP_INS,
    R_KIND0,
    R_LINK_ECHO_DRAWS,
    R_PILEUP_CARDS,
    R_PILEUPS,
    R_PLAYED,
    R_POINT_TAKEN_DRAWS,
    R_ROUND,
    R_SEVEN_SWAPS,
    R_STACK_CARDS,
    R_STACK_MAX,
    R_STACKS,
    R_TRUNCATED,
    R_TURNS,
    R_UNO_PENALTIES,
    R_WINNER,
    R_WRONG_JUMP_INS,
    R_ZERO_PASSES,
)
from .piles import give, log
from .rng import rand_below
from .tables import FACE_DRAW_TWO, FACE_OF, POINTS_OF, WILD_DRAW_FOUR

__all__ = [
    "SCORING_PENALTY", "SCORING_WINNER_TAKES", "count_seats", "end_chain", "end_round", "hand_points", "n_alive", "pass_turn",
    "pick_match_winner", "record", "score_round", "seat_at", "start_turn", "walk_alive", "win", "wrap",
]

SCORING_WINNER_TAKES = choice_code("scoring", "winner_takes")
SCORING_PENALTY = choice_code("scoring", "penalty")

@leaf
def wrap(seat, n):
    """``seat`` taken modulo ``n`` (no integer division: seats move a few places)."""
    while seat >= n:
        seat -= n
    while seat < 0:
        seat += n
    return seat


@leaf
def count_seats(mask, n):
    """How many of seats ``0 .. n-1`` are in bit mask ``mask`` (the loop clears one set bit a turn:
    LLVM makes it a single ``popcnt``)."""
    m = mask & ((1 << n) - 1)
    count = 0
    while m:
        m &= m - 1
        count += 1
    return count


@leaf
def n_alive(slot, s, cfg):
    """Seats still in the match: the table size for the 2-player rules (A-2)."""
    n = cfg[C_PLAYERS]
    alive = slot[s, F_ALIVE]
    return n if alive == (1 << n) - 1 else count_seats(alive, n)


@kernel
def walk_alive(seat, steps, d, alive, n):
    """``steps`` seats on from ``seat`` in direction ``d``, skipping seats not in bit mask ``alive``.

    Not inlined: it runs only once a seat is eliminated (E-4), and one copy keeps the
    kernel's compile time down (``seat_at`` is inlined at every call site).
    """
    for _ in range(steps):
        seat = wrap(seat + d, n)
        while not (alive >> seat) & 1:
            seat = wrap(seat + d, n)
    return seat


@leaf
def seat_at(seat, steps, slot, s, cfg):
    """The seat ``steps`` places from ``seat`` in the current direction (``steps`` >= 0), counting only
    the seats still in the match (E-4 elimination: eliminated seats are skipped)."""
    n = cfg[C_PLAYERS]
    alive = slot[s, F_ALIVE]
    if alive == (1 << n) - 1:
        return wrap(seat + steps * slot[s, F_DIR], n)
    return walk_alive(seat, steps, slot[s, F_DIR], alive, n)


@leaf
def pass_turn(s, seat, slot, cfg):
    """T-6: the turn goes to ``seat`` (any integer, taken modulo the table).

    Its turn starts here (``PH_TURN``), as ``start_turn`` would start it; through ``PH_START_TURN``
    (``start_turn``) only when the round may stop at ``max_turns`` (E-5) or a trace logs the turn."""
    nxt = wrap(seat, cfg[C_PLAYERS])
    slot[s, F_NEXT] = nxt
    if cfg[C_TRACE] or slot[s, F_TURNS] >= cfg[C_MAX_TURNS]:
        slot[s, F_PHASE] = PH_START_TURN
    else:
        slot[s, F_TURN] = nxt
        slot[s, F_PHASE] = PH_TURN


@rule
def start_turn(s, slot, game, cfg, ev, nev):
    """Start the turn of ``F_NEXT`` (logging it when tracing), or stop a round that reached ``max_turns``
    (E-5, T-7). ``pass_turn`` starts the turn itself when the round cannot stop and nothing is traced."""
    seat = slot[s, F_NEXT]
    slot[s, F_TURN] = seat
    if slot[s, F_TURNS] >= cfg[C_MAX_TURNS]:
        slot[s, F_TRUNCATED] = 1
        log(cfg, ev, nev, game[s], EV_TRUNCATE, seat, -1, slot[s, F_TURNS], 0)
        slot[s, F_PHASE] = PH_END
        return
    slot[s, F_PHASE] = PH_TURN
    if cfg[C_TRACE]:  # hot: the call is not inlined
        log(cfg, ev, nev, game[s], EV_TURN, seat, -1, slot[s, F_TURNS], 0)


@leaf
def hand_points(s, seat, hands):
    """Points of the cards ``seat`` holds (docs/rules.md §1)."""
    total = 0
    for t in range(hands.shape[2]):
        total += hands[s, seat, t] * POINTS_OF[t]
    return total


@rule
def end_chain(s, got, slot):
    """H-1: a chain ends with ``got`` cards drawn: the records, then no chain is pending."""
    if got > slot[s, F_STACK_MAX]:
        slot[s, F_STACK_MAX] = got
    if slot[s, F_CHAIN] >= 2:
        slot[s, F_STACK_CARDS] += got
    slot[s, F_STACK] = 0
    slot[s, F_CHAIN] = 0


@kernel
def win(s, slot, game, keys, hands, hsize, piles, cfg, ev, nev):
    """E-1: ``F_WINNER`` has no card left. E-2: a last Draw Two / WD4 still makes the next draw;
    with stacking (H-1) the whole chain, the last card included, and nobody may stack on it."""
    seat = slot[s, F_WINNER]
    card = slot[s, F_PENDING]
    if cfg[C_LAST_DRAWS] and (card == WILD_DRAW_FOUR or FACE_OF[card] == FACE_DRAW_TWO):
        victim = seat_at(seat, int64(1), slot, s, cfg)
        # the round is over: no link echo, which could hand the winner cards
        n = int64(4 if card == WILD_DRAW_FOUR else 2) + slot[s, F_STACK]
        got = give(s, int64(victim), n, int64(DR_LAST), slot, game, keys, hands, hsize, piles, cfg, ev, nev)
        if cfg[C_STACKING]:
            slot[s, F_CHAIN] += 1
            end_chain(s, got, slot)
    if cfg[C_TRACE]:
        points = 0
        for p in range(cfg[C_PLAYERS]):
            if p != seat:
                points += hand_points(s, p, hands)
        log(cfg, ev, nev, game[s], EV_WIN, seat, -1, points, 0)
    slot[s, F_PHASE] = PH_END


@kernel
def record(s, i, slot, hands, opening, rec, rec_points, rec_open):
    """Write the finished game (or match round) of slot ``s`` into record row ``i``."""
    rec[i, R_DEALER] = slot[s, F_DEALER]
    rec[i, R_WINNER] = slot[s, F_WINNER]
    rec[i, R_TURNS] = slot[s, F_TURNS]
    rec[i, R_PLAYED] = slot[s, F_PLAYED]
    rec[i, R_DRAWN] = slot[s, F_DRAWN]
    rec[i, R_TRUNCATED] = slot[s, F_TRUNCATED]
    rec[i, R_CHALLENGES] = slot[s, F_CHALLENGES]
    rec[i, R_CHALLENGES_WON] = slot[s, F_CHALLENGES_WON]
    rec[i, R_UNO_PENALTIES] = slot[s, F_UNO_PENALTIES]
    rec[i, R_JUMP_INS] = slot[s, F_JUMP_INS]
    rec[i, R_WRONG_JUMP_INS] = slot[s, F_WRONG_JUMP_INS]
    rec[i, R_PILEUPS] = slot[s, F_PILEUPS]
    rec[i, R_PILEUP_CARDS] = slot[s, F_PILEUP_CARDS]
    rec[i, R_POINT_TAKEN_DRAWS] = slot[s, F_POINT_TAKEN_DRAWS]
    rec[i, R_LINK_ECHO_DRAWS] = slot[s, F_LINK_ECHO_DRAWS]
    rec[i, R_ROUND] = slot[s, F_ROUND]
    rec[i, R_STACKS] = slot[s, F_STACKS]
    rec[i, R_STACK_MAX] = slot[s, F_STACK_MAX]
    rec[i, R_STACK_CARDS] = slot[s, F_STACK_CARDS]
    rec[i, R_SEVEN_SWAPS] = slot[s, F_SEVEN_SWAPS]
    rec[i, R_ZERO_PASSES] = slot[s, F_ZERO_PASSES]
    rec[i, R_ACTION_JUMP_INS] = slot[s, F_ACTION_JUMP_INS]
    rec[i, R_BLOCKED] = slot[s, F_BLOCKED]
    for k in range(9):
        rec[i, R_KIND0 + k] = slot[s, F_KIND0 + k]
    for p in range(hands.shape[1]):
        rec_points[i, p] = hand_points(s, p, hands)
        for h in range(opening.shape[2]):
            rec_open[i, p, h] = opening[s, p, h]


@rule
def score_round(s, m, slot, hands, match_scores, cfg):
    """Add the finished round to the totals of match row ``m``: E-3 the winner scores the points
    left in the other hands, E-4 (penalty) every seat adds its own; a truncated round scores nothing (E-5)."""
    if slot[s, F_TRUNCATED]:
        return
    winner = slot[s, F_WINNER]
    for p in range(cfg[C_PLAYERS]):
        if cfg[C_SCORING] == SCORING_PENALTY:  # E-4: everyone scores their own hand
            match_scores[m, p] += hand_points(s, p, hands)
        elif p != winner:  # SCORING_WINNER_TAKES (E-3)
            match_scores[m, winner] += hand_points(s, p, hands)


@rule
def pick_match_winner(s, m, slot, keys, match_scores, cfg):
    """E-3 the highest total wins, E-4 the lowest, among the seats still in the match; a tie is
    broken uniformly at random (game stream)."""
    sign = -1 if cfg[C_SCORING] == SCORING_PENALTY else 1
    alive = slot[s, F_ALIVE]
    best = -(1 << 30)
    ties = 0
    for p in range(cfg[C_PLAYERS]):
        if not (alive >> p) & 1:
            continue
        v = sign * match_scores[m, p]
        if v > best:
            best, ties = v, 1
        elif v == best:
            ties += 1
    k = rand_below(keys, slot, s, ties) if ties > 1 else 0
    for p in range(cfg[C_PLAYERS]):
        if (alive >> p) & 1 and sign * match_scores[m, p] == best:
            if k == 0:
                return p
            k -= 1
    return -1


@kernel
def end_round(s, slot, game, keys, hands, match_scores, first, cfg):
    """Score the round just recorded; end the match once a total reaches the target score (E-3/E-4)
    or after ``MAX_ROUNDS`` rounds, else go on to the next round (PH_ROUND, S-4).

    Elimination (E-4): the seats reaching the target drop out of ``F_ALIVE``; the match ends when
    one seat remains (it wins), or when every remaining seat reaches the target in the same round
    (the lowest total among them wins)."""
    m = game[s] - first
    score_round(s, m, slot, hands, match_scores, cfg)
    n = cfg[C_PLAYERS]
    alive = slot[s, F_ALIVE]
    reached = 0
    for p in range(n):
        if (alive >> p) & 1 and match_scores[m, p] >= cfg[C_TARGET]:
            reached |= 1 << p
    winner = -1
    over = False
    if cfg[C_ELIMINATION] and reached != 0:
        left = alive & ~reached
        if left == 0:
            over = True  # all remaining reached it together: the lowest total among them wins
        else:
            slot[s, F_ALIVE] = left
            if left & (left - 1) == 0:  # exactly one seat remains: it wins
                for p in range(n):
                    if (left >> p) & 1:
                        winner = p
                over = True
    elif reached != 0:
        over = True
    if not over and slot[s, F_ROUND] + 1 >= MAX_ROUNDS:
        over = True
    if over:
        if winner < 0:
            winner = pick_match_winner(s, m, slot, keys, match_scores, cfg)
        match_scores[m, n] = winner
        slot[s, F_PHASE] = PH_NEWGAME
    else:
        slot[s, F_PHASE] = PH_ROUND
