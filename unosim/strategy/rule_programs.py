"""Rule programs as int32 words for the compiled interpreter (`unosim.game.kernels.rule_policy`)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..game import N_TYPES
from ..game.cards import N_COLOURED
from ..game.kernels import rule_policy as K
from ..game.kernels import tally
from .rule_language import CRITERIA, VAR_NEXT, VAR_NON_WILD, VAR_SMALLEST, VARIABLES, Conditions, Rule, RuleProgram

__all__ = ["encode_program"]

assert len(VARIABLES) == K.N_VARS

_DRAWN = {"legal": K.DRAWN_LEGAL, "never": K.DRAWN_NEVER, "rules": K.DRAWN_RULES}
_COLOUR = {"most": K.COLOUR_MOST, "least": K.COLOUR_LEAST, "random": K.COLOUR_RANDOM, "most_played": K.COLOUR_PLAYED}
_SEATS = {"fewest": tally.SEAT_FEWEST, "most": tally.SEAT_MOST, "random": tally.SEAT_RANDOM}


def _prefer(prefer: tuple[str, ...]) -> int:
    code = 0
    for i, criterion in enumerate(prefer):
        code |= (CRITERIA.index(criterion) + 1) << (2 * i)
    return code


def _conditions(cond: Conditions | None) -> list[int]:
    cond = cond or Conditions()
    is_open = not cond.active() and cond.direction == 0
    return [*cond.low, *cond.high, cond.direction, cond.colour_most, int(is_open)]


def _rule(rule: Rule, draw_word: int) -> list[int]:
    """A rule's words; ``draw_word`` is its ``R_DRAW`` word when it draws (play: ``RULE_DRAW``) or takes
    the mini pile (pile: ``RULE_TAKE``)."""
    bits = np.flatnonzero(rule.cards)
    lo = sum(1 << int(t) for t in bits if t < K.MASK_BITS)
    hi = sum(1 << int(t - K.MASK_BITS) for t in bits if t >= K.MASK_BITS)
    return [draw_word if rule.draw else 0, _prefer(rule.prefer), lo, hi, *_conditions(rule.conditions)]


def _words(rules: int) -> list[int]:
    """A set of rules (bit ``i`` for rule ``i``) as the two int32 words ``rule_set`` reads, low word first."""
    return [int(np.uint32(rules >> shift & 0xFFFFFFFF).view(np.int32)) for shift in (0, 32)]


def _index(rules: tuple[Rule, ...], pile: bool) -> list[int]:
    """The words of the index of a rule list (``X_*`` in `unosim.game.kernels.rule_policy`); none for a list
    of more than ``MAX_INDEXED`` rules. ``pile``: the mini-pile rules (a rule that draws takes the pile)."""
    if not rules or len(rules) > K.MAX_INDEXED:
        return []
    most, other = [0] * N_TYPES, [0] * N_TYPES
    draw = take = open_ = 0
    classes: dict[tuple[int, ...], int] = {}
    for i, rule in enumerate(rules):
        cond = _conditions(rule.conditions)
        if cond[K.B_OPEN]:
            open_ |= 1 << i
        else:
            key = (*cond[: K.B_DIR + 1],)
            classes[key] = classes.get(key, 0) | 1 << i
        if rule.draw:
            if pile:
                take |= 1 << i
            else:
                draw |= 1 << i
            continue
        colour_most = cond[K.B_MOST]
        for t in np.flatnonzero(rule.cards):
            if colour_most != 0 and t < N_COLOURED:  # where its colour is held most
                most[t] |= 1 << i
            if colour_most != 1:  # where it is not (a wild never is)
                other[t] |= 1 << i
    words = [w for t in range(N_TYPES) for w in (*_words(most[t]), *_words(other[t]))]
    words += _words(draw) + _words(take) + _words(open_) + [len(classes)]
    for key, members in classes.items():
        words += [*key, -1, 0, *_words(members)]  # any card colour, not open
    return words


def _needs(p: RuleProgram, jump: bool = False) -> int:
    """The ``NEEDS_*`` bits: which values the program's conditions and preferences read (``jump``: the
    jump-in conditions alone)."""
    rules = () if jump else (*p.play, *p.pile)
    tables = (p.jump_conditions,) if jump else (p.bluff, p.challenge, p.jump_conditions)
    conds = [r.conditions for r in rules] + [c for c in tables if c is not None]
    active = {v for c in conds for v in c.active()}
    prefers = set() if jump else {p.play_prefer, p.pile_prefer, *(r.prefer for r in rules)}
    counts = VAR_NON_WILD in active or any(c.colour_most >= 0 for c in conds)
    counts = counts or any(criterion in pref for pref in prefers for criterion in ("colour", "variety"))
    nxt, smallest = VAR_NEXT in active, VAR_SMALLEST in active
    return (K.NEEDS_COUNTS if counts else 0) | (K.NEEDS_NEXT if nxt else 0) | (K.NEEDS_SMALLEST if smallest else 0)


def encode_program(p: RuleProgram) -> NDArray[np.int32]:
    """The words of program ``p`` in the layout of `unosim.game.kernels.rule_policy`."""
    head = [0] * K.P_BLUFF
    head[K.P_N_PLAY], head[K.P_N_PILE] = len(p.play), len(p.pile)
    head[K.P_OTHERWISE_DRAW] = int(p.otherwise_draw)
    head[K.P_PLAY_PREFER], head[K.P_PILE_PREFER] = _prefer(p.play_prefer), _prefer(p.pile_prefer)
    head[K.P_DRAWN], head[K.P_COLOUR] = _DRAWN[p.drawn], _COLOUR[p.colour]
    head[K.P_POINT], head[K.P_LINK] = _SEATS[p.point_taken], _SEATS[p.link]
    head[K.P_JUMP_W] = round(p.jump_weight * K.JUMP_SCALE)
    head[K.P_HAS_BLUFF], head[K.P_HAS_CHALLENGE] = int(p.bluff is not None), int(p.challenge is not None)
    head[K.P_NEEDS], head[K.P_JUMP_NEEDS] = _needs(p), _needs(p, jump=True)
    words = head + _conditions(p.bluff) + _conditions(p.challenge) + _conditions(p.jump_conditions)
    for rule in p.play:
        words += _rule(rule, K.RULE_DRAW)
    for rule in p.pile:
        words += _rule(rule, K.RULE_TAKE)
    assert len(words) == K.P_RULES + K.RULE_WORDS * (len(p.play) + len(p.pile))
    for at, index in ((K.P_PLAY_INDEX, _index(p.play, False)), (K.P_PILE_INDEX, _index(p.pile, True))):
        if index:
            words[at] = len(words)
            words += index
    return np.asarray(words, np.int32)
