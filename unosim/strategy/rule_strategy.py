"""The plain-Python interpreter of rule programs: [`RuleStrategy`][unosim.strategy.RuleStrategy], the reference.

Every decision evaluates the program of `unosim.strategy.rule_language` over the
whole batch with NumPy. Each decision draws the same uniforms from
``obs.random()`` as the base class's default it generalises (one per play,
mini-pile addition, colour, Point Taken; two per link), so a program that
restates a built-in strategy plays exactly its games.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..game.cards import CARD_COLOUR, CARD_FACE, CARD_POINTS, N_COLOURED, WILD_DRAW_FOUR
from .base import Strategy, stack_preferred
from .observation import Observation
from .parameters import Constraint
from .primitives import argmax_ties, colour_counts, next_seats
from .rule_language import MAX_COUNT, NUMERIC, VAR_OPPONENT, VARIABLES, Conditions, Rule, RuleProgram, load_program, shipped_rule_files

__all__ = ["RuleStrategy", "choose_by_rules", "conditions_hold", "variables"]

_COLOUR = CARD_COLOUR.astype(np.int64)
_FACE = CARD_FACE.astype(np.int64)
_POINTS = CARD_POINTS.astype(np.int64)
_COLOURED = CARD_COLOUR >= 0
for _table in (_COLOUR, _FACE, _POINTS, _COLOURED):
    _table.flags.writeable = False  # shared by every rule strategy of the process: never changed
del _table
SCORE_BASE = 1024
"""Each tie-break criterion's score lies in ``0 .. SCORE_BASE - 1``; criteria combine lexicographically."""

_WHAT = {
    "hand": "holds {v} card{s}",
    "non_wild": "holds {v} non-wild card{s}",
    "next_hand": "next player holds {v} card{s}",
    "smallest_opponent": "an opponent holds only {v} card{s}",
    "players": "{v} players",
    "opponent_hand": "its player holds {v} card{s}",
}
assert set(_WHAT) == set(NUMERIC)


def variables(obs: Observation) -> NDArray[np.int64]:
    """``[n, len(VARIABLES)]`` the value of every numeric condition variable in each row."""
    n = len(obs)
    rows = np.arange(n)
    out = np.zeros((n, len(VARIABLES)), np.int64)
    out[:, 0] = obs.hand_size
    out[:, 1] = obs.hand[:, :N_COLOURED].sum(axis=1, dtype=np.int64)
    out[:, 2] = obs.hand_sizes[rows, next_seats(obs.seat, obs.direction, obs.alive)]
    others = obs.alive.copy()
    others[rows, obs.seat] = False
    out[:, 3] = np.where(others, obs.hand_sizes, MAX_COUNT).min(axis=1)
    out[:, 4] = obs.players
    if obs.phase == "challenge":
        out[:, VAR_OPPONENT] = obs.hand_sizes[rows, obs.target]
    return out


def conditions_hold(cond: Conditions, values: NDArray[np.int64], direction: NDArray[np.integer]) -> NDArray[np.bool_]:
    """Rows where the table conditions of ``cond`` hold (the card's colour is checked per card)."""
    ok = np.ones(values.shape[0], bool)
    for v in cond.active():
        ok &= (values[:, v] >= cond.low[v]) & (values[:, v] <= cond.high[v])
    if cond.direction:
        ok &= direction == cond.direction
    return ok


def colour_held_most(hand: NDArray) -> NDArray[np.bool_]:
    """``[n, N_TYPES]`` the card's colour is one held most (wilds: never)."""
    counts = colour_counts(hand)
    most = counts == counts.max(axis=1, keepdims=True)
    return _COLOURED[None, :] & most[:, np.maximum(_COLOUR, 0)]


def criterion_scores(criterion: str, hand: NDArray) -> NDArray[np.int64]:
    """``[n, N_TYPES]`` one tie-break criterion's score (higher is preferred), ``0 .. SCORE_BASE - 1``."""
    n = hand.shape[0]
    if criterion == "points":
        return np.broadcast_to(_POINTS, (n, _POINTS.size))
    coloured = hand[:, :N_COLOURED].astype(np.int64)
    if criterion == "colour":  # cards of the card's colour held; wilds 0 (below any coloured card held)
        counts = np.minimum(colour_counts(hand).astype(np.int64), SCORE_BASE - 1)
        return np.where(_COLOURED[None, :], counts[:, np.maximum(_COLOUR, 0)], 0)
    # variety: colours and faces still covered after playing the card (2 - those it uncovers); wilds uncover none
    per_colour = coloured.reshape(n, 4, 14).sum(axis=2)
    per_face = coloured.reshape(n, 4, 14).sum(axis=1)
    c, f = _COLOUR[:N_COLOURED], _FACE[:N_COLOURED]
    last = coloured == 1
    lost = (last & (per_colour[:, c] == 1)).astype(np.int64) + (last & (per_face[:, f] == 1))
    return np.concatenate([2 - lost, np.full((n, hand.shape[1] - N_COLOURED), 2, np.int64)], axis=1)


def preference_scores(prefer: tuple[str, ...], hand: NDArray) -> NDArray[np.int64]:
    """``[n, N_TYPES]`` the criteria of ``prefer`` combined lexicographically (first criterion first)."""
    score = np.zeros(hand.shape, np.int64)
    for criterion in prefer:
        score = score * SCORE_BASE + criterion_scores(criterion, hand)
    return score


def pick_best(hand: NDArray, cand: NDArray[np.bool_], score: NDArray[np.int64], u: NDArray[np.float64]) -> NDArray[np.int64]:
    """Among candidate types held, one of highest score, ties in proportion to copies (type order), -1 if none.

    The same choice as `unosim.strategy.primitives.sample_best` for the same uniform.
    """
    cand = cand & (hand > 0)
    masked = np.where(cand, score, np.iinfo(np.int64).min)
    best = masked.max(axis=1, keepdims=True)
    weights = np.where(cand & (masked == best), hand, 0).astype(np.int64)
    total = weights.sum(axis=1)
    x = (u * total).astype(np.int64)
    pick = (np.cumsum(weights, axis=1) > x[:, None]).argmax(axis=1)
    return np.where(total > 0, pick, -1)


def choose_by_rules(
    obs: Observation, rules: tuple[Rule, ...], prefer: tuple[str, ...], otherwise_draw: bool,
    legal: NDArray[np.bool_], u: NDArray[np.float64], may_draw: NDArray[np.bool_] | None = None,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The card each row's first firing rule picks (-1: draw, or take the mini pile) and the rule's index.

    A rule fires when its conditions hold and (a draw or take rule) drawing or
    taking is allowed in the row (``may_draw``; None: in every row), or (a
    card rule) a held card in ``legal`` matches it. Rows where none fires play
    by ``prefer`` among every legal card (index ``len(rules)``; or draw when
    ``otherwise_draw``).
    """
    n = len(obs)
    values = variables(obs)
    held = legal & (obs.hand > 0)
    undecided = np.ones(n, bool)
    fired = np.full(n, len(rules), np.int64)
    cand = np.zeros(held.shape, bool)
    most = colour_held_most(obs.hand) if any(r.conditions.colour_most >= 0 for r in rules) else None
    for rule in rules:
        ok = undecided & conditions_hold(rule.conditions, values, obs.direction)
        if rule.draw and may_draw is not None:
            ok &= may_draw
        if not rule.draw:
            mine = held & rule.cards[None, :]
            if rule.conditions.colour_most >= 0:
                assert most is not None  # computed above whenever a rule reads it
                mine &= most if rule.conditions.colour_most else ~most
            ok &= mine.any(axis=1)
            cand[ok] = mine[ok]
        fired[ok] = rule.index
        undecided &= ~ok
    if not otherwise_draw:
        cand[undecided] = held[undecided]
    preferences = {r.prefer for r in rules if not r.draw} | {prefer}
    score = np.zeros(held.shape, np.int64)
    for pref in preferences:
        uses = np.array([(rules[i].prefer if i < len(rules) else prefer) == pref for i in range(len(rules) + 1)])[fired]
        if uses.any():
            score[uses] = preference_scores(pref, obs.hand[uses])
    return pick_best(obs.hand, cand, score, u), fired


def reasons(cond: Conditions, values: NDArray[np.int64]) -> list[str]:
    """The conditions of ``cond`` in words, with the values that made them hold."""
    parts = []
    for v in cond.active():
        value = int(values[v])
        parts.append(_WHAT[VARIABLES[v]].format(v=value, s="" if value == 1 else "s"))
    if cond.direction:
        parts.append("play goes " + ("clockwise" if cond.direction > 0 else "counter-clockwise"))
    if cond.colour_most >= 0:
        parts.append("its colour is held most" if cond.colour_most else "its colour is not the one held most")
    return parts


def explain(rule: Rule, values: NDArray[np.int64]) -> str:
    """Why ``rule`` fired: its number, its label and its conditions with the values seen."""
    parts = reasons(rule.conditions, values)
    head = f"rule {rule.index + 1} ({rule.label})"
    return f"{head}: {', '.join(parts)}" if parts else head


class RuleFile(Constraint):
    """A rule file's path, or the name of a shipped one, that reads and checks."""

    def allows(self, value: Any) -> bool:
        if not isinstance(value, str):
            return False
        try:
            load_program(value)
        except ValueError:
            return False
        return True

    def describe(self) -> str:
        return f"the path of a rule file (docs/rule_bots.md) or a shipped name ({', '.join(shipped_rule_files())})"


class RuleStrategy(Strategy):
    """A strategy written as a priority-rule file (``docs/rule_bots.md``), interpreted in Python.

    Idea: write a strategy as an ordered list of rules with conditions, no
    Python needed. This class is the reference interpretation; the engine
    plays the same programs with a compiled interpreter
    (``unosim/game/kernels/rule_policy.py``), giving identical games.

    Decisions
    ---------
    play
        The first ``[[play.rule]]`` whose conditions hold and that names a legal
        card held (or draws, ``card = "draw"``); the card by the rule's
        preference, then at random by copies. A held Wild Draw Four is played
        as a bluff first when the ``[bluff]`` conditions hold.
    add_to_pile
        The first ``[[pile.rule]]`` whose conditions hold and that names a card
        that may be added (or takes the pile, ``card = "take"``, when taking is
        allowed: `may_take`); else the best
        card to add by preference; the pile is taken when nothing may be added.
    stack
        Always stacks when it can (H-1): the card the play rules pick among the stacking cards, the
        Draw Twos when one may be stacked (the Wild Draw Four is kept).
    swap_with
        The base default (H-2): the other player with fewest cards.
    play_drawn, choose_colour, challenge, point_at, choose_link, jump_in, forget_uno, catch_uno
        ``[drawn]``, ``[colour]``, ``[challenge]``, ``[point_taken]``, ``[link]``,
        ``[jump_in]``, ``[uno]`` of the file; the base defaults where the file
        says nothing.

    Parameters
    ----------
    path : str
        The rule file, or the name of a shipped one (``strategies/rules/NAME.toml``; default
        ``greedy``, the file of defaults). The file is read and checked when the strategy is built.

    Notes
    -----
    Set `explanations` to a list to have every ``play`` and ``add_to_pile``
    decision append ``(game, seat, phase, card, why)`` (``phase``: ``"turn"`` or
    ``"pileup"``; card -1: draws, or takes the mini pile); the narrated replay does.
    """

    name = "rules"
    compiled = "rules"

    def compiled_covers(self) -> bool:
        """The compiled interpreter runs the program of any file; it never forgets UNO."""
        return self.forget_uno_rate == 0
    parameter_constraints = {"path": RuleFile()}

    def __init__(self, *, path: str = "greedy") -> None:
        self.path = path
        self.program: RuleProgram = load_program(path)
        super().__init__(forget_uno_rate=self.program.forget_uno_rate, catch_uno_rate=self.program.catch_uno_rate)
        self.explanations: list[tuple[int, int, str, int, str]] | None = None

    @property
    def label(self) -> str:
        return f"rules:{self.path}"

    def describe(self) -> dict[str, Any]:
        """Name, class, parameters and the rule file's text (written into run metadata).

        The text makes a dataset say which rules produced it, and a run that
        resumes into a dataset made from an edited file is refused.
        """
        return {**super().describe(), "file_text": self.program.text}

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "explanations": None}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuleStrategy) and type(other) is type(self) and other.path == self.path and other.program == self.program

    __hash__ = None  # type: ignore[assignment]

    @property
    def plays_legal_drawn_card(self) -> bool:
        """True when the drawn card is played whenever legal and never as a bluff."""
        return self.program.drawn == "legal" and self.program.bluff is None

    # ------------------------------------------------------------ decisions
    def _bluffs(self, obs: Observation) -> NDArray[np.bool_]:
        """Rows where a held Wild Draw Four is played as a bluff (``[bluff]``)."""
        p = self.program
        if p.bluff is None or not obs.bluffable.any():
            return np.zeros(len(obs), bool)
        return obs.bluffable & conditions_hold(p.bluff, variables(obs), obs.direction)

    def play(self, obs: Observation) -> NDArray[np.integer]:
        p = self.program
        u = obs.random()
        cards, fired = choose_by_rules(obs, p.play, p.play_prefer, p.otherwise_draw, obs.legal, u)
        bluff = self._bluffs(obs)
        cards = np.where(bluff, WILD_DRAW_FOUR, cards)
        if self.explanations is not None:
            values = variables(obs)
            for r in range(len(obs)):
                if bluff[r]:
                    why = ", ".join(["bluff", *reasons(p.bluff, values[r])])  # type: ignore[arg-type]
                elif fired[r] < len(p.play):
                    why = explain(p.play[fired[r]], values[r])
                elif cards[r] >= 0:
                    why = "no rule matched: the best legal card by preference"
                else:
                    why = "no rule matched: draws (otherwise = \"draw\")" if p.otherwise_draw else "nothing playable"
                self.explanations.append((int(obs.game[r]), int(obs.seat[r]), "turn", int(cards[r]), why))
        return cards

    def play_drawn(self, obs: Observation) -> NDArray[np.bool_]:
        p = self.program
        rows = np.arange(len(obs))
        if p.drawn == "legal":
            play = obs.legal[rows, obs.drawn].copy()
        elif p.drawn == "never":
            play = np.zeros(len(obs), bool)
        else:
            legal = np.zeros(obs.legal.shape, bool)
            legal[rows, obs.drawn] = obs.legal[rows, obs.drawn]
            cards, _ = choose_by_rules(obs, p.play, p.play_prefer, p.otherwise_draw, legal, obs.random())
            play = cards >= 0
        return play | self._bluffs(obs)

    def choose_colour(self, obs: Observation, cards: NDArray[np.integer]) -> NDArray[np.integer]:
        how = self.program.colour
        if how == "random":
            return (obs.random() * 4).astype(np.int8)
        if how == "most_played":
            return argmax_ties(colour_counts(obs.discard), obs.random())
        counts = colour_counts(obs.hand)
        if how == "most":
            return argmax_ties(counts, obs.random())
        held = counts > 0
        held[~held.any(axis=1)] = True
        return argmax_ties(-counts.astype(np.float64), obs.random(), held)

    def challenge(self, obs: Observation) -> NDArray[np.bool_]:
        if self.program.challenge is None:
            return np.zeros(len(obs), bool)
        return conditions_hold(self.program.challenge, variables(obs), obs.direction)

    def _seat_values(self, obs: Observation, how: str) -> NDArray[np.float64]:
        sizes = obs.hand_sizes.astype(np.float64)
        return -sizes if how == "fewest" else sizes if how == "most" else np.zeros(sizes.shape)

    def point_at(self, obs: Observation) -> NDArray[np.integer]:
        others = obs.alive.copy()
        others[np.arange(len(obs)), obs.seat] = False
        return argmax_ties(self._seat_values(obs, self.program.point_taken), obs.random(), others)

    def choose_link(self, obs: Observation) -> NDArray[np.integer]:
        how = self.program.link
        if how == "fewest":
            return super().choose_link(obs)
        n = len(obs)
        values = self._seat_values(obs, how)
        allowed = obs.link_choices.copy()
        if how == "most":  # the two others with most cards (itself too when fewer than two others may be linked)
            others = allowed.copy()
            others[np.arange(n), obs.seat] = False
            few = others.sum(axis=1) < 2
            others[few] = allowed[few]
            allowed = others
        first = argmax_ties(values, obs.random(), allowed)
        allowed[np.arange(n), first] = False
        second = argmax_ties(values, obs.random(), allowed)
        return np.stack([first, second], axis=1)

    def add_to_pile(self, obs: Observation) -> NDArray[np.integer]:
        p = self.program
        cards, fired = choose_by_rules(obs, p.pile, p.pile_prefer, False, obs.legal, obs.random(), obs.may_take)
        if self.explanations is not None:
            values = variables(obs)
            for r in range(len(obs)):
                if fired[r] < len(p.pile):
                    why = explain(p.pile[fired[r]], values[r])
                elif cards[r] >= 0:
                    why = "no rule matched: the best card to add by preference"
                else:
                    why = "no rule matched: nothing may be added"
                self.explanations.append((int(obs.game[r]), int(obs.seat[r]), "pileup", int(cards[r]), why))
        return cards

    def stack(self, obs: Observation, options: NDArray[np.bool_]) -> NDArray[np.integer]:
        """H-1: the card the play rules pick among the stacking cards (the Draw Twos when one may be
        stacked); always stacks: where a draw rule fires, the best of them by the ``[play]`` preference."""
        p = self.program
        mask = stack_preferred(options)
        u = obs.random()
        cards, _ = choose_by_rules(obs, p.play, p.play_prefer, False, mask, u)
        fallback = pick_best(obs.hand, mask, preference_scores(p.play_prefer, obs.hand), u)
        return np.where(cards >= 0, cards, fallback)

    def jump_in(self, obs: Observation) -> NDArray[np.floating]:
        p = self.program
        ok = conditions_hold(p.jump_conditions, variables(obs), obs.direction)
        return np.where(ok, p.jump_weight, 0.0)
