"""A PettingZoo parallel environment: at each step every seat the engine waits for acts at once.

UNO is turn-based, with out-of-turn decisions: a Wild Draw Four's challenge, a forgotten UNO's
catches (every other seat), a Point Taken's votes (every seat still in the match), a mini
pile's adds, the jump-ins of every seat holding the identical card. The engine asks such
decisions of several seats together and applies the answers together; this environment hands
them to the agents in one :meth:`~UnoParallelEnv.step`. A seat with follow-ups (the colour of a
wild, the pair of a Wild Drawn Together, the UNO call) answers them in the next steps, one per
step, while the seats that have answered wait.

Every live agent is in every step's observations. An agent not asked anything this step is
asked the ``wait`` decision: its mask holds only :data:`~unosim.env.encoding.WAIT` (as in
:class:`~unosim.env.vector.UnoVectorEnv`), and its action may be ``WAIT``, ``None`` or left
out of the actions dict. An agent that is asked must answer: its action is checked against its
mask.

PettingZoo's ``aec_to_parallel`` cannot convert :class:`~unosim.env.multi.UnoAECEnv`: it steps
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
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import ParallelEnv

from ..game.errors import UnosimInputError
from . import encoding as E
from .seats import SeatedGame, Step, as_action
from .single import IllegalAction, game_spaces

__all__ = ["UnoParallelEnv"]

_StepReturn = tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]


class UnoParallelEnv(ParallelEnv[str, dict[str, Any], int | None]):
    """Every seat an agent, one round per episode; the seats the engine waits for act together.

    Parameters
    ----------
    rules : str or RuleSet
        ``classic``, ``party`` (or another preset) or a rule set.
    players : int
        Seats at the table, 2-16.
    reward : {"win", "points"}
        ``win``: ``rewards[0]`` to the winner, ``rewards[2]`` to every other seat, ``rewards[1]``
        to all when the round stops without a winner (max_turns). ``points``: each seat's match
        points of the round (E-3).
    rewards : tuple of float
        Win, no winner, loss.
    illegal : {"raise", "penalty"}
        An action outside an agent's mask raises :class:`~unosim.env.single.IllegalAction`
        (default; no action of the step is applied), or ends the round: ``penalty`` to each
        offending agent, 0 to the others.
    penalty : float
        The reward of an illegal action with ``illegal="penalty"``.
    overrides : list of str or dict, optional
        Rule overrides.
    trace : bool
        Keep the engine's event log (``env.game.played()`` after the round: for replay and the referee).
    """

    metadata = {"render_modes": [], "name": "unosim_uno_parallel_v0"}
    render_mode: str | None = None
    """No render modes."""

    def __init__(
        self, rules: Any = "classic", players: int = 4, *, reward: str = "win",
        rewards: tuple[float, float, float] = (1.0, 0.0, -1.0), illegal: str = "raise", penalty: float = -1.0,
        overrides: Any = None, trace: bool = False,
    ) -> None:
        if reward not in ("win", "points"):
            raise UnosimInputError(f"reward = {reward!r}; use 'win' or 'points'.")
        if illegal not in ("raise", "penalty"):
            raise UnosimInputError(f"illegal = {illegal!r}; use 'raise' or 'penalty'.")
        self.game = SeatedGame(rules, players, list(range(players)), [], overrides, trace=trace)
        self.reward_kind, self.illegal, self.penalty = reward, illegal, float(penalty)
        self.reward_values = tuple(map(float, rewards))
        """Win, no winner, loss (the ``rewards`` parameter)."""
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        obs_space, n = game_spaces(self.game)
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(n) for agent in self.possible_agents}
        self._wait = np.zeros(n, np.int8)
        self._wait[E.WAIT] = 1
        self._seed: int | None = None
        self._next = 0
        self.agents: list[str] = []

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

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new round: ``seed`` selects the run key of the engine's streams (game 0 of it);
        without one, the next game of the current run. Returns the observations and infos."""
        if seed is not None:
            self._seed, self._next = int(seed), 0
        elif self._seed is None:
            self._seed, self._next = int(np.random.SeedSequence().generate_state(1)[0]), 0
        while True:
            self.game.new_game(self._seed, self._next)
            self._next += 1
            if not self.game.over:
                break
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
            raise RuntimeError("the round is over: call reset() before step().")
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
                mask, kind, legal = self._wait, "wait", [f"{E.WAIT} (wait)"]
            else:
                if action is None:
                    raise TypeError(f"{agent} is asked a decision ({step.kind!r}): give an action, not None.")
                mask, kind, legal = step.mask, step.kind, step.legal_names(game.spaces)
            a = as_action(action, n)
            if a < 0 or not mask[a]:
                if self.illegal == "raise":
                    name = game.spaces.action_name(a) if a >= 0 else "not an action"
                    raise IllegalAction(f"{agent}: action {action!r} ({name}) is not legal at decision {kind!r}; "
                                        f"legal actions: {', '.join(legal)}.")
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

    def _reward(self, seat: int) -> float:
        out = self.game.outcome
        assert out is not None
        if self.reward_kind == "points":
            return float(out.points(seat))
        if out.truncated:
            return self.reward_values[1]
        return self.reward_values[0] if out.winner == seat else self.reward_values[2]

    def _observe(self, final: bool = False) -> dict[str, dict[str, NDArray[Any]]]:
        game = self.game
        asked = {} if final else self.asked()
        wait = game.spaces.blocks["kind"].start + E.KINDS["wait"]
        out: dict[str, dict[str, NDArray[Any]]] = {}
        for agent in self.agents:
            step = asked.get(agent)
            obs = game.observe(self._seat[agent], step)
            if step is None:
                mask = np.zeros_like(self._wait) if final else self._wait.copy()
                if not final:
                    obs[wait] = 1
            else:
                mask = step.mask.copy()
            out[agent] = {"observation": obs, "action_mask": mask}
        return out

    def _infos(self) -> dict[str, dict[str, Any]]:
        asked = self.asked()
        return {agent: {"decision": asked[agent].kind if agent in asked else "wait"} for agent in self.agents}
