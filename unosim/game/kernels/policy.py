"""Compiled versions of the shipped ``random`` and ``greedy`` strategies.

The engine registers these transcriptions by exact class (``unosim.engine.fast_paths``);
the kernel then decides its single-actor decisions (turn, drawn card, colour,
challenge) itself instead of emitting an observation row. Each policy here is
the exact transcription of its Python methods, drawing the same uniforms from
the same per-(game, seat) stream in the same order, so both paths give
identical games — a test plays every shipped strategy both ways and compares
the records. Mini-pile additions are compiled too, and so are the
multi-actor votes and jump-ins when every seat that answers has a policy; UNO
catches (asked only after a forgotten call, which these policies never make)
go through Python. The house rules' decisions (H-1 stacking, H-2 the 7's swap) are compiled for
every policy, rule strategies included (``pick_stack``, ``pick_swap``).
"""

from numba import int64

from .blocks import colour_totals
from .finish import count_seats, n_alive, seat_at
from .house import DRAW_TWO_BITS, stack_options
from .jit import kernel, leaf, rule
from .layout import (
    C_PLAYERS,
    F_ACTOR,
    F_ALIVE,
    F_PENDING,
    F_TURN,
    PH_COLOUR,
    PH_DRAWN,
    PH_PILEUP,
    PH_STACK,
    PH_SWAP,
    PH_TURN,
)
from .legality import legal_types, needs_colour, pile_additions, playable
from .rng import seat_uniform
from .rule_policy import rules_colour, rules_jump, rules_stack, rules_vote
from .tables import POINTS_OF, WILD_DRAW_FOUR, WILD_DRAWN_TOGETHER
from .tally import SEAT_FEWEST, SEAT_RANDOM, argmax4, link_pair, lowest_bit, nth_allowed, point_at

__all__ = [
    "POLICY_GREEDY", "POLICY_NONE", "POLICY_RANDOM", "POLICY_RULES", "jump_weight",
    "house_policy", "pick_addition", "pick_card", "pick_colour", "pick_link", "pick_stack", "pick_swap",
    "pick_vote", "policy_decision",
]

POLICY_NONE, POLICY_RANDOM, POLICY_GREEDY, POLICY_RULES = 0, 1, 2, 3
"""Policy ids; a rule strategy's id is ``POLICY_RULES`` plus the offset of its program in ``cfg``
(``unosim.game.kernels.rule_policy``)."""


@leaf
def pick_colour(pol, s, seat, keys, hands, seat_ctr):
    """``random``: a uniform colour; ``greedy`` (the base default): the colour held most, ties uniform."""
    u = seat_uniform(keys, seat_ctr, s, seat)
    if pol == POLICY_RANDOM:
        return int(u * 4)
    c0, c1, c2, c3 = colour_totals(hands, s, seat)
    return argmax4(c0, c1, c2, c3, True, True, True, True, u)


@rule
def pick_card(pol, s, seat, keys, hands, slot, seat_ctr, cfg, cand, house):
    """``random``: a uniform legal physical card; ``greedy``: the highest-point one, ties by copies.

    Only the held legal types are visited (``legal_types``,
    a bit mask), in increasing type order — the order the Python primitives walk —
    so the same uniform picks the same card. The eligible types are collected in
    ``cand`` on the way.
    """
    u = seat_uniform(keys, seat_ctr, s, seat)
    held = legal_types(s, seat, hands, slot, cfg, house)
    best = -1
    total = 0
    m = 0
    while held:
        t = lowest_bit(held)
        held &= held - 1
        n = hands[s, seat, t]
        score = 0 if pol == POLICY_RANDOM else POINTS_OF[t]
        if score > best:
            best = score
            total = n
            m = 0
        elif score == best:
            total += n
        else:
            continue
        cand[m] = t
        m += 1
    if total == 0:
        return -1
    x = int(u * total)
    before = 0  # candidates whose cards all come before card x: counted over all of them, no early exit to mispredict
    cards = 0
    for i in range(m):
        cards += hands[s, seat, cand[i]]
        before += cards <= x
    return cand[before]


@leaf
def pick_link(pol, s, seat, keys, hsize, slot, seat_ctr, cfg):
    """P-6 link pair, packed ``a * 16 + b`` (-1: fewer than two seats may be linked, the link ends):
    ``random``, two distinct uniform seats; ``greedy`` (the base default), the two other players
    with fewest cards (the player too when fewer than two others may be linked)."""
    how = SEAT_RANDOM if pol == POLICY_RANDOM else SEAT_FEWEST
    return link_pair(how, s, seat, keys, hsize, slot, seat_ctr, cfg)


@leaf
def pick_addition(pol, s, seat, keys, hands, slot, seat_ctr, cfg):
    """P-5 card to add to the mini pile, -1 (take it) when none can be added: ``random``, a uniform
    able physical card; ``greedy`` (the base default), the highest-point one, ties by copies.
    Only the held able types are visited, in type order: the mini pile's colour block, then the wilds."""
    u = seat_uniform(keys, seat_ctr, s, seat)
    able = pile_additions(s, seat, hands, slot, cfg)
    best = -1
    total = 0
    held = able
    while held:
        t = lowest_bit(held)
        held &= held - 1
        score = 0 if pol == POLICY_RANDOM else POINTS_OF[t]
        if score > best:
            best = score
            total = hands[s, seat, t]
        elif score == best:
            total += hands[s, seat, t]
    x = int(u * total)
    held = able
    while held:
        t = lowest_bit(held)
        held &= held - 1
        if pol == POLICY_RANDOM or POINTS_OF[t] == best:
            x -= hands[s, seat, t]
            if x < 0:
                return t
    return -1


@rule
def pick_vote(pol, s, seat, keys, hsize, seat_ctr, n, alive, cfg, programs):
    """A-4 seat to point at among the other seats still in the match (bit mask ``alive``):
    ``random``, a uniform one; ``greedy`` (the base default), the one with fewest cards, ties uniform;
    a rule strategy (in the copy for ``layout.PROGRAMS_ON``), its ``[point_taken]`` choice. Inlined
    at its one call site (``advance.compiled_multi``, once per seat): a call each cost party games a few
    per cent (docs/performance.md)."""
    if programs is not None and pol >= POLICY_RULES:
        return rules_vote(pol - POLICY_RULES, s, seat, keys, hsize, seat_ctr, cfg, alive)
    how = SEAT_RANDOM if pol == POLICY_RANDOM else SEAT_FEWEST
    return point_at(how, s, seat, keys, hsize, seat_ctr, n, alive)


@rule
def pick_swap(pol, s, seat, keys, hsize, slot, seat_ctr, cfg):
    """H-2 seat to swap hands with: ``random``, a uniform other seat still in the match (seat order);
    the others (``Strategy.swap_with``), the other player with fewest cards, ties to the nearest in
    the direction of play (no uniform drawn)."""
    n = cfg[C_PLAYERS]
    if pol == POLICY_RANDOM:
        excl = (((1 << n) - 1) & ~slot[s, F_ALIVE]) | (1 << seat)
        u = seat_uniform(keys, seat_ctr, s, seat)
        return nth_allowed(excl, int(u * (n - count_seats(excl, n))), n)
    best = -1
    for i in range(1, n_alive(slot, s, cfg)):
        q = seat_at(seat, int64(i), slot, s, cfg)
        if best < 0 or hsize[s, q] < hsize[s, best]:
            best = q
    return best


@rule
def pick_stack(pol, s, seat, keys, hands, hsize, piles, slot, seat_ctr, cfg):
    """H-1 the card to stack (-1: take the total) and its colour: ``random``, uniform among taking and
    each stackable card type (type order, taking first); the others always stack, a Draw Two when one
    may be stacked, else the Wild Draw Four: ``greedy`` (``Strategy.stack``) uniform by copies, a rule
    strategy by its play rules over those cards (``RuleStrategy.stack``). One uniform, then the colour's."""
    bits = stack_options(s, seat, hands, hsize, slot, cfg)
    who = slot[s, F_ACTOR]  # the victim as the other decisions read it (one compiled copy of each helper)
    u = seat_uniform(keys, seat_ctr, s, who)
    pref = bits & DRAW_TWO_BITS if bits & DRAW_TWO_BITS else bits
    card = -1
    if pol >= POLICY_RULES:  # its play rules, among the cards preferred; where a draw rule fires, by preference
        card = rules_stack(pol - POLICY_RULES, pref, u, s, hands, hsize, slot, cfg)
    else:
        m = bits if pol == POLICY_RANDOM else pref
        total = 1 if pol == POLICY_RANDOM else 0  # random: taking is one of the options, first
        rest = m
        while rest:
            total += 1 if pol == POLICY_RANDOM else hands[s, who, lowest_bit(rest)]
            rest &= rest - 1
        x = int(u * total) - (1 if pol == POLICY_RANDOM else 0)
        rest = m
        while rest and x >= 0:
            t = lowest_bit(rest)
            rest &= rest - 1
            x -= 1 if pol == POLICY_RANDOM else hands[s, who, t]
            if x < 0:
                card = t
    colour = -1
    if card == WILD_DRAW_FOUR:
        if pol >= POLICY_RULES:
            colour = rules_colour(pol - POLICY_RULES, s, who, keys, hands, piles, slot, seat_ctr, cfg)
        else:
            colour = pick_colour(pol, s, who, keys, hands, seat_ctr)
    return card, colour


@kernel
def house_policy(pol, ph, s, keys, hands, hsize, piles, slot, seat_ctr, cfg):
    """The (card, colour, swap target) of a compiled policy in ``PH_STACK`` (H-1) or ``PH_SWAP`` (H-2)."""
    if ph == PH_SWAP:
        return -1, -1, pick_swap(pol, s, slot[s, F_ACTOR], keys, hsize, slot, seat_ctr, cfg)
    card, colour = pick_stack(pol, s, int64(slot[s, F_ACTOR]), keys, hands, hsize, piles, slot, seat_ctr, cfg)
    return card, colour, 0


@rule
def policy_decision(pol, ph, s, keys, hands, hsize, piles, slot, seat_ctr, cfg, cand, house):
    """The (card, colour, flag, link pair) a compiled policy answers in phase ``ph``: ``random``'s and
    ``greedy``'s, and every policy's H-1/H-2 decisions (a rule strategy's other decisions are
    ``rule_policy.rules_decision``'s, called by ``advance``)."""
    if house is not None and (ph == PH_STACK or ph == PH_SWAP):  # H-1, H-2
        card, colour, flag = house_policy(pol, ph, s, keys, hands, hsize, piles, slot, seat_ctr, cfg)
        return card, colour, flag, -1
    if ph == PH_TURN:
        seat = slot[s, F_TURN]
        card = pick_card(pol, s, seat, keys, hands, slot, seat_ctr, cfg, cand, house)
        colour = pick_colour(pol, s, seat, keys, hands, seat_ctr) if needs_colour(card) else -1
        pair = pick_link(pol, s, seat, keys, hsize, slot, seat_ctr, cfg) if card == WILD_DRAWN_TOGETHER else -1
        return card, colour, 0, pair
    seat = slot[s, F_ACTOR]
    if ph == PH_DRAWN:
        card = slot[s, F_PENDING]
        play = 1 if playable(s, seat, card, hands, slot, cfg) == 1 else 0
        colour = pick_colour(pol, s, seat, keys, hands, seat_ctr) if play and needs_colour(card) else -1
        pair = pick_link(pol, s, seat, keys, hsize, slot, seat_ctr, cfg) if play and card == WILD_DRAWN_TOGETHER else -1
        return -1, colour, play, pair
    if ph == PH_COLOUR:
        return -1, pick_colour(pol, s, seat, keys, hands, seat_ctr), 0, -1
    if ph == PH_PILEUP:
        return pick_addition(pol, s, seat, keys, hands, slot, seat_ctr, cfg), -1, 0, -1
    return -1, -1, 0, -1  # PH_CHALLENGE: never challenge


@rule
def jump_weight(pol, s, seat, keys, hands, hsize, slot, seat_ctr, cfg, programs):
    """P-2 reaction weight: ``random`` jumps in with probability 1/2, ``greedy`` always; weight 1;
    a rule strategy (in the copy for ``layout.PROGRAMS_ON``), its ``[jump_in]`` weight where its conditions hold."""
    if programs is not None and pol >= POLICY_RULES:
        return rules_jump(pol - POLICY_RULES, s, seat, hands, hsize, slot, cfg)
    if pol == POLICY_RANDOM:
        return 1.0 if seat_uniform(keys, seat_ctr, s, seat) < 0.5 else 0.0
    return 1.0
