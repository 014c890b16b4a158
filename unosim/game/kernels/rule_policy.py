"""The compiled interpreter of rule strategies: one interpreter for every rule file.

A rule program (``unosim.strategy.rule_language``) is encoded by
``unosim.engine.rule_programs.encode_program`` as int32 words appended to the
engine's ``cfg`` array; the compiled policy id of a rule strategy is
``POLICY_RULES + offset`` of its program there (``unosim.engine.fast_paths``,
``unosim.engine.driver.Engine.set_strategies``). Each function here is the exact
transcription of a method of ``unosim.strategy.rule_strategy.RuleStrategy``,
drawing the same uniforms in the same order, so both play identical games
(``tests/test_rulebot_compiled.py``). The rarer parts (colour, link, votes,
jump-ins) are compiled on their own, not inlined in numba's IR: one copy of each
keeps the compile short. The entry point of the per-turn decisions,
``rules_decision``, is inlined at its one call site, and so are the legal types
(``legal_bits``) in it: as a separate call it would pass the engine's arrays
field by field on every decision of a rule bot. The rule choice (``rules_pick``,
with its one copy of ``best_of``) takes two arrays and scalars, and is a
``leaf``: compiled once, beside the inlining, for both of its callers (the
decision and ``rules_stack``), and as fast as inlined. A rule list of at most ``MAX_INDEXED`` rules (every shipped one)
is not walked rule by rule: its index, made when the program is encoded, gives
for each card type the rules that name it, and for each distinct condition
block the rules that have it, as 64-bit sets; a decision tests each distinct
block once and ORs the sets of the playable types, and the lowest rule left is
the first that fires (``rules_pick``). A rule at a time, the loop's branches on
whether each rule's cards are playable and its conditions hold were a quarter
of ``attacker.toml``'s CPU time; the index takes one step per playable type.
A longer list is walked in order: a card rule's conditions are tested only
where one of its cards is playable, and an open block is not tested.

Program layout (word offsets from the program's start): the header ``P_*``,
three condition blocks (bluff, challenge, jump-in), then the play rules and
the mini-pile rules, ``RULE_WORDS`` each, then the index of each list (``X_*``). A condition block holds the low
bounds of the ``N_VARS`` variables, their high bounds, the direction (0 any),
the card-colour condition (-1 any, 1 held most, 0 not) and whether the block is open
(``B_OPEN``: no bound and no direction, its test is skipped). A rule holds: draw
word (0 a card rule, ``RULE_DRAW`` draw instead, ``RULE_TAKE`` take the mini
pile: fires only when taking is allowed, i.e. nothing may be added or
``cfg[C_PILEUP_REFUSE]``), preference code, the card types it names as two
30-bit masks, its conditions. A preference code holds up to three criteria, two bits each, the
first in the low bits (0 none, 1 points, 2 colour, 3 variety).
"""

from numpy import int64, uint64

from .blocks import colour_totals
from .finish import seat_at
from .jit import kernel, leaf, rule
from .layout import (
    C_PILEUP_REFUSE,
    C_PLAYERS,
    C_WD4_CHALLENGE,
    DISC,
    F_ACTOR,
    F_ALIVE,
    F_DIR,
    F_PENDING,
    F_SEAT,
    F_TOP,
    F_TURN,
    PH_COLOUR,
    PH_DRAWN,
    PH_PILEUP,
    PH_TURN,
)
from .legality import legal_types, needs_colour, pile_additions, playable, wd4_legal
from .rng import seat_uniform
from .tables import COLOUR_OF, FACE_OF, N_COLOURED, N_TYPES, POINTS_OF, WILD_DRAW_FOUR, WILD_DRAWN_TOGETHER
from .tally import argmax4, link_pair, lowest_bit, point_at

__all__ = [
    "B_DIR", "B_MOST", "B_OPEN", "CLASS_WORDS", "COLOUR_LEAST", "COLOUR_MOST", "COLOUR_PLAYED", "COLOUR_RANDOM", "COND_WORDS",
    "CR_COLOUR", "CR_NONE", "CR_POINTS", "CR_VARIETY", "DRAWN_LEGAL", "DRAWN_NEVER", "DRAWN_RULES", "JUMP_SCALE", "MASK_BITS",
    "MAX_INDEXED", "MODE_DRAWN", "MODE_PILE", "MODE_TURN", "NEEDS_COUNTS", "NEEDS_NEXT", "NEEDS_SMALLEST", "NO_HAND", "N_VARS",
    "P_BLUFF", "P_CHALLENGE", "P_COLOUR", "P_DRAWN", "P_HAS_BLUFF", "P_HAS_CHALLENGE", "P_JUMP", "P_JUMP_NEEDS", "P_JUMP_W",
    "P_LINK", "P_NEEDS", "P_N_PILE", "P_N_PLAY", "P_OTHERWISE_DRAW", "P_PILE_INDEX", "P_PILE_PREFER", "P_PLAY_INDEX",
    "P_PLAY_PREFER", "P_POINT", "P_RULES", "RULE_DRAW", "RULE_TAKE", "RULE_WORDS", "R_COND", "R_DRAW", "R_HI", "R_LO", "R_PREFER",
    "SCORE_BASE", "X_CLASSES", "X_DRAW", "X_N_CLASSES", "X_OPEN", "X_TAKE", "X_TYPES", "best_of", "cond_ok", "criterion",
    "legal_bits", "opponents", "pref_score", "rule_set", "rules_colour", "rules_decision", "rules_jump", "rules_link", "rules_pick",
    "rules_stack", "rules_vote",
]

(P_N_PLAY, P_N_PILE, P_OTHERWISE_DRAW, P_PLAY_PREFER, P_PILE_PREFER, P_DRAWN, P_COLOUR, P_POINT, P_LINK, P_JUMP_W, P_HAS_BLUFF,
 P_HAS_CHALLENGE, P_NEEDS, P_JUMP_NEEDS, P_PLAY_INDEX, P_PILE_INDEX) = range(16)
NEEDS_COUNTS, NEEDS_NEXT, NEEDS_SMALLEST = 1, 2, 4
"""``P_NEEDS`` bits: the program reads the colour counts (non-wild cards, colour and variety criteria,
``colour_held_most``), the next player's hand, or the smallest opponent hand; otherwise they are not
computed (their bounds are open).
``P_JUMP_NEEDS``: the same for the jump-in conditions alone."""
N_VARS = 6
B_DIR, B_MOST, B_OPEN = 2 * N_VARS, 2 * N_VARS + 1, 2 * N_VARS + 2
"""Words of a condition block after the bounds: the direction, the card-colour condition, and 1 where the
block bounds no variable and no direction (``cond_ok`` holds for every value from 0 to ``MAX_COUNT``)."""
COND_WORDS = B_OPEN + 1
P_BLUFF = 16
P_CHALLENGE = P_BLUFF + COND_WORDS
P_JUMP = P_CHALLENGE + COND_WORDS
P_RULES = P_JUMP + COND_WORDS
R_DRAW, R_PREFER, R_LO, R_HI, R_COND = range(5)
RULE_WORDS = R_COND + COND_WORDS
RULE_DRAW, RULE_TAKE = 1, 2
"""``R_DRAW`` word of a play rule ``card = "draw"`` and of a mini-pile rule ``card = "take"``."""
MAX_INDEXED = 64
X_TYPES = 0
X_DRAW = X_TYPES + 4 * N_TYPES
X_TAKE, X_OPEN, X_N_CLASSES = X_DRAW + 2, X_DRAW + 4, X_DRAW + 6
X_CLASSES = X_N_CLASSES + 1
CLASS_WORDS = COND_WORDS + 2
"""The index of a rule list of at most ``MAX_INDEXED`` rules (``P_PLAY_INDEX``, ``P_PILE_INDEX``: its offset from
the program's start, 0 for a longer list), sets of rules as 64-bit masks (bit ``i`` for rule ``i``) in
two words, low first (``rule_set``): from ``X_TYPES``, for each card type, the card rules that name it
where its colour is a colour held most, then where it is not (a wild: not); the draw rules
(``X_DRAW``), the take rules (``X_TAKE``), the rules with an open condition block (``X_OPEN``); then
``X_N_CLASSES`` condition classes (the distinct other blocks, the card-colour condition aside), each
its block and the set of its rules (``CLASS_WORDS``)."""
MASK_BITS = 30
CR_NONE, CR_POINTS, CR_COLOUR, CR_VARIETY = range(4)
DRAWN_LEGAL, DRAWN_NEVER, DRAWN_RULES = range(3)
COLOUR_MOST, COLOUR_LEAST, COLOUR_RANDOM, COLOUR_PLAYED = range(4)
MODE_TURN, MODE_DRAWN, MODE_PILE = range(3)
JUMP_SCALE = 1_000_000
"""Jump-in weights are stored in millionths (rule files allow at most 6 decimals)."""
SCORE_BASE = 1024
NO_HAND = 1000
"""``smallest_opponent`` when no opponent is left (``program.MAX_COUNT``)."""


@leaf
def cond_ok(cfg, at, hand, non_wild, nxt, small, players, opp, d):
    """The condition block at ``at`` holds for these variable values and direction ``d``."""
    if hand < cfg[at] or hand > cfg[at + N_VARS]:
        return False
    if non_wild < cfg[at + 1] or non_wild > cfg[at + N_VARS + 1]:
        return False
    if nxt < cfg[at + 2] or nxt > cfg[at + N_VARS + 2]:
        return False
    if small < cfg[at + 3] or small > cfg[at + N_VARS + 3]:
        return False
    if players < cfg[at + 4] or players > cfg[at + N_VARS + 4]:
        return False
    if opp < cfg[at + 5] or opp > cfg[at + N_VARS + 5]:
        return False
    w = cfg[at + B_DIR]
    return w == 0 or w == d


@rule
def opponents(s, seat, hsize, slot, cfg, needs):
    """The next player's hand size and the smallest hand among the other seats still in the match,
    each where ``needs`` has its bit (``NEEDS_NEXT``, ``NEEDS_SMALLEST``), else 0."""
    n = cfg[C_PLAYERS]
    nxt = 0
    if needs & NEEDS_NEXT:
        nxt = hsize[s, seat_at(seat, int64(1), slot, s, cfg)]
    small = 0
    if needs & NEEDS_SMALLEST:
        alive = slot[s, F_ALIVE]
        small = NO_HAND
        for p in range(n):
            if p != seat and (alive >> p) & 1 and hsize[s, p] < small:
                small = hsize[s, p]
    return nxt, small


@leaf
def criterion(cr, t, s, seat, hands, c0, c1, c2, c3):
    """One tie-break criterion's score of type ``t`` (``strategy.criterion_scores``)."""
    if cr == CR_NONE:
        return 0
    if cr == CR_POINTS:
        return POINTS_OF[t]
    if t >= N_COLOURED:
        return 0 if cr == CR_COLOUR else 2
    c = COLOUR_OF[t]
    cc = c0 if c == 0 else c1 if c == 1 else c2 if c == 2 else c3
    if cr == CR_COLOUR:
        return min(cc, SCORE_BASE - 1)
    if hands[s, seat, t] != 1:
        return 2
    f = FACE_OF[t]
    per_face = hands[s, seat, f] + hands[s, seat, 14 + f] + hands[s, seat, 28 + f] + hands[s, seat, 42 + f]
    return 2 - (1 if cc == 1 else 0) - (1 if per_face == 1 else 0)


@rule
def pref_score(code, t, s, seat, hands, c0, c1, c2, c3):
    """The criteria of preference ``code`` combined lexicographically (first criterion first)."""
    a = criterion(code & 3, t, s, seat, hands, c0, c1, c2, c3)
    if code < 4:  # one criterion: the others score 0
        return a * (SCORE_BASE * SCORE_BASE)
    b = criterion((code >> 2) & 3, t, s, seat, hands, c0, c1, c2, c3)
    c = criterion((code >> 4) & 3, t, s, seat, hands, c0, c1, c2, c3)
    return (a * SCORE_BASE + b) * SCORE_BASE + c


@rule
def best_of(m, code, u, s, seat, hands, c0, c1, c2, c3):
    """Among the types in bit mask ``m`` (all held), one of highest score, ties in proportion to copies
    (the tied types in increasing type order, as ``strategy.choose_by_rules``)."""
    best = -1
    total = 0
    tied = int64(0)
    rest = int64(m)
    while rest != 0:
        t = lowest_bit(rest)
        rest &= rest - 1
        v = pref_score(code, t, s, seat, hands, c0, c1, c2, c3)
        if v > best:
            best = v
            total = hands[s, seat, t]
            tied = int64(1) << t
        elif v == best:
            total += hands[s, seat, t]
            tied |= int64(1) << t
    x = int(u * total)
    while tied != 0:
        t = lowest_bit(tied)
        tied &= tied - 1
        x -= hands[s, seat, t]
        if x < 0:
            return t
    return -1


@rule
def legal_bits(mode, s, seat, hands, slot, cfg, house):
    """Bit mask of the types held that may be played (turn), the drawn card if legal, or may be added (pile);
    ``house`` as for ``legal_types``."""
    if mode == MODE_PILE:
        return pile_additions(s, seat, hands, slot, cfg)
    if mode == MODE_DRAWN:
        card = slot[s, F_PENDING]
        return int64(1) << card if playable(s, seat, card, hands, slot, cfg) == 1 else int64(0)
    return legal_types(s, seat, hands, slot, cfg, house)  # T-1, W-2


@leaf
def rule_set(cfg, at):
    """The set of rules (bit ``i`` for rule ``i``) in the two words at ``cfg[at]``, low word first."""
    return (int64(cfg[uint64(at)]) & 0xFFFFFFFF) | (int64(cfg[uint64(at + 1)]) << 32)


@leaf
def rules_pick(cfg, index, base, n_rules, prefer, otherwise_draw, bits, u, s, seat, hands, hand, non_wild, nxt, small, players, d,
               c0, c1, c2, c3):
    """The card the first firing rule picks (-1: draw or nothing), as ``strategy.choose_by_rules``.

    With the list's index at ``index`` (not 0), no rule is visited: the rules that may fire are the
    draw rules, the take rules where taking is allowed, and the card rules that name a type of ``bits``
    (``X_TYPES``, by whether its colour is held most), among the rules whose conditions hold (the open
    ones and each class that holds, tested once); the first of them fires. Otherwise the rules are
    tried in order."""
    most = max(max(c0, c1), max(c2, c3))
    block = (int64(1) << 14) - 1
    zero = int64(0)
    most_bits = ((block if c0 == most else zero) | ((block if c1 == most else zero) << 14)
                 | ((block if c2 == most else zero) << 28) | ((block if c3 == most else zero) << 42))
    chosen, code = zero, prefer
    if index != 0:
        ok = rule_set(cfg, index + X_OPEN)
        at = index + X_CLASSES
        for _ in range(cfg[uint64(index + X_N_CLASSES)]):
            if cond_ok(cfg, at, hand, non_wild, nxt, small, players, zero, d):
                ok |= rule_set(cfg, at + COND_WORDS)
            at += CLASS_WORDS
        fire = rule_set(cfg, index + X_DRAW)
        if bits == 0 or cfg[C_PILEUP_REFUSE] != 0:  # taking is allowed (strategy.choose_by_rules' may_draw)
            fire |= rule_set(cfg, index + X_TAKE)
        rest = bits
        while rest != 0:
            t = lowest_bit(rest)
            rest &= rest - 1
            fire |= rule_set(cfg, index + X_TYPES + 4 * t + (0 if (most_bits >> t) & 1 else 2))
        fire &= ok
        if fire != 0:
            at = base + lowest_bit(fire) * RULE_WORDS
            if cfg[uint64(at + R_DRAW)] != 0:
                return -1
            m = bits & (int64(cfg[uint64(at + R_LO)]) | (int64(cfg[uint64(at + R_HI)]) << MASK_BITS))
            cm = cfg[uint64(at + R_COND + B_MOST)]
            if cm == 1:
                m &= most_bits
            elif cm == 0:
                m &= ~most_bits
            chosen, code = m, cfg[uint64(at + R_PREFER)]
        n_rules = 0  # the rules are not tried one by one
    for i in range(n_rules):
        at = base + i * RULE_WORDS
        w = cfg[at + R_DRAW]
        m = int64(0)
        if w == 0:  # a card rule with none of its cards playable cannot fire: its conditions need no test
            m = bits & (int64(cfg[at + R_LO]) | (int64(cfg[at + R_HI]) << MASK_BITS))
            cm = cfg[at + R_COND + B_MOST]
            if cm == 1:
                m &= most_bits
            elif cm == 0:
                m &= ~most_bits
            if m == 0:
                continue
        if cfg[at + R_COND + B_OPEN] == 0 and not cond_ok(cfg, at + R_COND, hand, non_wild, nxt, small, players, int64(0), d):
            continue
        if w:  # draw always fires; take only when taking is allowed (strategy.choose_by_rules' may_draw)
            if w == RULE_DRAW or bits == 0 or cfg[C_PILEUP_REFUSE] != 0:
                return -1
            continue
        chosen, code = m, cfg[at + R_PREFER]
        break
    if chosen == 0:  # no rule fired
        if otherwise_draw or bits == 0:
            return -1
        chosen = bits
    return best_of(chosen, code, u, s, seat, hands, c0, c1, c2, c3)  # the one copy


@kernel
def rules_colour(o, s, seat, keys, hands, piles, slot, seat_ctr, cfg):
    """``RuleStrategy.choose_colour``."""
    u = seat_uniform(keys, seat_ctr, s, seat)
    how = cfg[o + P_COLOUR]
    if how == COLOUR_RANDOM:
        return int(u * 4)
    if how == COLOUR_PLAYED:
        c0, c1, c2, c3 = colour_totals(piles, s, DISC)
        k = COLOUR_OF[slot[s, F_TOP]]
        if k == 0:
            c0 += 1
        elif k == 1:
            c1 += 1
        elif k == 2:
            c2 += 1
        elif k == 3:
            c3 += 1
        return argmax4(c0, c1, c2, c3, True, True, True, True, u)
    c0, c1, c2, c3 = colour_totals(hands, s, seat)
    if how == COLOUR_MOST:
        return argmax4(c0, c1, c2, c3, True, True, True, True, u)
    none = c0 + c1 + c2 + c3 == 0
    return argmax4(-c0, -c1, -c2, -c3, none or c0 > 0, none or c1 > 0, none or c2 > 0, none or c3 > 0, u)


@kernel
def rules_link(o, s, seat, keys, hsize, slot, seat_ctr, cfg):
    """``RuleStrategy.choose_link`` packed ``a * 16 + b`` (-1: fewer than two seats may be linked, the link ends)."""
    return link_pair(cfg[o + P_LINK], s, seat, keys, hsize, slot, seat_ctr, cfg)


@rule
def rules_decision(o, ph, s, keys, hands, hsize, piles, slot, seat_ctr, cfg, house):
    """The (card, colour, flag, link pair) the rule program at ``cfg[o:]`` answers in phase ``ph``."""
    n = cfg[C_PLAYERS]
    if ph == PH_TURN:
        seat = slot[s, F_TURN]
    else:
        seat = slot[s, F_ACTOR]
    if ph == PH_COLOUR:
        return -1, rules_colour(o, s, seat, keys, hands, piles, slot, seat_ctr, cfg), 0, -1
    d = slot[s, F_DIR]
    hand = hsize[s, seat]
    how = cfg[o + P_DRAWN]
    has_bluff = cfg[o + P_HAS_BLUFF] != 0  # its conditions are read only where a bluff is possible
    # The variables, where a rule or condition may read them: a drawn card kept or played by rule
    # needs none unless a bluff is possible.
    needs = cfg[o + P_NEEDS] if ph != PH_DRAWN or how == DRAWN_RULES or has_bluff else 0
    c0 = 0
    c1 = 0
    c2 = 0
    c3 = 0
    if needs & NEEDS_COUNTS:
        c0, c1, c2, c3 = colour_totals(hands, s, seat)
    non_wild = c0 + c1 + c2 + c3
    nxt, small = opponents(s, seat, hsize, slot, cfg, needs)
    if ph != PH_TURN and ph != PH_DRAWN and ph != PH_PILEUP:  # PH_CHALLENGE
        flag = 0
        if cfg[o + P_HAS_CHALLENGE] and cond_ok(cfg, o + P_CHALLENGE, hand, non_wild, nxt, small, n, hsize[s, slot[s, F_SEAT]], d):
            flag = 1
        return -1, -1, flag, -1
    drawn = slot[s, F_PENDING] if ph == PH_DRAWN else -1
    # One call of the rule choice for the three phases that choose a card by the rules.
    pick = -1
    if ph != PH_DRAWN or how == DRAWN_RULES:
        u = seat_uniform(keys, seat_ctr, s, seat)
        if ph == PH_PILEUP:
            mode, base, n_rules = int64(MODE_PILE), o + P_RULES + cfg[o + P_N_PLAY] * RULE_WORDS, cfg[o + P_N_PILE]
            prefer, otherwise_draw, index = cfg[o + P_PILE_PREFER], int64(0), cfg[o + P_PILE_INDEX]
        else:
            mode, base, n_rules = int64(MODE_TURN if ph == PH_TURN else MODE_DRAWN), o + P_RULES, cfg[o + P_N_PLAY]
            prefer, otherwise_draw, index = cfg[o + P_PLAY_PREFER], int64(cfg[o + P_OTHERWISE_DRAW]), cfg[o + P_PLAY_INDEX]
        bits = legal_bits(mode, s, seat, hands, slot, cfg, house)
        pick = rules_pick(cfg, o + index if index else int64(0), base, n_rules, prefer, otherwise_draw, bits, u,
                          s, seat, hands, hand, non_wild, nxt, small, n, d, c0, c1, c2, c3)
    if ph == PH_PILEUP:
        return pick, -1, 0, -1
    if ph == PH_TURN:
        card = pick
        if (has_bluff and cfg[C_WD4_CHALLENGE] and hands[s, seat, WILD_DRAW_FOUR] > 0
                and not wd4_legal(s, seat, hands, slot, cfg)
                and cond_ok(cfg, o + P_BLUFF, hand, non_wild, nxt, small, n, int64(0), d)):
            card = WILD_DRAW_FOUR
        play = True
    else:
        card = drawn
        if how == DRAWN_LEGAL:
            play = playable(s, seat, card, hands, slot, cfg) == 1
        elif how == DRAWN_NEVER:
            play = False
        else:
            play = pick >= 0
        if (has_bluff and card == WILD_DRAW_FOUR and playable(s, seat, card, hands, slot, cfg) == 2
                and cond_ok(cfg, o + P_BLUFF, hand, non_wild, nxt, small, n, int64(0), d)):
            play = True
    colour = rules_colour(o, s, seat, keys, hands, piles, slot, seat_ctr, cfg) if play and needs_colour(card) else -1
    pair = rules_link(o, s, seat, keys, hsize, slot, seat_ctr, cfg) if play and card == WILD_DRAWN_TOGETHER else -1
    if ph == PH_TURN:
        return card, colour, 0, pair
    return -1, colour, 1 if play else 0, pair


@rule
def rules_stack(o, pref, u, s, hands, hsize, slot, cfg):
    """``RuleStrategy.stack`` (H-1): the card the play rules of the program at ``cfg[o:]`` pick among
    the types of ``pref``; where a draw rule fires (or none does), the best of them by the ``[play]``
    preference. The variables are computed as ``rules_decision`` computes them. Inlined at its one
    call site (``policy.pick_stack``)."""
    n = cfg[C_PLAYERS]
    seat = slot[s, F_ACTOR]  # the victim, read as rules_decision reads its seat
    d = slot[s, F_DIR]
    hand = hsize[s, seat]
    c0, c1, c2, c3 = colour_totals(hands, s, seat)
    non_wild = c0 + c1 + c2 + c3
    nxt, small = opponents(s, seat, hsize, slot, cfg, int64(NEEDS_NEXT | NEEDS_SMALLEST))
    prefer = cfg[o + P_PLAY_PREFER]
    index = cfg[o + P_PLAY_INDEX]
    card = rules_pick(cfg, o + index if index else int64(0), o + P_RULES, cfg[o + P_N_PLAY], prefer, int64(0), pref, u,
                      s, seat, hands, hand, non_wild, nxt, small, n, d, c0, c1, c2, c3)
    if card < 0:  # a draw rule fired: the best by preference (what rules_pick picks with no rule to try)
        card = best_of(pref, prefer, u, s, seat, hands, c0, c1, c2, c3)
    return card


@kernel
def rules_vote(o, s, seat, keys, hsize, seat_ctr, cfg, alive):
    """``RuleStrategy.point_at``: the seat to point at among the other seats still in the match."""
    return point_at(cfg[o + P_POINT], s, seat, keys, hsize, seat_ctr, cfg[C_PLAYERS], alive)


@kernel
def rules_jump(o, s, seat, hands, hsize, slot, cfg):
    """``RuleStrategy.jump_in``: the reaction weight when the jump-in conditions hold, else 0."""
    needs = cfg[o + P_JUMP_NEEDS]
    c0 = 0
    c1 = 0
    c2 = 0
    c3 = 0
    if needs & NEEDS_COUNTS:
        c0, c1, c2, c3 = colour_totals(hands, s, seat)
    nxt, small = opponents(s, seat, hsize, slot, cfg, needs)
    if cond_ok(cfg, o + P_JUMP, hsize[s, seat], c0 + c1 + c2 + c3, nxt, small, cfg[C_PLAYERS], int64(0), slot[s, F_DIR]):
        return cfg[o + P_JUMP_W] / JUMP_SCALE
    return 0.0
