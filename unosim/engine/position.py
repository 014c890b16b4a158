"""Play from an exact position: scenario tests, what-if questions, rule checks.

>>> from unosim.engine.position import Position, play_from
>>> after = play_from(
...     Position(hands=[["red 5", "blue 7"], ["red skip"], ["green 2"]], top="red 3", turn=0,
...              draw=["yellow 1"] * 20),
...     rules="classic",
...     script=[("play", "red 5")],
... )
>>> after.turn, after.hands[0]
(1, {'blue 7': 1})

The position is put into a one-game batch of the real engine; the scripted
decisions are answered in order by `ScriptedStrategy` for whichever
seat is asked; the state after the last scripted decision has been applied is
returned as a `Snapshot`. Drawing takes a uniformly random card of the
draw pile's counts, so give a draw pile of one card kind where the exact card
drawn matters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..game.cards import CARD_COLOUR, CARD_NAMES, COLOUR_NAMES, N_TYPES
from ..game.errors import UnosimInputError
from ..game.kernels import layout as L
from ..game.rules import RuleSet
from ..strategy.base import Strategy
from ..strategy.observation import Observation
from .config import RunConfig

__all__ = ["Card", "card_id", "colour_id", "play_from", "Position", "ScriptedStrategy", "Snapshot"]

Card = str | int


def card_id(card: Card) -> int:
    """Card type of a name such as ``'red 7'``, ``'blue draw two'``, ``'wild draw four'`` (or an id)."""
    if isinstance(card, (int, np.integer)):
        return int(card)
    name = " ".join(card.lower().replace("_", " ").split())
    if name not in CARD_NAMES:
        raise UnosimInputError(f"unknown card {card!r}; cards are named like 'red 7', 'blue skip', 'wild draw four'.")
    return CARD_NAMES.index(name)


def colour_id(colour: str | int) -> int:
    """Colour index of ``'red'``, ``'yellow'``, ``'green'``, ``'blue'`` (or an index)."""
    return int(colour) if isinstance(colour, (int, np.integer)) else COLOUR_NAMES.index(colour)


def _counts(cards: Sequence[Card]) -> NDArray[np.int64]:
    out = np.zeros(N_TYPES, np.int64)
    for c in cards:
        out[card_id(c)] += 1
    return out


@dataclass
class Position:
    """A table at the start of ``turn``'s turn.

    ``hands`` lists each seat's cards; ``draw`` the draw pile; ``discard`` the
    discard pile below ``top``; ``colour`` defaults to the top card's colour.
    ``eliminated`` lists seats out of the match (E-4 elimination; their hands must be empty).
    """

    hands: Sequence[Sequence[Card]]
    top: Card
    turn: int = 0
    colour: str | int | None = None
    direction: int = 1
    dealer: int | None = None
    draw: Sequence[Card] = ()
    discard: Sequence[Card] = ()
    link: tuple[int, int] | None = None
    turns: int = 0
    eliminated: Sequence[int] = ()


@dataclass
class Snapshot:
    """The state after the script: who holds what, the table, the record if the game ended
    (``house``: the counters of the house rules, H-1..H-4, named as the record's columns)."""

    hands: list[dict[str, int]]
    hand_sizes: list[int]
    top: str
    colour: str | None
    direction: int
    turn: int
    phase: str
    actor: int
    draw: dict[str, int]
    discard: dict[str, int]
    link: tuple[int, int] | None
    turns: int
    cards_drawn: int
    winner: int | None
    finished: bool
    counters: dict[str, int] = field(default_factory=dict)
    party: dict[str, int] = field(default_factory=dict)
    mini_pile: dict[str, int] = field(default_factory=dict)
    house: dict[str, int] = field(default_factory=dict)
    events: NDArray[np.int32] | None = None


class ScriptedStrategy(Strategy):
    """Answers decisions from a script of ``(decision, value)`` steps, in order.

    Steps: ``("play", card)``, ``("draw",)``, ``("play_drawn", bool)``,
    ``("colour", colour)``, ``("challenge", bool)``, ``("forget_uno", bool)``,
    ``("catch_uno", [bool per other seat, in seat order])``,
    ``("point_at", [target per seat, in seat order])``, ``("link", (a, b))``,
    ``("add", card)``, ``("take",)`` (mini pile),
    ``("jump_in", [reaction weight per seat that may jump in, in seat order])``,
    ``("stack", card)`` or ``("stack", None)`` to take the pending penalty (H-1),
    ``("swap", seat)`` after a 7 (H-2).
    A decision the script does not expect raises ``AssertionError``.
    """

    name = "scripted"

    def __init__(self, *, script: Sequence[tuple[Any, ...]] = ()) -> None:
        super().__init__()
        self.script = list(script)

    def _next(self, kinds: tuple[str, ...], obs: Observation) -> tuple[Any, ...]:
        assert self.script, f"script exhausted; the engine asks for {kinds[0]!r} (phase {obs.phase!r})"
        step = self.script.pop(0)
        assert step[0] in kinds, f"script expected {step[0]!r}, the engine asks for {kinds[0]!r} (phase {obs.phase!r})"
        return step

    @property
    def never_forgets_uno(self) -> bool:
        return not any(step[0] == "forget_uno" for step in self.script)

    def play(self, obs: Observation) -> NDArray[np.integer]:
        step = self._next(("play", "draw"), obs)
        return np.array([-1 if step[0] == "draw" else card_id(step[1])])

    def play_drawn(self, obs: Observation) -> NDArray[np.bool_]:
        return np.array([bool(self._next(("play_drawn",), obs)[1])])

    def choose_colour(self, obs: Observation, cards: NDArray[np.integer]) -> NDArray[np.integer]:
        return np.array([colour_id(self._next(("colour",), obs)[1])])

    def challenge(self, obs: Observation) -> NDArray[np.bool_]:
        return np.array([bool(self._next(("challenge",), obs)[1])])

    def forget_uno(self, obs: Observation) -> NDArray[np.bool_]:
        return np.array([bool(self._next(("forget_uno",), obs)[1])])

    def catch_uno(self, obs: Observation) -> NDArray[np.bool_]:
        return np.asarray(self._next(("catch_uno",), obs)[1], bool)

    def point_at(self, obs: Observation) -> NDArray[np.integer]:
        return np.asarray(self._next(("point_at",), obs)[1], np.int64)

    def add_to_pile(self, obs: Observation) -> NDArray[np.integer]:
        step = self._next(("add", "take"), obs)
        return np.array([-1 if step[0] == "take" else card_id(step[1])])

    def choose_link(self, obs: Observation) -> NDArray[np.integer]:
        return np.asarray([self._next(("link",), obs)[1]], np.int64)

    def jump_in(self, obs: Observation) -> NDArray[np.floating]:
        return np.asarray(self._next(("jump_in",), obs)[1], np.float64)

    def stack(self, obs: Observation, options: NDArray[np.bool_]) -> NDArray[np.integer]:
        card = self._next(("stack",), obs)[1]
        return np.array([-1 if card is None else card_id(card)])

    def swap_with(self, obs: Observation) -> NDArray[np.integer]:
        return np.array([int(self._next(("swap",), obs)[1])])


def _named(counts: NDArray[np.integer]) -> dict[str, int]:
    return {CARD_NAMES[t]: int(counts[t]) for t in np.flatnonzero(counts)}


def play_from(
    position: Position,
    rules: str | RuleSet = "classic",
    script: Sequence[tuple[Any, ...]] = (),
    *,
    seed: int = 0,
    overrides: dict[str, Any] | None = None,
    seats: dict[int, Strategy] | None = None,
    compiled: bool = True,
) -> Snapshot:
    """Put ``position`` on the table, answer ``script``, return the resulting state.

    ``seats`` maps seats to strategies that decide for themselves (a rule strategy,
    say: on its compiled path unless ``compiled`` is False); the script answers
    for every other seat, and play stops once it is exhausted.
    """
    from .driver import Engine

    players = len(position.hands)
    ruleset = RuleSet.preset(rules) if isinstance(rules, str) else rules
    if overrides:
        ruleset = ruleset.replace(**overrides)
    config = RunConfig(rules=ruleset, players=players, strategies=RunConfig.build(players=players).strategies, seed=seed, games=1)
    engine = Engine(config, batch_size=1, trace=True, check=True, compiled=compiled)
    scripted = ScriptedStrategy(script=script)
    own = dict(sorted((seats or {}).items()))
    lineup = [list(own).index(p) + 1 if p in own else 0 for p in range(players)]
    engine.set_strategies([scripted, *own.values()], ["scripted", *(f"seat {p}" for p in own)], lineup)
    run = engine.start(0, 1)
    hands = np.stack([_counts(h) for h in position.hands])
    draw, discard, top = _counts(position.draw), _counts(position.discard), card_id(position.top)
    alive = (1 << players) - 1
    for p in position.eliminated:
        assert not position.hands[p], f"eliminated seat {p} holds cards"
        alive &= ~(1 << p)
    run.place(
        hands.astype(np.int8), draw.astype(np.int8), discard.astype(np.int8), top,
        CARD_COLOUR[top] if position.colour is None else colour_id(position.colour), position.direction,
        position.link or (-1, -1), alive, position.turns, position.turn,
        (position.turn - 1) % players if position.dealer is None else position.dealer,
    )
    rows = run.advance()
    while scripted.script and rows:
        run.decide()
        rows = run.advance()
    assert not scripted.script, f"the game ended or stopped before the script did; left: {scripted.script}"
    played = run.finish()
    s, held, sizes, piles = run.state()
    finished = s[L.F_PHASE] == L.PH_IDLE
    rec = played.rec[0]
    ph = int(s[L.F_PHASE])
    return Snapshot(
        hands=[_named(h) for h in held],
        hand_sizes=[int(x) for x in sizes],
        top=CARD_NAMES[int(s[L.F_TOP])],
        colour=COLOUR_NAMES[int(s[L.F_COLOUR])] if s[L.F_COLOUR] >= 0 else None,
        direction=int(s[L.F_DIR]),
        turn=int(s[L.F_TURN]),
        phase=L.PHASE_NAMES[ph],
        actor=int(s[L.F_TURN] if ph == L.PH_TURN else s[L.F_ACTOR]),
        draw=_named(piles[L.DRAW]),
        discard=_named(piles[L.DISC]),
        link=None if s[L.F_LINK_A] < 0 else (int(s[L.F_LINK_A]), int(s[L.F_LINK_B])),
        turns=int(rec[L.R_TURNS] if finished else s[L.F_TURNS]),
        cards_drawn=int(rec[L.R_DRAWN] if finished else s[L.F_DRAWN]),
        winner=(int(rec[L.R_WINNER]) if rec[L.R_WINNER] >= 0 else None) if finished else None,
        finished=bool(finished),
        counters={
            "challenges": int(rec[L.R_CHALLENGES] if finished else s[L.F_CHALLENGES]),
            "challenges_won": int(rec[L.R_CHALLENGES_WON] if finished else s[L.F_CHALLENGES_WON]),
            "uno_penalties": int(rec[L.R_UNO_PENALTIES] if finished else s[L.F_UNO_PENALTIES]),
            "truncated": int(rec[L.R_TRUNCATED] if finished else s[L.F_TRUNCATED]),
        },
        party={
            "point_taken_draws": int(rec[L.R_POINT_TAKEN_DRAWS] if finished else s[L.F_POINT_TAKEN_DRAWS]),
            "link_echo_draws": int(rec[L.R_LINK_ECHO_DRAWS] if finished else s[L.F_LINK_ECHO_DRAWS]),
            "pileups": int(rec[L.R_PILEUPS] if finished else s[L.F_PILEUPS]),
            "pileup_cards": int(rec[L.R_PILEUP_CARDS] if finished else s[L.F_PILEUP_CARDS]),
            "jump_ins": int(rec[L.R_JUMP_INS] if finished else s[L.F_JUMP_INS]),
            "wrong_jump_ins": int(rec[L.R_WRONG_JUMP_INS] if finished else s[L.F_WRONG_JUMP_INS]),
        },
        mini_pile=_named(piles[L.MINI]),
        house={
            name: int(rec[r] if finished else s[f])
            for name, r, f in (
                ("stacks", L.R_STACKS, L.F_STACKS), ("stack_max", L.R_STACK_MAX, L.F_STACK_MAX),
                ("stack_cards", L.R_STACK_CARDS, L.F_STACK_CARDS), ("seven_swaps", L.R_SEVEN_SWAPS, L.F_SEVEN_SWAPS),
                ("zero_passes", L.R_ZERO_PASSES, L.F_ZERO_PASSES), ("action_jump_ins", L.R_ACTION_JUMP_INS, L.F_ACTION_JUMP_INS),
                ("blocked_finishes", L.R_BLOCKED, L.F_BLOCKED),
            )
        },
        events=played.events,
    )
