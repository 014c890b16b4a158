"""Setting up a game: S-1 deal, S-2/S-3 first card, S-4 dealer and first player (and the
dealer moving left in the rounds of a match).

State arguments as in ``unosim.game.kernels.effects``.
"""

from numba import int64

from ..rules import choice_code
from .finish import pass_turn, seat_at
from .jit import kernel, leaf, rule
from .layout import (
    C_DEALER,
    C_FIRST_CARD,
    C_FIRST_WILD,
    C_HAND,
    C_PLAYERS,
    C_TRACE,
    DISC,
    DR_START,
    DRAW,
    EV_DEAL,
    EV_RETURN,
    EV_SKIP,
    EV_START,
    F_ACTOR,
    F_ALIVE,
    F_COLOUR,
    F_DEALER,
    F_DIR,
    F_DISC_N,
    F_DRAW_N,
    F_FORGOT,
    F_LAST_PLAYER,
    F_LINK_A,
    F_LINK_B,
    F_NEXT,
    F_PHASE,
    F_RNG,
    F_ROUND,
    F_ROW,
    F_TOP,
    F_TURNS,
    F_WINNER,
    MINI,
    PH_COLOUR,
    PH_START_TURN,
)
from .piles import draw_one, forced_draw, log
from .rng import game_key, rand_below, stream_uniform
from .tables import (
    COLOUR_OF,
    FACE_DRAW_TWO,
    FACE_OF,
    FACE_REVERSE,
    FACE_SKIP,
    N_COLOURED,
    WILD,
    WILD_DRAW_FOUR,
    WILD_DRAWN_TOGETHER,
    WILD_PILE_UP,
)

__all__ = [
    "FIRST_CARD_APPLY_ACTIONS", "FIRST_CARD_IGNORE_EFFECT", "FIRST_CARD_REFLIP_ACTIONS",
    "FIRST_WILD_FIRST_PLAYER_CHOOSES", "FIRST_WILD_REFLIP", "deal_round", "new_game", "next_round", "reset_slot",
    "set_position", "start_round",
]

FIRST_CARD_APPLY_ACTIONS = choice_code("first_card", "apply_actions")
FIRST_CARD_REFLIP_ACTIONS = choice_code("first_card", "reflip_actions")
FIRST_CARD_IGNORE_EFFECT = choice_code("first_card", "ignore_effect")
FIRST_WILD_FIRST_PLAYER_CHOOSES = choice_code("first_wild", "first_player_chooses")
FIRST_WILD_REFLIP = choice_code("first_wild", "reflip")


@leaf
def reset_slot(s, g, rkey, slot, game, keys, hands, hsize, piles, seat_ctr):
    """Empty slot ``s`` and key it to game ``g`` (its random stream starts at 0); the deal empties the hands."""
    for f in range(slot.shape[1]):
        slot[s, f] = 0
    game[s] = g
    keys[s] = game_key(rkey, g)
    slot[s, F_ROW] = -1
    for p in range(hands.shape[1]):
        seat_ctr[s, p] = 0


@rule
def start_round(s, dealer, slot):
    """The fields every round starts with (S-4): its dealer, play clockwise, no link, no forgotten
    UNO call, no winner, no card played by a player yet."""
    slot[s, F_DEALER] = dealer
    slot[s, F_DIR] = 1
    slot[s, F_LINK_A] = -1
    slot[s, F_LINK_B] = -1
    slot[s, F_FORGOT] = -1
    slot[s, F_WINNER] = -1
    slot[s, F_LAST_PLAYER] = -1


@kernel
def set_position(s, g, rkey, dealer, position_hands, draw, discard, top, colour, direction, link_a, link_b, alive, turns,
                 turn, slot, game, keys, hands, hsize, piles, seat_ctr):
    """Put a set-up position (``unosim.engine.position.play_from``) into slot ``s`` as game ``g``.

    The slot is reset and the round started exactly as for a dealt game (``reset_slot``,
    ``start_round``); then the position's hands, draw and discard piles, top card and
    colour, direction, link, seats in play and turn count are set, and the turn goes to
    ``turn`` (``PH_START_TURN``)."""
    reset_slot(s, g, rkey, slot, game, keys, hands, hsize, piles, seat_ctr)
    start_round(s, dealer, slot)
    for p in range(hands.shape[1]):
        size = 0
        for t in range(hands.shape[2]):
            hands[s, p, t] = position_hands[p, t]
            size += position_hands[p, t]
        hsize[s, p] = size
    n_draw = 0
    n_disc = 0
    for t in range(piles.shape[2]):
        piles[s, DRAW, t] = draw[t]
        piles[s, DISC, t] = discard[t]
        piles[s, MINI, t] = 0
        n_draw += draw[t]
        n_disc += discard[t]
    slot[s, F_DRAW_N] = n_draw
    slot[s, F_DISC_N] = n_disc
    slot[s, F_TOP] = top
    slot[s, F_COLOUR] = colour
    slot[s, F_DIR] = direction
    slot[s, F_LINK_A] = link_a
    slot[s, F_LINK_B] = link_b
    slot[s, F_ALIVE] = alive
    slot[s, F_TURNS] = turns
    slot[s, F_NEXT] = turn
    slot[s, F_PHASE] = PH_START_TURN


@kernel
def deal_round(s, dealer, deck, scratch, slot, game, keys, hands, hsize, piles, opening, cfg, ev, nev):
    """Deal a round with ``dealer`` (S-1), flip the first card (S-2/S-3), start play (S-4).

    Only the seats still in the match (``F_ALIVE``, E-4 elimination) get cards; they play as a
    smaller table (eliminated seats are skipped)."""
    n_players = cfg[C_PLAYERS]
    alive = slot[s, F_ALIVE]
    hand = cfg[C_HAND]
    g = game[s]
    for t in range(piles.shape[2]):
        piles[s, DRAW, t] = deck[t]
        piles[s, DISC, t] = 0
        piles[s, MINI, t] = 0
    for p in range(n_players):
        hsize[s, p] = hand if (alive >> p) & 1 else 0
        for t in range(hands.shape[2]):
            hands[s, p, t] = 0  # a new round of a match starts from empty hands too
    # S-1: a partial Fisher-Yates shuffle of a fresh sorted deck (the second half of scratch, copied
    # into the first, not rebuilt type by type: figures in docs/performance.md) deals the hands; the
    # stream's counter is kept in a register and written back once
    n = scratch.shape[0] // 2
    for t in range(n):
        scratch[t] = scratch[n + t]
    key = keys[s]
    c = slot[s, F_RNG]
    i = 0
    for p in range(n_players):
        if not (alive >> p) & 1:
            for h in range(hand):
                opening[s, p, h] = -1  # eliminated: no hand
            continue
        for h in range(hand):
            j = i + int(stream_uniform(key, c + i) * (n - i))  # rand_below, draw number c + i
            card = scratch[j]
            scratch[j] = scratch[i]
            scratch[i] = card
            i += 1
            hands[s, p, card] += 1
            piles[s, DRAW, card] -= 1
            opening[s, p, h] = card
    slot[s, F_RNG] = c + i
    slot[s, F_DRAW_N] = n - i
    slot[s, F_DISC_N] = 0
    start_round(s, dealer, slot)
    for p in range(n_players):
        if (alive >> p) & 1:
            if cfg[C_TRACE]:  # hot: the call is not inlined
                log(cfg, ev, nev, g, EV_DEAL, p, -1, dealer, 0)
    # S-2/S-3: the first card
    mode = cfg[C_FIRST_CARD]
    card = -1
    for _ in range(4 * n):
        card = draw_one(s, slot, game, keys, piles, cfg, ev, nev)
        if mode == FIRST_CARD_REFLIP_ACTIONS:
            if card < N_COLOURED and FACE_OF[card] <= 9:
                break
            piles[s, DISC, card] += 1  # flipped non-number cards stay under it, no effect
            slot[s, F_DISC_N] += 1
            log(cfg, ev, nev, g, EV_RETURN, -1, card, 1, 0)
        elif mode == FIRST_CARD_APPLY_ACTIONS and (
            card == WILD_DRAW_FOUR or card == WILD_PILE_UP or card == WILD_DRAWN_TOGETHER
            or (card == WILD and cfg[C_FIRST_WILD] == FIRST_WILD_REFLIP)
        ):
            piles[s, DRAW, card] += 1  # back into the deck, flip another
            slot[s, F_DRAW_N] += 1
            log(cfg, ev, nev, g, EV_RETURN, -1, card, 0, 0)
        else:  # a card that stays (FIRST_CARD_IGNORE_EFFECT: any card; a Wild: FIRST_WILD_FIRST_PLAYER_CHOOSES)
            break
    slot[s, F_TOP] = card
    first_player = seat_at(dealer, int64(1), slot, s, cfg)
    log(cfg, ev, nev, g, EV_START, -1, card, COLOUR_OF[card], first_player)
    if card >= N_COLOURED:
        slot[s, F_COLOUR] = -1
        slot[s, F_ACTOR] = first_player
        slot[s, F_PHASE] = PH_COLOUR
        return
    slot[s, F_COLOUR] = COLOUR_OF[card]
    face = FACE_OF[card]
    nxt = first_player
    if mode == FIRST_CARD_APPLY_ACTIONS:
        if face == FACE_SKIP:  # Skip: the first player is skipped
            log(cfg, ev, nev, g, EV_SKIP, first_player, -1, 0, 0)
            nxt = seat_at(dealer, int64(2), slot, s, cfg)
        elif face == FACE_REVERSE:  # Reverse counts as played: the dealer's right starts, counter-clockwise
            slot[s, F_DIR] = -1
            nxt = seat_at(dealer, int64(1), slot, s, cfg)
        elif face == FACE_DRAW_TWO:  # Draw Two: the first player draws 2 and loses the turn
            forced_draw(s, int64(first_player), int64(2), int64(DR_START), slot, game, keys, hands, hsize, piles, cfg, ev, nev)
            log(cfg, ev, nev, g, EV_SKIP, first_player, -1, 0, 0)
            nxt = seat_at(dealer, int64(2), slot, s, cfg)
    pass_turn(s, nxt, slot, cfg)


@leaf
def new_game(s, g, rkey, slot, game, keys, hands, hsize, piles, seat_ctr, cfg):
    """Put game (or match) ``g`` into slot ``s``; return its dealer (S-4), to deal with ``deal_round``."""
    reset_slot(s, g, rkey, slot, game, keys, hands, hsize, piles, seat_ctr)
    slot[s, F_ALIVE] = (1 << cfg[C_PLAYERS]) - 1  # every seat plays (E-4 elimination removes seats)
    dealer = rand_below(keys, slot, s, cfg[C_PLAYERS])  # always drawn, so a fixed dealer keeps the same deal
    if cfg[C_DEALER] >= 0:
        dealer = cfg[C_DEALER] % cfg[C_PLAYERS]
    return dealer


@leaf
def next_round(s, slot, cfg):
    """Clear the finished round's fields for the next round of the match, keeping the game's random
    stream (so a match replays from its index) and the seats still in the match; return the new
    dealer, the next seat to the left still in the match (S-4, E-4)."""
    n = cfg[C_PLAYERS]
    alive = slot[s, F_ALIVE]
    dealer = slot[s, F_DEALER] + 1
    if dealer == n:
        dealer = 0
    while not (alive >> dealer) & 1:
        dealer += 1
        if dealer == n:
            dealer = 0
    counter = slot[s, F_RNG]
    rnd = slot[s, F_ROUND] + 1
    for f in range(slot.shape[1]):
        slot[s, f] = 0
    slot[s, F_RNG] = counter
    slot[s, F_ROUND] = rnd
    slot[s, F_ALIVE] = alive
    slot[s, F_ROW] = -1
    return dealer
