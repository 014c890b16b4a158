"""House rules (docs/rules.md §10): H-1 stacking, H-2 seven-zero, H-3 jump-ins with action cards, H-4 no
going out on an action card or a wild.

Every function here runs only when its option is on; with all four off the phase machine never
reaches them, and the copy of the kernels for the official games (``house`` None,
``unosim.game.encoding.copy_flags``) does not even compile them. They are compiled on
their own (``kernel``), not inlined: they run on rarer events than a turn, and one copy each
keeps the cold compile short.

- H-1: a Draw Two or Wild Draw Four starts (or adds to) a chain (``chain``): ``F_STACK`` holds its
  penalty, the card on top included, ``F_CHAIN`` its penalty cards. The next player (the victim) may
  stack a card allowed on the top card (``stack_options``, decision ``PH_STACK``) or takes the
  total. A Wild Draw Four on top is first open to a challenge (W-2,
  ``unosim.game.kernels.effects.apply_challenge``), which then settles the whole chain.
- H-2: a 7 swaps its player's hand with another player's (decision ``PH_SWAP``); a 0 passes every hand
  to the next player in the direction of play (``seven_zero``).
- H-3: ``after_action`` opens the jump-in window (``PH_WINDOW``) on a coloured action card whose
  effect is resolved, under ``jump_in_cards=numbers_and_actions``.
- H-4 is legality (``unosim.game.kernels.legality``): a lone action card or wild is not legal.
"""

from numba import int64

from ..rules import choice_code
from .finish import end_chain, n_alive, pass_turn, seat_at
from .jit import kernel, rule
from .layout import (
    C_JUMP_ACTIONS,
    C_MAX_TURNS,
    C_NO_ACTION_OUT,
    C_SEVEN_ZERO,
    C_SPEED,
    C_STACKING,
    C_WD4_CHALLENGE,
    DR_DRAW_TWO,
    DR_WD4,
    EV_PASS,
    EV_SKIP,
    EV_STACK,
    EV_SWAP,
    EV_TRUNCATE,
    F_ACTOR,
        F_CHAIN,
    F_DIR,
    F_LAST_PLAYER,
    F_NEXT,
    F_PENDING,
    F_PHASE,
    F_SEAT,
    F_SEVEN_SWAPS,
    F_STACK,
    F_STACKS,
    F_TOP,
    F_TRUNCATED,
    F_TURN,
    F_TURNS,
    F_ZERO_PASSES,
    I_ARG,
    I_NLEGAL,
    I_PENALTY,
    PH_CHALLENGE,
    PH_EFFECTS,
    PH_END,
    PH_STACK,
    PH_SWAP,
    PH_WINDOW,
)
from .piles import forced_draw, log
from .tables import FACE_DRAW_TWO, FACE_OF, FACES_PER_COLOUR, N_COLOURED, WILD_DRAW_FOUR

__all__ = [
    "DRAW_TWO_BITS", "JUMP_IN_CARDS_NUMBERS", "JUMP_IN_CARDS_NUMBERS_AND_ACTIONS", "STACKING_MIXED", "STACKING_NONE",
    "STACKING_PLUS4_ON_PLUS2", "STACKING_SAME_FACE", "after_action", "chain", "house_row", "house_step",
    "seven_zero",
    "stack_options", "stack_play", "swap_hands",
]

STACKING_NONE = choice_code("stacking", "none")
STACKING_SAME_FACE = choice_code("stacking", "same_face")
STACKING_MIXED = choice_code("stacking", "mixed")
STACKING_PLUS4_ON_PLUS2 = choice_code("stacking", "plus4_on_plus2")
JUMP_IN_CARDS_NUMBERS = choice_code("jump_in_cards", "numbers")
JUMP_IN_CARDS_NUMBERS_AND_ACTIONS = choice_code("jump_in_cards", "numbers_and_actions")
DRAW_TWO_BITS = sum(1 << (c * FACES_PER_COLOUR + FACE_DRAW_TWO) for c in range(4))
"""Type bit mask of the four Draw Twos."""


@rule
def stack_options(s, seat, hands, hsize, slot, cfg):
    """H-1: type bit mask of the cards ``seat`` holds that may be stacked on the card on top: a Draw
    Two on a Draw Two (any colour); a Wild Draw Four on a Wild Draw Four (``same_face``, ``mixed``)
    or on a Draw Two (``mixed``, ``plus4_on_plus2``). Under ``go_out_on_action=false`` a last card is
    never stacked (H-4)."""
    how = cfg[C_STACKING]
    if how == STACKING_NONE or (cfg[C_NO_ACTION_OUT] and hsize[s, seat] == 1):
        return int64(0)
    top = slot[s, F_TOP]
    bits = int64(0)
    if top == WILD_DRAW_FOUR:
        if how != STACKING_PLUS4_ON_PLUS2 and hands[s, seat, WILD_DRAW_FOUR] > 0:
            bits |= int64(1) << WILD_DRAW_FOUR
        return bits
    for c in range(4):
        t = c * FACES_PER_COLOUR + FACE_DRAW_TWO
        if hands[s, seat, t] > 0:
            bits |= int64(1) << t
    if how != STACKING_SAME_FACE and hands[s, seat, WILD_DRAW_FOUR] > 0:
        bits |= int64(1) << WILD_DRAW_FOUR
    return bits


@kernel
def house_row(q, r, s, seat, slot, hands, hsize, cfg, row_legal, row_info):
    """The observation row of a ``PH_STACK`` decision (H-1: the cards that may be stacked, the chain's
    total, the player of the card on top; taking is always allowed) or of a ``PH_SWAP`` one (H-2: the
    seat whose turn comes next)."""
    if slot[s, F_PHASE] == PH_SWAP:
        row_info[q, r, I_ARG] = slot[s, F_NEXT]
        return
    bits = stack_options(s, seat, hands, hsize, slot, cfg)
    n = 0
    for t in range(hands.shape[2]):
        if (bits >> t) & 1:
            row_legal[q, r, t] = True
            n += hands[s, seat, t]
    row_info[q, r, I_NLEGAL] = n
    row_info[q, r, I_ARG] = slot[s, F_LAST_PLAYER]
    row_info[q, r, I_PENALTY] = slot[s, F_STACK]


@rule
def after_action(s, seat, nxt, slot, cfg):
    """The effect of the card on top (played by ``seat``) is resolved and ``nxt`` plays next: open the
    jump-in window first when action cards may be jumped in with (H-3) and the card is coloured."""
    if cfg[C_JUMP_ACTIONS] == JUMP_IN_CARDS_NUMBERS_AND_ACTIONS and slot[s, F_TOP] < N_COLOURED:  # else JUMP_IN_CARDS_NUMBERS
        slot[s, F_SEAT] = seat
        slot[s, F_NEXT] = nxt
        slot[s, F_PHASE] = PH_WINDOW
    else:
        pass_turn(s, nxt, slot, cfg)


@kernel
def chain(s, victim, add, take, slot, game, keys, hands, hsize, piles, cfg, ev, nev):
    """H-1, one step of a chain faced by ``victim``:

    - ``add`` > 0: the card just played adds ``add`` to the chain (``F_STACK``, ``F_CHAIN``); a Wild Draw
      Four's victim first decides whether to challenge it (W-2, ``PH_CHALLENGE``);
    - then, unless ``take``, a stacking card held is offered (``PH_STACK``); a stack is a turn (T-7), so
      past ``max_turns`` the round stops instead (E-5);
    - else (``take``, or nothing to stack) ``victim`` draws the whole total and loses the turn; play goes
      on after them, once the jump-in window on the card on top (H-3) is passed.
    """
    if add > 0:
        slot[s, F_STACK] += add
        slot[s, F_CHAIN] += 1
        if add == 4 and cfg[C_WD4_CHALLENGE]:
            slot[s, F_ACTOR] = victim
            slot[s, F_PHASE] = PH_CHALLENGE
            return
    if not take and stack_options(s, victim, hands, hsize, slot, cfg) != 0:
        if slot[s, F_TURNS] >= cfg[C_MAX_TURNS]:
            slot[s, F_TRUNCATED] = 1
            log(cfg, ev, nev, game[s], EV_TRUNCATE, victim, -1, slot[s, F_TURNS], 0)
            slot[s, F_PHASE] = PH_END
            return
        slot[s, F_ACTOR] = victim
        slot[s, F_PHASE] = PH_STACK
        return
    reason = DR_WD4 if slot[s, F_TOP] == WILD_DRAW_FOUR else DR_DRAW_TWO
    got = forced_draw(s, victim, int64(slot[s, F_STACK]), int64(reason), slot, game, keys, hands, hsize, piles, cfg, ev, nev)
    end_chain(s, got, slot)
    log(cfg, ev, nev, game[s], EV_SKIP, victim, -1, 0, 0)
    after_action(s, slot[s, F_LAST_PLAYER], seat_at(victim, int64(1), slot, s, cfg), slot, cfg)


@kernel
def seven_zero(s, seat, nxt, target, slot, game, hands, hsize, cfg, ev, nev):
    """H-2. ``target`` < 0: ``seat`` just played the 7 or 0 on top and ``nxt`` plays next: a 7 asks whom
    to swap with (``PH_SWAP``; returns True); a 0 passes every hand on (returns False: the caller goes
    on). ``target`` >= 0, the ``PH_SWAP`` decision: the player of the 7 (``F_ACTOR``) swaps hands with
    ``target``, then the jump-in window on the 7 (speed play) or the next player (``F_NEXT``)."""
    if target < 0:
        if FACE_OF[slot[s, F_TOP]] == 7:
            slot[s, F_ACTOR] = seat
            slot[s, F_NEXT] = nxt
            slot[s, F_PHASE] = PH_SWAP
            return True
        # a 0: swapping the player's hand with each other seat in turn order moves every hand on by one
        for i in range(1, n_alive(slot, s, cfg)):
            swap_hands(s, seat, seat_at(seat, int64(i), slot, s, cfg), hands, hsize)
        slot[s, F_ZERO_PASSES] += 1
        log(cfg, ev, nev, game[s], EV_PASS, seat, -1, slot[s, F_DIR], 0)
        return False
    actor = int64(slot[s, F_ACTOR])
    swap_hands(s, actor, target, hands, hsize)
    slot[s, F_SEVEN_SWAPS] += 1
    log(cfg, ev, nev, game[s], EV_SWAP, actor, -1, target, 0)
    if cfg[C_SPEED]:
        slot[s, F_SEAT] = actor
        slot[s, F_PHASE] = PH_WINDOW
    else:
        pass_turn(s, slot[s, F_NEXT], slot, cfg)
    return True


@kernel
def house_step(s, ph, card, flag, seat, nxt, slot, game, keys, hands, hsize, piles, cfg, ev, nev):
    """The house rules' steps of the phase machine, one kernel for its two call sites.

    ``ph == PH_EFFECTS``: the effect of the card just played by ``seat`` (``nxt`` plays next): a Draw Two
    or Wild Draw Four starts or grows a chain (H-1, ``chain``), a 7 asks whom to swap with and a 0
    passes the hands on (H-2, ``seven_zero``). True when that is the whole effect (a decision or the
    chain's end follows); False when the official effect still applies (every other card, and the 0
    after its pass: the jump-in window of speed play).

    ``PH_STACK`` or ``PH_SWAP``: the decision ``card`` / ``flag``. True when it is a stack of ``card``,
    which the caller then plays as the victim's turn (``turn.apply_turn``: T-7, U-1, ``play_card``); a
    stack is counted here. Taking the chain (``card`` -1) and the swap with seat ``flag`` are applied here.
    """
    if ph == PH_EFFECTS:
        top = slot[s, F_PENDING]
        if cfg[C_STACKING] != STACKING_NONE and (top == WILD_DRAW_FOUR or (top < N_COLOURED and FACE_OF[top] == FACE_DRAW_TWO)):
            chain(s, nxt, int64(4 if top == WILD_DRAW_FOUR else 2), int64(0), slot, game, keys, hands, hsize, piles, cfg, ev, nev)
            return True
        if cfg[C_SEVEN_ZERO] and top < N_COLOURED and (FACE_OF[top] == 7 or FACE_OF[top] == 0):
            return seven_zero(s, seat, nxt, int64(-1), slot, game, hands, hsize, cfg, ev, nev)
        return False
    if ph == PH_SWAP:
        seven_zero(s, int64(-1), int64(-1), flag, slot, game, hands, hsize, cfg, ev, nev)
        return False
    if card < 0:
        chain(s, int64(slot[s, F_ACTOR]), int64(0), int64(1), slot, game, keys, hands, hsize, piles, cfg, ev, nev)
        return False
    stack_play(s, card, slot, cfg, ev, nev, game[s])
    return True


@rule
def stack_play(s, card, slot, cfg, ev, nev, g):
    """H-1 ``PH_STACK`` decision to stack ``card``: it is the victim's (``F_ACTOR``) turn, counted as a
    stack; the play itself is a turn's play (``turn.apply_turn``: T-7, U-1, ``play_card``). A Wild
    Draw Four may be stacked whatever W-2 says (stacking is its own permission); a challenge of it
    judges W-2 on the hand and colour of this moment, as for any Wild Draw Four (``F_BLUFF``)."""
    victim = slot[s, F_ACTOR]
    slot[s, F_TURN] = victim
    slot[s, F_STACKS] += 1
    log(cfg, ev, nev, g, EV_STACK, victim, card, slot[s, F_STACK] + (4 if card == WILD_DRAW_FOUR else 2), 0)


@rule
def swap_hands(s, a, b, hands, hsize):
    """H-2: seats ``a`` and ``b`` exchange their whole hands."""
    for t in range(hands.shape[2]):
        x = hands[s, a, t]
        hands[s, a, t] = hands[s, b, t]
        hands[s, b, t] = x
    x = hsize[s, a]
    hsize[s, a] = hsize[s, b]
    hsize[s, b] = x
