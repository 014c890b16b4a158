"""A PettingZoo AEC environment: every seat an agent, one round per episode.

``agent_selection`` follows the engine's decisions, out-of-turn ones included: a Wild Draw
Four's challenge, a forgotten UNO's catches (every other seat), a Point Taken's votes (every
seat still in the match), a mini pile's adds, the jump-ins of every seat holding the
identical card. When the engine waits for several seats at once, they are asked in seat
order, and none sees another's answer (the engine applies them together once all are in).
Agents are ``player_0 .. player_{P-1}``, seat by seat; each observes the dict of
`unosim.env.single` (``observation`` and ``action_mask``; the mask is all zero for an
agent not being asked).

Example
-------
>>> from unosim.env import UnoAECEnv
>>> env = UnoAECEnv("party", players=4)
>>> env.reset(seed=0)
>>> for agent in env.agent_iter():
...     obs, reward, termination, truncation, info = env.last()
...     action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
...     env.step(action)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from pettingzoo import AECEnv

from . import encoding as E
from .base import AgentsEnv
from .seats import as_action

__all__ = ["UnoAECEnv"]


class UnoAECEnv(AgentsEnv, AECEnv[str, dict[str, Any], int | None]):
    """Every seat an agent, one round per episode.

    Parameters
    ----------
    rules, players, rewards, penalty, overrides
        As for [`UnoEnv`][unosim.env.UnoEnv].
    reward : {"win", "points"}
        ``win``: ``rewards[0]`` to the winner, ``rewards[2]`` to every other seat, ``rewards[1]``
        to all when the round stops without a winner (max_turns). ``points``: each seat's match
        points of the round (E-3).
    illegal : {"raise", "penalty"}
        An action outside the mask raises [`IllegalAction`][unosim.env.IllegalAction] (default), or
        ends the round: ``penalty`` to the offending agent, 0 to the others.
    trace : bool
        Keep the engine's event log (``env.game.played()`` after the round: for replay and the referee).
    """

    metadata = {"render_modes": [], "name": "unosim_uno_v0", "is_parallelizable": False, "encoding_version": E.VERSION}
    def __init__(
        self, rules: Any = "classic", players: int = 4, *, reward: str = "win",
        rewards: tuple[float, float, float] = (1.0, 0.0, -1.0), illegal: str = "raise", penalty: float = -1.0,
        overrides: Any = None, trace: bool = False,
    ) -> None:
        super().__init__()
        self._seat_agents(rules, players, reward=reward, rewards=rewards, illegal=illegal, penalty=penalty,
                          overrides=overrides, trace=trace)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new round: ``seed`` selects the run key of the engine's streams (game 0 of it);
        without one, the next game of the current run."""
        self._seed_round(seed)
        self._deal()
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        """``agent``'s view: its observation vector and the mask of the step it is asked (zeros if none)."""
        seat = self._seat[agent]
        game = self.game
        step = game.queue[0] if game.queue and not game.over and game.queue[0].seat == seat else None
        mask = step.mask.copy() if step is not None else np.zeros(game.spaces.n_actions, np.int8)
        return {"observation": game.observe(seat, step), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Answer the step asked of `agent_selection` with ``action`` (``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        if not self.agents:
            raise self._finished()
        game = self.game
        if action is None:
            raise TypeError(f"{agent} is asked a decision: give an action, not None.")
        a = as_action(action, game.spaces.n_actions)
        step = game.queue[0]
        self._cumulative_rewards[agent] = 0.0
        if a < 0 or not step.mask[a]:
            if self.illegal == "raise":
                raise self._refusal(agent, action, a, step.kind, step.mask)
            self.rewards = {other: (self.penalty if other == agent else 0.0) for other in self.agents}
            self._end(illegal=agent)
        else:
            game.answer(a)
            if game.over:
                self.rewards = {other: self._reward(self._seat[other]) for other in self.agents}
                self._end()
            else:
                self._clear_rewards()
                self._select()
        self._accumulate_rewards()

    def _end(self, illegal: str | None = None) -> None:
        out = self.game.outcome
        for agent in self.agents:
            self.terminations[agent] = True
            info: dict[str, Any] = {"winner": out.winner, "no_winner": out.truncated} if out is not None else {}
            if illegal is not None:
                info["illegal"] = agent == illegal
            self.infos[agent] = info

    def _select(self) -> None:
        step = self.game.queue[0]
        self.agent_selection = self.possible_agents[step.seat]
        for agent in self.agents:
            self.infos[agent] = {"decision": step.kind} if self._seat[agent] == step.seat else {}
