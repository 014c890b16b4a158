"""A Gymnasium vector environment: N games stepped in one lockstep batch of the engine.

Not N Python environments: one `Run` holds ``num_envs`` game
slots; one ``advance`` call runs every game to the learner's next decision (compiled opponents
decide inside the kernel), one decision call answers every waiting row. Game ``g`` of a run
seeded ``seed`` is the same game in any slot, at any batch size: the per-game seeds are the
engine's counter-based streams (run key of ``seed``, game index ``g``); the ``game`` info holds
each slot's game index.

Auto-reset (``AutoresetMode.SAME_STEP``): when a slot's round ends, the engine deals the next
game of the run into it in the same step; the step returns the round's reward with
``terminated`` set and the new round's first observation (the terminal observation is not kept:
a terminal step has no value to bootstrap from).

A step is one compiled call over every game (`unosim.env.kernels.play`, through
`SeatLanes`): the answers, the engine's ``advance`` (the compiled opponents decide inside it), the
rewards, the observations and masks; no Python loop over the games, and no array made per step.

The arrays a step returns are read-only views of the environment's own buffers, written again in
place by the next ``step`` or ``reset``: the observations and masks, the rewards, ``terminated``,
``truncated`` and the info arrays. Copy what is kept across steps (a rollout buffer copies anyway).
The masks, the ``game`` and the ``idle`` info are copies of what the compiled step reads again (the
actions are checked against its own masks), written by that same compiled call: writing into what a
step returned changes no game.

Follow-ups (the colour of a wild, a link pair, the UNO call) are separate decision steps, as in
the single environment. While some games answer one, the engine plays the other games on to their
next decisions (the half-answered decisions are kept aside: ``layout.ROW_HELD``), so a game has a
decision at almost every step. A game without one is asked the ``wait`` decision (its one legal
action `WAIT`, reward 0): while the other seats catch its learner's forgotten UNO call, while its
Python opponents wait on the batch's decision call, and, at party tables, while some game of the
batch answers the UNO call of a jump-in (a phase where every seat answers, which the engine cannot
keep aside: the engine waits for it).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from ..engine.driver import Run
from ..game.kernels import layout as L
from ..game.kernels.rng import run_key
from . import encoding as E
from . import kernels as K
from .base import SeatedEnv, check_count, check_seed, game_spaces
from .seats import SeatLanes

__all__ = ["UnoVectorEnv"]


class UnoVectorEnv(SeatedEnv, VectorEnv[dict[str, Any], NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` rounds of one learning seat against unosim strategies, stepped in lockstep.

    Parameters
    ----------
    num_envs : int
        Games stepped together (the engine's batch size).
    rules, players, opponents, seat, reward, rewards, overrides
        As for [`UnoEnv`][unosim.env.UnoEnv].
    games : int, optional
        Play only games ``0 .. games - 1`` of the run: a slot whose last game has ended is asked
        only ``wait`` (``info["idle"]``). Default: games are dealt for ever.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": [], "encoding_version": E.VERSION}

    def __init__(
        self, num_envs: int, rules: Any = "classic", players: int = 4, opponents: Any = "random", *, seat: int = 0,
        reward: str = "win", rewards: tuple[float, float, float] = (1.0, 0.0, -1.0), overrides: Any = None,
        games: int | None = None,
    ) -> None:
        num_envs = check_count("num_envs", num_envs, 1)
        if games is not None:
            games = check_count("games", games, num_envs)
        self.num_envs = num_envs
        self.games = games
        self._settle(rules, players, seat, opponents, reward=reward, rewards=rewards, overrides=overrides, batch=num_envs)
        self.seat = self.game.controlled[0]
        self.single_observation_space, n = game_spaces(self.game)
        self.single_action_space = spaces.Discrete(n)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.lanes = SeatLanes(self.game, wait=True, points=reward == "points", rewards=self.reward_values,
                               extend=None if games is not None else lambda run: _extend(run, 4 * num_envs))
        self._seed: int | None = None
        self._started = False
        sp, lanes = self.game.spaces, self.lanes
        self._obs = np.zeros((num_envs, sp.obs_size), np.int16)
        mask, current, idle = lanes.shown  # copies of what the compiled step reads again, written by each step
        shown = {name: _read_only(a) for name, a in (("observation", self._obs), ("action_mask", mask),
                 ("reward", lanes.rewards), ("terminated", lanes.ended), ("truncated", np.zeros(num_envs, bool)),
                 ("game", current), ("idle", idle), ("winner", lanes.winners))}
        self._shown = shown

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal games ``0 .. num_envs - 1`` of the run seeded ``seed`` (a fresh seed when none is given)."""
        seed = check_seed(seed)
        self._seed = self._fresh_seed() if seed is None else seed
        game = self.game
        game.engine.rkey = np.uint64(run_key(self._seed))
        game.run = game.engine.start(0, self.games or 4 * self.num_envs)
        self._started = True
        self.lanes.start(self._obs)
        return self._observed(), self._info()

    def step(self, actions: Any) -> tuple[dict[str, Any], NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        """Answer every game's decision step with ``actions[i]``."""
        if not self._started:
            raise RuntimeError("call reset() before step().")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise TypeError(f"actions: one whole number per game, shape ({self.num_envs},); got shape {acts.shape}, dtype {acts.dtype}.")
        lanes, shown = self.lanes, self._shown
        np.copyto(lanes.acts, acts, casting="unsafe")  # a value no int64 holds is negative, refused as out of range
        status = lanes.call(K.M_STEP, self._obs)
        if status == K.S_ILLEGAL:  # checks all before answering any
            i = int(lanes.pst[K.P_BAD])
            self._refuse(i, int(acts[i]))
        info = self._info()
        if lanes.played:
            info.update(winner=shown["winner"], _winner=shown["terminated"])
        return self._observed(), shown["reward"], shown["terminated"], shown["truncated"], info

    def _refuse(self, i: int, a: int) -> None:
        n = self.game.spaces.n_actions
        raise self._refusal(f"game {i} (seat {self.seat})", a, a if 0 <= a < n else -1, self.lanes.kind_name(i),
                            self.lanes.mask[i])

    def _observed(self) -> dict[str, Any]:
        shown = self._shown
        return {"observation": shown["observation"], "action_mask": shown["action_mask"]}

    def _info(self) -> dict[str, Any]:
        shown = self._shown
        return {"game": shown["game"], "action_mask": shown["action_mask"], "idle": shown["idle"]}


def _read_only(a: NDArray[Any]) -> NDArray[Any]:
    """A read-only view of ``a`` (``a`` itself stays writable: the environment writes it in place)."""
    view = a.view()
    view.flags.writeable = False
    return view


def _extend(run: Run, n_games: int) -> None:
    """``run.extend(n_games)``, first dropping the record rows of the games already over (their rewards
    are paid): a run dealt for ever keeps the rows of the games still being played, not of every game."""
    b = run.buffers
    playing = b.game[b.game >= 0]
    lo = int(min(playing.min(), run.ctr[L.CT_NEXT])) if len(playing) else int(run.ctr[L.CT_NEXT])
    if lo > run.first:
        cut = lo - run.first
        run.rec, run.points, run.opening = run.rec[cut:], run.points[cut:], run.opening[cut:]  # views: extend copies them
        run.first = lo
    run.extend(n_games)
