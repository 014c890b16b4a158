"""Effects of played cards and the decisions that follow them.

- ``resolve_effects``: the card just played: A-1 Skip, A-2 Reverse, A-3 Draw Two,
  A-4 Point Taken (opens the vote), W-1 Wild, W-2 Wild Draw Four (opens the challenge),
  P-5 Wild Pile Up (starts the mini pile), and a number card under speed play (P-1/P-2);
  the house rules' chains (H-1), 7s and 0s (H-2) and action jump-ins (H-3) through ``.house``.
- ``apply_challenge``: W-2 the challenge of a Wild Draw Four and its draws.
- ``start_pileup``, ``apply_pileup``: P-5 turning up the mini pile, adding to it or taking it.
- ``apply_votes``: A-4 everyone points at someone; the draws, capped (``point_taken_cap``).
- ``end_link``: P-6/P-7 a link between two players ends.
- ``apply_catch``: U-1/U-2 a forgotten UNO call caught, and its penalty.
"""

from numba import int64

from ..rules import choice_code
from .finish import end_chain, n_alive, pass_turn, seat_at
from .house import STACKING_NONE, after_action, chain, house_step
from .jit import kernel, rule
from .layout import (
    C_JUMP_ACTIONS,
    C_LINK_PILEUP,
    C_PILEUP_WILDS,
    C_PLAYERS,
    C_PT_CAP,
    C_PT_LINK_FIRST,
    C_REV2_SKIPS,
    C_SEVEN_ZERO,
    C_SPEED,
    C_STACKING,
    C_TRACE,
    C_UNO_PENALTY,
    C_WD4_CHALLENGE,
    DISC,
    DR_CHALLENGE,
    DR_DRAW_TWO,
    DR_POINT_TAKEN,
    DR_UNO,
    DR_WD4,
    DRAW,
    EV_CATCH,
    EV_CHALLENGE,
    EV_LINK_END,
    EV_NO_CHALLENGE,
    EV_PILE_ADD,
    EV_PILE_AS_WILD,
    EV_PILE_FLIP,
    EV_PILE_TAKE,
    EV_REVERSE,
    EV_SKIP,
    EV_UNO_FORGET,
    EV_VOTE,
    F_ACTOR,
    F_ALIVE,
    F_BLUFF,
    F_CHALLENGES,
    F_CHALLENGES_WON,
    F_COLOUR,
    F_DIR,
    F_DISC_N,
    F_FORGOT,
    F_LINK_A,
    F_LINK_B,
    F_MINI_COLOUR,
    F_MINI_N,
    F_NEXT,
    F_PENDING,
    F_PHASE,
    F_PILEUP_CARDS,
    F_PILEUPS,
    F_POINT_TAKEN_DRAWS,
    F_SEAT,
    F_STACK,
    F_UNO_PENALTIES,
    F_WINNER,
    MINI,
    PH_CATCH,
    PH_CHALLENGE,
    PH_COLOUR,
    PH_EFFECTS,
    PH_PILEUP,
    PH_VOTE,
    PH_WIN,
    PH_WINDOW,
)
from .piles import draw_one, echo, forced_draw, log
from .tables import COLOUR_OF, FACE_DRAW_TWO, FACE_OF, FACE_POINT_TAKEN, FACE_REVERSE, FACE_SKIP, N_COLOURED, WILD_DRAW_FOUR, WILD_PILE_UP

__all__ = [
    "PILEUP_FLIPPED_WILDS_DISCARD", "PILEUP_FLIPPED_WILDS_MINI_PILE", "apply_catch", "apply_challenge", "apply_pileup",
    "apply_votes", "end_link", "resolve_effects", "start_pileup",
]

PILEUP_FLIPPED_WILDS_DISCARD = choice_code("pileup_flipped_wilds", "discard")
PILEUP_FLIPPED_WILDS_MINI_PILE = choice_code("pileup_flipped_wilds", "mini_pile")


@rule
def resolve_effects(s, slot, game, keys, hands, hsize, piles, cfg, ev, nev, house):
    """Apply the effect of the card just played (``F_PENDING`` by ``F_SEAT``); pass the turn, or open
    the jump-in window on the card (P-1, H-3)."""
    seat = slot[s, F_SEAT]
    card = slot[s, F_PENDING]
    g = game[s]
    nxt = seat_at(seat, int64(1), slot, s, cfg)
    if house is not None and (cfg[C_STACKING] != STACKING_NONE or cfg[C_SEVEN_ZERO]) and house_step(
        s, int64(PH_EFFECTS), int64(-1), int64(-1), int64(seat), int64(nxt), slot, game, keys, hands, hsize, piles, cfg, ev, nev
    ):
        return  # H-1 a chain, H-2 a 7's swap, resolved through their own decisions
    if card < N_COLOURED:
        face = FACE_OF[card]
        if face == FACE_SKIP:  # A-1 Skip
            if cfg[C_TRACE]:  # hot: the call is not inlined
                log(cfg, ev, nev, g, EV_SKIP, nxt, -1, 0, 0)
            nxt = seat_at(seat, int64(2), slot, s, cfg)
        elif face == FACE_REVERSE:  # A-2 Reverse: direction flips; with two players it also acts as Skip
            slot[s, F_DIR] = -slot[s, F_DIR]
            if cfg[C_TRACE]:  # hot: the call is not inlined
                log(cfg, ev, nev, g, EV_REVERSE, seat, -1, slot[s, F_DIR], 0)
            if cfg[C_REV2_SKIPS] and n_alive(slot, s, cfg) == 2:  # two players (left in the match)
                if cfg[C_TRACE]:  # hot: the call is not inlined
                    log(cfg, ev, nev, g, EV_SKIP, nxt, -1, 0, 0)
                nxt = seat
            else:
                nxt = seat_at(seat, int64(1), slot, s, cfg)
        elif face == FACE_DRAW_TWO:  # A-3 Draw Two: draw 2, lose the turn
            forced_draw(s, int64(nxt), int64(2), int64(DR_DRAW_TWO), slot, game, keys, hands, hsize, piles, cfg, ev, nev)
            if cfg[C_TRACE]:  # hot: the call is not inlined
                log(cfg, ev, nev, g, EV_SKIP, nxt, -1, 0, 0)
            nxt = seat_at(seat, int64(2), slot, s, cfg)
        elif face == FACE_POINT_TAKEN:  # A-4 Point Taken: everyone points at someone (PH_VOTE)
            slot[s, F_PHASE] = PH_VOTE
            return
        else:  # a number card (a 0 under H-2 has passed the hands on already)
            if cfg[C_SPEED]:  # P-1/P-2: a number card just played may be jumped on
                slot[s, F_NEXT] = nxt
                slot[s, F_PHASE] = PH_WINDOW
                return
        if house is not None and cfg[C_JUMP_ACTIONS]:  # H-3: the window on a coloured action card, once its effect is resolved
            after_action(s, seat, nxt, slot, cfg)
            return
    elif card == WILD_PILE_UP:  # P-5 Wild Pile Up
        start_pileup(s, seat, slot, game, keys, piles, cfg, ev, nev)
        return
    elif card == WILD_DRAW_FOUR:  # W-2 Wild Draw Four
        if cfg[C_WD4_CHALLENGE]:
            slot[s, F_ACTOR] = nxt
            slot[s, F_PHASE] = PH_CHALLENGE
            return
        forced_draw(s, int64(nxt), int64(4), int64(DR_WD4), slot, game, keys, hands, hsize, piles, cfg, ev, nev)
        if cfg[C_TRACE]:  # hot: the call is not inlined
            log(cfg, ev, nev, g, EV_SKIP, nxt, -1, 0, 0)
        nxt = seat_at(seat, int64(2), slot, s, cfg)
    pass_turn(s, nxt, slot, cfg)


@kernel
def apply_challenge(s, challenge, slot, game, keys, hands, hsize, piles, cfg, ev, nev, house):
    """W-2: the victim challenges (or not) the Wild Draw Four of ``F_SEAT``. With stacking (H-1) the
    challenge settles the whole chain: a caught bluffer draws its total, a failed challenger the
    total and 2; a victim who does not challenge may stack on it."""
    victim = slot[s, F_ACTOR]
    player = slot[s, F_SEAT]
    g = game[s]
    stacking = cfg[C_STACKING] != STACKING_NONE  # each branch on it also tests ``house``: the official copy prunes them
    total = slot[s, F_STACK] if house is not None and stacking else 4
    if challenge:
        slot[s, F_CHALLENGES] += 1
        bluff = slot[s, F_BLUFF]
        log(cfg, ev, nev, g, EV_CHALLENGE, victim, -1, bluff, player)
        if bluff:  # the bluffer draws 4; the challenger then takes a normal turn
            slot[s, F_CHALLENGES_WON] += 1
            got = forced_draw(s, int64(player), int64(total), int64(DR_CHALLENGE), slot, game, keys, hands, hsize, piles, cfg, ev, nev)
            if house is not None and stacking:
                end_chain(s, got, slot)
            pass_turn(s, victim, slot, cfg)
        else:  # the challenger draws 6 and loses the turn
            got = forced_draw(s, int64(victim), int64(total + 2), int64(DR_CHALLENGE), slot, game, keys, hands, hsize, piles, cfg, ev, nev)
            if house is not None and stacking:
                end_chain(s, got, slot)
            log(cfg, ev, nev, g, EV_SKIP, victim, -1, 0, 0)
            pass_turn(s, seat_at(victim, int64(1), slot, s, cfg), slot, cfg)
    else:
        log(cfg, ev, nev, g, EV_NO_CHALLENGE, victim, -1, 0, player)
        if house is not None and stacking:
            chain(s, int64(victim), int64(0), int64(0), slot, game, keys, hands, hsize, piles, cfg, ev, nev)
            return
        forced_draw(s, int64(victim), int64(4), int64(DR_WD4), slot, game, keys, hands, hsize, piles, cfg, ev, nev)
        log(cfg, ev, nev, g, EV_SKIP, victim, -1, 0, 0)
        pass_turn(s, seat_at(victim, int64(1), slot, s, cfg), slot, cfg)


@kernel
def start_pileup(s, seat, slot, game, keys, piles, cfg, ev, nev):
    """P-5: turn up cards until a non-wild starts the mini pile (wilds go to the discard pile or
    the mini pile); the next player holds it. No non-wild left: the card acts as a Wild."""
    g = game[s]
    available = 0  # non-wild cards that can still be turned up (T-5 reshuffles the discard pile)
    for t in range(N_COLOURED):
        available += piles[s, DRAW, t] + piles[s, DISC, t]
    while available > 0:
        c = draw_one(s, slot, game, keys, piles, cfg, ev, nev)
        if c < N_COLOURED:
            piles[s, MINI, c] += 1
            slot[s, F_MINI_N] += 1
            slot[s, F_MINI_COLOUR] = COLOUR_OF[c]
            slot[s, F_COLOUR] = COLOUR_OF[c]
            log(cfg, ev, nev, g, EV_PILE_FLIP, -1, c, 1, 0)
            slot[s, F_PILEUPS] += 1
            slot[s, F_ACTOR] = seat_at(seat, int64(1), slot, s, cfg)
            slot[s, F_PHASE] = PH_PILEUP
            return
        to_mini = cfg[C_PILEUP_WILDS] == PILEUP_FLIPPED_WILDS_MINI_PILE  # else PILEUP_FLIPPED_WILDS_DISCARD
        if to_mini:
            piles[s, MINI, c] += 1
            slot[s, F_MINI_N] += 1
        else:
            piles[s, DISC, c] += 1
            slot[s, F_DISC_N] += 1
        log(cfg, ev, nev, g, EV_PILE_FLIP, -1, c, 1 if to_mini else 0, 0)
    # no non-wild left anywhere: the card acts as a Wild and its player names a colour
    log(cfg, ev, nev, g, EV_PILE_AS_WILD, seat, -1, 0, 0)
    slot[s, F_ACTOR] = seat
    slot[s, F_PHASE] = PH_COLOUR


@rule
def apply_pileup(s, card, forget, slot, game, keys, hands, hsize, piles, cfg, ev, nev):
    """P-5: the holder adds ``card`` to the mini pile (no effect; emptying the hand wins at once;
    going down to one card needs the UNO call, U-1), or takes the whole pile (-1): the active
    colour becomes the pile's, play goes on after them."""
    actor = slot[s, F_ACTOR]
    g = game[s]
    if card >= 0:
        hands[s, actor, card] -= 1
        hsize[s, actor] -= 1
        piles[s, MINI, card] += 1
        slot[s, F_MINI_N] += 1
        log(cfg, ev, nev, g, EV_PILE_ADD, actor, card, 0, 0)
        if hsize[s, actor] == 0:
            slot[s, F_WINNER] = actor
            slot[s, F_PENDING] = -1
            slot[s, F_PHASE] = PH_WIN
            return
        slot[s, F_ACTOR] = seat_at(actor, int64(1), slot, s, cfg)
        if hsize[s, actor] == 1 and forget:  # the catch phase returns to the pile (apply_catch)
            slot[s, F_FORGOT] = actor
            log(cfg, ev, nev, g, EV_UNO_FORGET, actor, -1, 0, 0)
            slot[s, F_PHASE] = PH_CATCH
        return
    n = slot[s, F_MINI_N]
    for t in range(piles.shape[2]):
        hands[s, actor, t] += piles[s, MINI, t]
        piles[s, MINI, t] = 0
    hsize[s, actor] += n
    slot[s, F_MINI_N] = 0
    slot[s, F_PILEUP_CARDS] += n
    slot[s, F_COLOUR] = slot[s, F_MINI_COLOUR]
    log(cfg, ev, nev, g, EV_PILE_TAKE, actor, -1, n, slot[s, F_MINI_COLOUR])
    if cfg[C_LINK_PILEUP]:
        echo(s, int64(actor), int64(n), slot, game, keys, hands, hsize, piles, cfg, ev, nev)
    pass_turn(s, seat_at(actor, int64(1), slot, s, cfg), slot, cfg)


@rule
def end_link(s, slot, game, cfg, ev, nev):
    """A Point Taken ends any link (A-4, P-7)."""
    if slot[s, F_LINK_A] >= 0:
        log(cfg, ev, nev, game[s], EV_LINK_END, -1, -1, slot[s, F_LINK_A], slot[s, F_LINK_B])
        slot[s, F_LINK_A] = -1
        slot[s, F_LINK_B] = -1


@kernel
def apply_votes(s, seat_dec, slot, game, keys, hands, hsize, piles, cfg, ev, nev, votes, house):
    """A-4: each player draws one card per player pointing at them (at most ``point_taken_cap``),
    starting with the player of the Point Taken, then in the current direction; play goes on
    with the player after them. The link ends before the draws (option) or after them.
    Only the seats still in the match (E-4 elimination) vote and are voted for. ``votes`` (a work
    buffer of at least ``P`` entries) receives the votes each seat gets, counted in one pass."""
    player = slot[s, F_SEAT]
    n = cfg[C_PLAYERS]
    alive = slot[s, F_ALIVE]
    if cfg[C_TRACE]:  # one call per seat: not made unless tracing
        for p in range(n):
            if (alive >> p) & 1:
                log(cfg, ev, nev, game[s], EV_VOTE, p, -1, seat_dec[s, p], 0)
    if cfg[C_PT_LINK_FIRST]:
        end_link(s, slot, game, cfg, ev, nev)
    for p in range(n):
        votes[p] = 0
    for q in range(n):
        t = seat_dec[s, q]
        if (alive >> q) & 1 and 0 <= t < n:
            votes[t] += 1
    for i in range(n_alive(slot, s, cfg)):
        p = seat_at(player, i, slot, s, cfg)
        k = min(votes[p], cfg[C_PT_CAP])
        if k > 0:
            slot[s, F_POINT_TAKEN_DRAWS] += forced_draw(
                s, int64(p), int64(k), int64(DR_POINT_TAKEN), slot, game, keys, hands, hsize, piles, cfg, ev, nev
            )
    end_link(s, slot, game, cfg, ev, nev)
    nxt = seat_at(player, int64(1), slot, s, cfg)
    if house is not None:
        after_action(s, player, nxt, slot, cfg)  # H-3: a window on the Point Taken
    else:
        pass_turn(s, nxt, slot, cfg)


@kernel
def apply_catch(s, seat_dec, slot, game, keys, hands, hsize, piles, cfg, ev, nev):
    """U-1/U-2: if any other player (still in the match) catches the forgotten call, the forgetter draws."""
    forgot = slot[s, F_FORGOT]
    alive = slot[s, F_ALIVE]
    catcher = -1
    for p in range(cfg[C_PLAYERS]):
        if p != forgot and (alive >> p) & 1 and seat_dec[s, p] != 0:
            catcher = p
            break
    slot[s, F_FORGOT] = -1
    if catcher >= 0:
        slot[s, F_UNO_PENALTIES] += 1
        log(cfg, ev, nev, game[s], EV_CATCH, forgot, -1, catcher, 0)
        forced_draw(s, int64(forgot), int64(cfg[C_UNO_PENALTY]), int64(DR_UNO), slot, game, keys, hands, hsize, piles, cfg, ev, nev)
    # back to the mini pile after an addition (P-5), else on to the played card's effect
    slot[s, F_PHASE] = PH_PILEUP if slot[s, F_MINI_N] > 0 else PH_EFFECTS
