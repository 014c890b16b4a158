"""``person``: a seat played by a person, and that seat's decisions played back.

`PersonStrategy` answers every decision from its recorded ``answers``
in order; past their end it asks its `PersonStrategy.ask` callback (a
terminal, a browser) when one is attached, and records the answer, or else
plays the base strategy's defaults. The recorded answers are its only
parameter, so a game a person played is written as a run like any other: the
run's configuration replays it exactly (the bots draw from their own random
streams, which a person's answers do not touch).

``answers`` is a string of space-separated ``decision:value`` tokens, e.g.
``"play:12 colour:2 play:-1 drawn:0 jump_in:1 choose_link:3,5"`` (values: a card
type, -1 to draw or take, 0/1 for yes or no, a seat, two seats).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from unosim.game.errors import UnosimInputError
from unosim.strategy.base import Strategy
from unosim.strategy.observation import Observation

__all__ = ["DECISIONS", "PersonStrategy", "decode", "encode"]

DECISIONS = ("play", "play_drawn", "choose_colour", "challenge", "catch_uno", "point_at", "choose_link", "add_to_pile", "jump_in")
"""The decisions a person is asked."""

Ask = Callable[[str, Observation, int], Any]
"""``ask(decision, obs, row) -> value``: a person's answer for row ``row`` of ``obs``."""


def encode(answers: list[tuple[str, Any]]) -> str:
    """The ``answers`` parameter for a list of (decision, value) pairs."""
    out = []
    for decision, value in answers:
        text = ",".join(str(int(v)) for v in value) if isinstance(value, (tuple, list, np.ndarray)) else str(int(value))
        out.append(f"{decision}:{text}")
    return " ".join(out)


def decode(text: str) -> list[tuple[str, Any]]:
    """Inverse of `encode` (pairs of seats come back as tuples)."""
    pairs: list[tuple[str, Any]] = []
    for token in text.split():
        decision, _, value = token.partition(":")
        if decision not in DECISIONS:
            raise UnosimInputError(f"answer {token!r}: {decision!r} is not a decision; the decisions are {', '.join(DECISIONS)}.")
        parts = [int(v) for v in value.split(",")]
        pairs.append((decision, tuple(parts) if len(parts) > 1 else parts[0]))
    return pairs


class PersonStrategy(Strategy):
    """A person's seat: recorded answers first, then the attached callback, then the defaults.

    Parameters
    ----------
    answers : str
        The recorded decisions, in the order they were asked (format: module docstring).
    """

    name = "person"

    def __init__(self, *, answers: str = "") -> None:
        super().__init__()
        self.answers = answers
        self._queue = decode(answers)
        self._next = 0
        self.ask: Ask | None = None
        """The callback asked once the recorded answers are used up (not a parameter)."""
        self.recorded: list[tuple[str, Any]] = list(self._queue)
        """Every answer given so far: the recorded ones and those asked since."""

    def check_params(self) -> None:
        """Check that ``answers`` is a string of known decisions."""
        if not isinstance(self.answers, str):
            raise UnosimInputError(f"strategy 'person': answers={self.answers!r} is not allowed; give a string of decision:value tokens.")
        decode(self.answers)

    @property
    def never_challenges(self) -> bool:
        """A person is asked."""
        return False

    @property
    def plays_legal_drawn_card(self) -> bool:
        """A person is asked."""
        return False

    @property
    def forced_draw_uniforms(self) -> None:
        """A person is asked even with nothing to play (the answer is then to draw)."""
        return None

    @property
    def answered(self) -> int:
        """Number of answers given so far."""
        return self._next

    def _answer(self, decision: str, obs: Observation, default: Callable[[], NDArray[Any]], shape: tuple[int, ...] = ()) -> NDArray[Any]:
        n = len(obs)
        values: list[Any] = []
        fallback: NDArray[Any] | None = None
        for r in range(n):
            if self._next < len(self._queue):
                got, value = self._queue[self._next]
                if got != decision:
                    raise UnosimInputError(f"recorded answer {self._next} is for {got!r}, but the game asks {decision!r}: "
                                     "these answers are of another game.")
                self._next += 1
            elif self.ask is not None:
                value = self.ask(decision, obs, r)
                self._next += 1
                self.recorded.append((decision, value))
            else:
                if fallback is None:
                    fallback = default()
                value = fallback[r]
            values.append(value)
        dtype = np.float64 if decision == "jump_in" else (np.bool_ if decision in ("play_drawn", "challenge", "catch_uno") else np.int64)
        return np.array(values, dtype=dtype).reshape((n, *shape))

    def play(self, obs: Observation) -> NDArray[np.integer]:
        return self._answer("play", obs, lambda: super(PersonStrategy, self).play(obs))

    def play_drawn(self, obs: Observation) -> NDArray[np.bool_]:
        return self._answer("play_drawn", obs, lambda: super(PersonStrategy, self).play_drawn(obs))

    def choose_colour(self, obs: Observation, cards: NDArray[np.integer]) -> NDArray[np.integer]:
        return self._answer("choose_colour", obs, lambda: super(PersonStrategy, self).choose_colour(obs, cards))

    def challenge(self, obs: Observation) -> NDArray[np.bool_]:
        return self._answer("challenge", obs, lambda: super(PersonStrategy, self).challenge(obs))

    def catch_uno(self, obs: Observation) -> NDArray[np.bool_]:
        return self._answer("catch_uno", obs, lambda: super(PersonStrategy, self).catch_uno(obs))

    def point_at(self, obs: Observation) -> NDArray[np.integer]:
        return self._answer("point_at", obs, lambda: super(PersonStrategy, self).point_at(obs))

    def choose_link(self, obs: Observation) -> NDArray[np.integer]:
        return self._answer("choose_link", obs, lambda: super(PersonStrategy, self).choose_link(obs), (2,))

    def add_to_pile(self, obs: Observation) -> NDArray[np.integer]:
        return self._answer("add_to_pile", obs, lambda: super(PersonStrategy, self).add_to_pile(obs))

    def jump_in(self, obs: Observation) -> NDArray[np.floating]:
        return self._answer("jump_in", obs, lambda: super(PersonStrategy, self).jump_in(obs))

    def stack(self, obs: Observation, options: NDArray[np.bool_]) -> NDArray[np.integer]:
        return self._answer("stack", obs, lambda: super(PersonStrategy, self).stack(obs, options))  # type: ignore[arg-type, return-value]

    def swap_with(self, obs: Observation) -> NDArray[np.integer]:
        return self._answer("swap_with", obs, lambda: super(PersonStrategy, self).swap_with(obs))
