"""A Gymnasium vector environment: N games stepped in one lockstep batch of the engine.

Not N Python environments: one :class:`~unosim.engine.driver.Run` holds ``num_envs`` game
slots; one ``advance`` call runs every game to the learner's next decision (compiled opponents
decide inside the kernel), one decision call answers every waiting row. Game ``g`` of a run
seeded ``seed`` is the same game in any slot, at any batch size: the per-game seeds are the
engine's counter-based streams (run key of ``seed``, game index ``g``); the ``game`` info holds
each slot's game index.

Auto-reset (``AutoresetMode.SAME_STEP``): when a slot's round ends, the engine deals the next
game of the run into it in the same step; the step returns the round's reward with
``terminated`` set and the new round's first observation (the terminal observation is not kept:
a terminal step has no value to bootstrap from).

Follow-ups (the colour of a wild, a link pair, the UNO call) are separate decision steps, as in
the single environment; while some games of the batch answer a follow-up, the engine cannot
step, and every other game is asked the ``wait`` decision (its one legal action
:data:`~unosim.env.encoding.WAIT`, reward 0, the observation unchanged). The same holds for a
game whose Python opponents wait on the batch's decision call.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from ..game.kernels import layout as L
from ..game.kernels.rng import run_key
from . import encoding as E
from .seats import SeatedGame, Step
from .single import IllegalAction, game_spaces

__all__ = ["UnoVectorEnv"]


class UnoVectorEnv(VectorEnv[dict[str, Any], NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` rounds of one learning seat against unosim strategies, stepped in lockstep.

    Parameters
    ----------
    num_envs : int
        Games stepped together (the engine's batch size).
    rules, players, opponents, seat, reward, rewards, overrides
        As for :class:`~unosim.env.single.UnoEnv`.
    games : int, optional
        Play only games ``0 .. games - 1`` of the run: a slot whose last game has ended is asked
        only ``wait`` (``info["idle"]``). Default: games are dealt for ever.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self, num_envs: int, rules: Any = "classic", players: int = 4, opponents: Any = "random", *, seat: int = 0,
        reward: str = "win", rewards: tuple[float, float, float] = (1.0, 0.0, -1.0), overrides: Any = None,
        games: int | None = None,
    ) -> None:
        if reward not in ("win", "points"):
            raise ValueError(f"reward = {reward!r}; use 'win' or 'points'.")
        self.num_envs = num_envs
        self.games = games
        self.seat = seat
        self.reward_kind, self.reward_values = reward, tuple(map(float, rewards))
        self.game = SeatedGame(rules, players, [seat], opponents, overrides, batch=num_envs)
        self.single_observation_space, n = game_spaces(self.game)
        self.single_action_space = spaces.Discrete(n)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.queues: list[list[Step]] = [[] for _ in range(num_envs)]
        self._current = np.full(num_envs, -1, np.int64)
        self._idle = np.zeros(num_envs, bool)
        self._seed: int | None = None
        self._asked = False  # answers are waiting for the engine's decision call
        self._started = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal games ``0 .. num_envs - 1`` of the run seeded ``seed`` (a fresh seed when none is given)."""
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self._seed = int(seed)
        game = self.game
        game.engine.rkey = np.uint64(run_key(self._seed))
        game.actions.answers.clear()
        game.run = game.engine.start(0, self.games or 4 * self.num_envs)
        self._current[:] = -1
        self._idle[:] = False
        self._asked = False
        self._started = True
        self._play_on()
        obs, info = self._observe()
        return obs, info

    def step(self, actions: Any) -> tuple[dict[str, Any], NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        """Answer every game's decision step with ``actions[i]``."""
        if not self._started:
            raise RuntimeError("call reset() before step().")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise TypeError(f"actions: one whole number per game, shape ({self.num_envs},); got shape {acts.shape}, dtype {acts.dtype}.")
        game, sp = self.game, self.game.spaces
        for i, queue in enumerate(self.queues):  # check all before answering any
            a = int(acts[i])
            mask = queue[0].mask if queue else _wait_mask(sp.n_actions)
            if not 0 <= a < sp.n_actions or not mask[a]:
                kind = queue[0].kind if queue else "wait"
                legal = queue[0].legal_names(sp) if queue else [f"{E.WAIT} (wait)"]
                raise IllegalAction(f"game {i} (seat {self.seat}): action {a} ({sp.action_name(a)}) is not legal at decision "
                                    f"{kind!r}; legal actions: {', '.join(legal)}.")
        for i, queue in enumerate(self.queues):
            if queue:
                step = queue.pop(0)
                queue[:0] = game.record(step, int(acts[i]))
        rewards = np.zeros(self.num_envs)
        ended = np.zeros(self.num_envs, bool)
        finished: dict[str, Any] = {}
        if not any(self.queues):
            rewards, ended, finished = self._play_on()
        obs, info = self._observe()
        info.update(finished)
        return obs, rewards, ended, np.zeros(self.num_envs, bool), info

    # ------------------------------------------------------------ the batch
    def _play_on(self) -> tuple[NDArray[np.float64], NDArray[np.bool_], dict[str, Any]]:
        """Let the engine decide and run every game to its next learner decision; the rewards of the rounds that ended."""
        game = self.game
        run = game.run
        assert run is not None
        b = run.buffers
        rewards = np.zeros(self.num_envs)
        ended = np.zeros(self.num_envs, bool)
        winners = np.full(self.num_envs, -2, np.int64)
        while True:
            if self._asked:
                run.decide()
                game.actions.answers.clear()
            if self.games is None and run.ctr[L.CT_END] - run.ctr[L.CT_NEXT] < self.num_envs:
                run.extend(4 * self.num_envs)
            n_rows = run.advance()
            self._asked = n_rows > 0
            idle = (b.slot[:, L.F_PHASE] == L.PH_IDLE) & ~self._idle
            for s in np.flatnonzero((b.game != self._current) | idle).tolist():
                old = int(self._current[s])
                if old >= 0:
                    rec, pts = run.rec[old], run.points[old].astype(np.int64)
                    rewards[s] = self._reward(int(rec[L.R_WINNER]), bool(rec[L.R_TRUNCATED]), pts)
                    ended[s] = True
                    winners[s] = int(rec[L.R_WINNER])
                self._current[s] = b.game[s]
                self._idle[s] |= bool(idle[s])
            self.queues = game.waiting(run)
            if any(self.queues) or n_rows == 0:
                break
        return rewards, ended, {"winner": winners, "_winner": ended.copy()}

    def _reward(self, winner: int, truncated: bool, points: NDArray[np.int64]) -> float:
        if self.reward_kind == "points":
            if truncated:
                return 0.0
            return float(points.sum() - points[winner]) if winner == self.seat else -float(points[self.seat])
        if truncated:
            return self.reward_values[1]
        return self.reward_values[0] if winner == self.seat else self.reward_values[2]

    def _observe(self) -> tuple[dict[str, Any], dict[str, Any]]:
        game, sp = self.game, self.game.spaces
        obs = np.zeros((self.num_envs, sp.obs_size), np.int16)
        masks = np.zeros((self.num_envs, sp.n_actions), np.int8)
        wait = sp.blocks["kind"].start + E.KINDS["wait"]
        for s, queue in enumerate(self.queues):
            step = queue[0] if queue else None
            if not self._idle[s]:  # an idle slot holds no game: all zero but the wait decision
                obs[s] = game.observe(self.seat, step, s)
            if step is None:
                obs[s, wait] = 1
                masks[s, E.WAIT] = 1
            else:
                masks[s] = step.mask
        info = {"game": self._current.copy(), "action_mask": masks.copy(), "idle": self._idle.copy()}
        return {"observation": obs, "action_mask": masks}, info


def _wait_mask(n: int) -> NDArray[np.int8]:
    """The mask of the wait decision: only :data:`~unosim.env.encoding.WAIT`."""
    mask = np.zeros(n, np.int8)
    mask[E.WAIT] = 1
    return mask
