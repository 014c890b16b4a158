"""A Gymnasium environment: one learning seat against unosim strategies at the other seats.

Each episode is one round (one game) on the lockstep engine; the learning seat answers its
decision steps (`unosim.env.encoding`) one action at a time, the other seats are played by
their strategies (compiled ones inside the kernel, without returning to Python between the
learner's decisions; a step is one compiled call, `unosim.env.kernels.play`). The
observation is a dict: ``observation`` (the vector of `unosim.env.encoding`) and
``action_mask`` (the legal actions of the step asked); ``info`` holds the mask too, with the
decision kind.

Example
-------
>>> from unosim.env import UnoEnv
>>> env = UnoEnv("classic", players=4, opponents="greedy")
>>> obs, info = env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.step(env.action_space.sample(obs["action_mask"]))
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from ..game.kernels import layout as L
from ..game.kernels.rng import run_key
from . import encoding as E
from . import kernels as K
from .base import IllegalAction, SeatedEnv, check_seed, game_spaces
from .encoding import KIND_NAMES
from .seats import Outcome, SeatedGame, SeatLanes, as_action

__all__ = ["DecisionSpace", "IllegalAction", "UnoEnv", "game_spaces"]

_KIND_NAMES = (*KIND_NAMES, None)
"""The decision kinds' names by kind id; id -1 (no decision asked) is ``None``."""


class DecisionSpace(spaces.Discrete):
    """The ``Discrete`` action space of `unosim.env.encoding`; [`sample`][unosim.env.DecisionSpace.sample] without a mask
    draws among the legal actions of the decision now asked (`legal`), so that
    ``env.action_space.sample()`` is always a legal action."""

    def __init__(self, n: int, seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        self.legal: NDArray[np.int8] = np.ones(n, np.int8)
        """The mask [`sample`][unosim.env.DecisionSpace.sample] uses by default (set by the environment at every step)."""

    def sample(self, mask: NDArray[np.int8] | None = None, probability: Any = None) -> np.int64:
        """A random action: among ``mask`` (or ``probability``) when given, else among `legal`."""
        if mask is None and probability is None and self.legal.any():
            mask = self.legal
        return super().sample(mask=mask, probability=probability)


class UnoEnv(SeatedEnv, gym.Env[dict[str, Any], np.int64]):
    """One learning seat against unosim strategies, one round per episode.

    Parameters
    ----------
    rules : str or RuleSet
        ``classic``, ``party`` (or another preset) or a rule set.
    players : int
        Seats at the table, 2-16.
    opponents : str, Strategy or sequence of them
        The other seats' strategies: one for all, or one per other seat in seat order; a spec
        (``random``, ``greedy``, ``rules:PATH``, ``module:Class(k=v)``) or a strategy object.
    seat : int
        The learning seat.
    reward : {"win", "points"}
        ``win``: ``rewards[0]`` for a win, ``rewards[1]`` for a round stopped without a winner
        (max_turns), ``rewards[2]`` for a loss. ``points``: the round's match points (E-3): the
        winner scores the points left in the other hands, every other seat minus its own.
    rewards : tuple of float
        Win, no winner, loss (``reward="win"``).
    illegal : {"raise", "penalty"}
        An action outside the mask raises [`IllegalAction`][unosim.env.IllegalAction] (default), or ends the episode
        with reward ``penalty``.
    penalty : float
        The reward of an illegal action with ``illegal="penalty"``.
    overrides : list of str or dict, optional
        Rule overrides (``["max_turns=300"]``).
    """

    metadata = {"render_modes": [], "encoding_version": E.VERSION}
    action_space: DecisionSpace

    def __init__(
        self, rules: Any = "classic", players: int = 4, opponents: Any = "random", *, seat: int = 0, reward: str = "win",
        rewards: tuple[float, float, float] = (1.0, 0.0, -1.0), illegal: str = "raise", penalty: float = -1.0,
        overrides: Any = None,
    ) -> None:
        self._settle(rules, players, seat, opponents, reward=reward, rewards=rewards, illegal=illegal, penalty=penalty,
                     overrides=overrides)
        self.seat = self.game.controlled[0]
        self.lanes: SeatLanes | None = None
        self._laned: SeatedGame | None = None  # the game self.lanes steps
        self.observation_space, n = game_spaces(self.game)
        self.action_space = DecisionSpace(n)
        self._done = True
        self._n = n
        self._obs_size = self.game.spaces.obs_size
        self._mask = np.zeros(n, np.int8)
        self._keyed: int | None = None  # the seed whose run key the engine holds
        self._lanes()

    # ------------------------------------------------------------ the API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new round.

        ``seed`` selects the run key of the engine's counter-based streams and starts again at
        its game 0; without one, the next game of the current run is dealt (a first reset
        without a seed draws one from `np_random`).
        """
        seed = check_seed(seed)
        super().reset(seed=seed)
        self._seed_round(seed)
        if self._lanes() is None:  # a traced game: the engine's event log is kept by Python at every engine step
            return self._python_reset()
        assert self._seed is not None  # chosen by _seed_round
        while True:
            vec = self._deal_compiled(self._seed, self._next)
            self._next += 1
            if not self.game.over:
                break
        self._done = False
        return self._observe(vec)

    def step(self, action: Any) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        """Answer the decision step asked with ``action``."""
        if self._done:
            raise self._finished()
        a = action if type(action) is int and 0 <= action < self._n else as_action(action, self._n)
        lanes = self.lanes
        if lanes is None:
            return self._python_step(action, a)
        if a < 0 or not self._mask.item(a):
            if self.illegal == "penalty":
                self._done = True
                obs, info = self._observe(self._encode())
                info["illegal"] = True
                return obs, self.penalty, True, False, info
            raise self._refusal(f"seat {self.seat}", action, a, lanes.kind_name(0), self._mask)
        lanes.acts[0] = a
        vec = np.empty((1, self._obs_size), np.int16)
        lanes.call(K.M_STEP, vec)
        if lanes.counts.item(0):  # the learner is asked again: _observe, inlined (a third of the Python of a step)
            mask = self._mask.copy()
            self.action_space.legal = mask.copy()
            info = {"action_mask": mask.copy(), "decision": _KIND_NAMES[lanes.st.item(0, K.ST_KIND)]}
            return {"observation": vec[0], "action_mask": mask}, 0.0, False, False, info
        self._over()
        obs, info = self._observe(vec)
        self._done = True
        return obs, self._reward(self.seat), True, False, info

    def _fresh_seed(self) -> int:
        return int(self.np_random.integers(2**62))  # drawn from the generator reset() seeds

    # ------------------------------------------------------------ playing
    def _lanes(self) -> SeatLanes | None:
        """The compiled stepping of ``self.game`` (made again when the game was replaced); ``None``
        for a traced game, which is stepped through [`SeatedGame`][unosim.env.SeatedGame] in Python."""
        game = self.game
        if self._laned is not game:
            self._laned, self._keyed = game, None
            self.lanes = None if game.engine.trace else SeatLanes(
                game, wait=False, points=self.reward_kind == "points", rewards=self.reward_values)
            if self.lanes is not None:
                self._mask = self.lanes.mask[0]  # the mask asked (a view; the policy gets copies)
        return self.lanes

    def _python_reset(self) -> tuple[dict[str, Any], dict[str, Any]]:
        self._deal()
        self._done = False
        return self._python_observe()

    def _python_step(self, action: Any, a: int) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        game = self.game
        step = game.queue[0]
        if a < 0 or not step.mask[a]:
            if self.illegal == "penalty":
                self._done = True
                obs, info = self._python_observe()
                info["illegal"] = True
                return obs, self.penalty, True, False, info
            raise self._refusal(f"seat {self.seat}", action, a, step.kind, step.mask)
        game.answer(a)
        obs, info = self._python_observe()
        if not game.over:
            return obs, 0.0, False, False, info
        self._done = True
        return obs, self._reward(self.seat), True, False, info

    def _python_observe(self) -> tuple[dict[str, Any], dict[str, Any]]:
        game = self.game
        step = game.queue[0] if game.queue and not game.over else None
        mask = step.mask.copy() if step is not None else np.zeros(self._n, np.int8)
        self.action_space.legal = mask.copy()
        obs = {"observation": game.observe(self.seat, step), "action_mask": mask}
        info: dict[str, Any] = {"action_mask": mask.copy(), "decision": step.kind if step is not None else None}
        if game.over:
            out = game.outcome
            assert out is not None
            info.update(winner=out.winner, no_winner=out.truncated)
        return obs, info

    def _deal_compiled(self, seed: int, index: int) -> NDArray[np.int16]:
        """Deal game ``index`` of the run seeded ``seed`` (as [`SeatedGame.new_game`][unosim.env.SeatedGame.new_game]) and play to the
        learner's first step; its observation."""
        game = self.game
        if self._keyed != seed:
            game.engine.rkey = np.uint64(run_key(seed))
            self._keyed = seed
        game.game = index
        game.outcome = None
        lanes = self.lanes
        assert lanes is not None
        vec = np.empty((1, self._obs_size), np.int16)
        lanes.restart(index, int(game.engine.rkey), vec)
        if lanes.counts.item(0) == 0:
            self._over()
        return vec

    def _over(self) -> None:
        run = self.game.run
        assert run is not None
        rec, pts = run.rec[0], run.points[0]
        self.game.outcome = Outcome(int(rec[L.R_WINNER]), bool(rec[L.R_TRUNCATED]), pts.astype(np.int32))

    def _encode(self) -> NDArray[np.int16]:
        assert self.lanes is not None
        vec = np.empty((1, self._obs_size), np.int16)
        self.lanes.call(K.M_ENCODE, vec)
        return vec

    # ------------------------------------------------------------ helpers
    def _observe(self, vec: NDArray[np.int16]) -> tuple[dict[str, Any], dict[str, Any]]:
        lanes, out = self.lanes, self.game.outcome
        assert lanes is not None
        mask = self._mask.copy()
        self.action_space.legal = mask.copy()
        info: dict[str, Any] = {"action_mask": mask.copy(), "decision": None if out is not None else _KIND_NAMES[lanes.kind(0)]}
        if out is not None:
            info.update(winner=out.winner, no_winner=out.truncated)
        return {"observation": vec[0], "action_mask": mask}, info
