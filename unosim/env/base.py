"""What every environment shares: its checked arguments, seeding, rewards, refused actions.

[`SeatedEnv`][unosim.env.SeatedEnv] is the base of the four environments ([`UnoEnv`][unosim.env.UnoEnv],
[`UnoVectorEnv`][unosim.env.UnoVectorEnv], [`UnoAECEnv`][unosim.env.UnoAECEnv],
[`UnoParallelEnv`][unosim.env.UnoParallelEnv]). It checks the arguments they share before any
work starts (each refusal names the value, what is allowed and what to change), builds the
[`SeatedGame`][unosim.env.SeatedGame] they step, chooses the run seed of each round, pays the
rewards and words the refusal of an illegal action and of a step after the end, once for all.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from ..game.errors import UnosimInputError
from ..game.rules import MAX_PLAYERS, MIN_PLAYERS, RuleSet
from .seats import Outcome, SeatedGame

__all__ = ["AgentsEnv", "IllegalAction", "SeatedEnv", "check_count", "check_seat", "check_seed", "game_spaces"]

REWARD_KINDS = ("win", "points")
ILLEGAL_KINDS = ("raise", "penalty")


class IllegalAction(ValueError):
    """An action outside the mask of the decision asked."""


def _whole(value: Any) -> bool:
    """A whole number: a Python or NumPy integer, never a bool (nor a float, a text)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def check_count(name: str, value: Any, low: int, high: int | None = None) -> int:
    """``value`` as an ``int`` from ``low`` to ``high`` (no bound: ``None``); refused otherwise."""
    if not _whole(value) or value < low or (high is not None and value > high):
        upto = f" to {high}" if high is not None else " or more"
        raise UnosimInputError(f"{name} = {value!r}; give a whole number from {low}{upto} (an int, not a text or a float).")
    return int(value)


def check_seat(seat: Any, players: int) -> int:
    """``seat`` as an ``int`` seat of a ``players``-seat table; refused otherwise."""
    if not _whole(seat) or not 0 <= seat < players:
        raise UnosimInputError(f"seat = {seat!r}; give a seat number from 0 to {players - 1} (an int) for {players} players.")
    return int(seat)


def check_seed(seed: Any) -> int | None:
    """``seed`` as an ``int`` (``None`` stays ``None``): a Python or NumPy integer of 0 or more, never a
    float (it would be truncated) or a text."""
    if seed is None:
        return None
    if not _whole(seed) or seed < 0:
        raise UnosimInputError(f"seed = {seed!r}; give a whole number of 0 or more (an int or a NumPy integer), or None.")
    return int(seed)


def _check_rules(rules: Any) -> None:
    if not isinstance(rules, (str, RuleSet)):
        raise TypeError(f"rules = {rules!r}; give a preset name ('classic', 'party', ...) or a RuleSet.")


def _check_rewards(reward: Any, rewards: Any, illegal: Any, penalty: Any) -> tuple[tuple[float, float, float], float]:
    if reward not in REWARD_KINDS:
        raise UnosimInputError(f"reward = {reward!r}; use 'win' or 'points'.")
    if illegal not in ILLEGAL_KINDS:
        raise UnosimInputError(f"illegal = {illegal!r}; use 'raise' or 'penalty'.")
    try:
        values = tuple(rewards)
    except TypeError:
        values = ()
    ok = len(values) == 3 and all(isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)) and math.isfinite(v)
                                  for v in values)
    if not ok:
        raise UnosimInputError(f"rewards = {rewards!r}; give three finite numbers: the reward of a win, of a round without a "
                         "winner and of a loss, e.g. (1.0, 0.0, -1.0).")
    if not isinstance(penalty, numbers.Real) or isinstance(penalty, (bool, np.bool_)) or not math.isfinite(penalty):
        raise UnosimInputError(f"penalty = {penalty!r}; give a finite number (the reward of an illegal action).")
    return (float(values[0]), float(values[1]), float(values[2])), float(penalty)


def game_spaces(game: SeatedGame) -> tuple[spaces.Dict, int]:
    """The observation space (``observation`` and ``action_mask``) of ``game``'s seats, and the number of actions."""
    sp = game.spaces
    obs = spaces.Dict({
        "observation": spaces.Box(np.zeros(sp.obs_size, np.int16), sp.high.copy(), dtype=np.int16),
        "action_mask": spaces.Box(0, 1, (sp.n_actions,), dtype=np.int8),
    })
    return obs, sp.n_actions


class SeatedEnv:
    """The base of the environments: checked arguments, the game, seeds, rewards and refusals.

    Attributes
    ----------
    game : SeatedGame
        The game stepped.
    reward_kind : str
        ``win`` or ``points``.
    reward_values : tuple of float
        Win, no winner, loss (the ``rewards`` parameter; PettingZoo's `rewards` is its per-step dict).
    illegal : str
        ``raise`` or ``penalty``.
    penalty : float
        The reward of an illegal action with ``illegal="penalty"``.
    """

    game: SeatedGame
    reward_kind: str
    reward_values: tuple[float, float, float]
    illegal: str
    penalty: float

    def _settle(
        self, rules: Any, players: Any, seats: Any, others: Any, *, reward: Any, rewards: Any, illegal: Any = "raise",
        penalty: Any = -1.0, overrides: Any = None, batch: int = 1, trace: bool = False,
    ) -> None:
        """Check the shared arguments and build [`game`][unosim.game] (``seats``: the controlled seats, or
        ``"all"``); everything is checked before any work starts."""
        _check_rules(rules)
        players = check_count("players", players, MIN_PLAYERS, MAX_PLAYERS)
        controlled = list(range(players)) if seats == "all" else [check_seat(seats, players)]
        self.reward_values, self.penalty = _check_rewards(reward, rewards, illegal, penalty)
        self.reward_kind, self.illegal = reward, illegal
        self.game = SeatedGame(rules, players, controlled, others, overrides, batch=batch, trace=trace)
        self._seed: int | None = None
        self._next = 0

    # ------------------------------------------------------------ rounds
    def _seed_round(self, seed: Any) -> None:
        """``seed`` selects the run key of the engine's streams and starts again at its game 0; without
        one, the next game of the current run (a first round without one draws a seed)."""
        seed = check_seed(seed)
        if seed is not None:
            self._seed, self._next = seed, 0
        elif self._seed is None:
            self._seed, self._next = self._fresh_seed(), 0

    def _fresh_seed(self) -> int:
        return int(np.random.SeedSequence().generate_state(1)[0])

    def _deal(self) -> None:
        """Deal the next game of the run that asks a controlled seat something (Python stepping)."""
        assert self._seed is not None
        while True:
            self.game.new_game(self._seed, self._next)
            self._next += 1
            if not self.game.over:
                return

    def _reward(self, seat: int, outcome: Outcome | None = None) -> float:
        """``seat``'s reward of the finished round."""
        out = outcome if outcome is not None else self.game.outcome
        assert out is not None
        if self.reward_kind == "points":
            return float(out.points(seat))
        if out.truncated:
            return self.reward_values[1]
        return self.reward_values[0] if out.winner == seat else self.reward_values[2]

    # ------------------------------------------------------------ refusals
    def _refusal(self, who: str, action: Any, a: int, kind: str | None, mask: NDArray[np.int8]) -> IllegalAction:
        """The error of ``action`` (``a``: its number, -1 when not an action) refused at decision ``kind``."""
        sp = self.game.spaces
        name = sp.action_name(a) if a >= 0 else "not an action"
        legal = [f"{b} ({sp.action_name(b)})" for b in np.flatnonzero(mask).tolist()]
        return IllegalAction(f"{who}: action {action!r} ({name}) is not legal at decision {kind or 'wait'!r}; "
                             f"legal actions: {', '.join(legal)}.")

    @staticmethod
    def _finished() -> RuntimeError:
        return RuntimeError("the round is over (or was never dealt): call reset() before step().")


class AgentsEnv(SeatedEnv):
    """The base of the PettingZoo environments ([`UnoAECEnv`][unosim.env.UnoAECEnv],
    [`UnoParallelEnv`][unosim.env.UnoParallelEnv]): every seat an agent, ``player_0 .. player_{P-1}``."""

    render_mode: str | None = None
    """No render modes."""

    def _seat_agents(self, rules: Any, players: Any, **kwargs: Any) -> int:
        """`_settle` with every seat controlled, then the agents and their spaces; the number of actions."""
        self._settle(rules, players, "all", [], **kwargs)
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        obs_space, n = game_spaces(self.game)
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(n) for agent in self.possible_agents}
        self.agents: list[str] = []
        return n

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for all)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent`` (the same for all)."""
        return self.action_spaces[agent]

    def render(self) -> None:
        """No rendering (no render modes)."""
        return None

    def close(self) -> None:
        """Nothing to release: the engine's state is plain arrays."""
        return None
