"""Speed play (P-1..P-4, H-3): jump-ins on a card just played, the race, wrong jump-ins.

After a number card is played (in turn, drawn, or itself jumped in) and it
did not end the round (with ``jump_in_cards=numbers_and_actions``, H-3, also a
coloured action card, once its effect is resolved: ``PH_WINDOW``), every other
player holding an identical card may jump
in (``PH_JUMPIN``, one row per such seat; the answer is a reaction weight,
0 = no). One jumper wins, drawn from the game stream in proportion to the
weights; they play the card at once and play goes on after them (P-1). If the
winner is the player whose turn came next, the jump-in is their turn (T-7).
Before the race, every other player without an identical card jumps in
wrongly at ``speed_play_error_rate`` and draws 1 (P-3; after number cards only).
Under ``go_out_on_action=false`` (H-4) a player whose last card is the identical
action card may not jump in with it.
"""

from numba import int64

from .finish import n_alive, pass_turn, seat_at
from .jit import rule
from .layout import (
    C_MAX_TURNS,
    C_NO_ACTION_OUT,
    C_PLAYERS,
    C_SPEED_ERR_PPM,
    DR_WRONG_JUMP,
    EV_WRONG_JUMP,
    F_ACTION_JUMP_INS,
    F_JUMP_INS,
    F_JUMPERS,
    F_NEXT,
    F_PHASE,
    F_TOP,
    F_TURN,
    F_TURNS,
    F_WRONG_JUMP_INS,
    PH_JUMPIN,
)
from .piles import forced_draw, log
from .rng import next_uniform
from .tables import FACE_OF
from .tally import lowest_bit
from .turn import play_card

__all__ = ["apply_jumpin", "start_jumpin"]


@rule
def start_jumpin(s, seat, nxt, slot, game, keys, hands, hsize, piles, cfg, ev, nev, house):
    """P-1..P-3 after ``seat`` played the card on top (a number card, or under H-3 a coloured action
    card); ``nxt`` would play next."""
    card = slot[s, F_TOP]
    n = cfg[C_PLAYERS]
    others = n_alive(slot, s, cfg)  # seats still in the match (E-4 elimination); the others hold no card
    mask = 0
    for p in range(n):  # branch-free: which seats hold the card is unpredictable
        mask |= int64(hands[s, p, card] > 0) << p
    mask &= ~(int64(1) << seat)
    number = FACE_OF[card] <= 9
    if house is not None and cfg[C_NO_ACTION_OUT] and not number:  # H-4: no going out on an action card, by a jump-in either
        for p in range(n):
            if hsize[s, p] == 1:
                mask &= ~(int64(1) << p)
    ppm = cfg[C_SPEED_ERR_PPM]
    if ppm > 0 and number:  # P-3: decided together with the jump-ins, penalised before the race
        wrong = 0
        for i in range(1, others):
            q = seat_at(seat, i, slot, s, cfg)
            if not (mask >> q) & 1 and next_uniform(keys, slot, s) * 1_000_000.0 < ppm:
                wrong |= 1 << q
                log(cfg, ev, nev, game[s], EV_WRONG_JUMP, q, card, 0, 0)
        for i in range(1, others):
            q = seat_at(seat, i, slot, s, cfg)
            if (wrong >> q) & 1:
                slot[s, F_WRONG_JUMP_INS] += 1
                forced_draw(s, int64(q), int64(1), int64(DR_WRONG_JUMP), slot, game, keys, hands, hsize, piles, cfg, ev, nev)
    if mask == 0:
        pass_turn(s, nxt, slot, cfg)
        return
    slot[s, F_JUMPERS] = mask
    slot[s, F_NEXT] = nxt
    slot[s, F_PHASE] = PH_JUMPIN


@rule
def apply_jumpin(s, seat_w, seat_dec, asked, slot, game, keys, hands, hsize, piles, cfg, ev, nev):
    """The race (P-2): a jumper drawn in proportion to the weights ``seat_w`` plays the card.

    ``asked``: the weights came from Python rows, whose ``seat_dec`` holds
    each seat's UNO-forgotten flag (compiled policies never forget).
    """
    mask = slot[s, F_JUMPERS]
    n = cfg[C_PLAYERS]
    nxt = slot[s, F_NEXT]
    slot[s, F_JUMPERS] = 0
    jumpers = int64(mask) & ((int64(1) << n) - 1)
    total = 0.0
    m = jumpers  # the jumpers' bits, lowest first
    while m:
        p = lowest_bit(m)
        m &= m - 1
        total += seat_w[s, p]
    if total <= 0.0:
        pass_turn(s, nxt, slot, cfg)
        return
    x = next_uniform(keys, slot, s) * total
    winner = -1
    m = jumpers
    while m:
        p = lowest_bit(m)
        m &= m - 1
        if seat_w[s, p] > 0.0:
            winner = p
            x -= seat_w[s, p]
            if x < 0.0:
                break
    if winner == nxt:  # T-7: their jump-in is their turn's play
        if slot[s, F_TURNS] >= cfg[C_MAX_TURNS]:
            pass_turn(s, nxt, slot, cfg)  # E-5: the round stops instead
            return
        slot[s, F_TURNS] += 1
        slot[s, F_TURN] = winner
    slot[s, F_JUMP_INS] += 1
    if FACE_OF[slot[s, F_TOP]] > 9:
        slot[s, F_ACTION_JUMP_INS] += 1  # H-3
    forget = seat_dec[s, winner] if asked else 0
    play_card(s, winner, slot[s, F_TOP], -1, forget, -1, 1, slot, game, hands, hsize, piles, cfg, ev, nev)
