"""A PettingZoo parallel environment: at each step every seat the engine waits for acts at once.

UNO is turn-based, with out-of-turn decisions: a Wild Draw Four's challenge, a forgotten UNO's
catches (every other seat), a Point Taken's votes (every seat still in the match), a mini
pile's adds, the jump-ins of every seat holding the identical card. The engine asks such
decisions of several seats together and applies the answers together; this environment hands
them to the agents in one [`step`][unosim.env.UnoParallelEnv.step]. A seat with follow-ups (the colour of a
wild, the pair of a Wild Drawn Together, the UNO call) answers them in the next steps, one per
step, while the seats that have answered wait.

Every live agent is in every step's observations. An agent not asked anything this step is
asked the ``wait`` decision: its mask holds only `WAIT` (as in
[`UnoVectorEnv`][unosim.env.UnoVectorEnv]), and its action may be ``WAIT``, ``None`` or left
out of the actions dict. An agent that is asked must answer: its action is checked against its
mask.

PettingZoo's ``aec_to_parallel`` cannot convert [`UnoAECEnv`][unosim.env.UnoAECEnv]: it steps
every agent once per cycle in agent order, and the AEC environment selects agents as the
engine asks them (the same agent again for a follow-up, most agents not at all on most turns),
so the wrapper stops on its first out-of-order agent. ``turn_based_aec_to_parallel`` would
run, but one agent per step: the decisions the engine asks together would be asked one by one.

Example
-------
>>> from unosim.env import UnoParallelEnv
>>> env = UnoParallelEnv("party", players=4)
>>> observations, infos = env.reset(seed=0)
>>> while env.agents:
...     actions = {agent: env.action_space(agent).sample(observations[agent]["action_mask"]) for agent in env.agents}
...     observations, rewards, terminations, truncations, infos = env.step(actions)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from pettingzoo import ParallelEnv

from . import encoding as E
from .base import AgentsEnv
from .seats import Step, as_action

__all__ = ["UnoParallelEnv"]

_StepReturn = tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]


class UnoParallelEnv(AgentsEnv, ParallelEnv[str, dict[str, Any], int | None]):
    """Every seat an agent, one round per episode; the seats the engine waits for act together.

    Parameters
    ----------
    rules, players, reward, rewards, penalty, overrides, trace
        As for [`UnoAECEnv`][unosim.env.UnoAECEnv].
    illegal : {"raise", "penalty"}
        An action outside an agent's mask raises [`IllegalAction`][unosim.env.IllegalAction]
        (default; no action of the step is applied), or ends the round: ``penalty`` to each
        offending agent, 0 to the others.
    """

    metadata = {"render_modes": [], "name": "unosim_uno_parallel_v0", "encoding_version": E.VERSION}
    def __init__(
        self, rules: Any = "classic", players: int = 4, *, reward: str = "win",
        rewards: tuple[float, float, float] = (1.0, 0.0, -1.0), illegal: str = "raise", penalty: float = -1.0,
        overrides: Any = None, trace: bool = False,
    ) -> None:
        n = self._seat_agents(rules, players, reward=reward, rewards=rewards, illegal=illegal, penalty=penalty,
                              overrides=overrides, trace=trace)
        self._wait = np.zeros(n, np.int8)
        self._wait[E.WAIT] = 1

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new round: ``seed`` selects the run key of the engine's streams (game 0 of it);
        without one, the next game of the current run. Returns the observations and infos."""
        self._seed_round(seed)
        self._deal()
        self.agents = list(self.possible_agents)
        return self._observe(), self._infos()

    def asked(self) -> dict[str, Step]:
        """The step each agent is asked now (its first waiting one); agents not in it wait."""
        out: dict[str, Step] = {}
        if self.game.over:
            return out
        for step in self.game.queue:
            agent = self.possible_agents[step.seat]
            out.setdefault(agent, step)
        return out

    def step(self, actions: dict[str, Any]) -> _StepReturn:
        """Answer the step asked of each agent; ``actions[agent]`` for the waiting agents may be
        ``WAIT``, ``None`` or missing. Returns observations, rewards, terminations, truncations and infos."""
        if not self.agents:
            raise self._finished()
        game = self.game
        n = game.spaces.n_actions
        asked = self.asked()
        answers: dict[str, int] = {}
        offenders: list[str] = []
        for agent in self.agents:  # check every action before applying any
            action = actions.get(agent)
            step = asked.get(agent)
            if step is None:
                if action is None or as_action(action, n) == E.WAIT:
                    continue
                mask, kind = self._wait, "wait"
            else:
                if action is None:
                    raise TypeError(f"{agent} is asked a decision ({step.kind!r}): give an action, not None.")
                mask, kind = step.mask, step.kind
            a = as_action(action, n)
            if a < 0 or not mask[a]:
                if self.illegal == "raise":
                    raise self._refusal(agent, action, a, kind, mask)
                offenders.append(agent)
            elif step is not None:
                answers[agent] = a
        if offenders:
            rewards = {agent: (self.penalty if agent in offenders else 0.0) for agent in self.agents}
            return self._end(rewards, {agent: {"illegal": agent in offenders} for agent in self.agents})
        for agent, a in answers.items():  # in seat order; a follow-up takes the place of the step it follows
            step = asked[agent]
            game.answer(a, next(i for i, s in enumerate(game.queue) if s is step))
            if game.over:
                break
        if game.over:
            out = game.outcome
            assert out is not None
            rewards = {agent: self._reward(self._seat[agent]) for agent in self.agents}
            return self._end(rewards, {agent: {"winner": out.winner, "no_winner": out.truncated} for agent in self.agents})
        false = dict.fromkeys(self.agents, False)
        return self._observe(), dict.fromkeys(self.agents, 0.0), false, dict(false), self._infos()

    # ------------------------------------------------------------ helpers
    def _end(self, rewards: dict[str, float], infos: dict[str, Any]) -> _StepReturn:
        observations = self._observe(final=True)
        agents, self.agents = self.agents, []
        return observations, rewards, dict.fromkeys(agents, True), dict.fromkeys(agents, False), infos

    def _observe(self, final: bool = False) -> dict[str, dict[str, NDArray[Any]]]:
        game = self.game
        asked = {} if final else self.asked()
        out: dict[str, dict[str, NDArray[Any]]] = {}
        for agent in self.agents:
            step = asked.get(agent)
            obs = game.observe(self._seat[agent], step, wait=not final)
            if step is None:
                mask = np.zeros_like(self._wait) if final else self._wait.copy()
            else:
                mask = step.mask.copy()
            out[agent] = {"observation": obs, "action_mask": mask}
        return out

    def _infos(self) -> dict[str, dict[str, Any]]:
        asked = self.asked()
        return {agent: {"decision": asked[agent].kind if agent in asked else "wait"} for agent in self.agents}
