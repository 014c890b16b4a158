"""A turn: play or draw (T-1..T-4), the drawn card (T-3), a wild start card's colour."""

from numba import int64

from .finish import pass_turn, seat_at
from .jit import rule
from .layout import (
    C_AUTO_DRAWN,
    C_DRAW_UNTIL,
    C_LINK_VOLUNTARY,
    C_NO_ACTION_OUT,
    C_TRACE,
    DISC,
    DR_TURN,
    EV_COLOUR,
    EV_DRAW,
    EV_EMPTY,
    EV_KEEP,
    EV_LINK,
    EV_PLAY,
    EV_UNO_FORGET,
    F_ACTOR,
    F_BLOCKED,
    F_BLUFF,
    F_COLOUR,
    F_DISC_N,
    F_DRAWN,
    F_FORGOT,
    F_KIND0,
    F_LAST_PLAYER,
    F_LINK_A,
    F_LINK_B,
    F_PENDING,
    F_PHASE,
    F_PLAYED,
    F_ROW,
    F_SEAT,
    F_TOP,
    F_TURN,
    F_TURNS,
    F_WINNER,
    PH_CATCH,
    PH_DRAWN,
    PH_EFFECTS,
    PH_WIN,
    ROW_AUTO,
)
from .legality import count_blocked, has_legal, needs_colour, playable, wd4_legal
from .piles import draw_one, echo, log
from .tables import COLOUR_OF, KIND_OF, N_COLOURED, WILD_DRAW_FOUR, WILD_DRAWN_TOGETHER

__all__ = ["apply_colour", "apply_drawn", "apply_turn", "draw_for_turn", "play_card"]


@rule
def play_card(s, seat, card, colour, forget, pair, jump, slot, game, hands, hsize, piles, cfg, ev, nev):
    """``seat`` plays ``card`` onto the discard pile (``colour`` for wilds, the link ``pair`` = a * 16 + b for
    a Wild Drawn Together, -1: the link ends; ``jump``: 1 for a jump-in, P-1)."""
    if card == WILD_DRAW_FOUR:
        slot[s, F_BLUFF] = 0 if wd4_legal(s, seat, hands, slot, cfg) else 1
    hands[s, seat, card] -= 1
    hsize[s, seat] -= 1
    piles[s, DISC, slot[s, F_TOP]] += 1
    slot[s, F_DISC_N] += 1
    slot[s, F_TOP] = card
    slot[s, F_COLOUR] = COLOUR_OF[card] if card < N_COLOURED else colour
    slot[s, F_PLAYED] += 1
    slot[s, F_KIND0 + KIND_OF[card]] += 1
    slot[s, F_LAST_PLAYER] = seat
    slot[s, F_SEAT] = seat
    slot[s, F_PENDING] = card
    if cfg[C_TRACE]:  # hot: the call is not inlined
        log(cfg, ev, nev, game[s], EV_PLAY, seat, card, slot[s, F_COLOUR], jump)
    if card == WILD_DRAWN_TOGETHER:  # P-6: the new link replaces any earlier one
        slot[s, F_LINK_A] = pair // 16 if pair >= 0 else -1
        slot[s, F_LINK_B] = pair % 16 if pair >= 0 else -1
        log(cfg, ev, nev, game[s], EV_LINK, seat, -1, slot[s, F_LINK_A], slot[s, F_LINK_B])
    if hsize[s, seat] == 0:
        slot[s, F_WINNER] = seat
        slot[s, F_PHASE] = PH_WIN
    elif hsize[s, seat] == 1 and forget:
        slot[s, F_FORGOT] = seat
        log(cfg, ev, nev, game[s], EV_UNO_FORGET, seat, -1, 0, 0)
        slot[s, F_PHASE] = PH_CATCH
    else:
        slot[s, F_PHASE] = PH_EFFECTS


@rule
def draw_for_turn(s, seat, slot, game, keys, hands, hsize, piles, seat_strat, cfg, ev, nev, house):
    """T-3/T-4: draw one card (or until playable); offer a playable one (PH_DRAWN).

    A strategy that declared it always plays a legal drawn card is not asked
    (``ROW_AUTO``), unless the card is a wild that needs a colour.
    """
    voluntary = False
    if slot[s, F_LINK_A] >= 0 and not cfg[C_LINK_VOLUNTARY]:
        voluntary = has_legal(s, seat, hands, slot, cfg, house)
    got = 0
    last = -1
    last_ok = 0
    while True:
        card = draw_one(s, slot, game, keys, piles, cfg, ev, nev)
        if card < 0:
            log(cfg, ev, nev, game[s], EV_EMPTY, seat, -1, DR_TURN, 0)
            break
        hands[s, seat, card] += 1
        got += 1
        if cfg[C_TRACE]:  # hot: the call is not inlined
            log(cfg, ev, nev, game[s], EV_DRAW, seat, card, DR_TURN, 0)
        last = card
        last_ok = playable(s, seat, card, hands, slot, cfg)
        if last_ok or not cfg[C_DRAW_UNTIL]:
            break
    hsize[s, seat] += got
    slot[s, F_DRAWN] += got
    if got > 0 and slot[s, F_LINK_A] >= 0 and not voluntary:
        echo(s, int64(seat), int64(got), slot, game, keys, hands, hsize, piles, cfg, ev, nev)
    if last_ok:
        slot[s, F_PENDING] = last
        slot[s, F_ACTOR] = seat
        slot[s, F_PHASE] = PH_DRAWN
        if last_ok == 1 and not needs_colour(last) and (cfg[C_AUTO_DRAWN] >> seat_strat[s, seat]) & 1:
            slot[s, F_ROW] = ROW_AUTO
    else:
        pass_turn(s, seat_at(seat, int64(1), slot, s, cfg), slot, cfg)


@rule
def apply_turn(s, card, colour, forget, pair, slot, game, keys, hands, hsize, piles, seat_strat, cfg, ev, nev, house):
    """PH_TURN decision: play ``card`` or draw (-1). Either is one turn (T-7)."""
    seat = slot[s, F_TURN]
    slot[s, F_TURNS] += 1
    if card < 0:
        if house is not None and cfg[C_NO_ACTION_OUT] and hsize[s, seat] == 1:  # H-4: a lone action card or wild may not go out
            slot[s, F_BLOCKED] += count_blocked(s, seat, hands, slot, cfg)
        draw_for_turn(s, seat, slot, game, keys, hands, hsize, piles, seat_strat, cfg, ev, nev, house)
    else:
        play_card(s, seat, card, colour, forget, pair, 0, slot, game, hands, hsize, piles, cfg, ev, nev)


@rule
def apply_drawn(s, play, colour, forget, pair, slot, game, hands, hsize, piles, cfg, ev, nev):
    """PH_DRAWN decision: play the drawn card (same turn) or keep it."""
    seat = slot[s, F_ACTOR]
    if play:
        play_card(s, seat, slot[s, F_PENDING], colour, forget, pair, 0, slot, game, hands, hsize, piles, cfg, ev, nev)
    else:
        if cfg[C_TRACE]:  # hot: the call is not inlined
            log(cfg, ev, nev, game[s], EV_KEEP, seat, slot[s, F_PENDING], 0, 0)
        pass_turn(s, seat_at(seat, int64(1), slot, s, cfg), slot, cfg)


@rule
def apply_colour(s, colour, slot, game, cfg, ev, nev):
    """PH_COLOUR decision: the first player names the colour of a wild start card (then plays),
    or the player of a Wild Pile Up that acts as a Wild (P-5; then the next player plays)."""
    seat = slot[s, F_ACTOR]
    slot[s, F_COLOUR] = colour
    if cfg[C_TRACE]:  # hot: the call is not inlined
        log(cfg, ev, nev, game[s], EV_COLOUR, seat, -1, colour, 0)
    pass_turn(s, seat if slot[s, F_TURNS] == 0 else seat_at(seat, int64(1), slot, s, cfg), slot, cfg)
