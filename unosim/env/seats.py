"""One game on the engine with some seats answered action by action (the environments' core).

[`SeatedGame`][unosim.env.SeatedGame] plays one game at a time in a batch of one slot of the lockstep engine
(`Run`, through ``advance()``). The seats it controls are answered
by actions; the other seats are played by their strategies — compiled ones inside the kernel,
the others through the engine's decision call.

When the engine stops with decision rows of controlled seats waiting, each row is a decision
step of its seat (the kind of its phase); the game asks for one action per step. The engine's
own row says what is legal, and the compiled helpers of `unosim.env.kernels` do the rest,
for this Python stepping and for the compiled one of `SeatLanes` alike: ``encode`` makes
a step's observation vector and mask from the row, ``answer`` writes an action into the row as
the engine's decision call writes a strategy's answer and moves the step on to its follow-ups
(the colour of a wild, a link pair, the UNO call). Once every step of every waiting row is
answered, the other strategies are asked (``Decisions.decide``, the controlled rows skipped) and
the engine plays on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..engine import kernel_cache
from ..engine.config import RunConfig
from ..engine.driver import Engine, Run
from ..engine.fast_paths import always_catch_mask
from ..game.errors import UnosimInputError
from ..game.kernels import layout as L
from ..game.kernels.rng import run_key
from ..strategy import registry
from ..strategy.base import Strategy
from ..strategy.spec import StrategySpec, parse_strategies
from . import encoding as E
from . import kernels as K

__all__ = ["Actions", "Outcome", "SeatLanes", "SeatedGame", "Step", "as_action"]



class Actions(Strategy):
    """The strategy of the controlled seats in the engine's line-up: their rows are answered by the
    environment (`unosim.env.kernels.answer`), so the engine never asks it anything.

    It declares no shortcut and is never compiled, so the engine makes a row of every decision of
    these seats (even a draw on a turn with nothing to play).
    """

    name = "actions"
    never_forgets_uno = False
    never_challenges = False
    always_catches_uno = False
    plays_legal_drawn_card = False
    forced_draw_uniforms = None

    def compiled_covers(self) -> bool:
        """Never compiled: the answers come from outside the engine."""
        return False


@dataclass
class Step:
    """One decision step waiting for an action.

    Attributes
    ----------
    seat : int
        The acting seat.
    kind : str
        The decision kind ([`unosim.env.KIND_NAMES`][unosim.env.KIND_NAMES]).
    mask : ndarray
        ``int8`` legal actions.
    index : int
        Its row in the game's table of waiting steps.
    """

    seat: int
    kind: str
    mask: NDArray[np.int8]
    index: int


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winner's seat (-1 if truncated) and each seat's hand points."""

    winner: int
    truncated: bool
    hand_points: NDArray[np.int32]

    def points(self, seat: int) -> int:
        """Match points of ``seat`` (E-3): the winner scores the points left in the other hands,
        every other seat minus its own."""
        if self.truncated:
            return 0
        if seat == self.winner:
            return int(self.hand_points.sum() - self.hand_points[seat])
        return -int(self.hand_points[seat])


class SeatedGame:
    """One game at a time on the engine, the ``controlled`` seats answered by actions.

    Parameters
    ----------
    rules : str or RuleSet
        A preset name (``classic``, ``party``) or a rule set.
    players : int
        Seats, 2-16.
    controlled : sequence of int
        The seats answered by actions.
    others : str, Strategy or sequence of them
        The strategies of the other seats: one for all, or one per other seat in seat order;
        a spec (``greedy``, ``rules:PATH``, ``module:Class(k=v)``) or a strategy object.
    overrides : list of str or dict, optional
        Rule overrides, as for `RunConfig.build`.
    batch : int
        Game slots stepped together (`unosim.env.vector`); the one-game methods use slot 0.
    trace : bool
        Keep the engine's event log of every game ([`played`][unosim.env.SeatedGame.played]: for replay and the referee).
    """

    def __init__(
        self, rules: Any, players: int, controlled: list[int], others: Any = "random", overrides: Any = None, batch: int = 1,
        trace: bool = False,
    ) -> None:
        self.players = players
        self.controlled = sorted(set(int(s) for s in controlled))
        if not self.controlled or not all(0 <= s < players for s in self.controlled):
            raise UnosimInputError(f"controlled seats {controlled!r}: give seats from 0 to {players - 1}.")
        free = [s for s in range(players) if s not in self.controlled]
        others_list = list(others) if isinstance(others, (list, tuple)) else [others] * len(free)
        if len(others_list) != len(free):
            raise UnosimInputError(f"{len(others_list)} strategies for the {len(free)} other seats; give one, or one per other seat.")
        self.batch = batch
        self.config = RunConfig.build(rules=rules, players=players, strategies="random", games=1, batch_size=batch,
                                      overrides=overrides)
        self.engine = Engine(self.config, batch_size=batch, trace=trace)
        self.actions = Actions()
        strategies: list[Strategy] = [self.actions]
        labels = ["actions"]
        lineup = [0] * players
        for seat, other in zip(free, others_list):
            if isinstance(other, Strategy):
                strategies.append(other)
                labels.append(other.label)
                lineup[seat] = len(strategies) - 1
                continue
            spec = other if isinstance(other, StrategySpec) else parse_strategies(str(other), 1)[0]
            if str(spec) not in labels:
                strategies.append(registry.make(spec.name, dict(spec.params)))
                labels.append(str(spec))
            lineup[seat] = labels.index(str(spec))
        self.engine.set_strategies(strategies, labels, lineup)
        self.labels = labels
        self.spaces = sp = E.Spaces(players, int(self.engine.deck.sum()))
        self.offsets = np.array([sp.blocks[name].start for name in K.BLOCK_ORDER] + [sp.obs_size], np.int64)
        """The observation blocks' starts (in `unosim.env.kernels.BLOCK_ORDER`), then the vector's size."""
        self.pairs = np.ascontiguousarray(sp.pairs, np.int64)
        self.relink = bool(self.config.rules.relink_must_differ)
        self.run: Run | None = None
        self.queue: list[Step] = []
        self.outcome: Outcome | None = None
        self.game = 0
        self._st = np.zeros((0, K.N_ST), np.int64)
        self._none = np.full((1, K.N_ST), -1, np.int64)  # the state of a seat not asked
        self._none[0, K.ST_PEND] = 0
        self._idle = np.zeros(1, np.bool_)

    # ------------------------------------------------------------ playing
    def new_game(self, seed: int, game: int) -> None:
        """Deal game ``game`` of the run seeded ``seed`` (the engine's counter-based streams) and
        play to the first decision step of a controlled seat."""
        self.engine.rkey = np.uint64(run_key(seed))
        self.game = game
        self.run = self.engine.start(game, 1)
        self.outcome = None
        self.queue = []
        self._play_on()

    @property
    def over(self) -> bool:
        """The game has ended."""
        return self.outcome is not None

    def answer(self, action: int, index: int = 0) -> None:
        """Answer waiting step ``index`` (the first by default) with ``action`` (already checked
        against its mask); its next follow-up, if any, takes its place in the queue."""
        run = self.run
        assert run is not None
        step = self.queue[index]
        i = step.index
        b = run.buffers
        refused = K.answer(np.array([action], np.int64), self._st[i : i + 1], run.parity, step.seat, self.players,
                           self.spaces.link0, self.spaces.swap0, self.pairs, self.relink, b.slot, b.row_info, b.row_legal,
                           b.dec, b.dec_w)
        if refused < 0:
            raise AssertionError(f"seat {step.seat}: the engine refuses action {action} of the mask at decision {step.kind!r}")
        if refused:
            self.queue[index] = self._step(i)
            return
        del self.queue[index]
        if not self.queue:
            self.engine.decisions.decide(b, run.parity, skip=0)  # the other strategies' rows, if any
            run.parity = 1 - run.parity
            self._play_on()

    def _play_on(self) -> None:
        run = self.run
        assert run is not None
        while True:
            if run.advance() == 0:
                rec, pts = run.rec[0], run.points[0]
                self.outcome = Outcome(int(rec[L.R_WINNER]), bool(rec[L.R_TRUNCATED]), pts.astype(np.int32))
                return
            self._collect(run)
            if self.queue:
                return
            run.decide()

    def _collect(self, run: Run) -> None:
        """The controlled seats' waiting rows (strategy 0's groups) become the steps of the queue, in seat order."""
        b = run.buffers
        ns = len(self.engine.strategies)
        found = []
        for ph in range(L.N_DECISION_PHASES):
            lo = int(b.group_base[ph * ns])
            for r in range(lo, lo + int(b.group_count[ph * ns])):
                found.append((int(b.row_seat[run.parity, r]), ph, r))
        found.sort()
        st = self._st = np.full((len(found), K.N_ST), -1, np.int64)
        st[:, K.ST_PEND] = 0
        for i, (_, ph, r) in enumerate(found):
            st[i, K.ST_KIND] = st[i, K.ST_PHASE] = ph  # a phase's first step is the kind of the same number
            st[i, K.ST_ROW] = r
        self._seats = [seat for seat, _, _ in found]
        self.queue = [self._step(i) for i in range(len(found))]

    def _step(self, i: int) -> Step:
        kind = int(self._st[i, K.ST_KIND])
        _, mask = self._encode(self._seats[i], self._st[i : i + 1], False)
        return Step(self._seats[i], E.KIND_NAMES[kind], mask, i)

    def _encode(self, seat: int, st: NDArray[np.int64], wait: bool) -> tuple[NDArray[np.int16], NDArray[np.int8]]:
        run = self.run
        assert run is not None
        b, sp = run.buffers, self.spaces
        obs = np.empty((1, sp.obs_size), np.int16)
        mask = np.empty((1, sp.n_actions), np.int8)
        bad = K.encode(obs, mask, st, self._idle, wait, False, run.parity, seat, self.players, self.offsets, sp.link0, sp.swap0,
                       self.pairs, self.relink, b.slot, b.hands, b.hsize, b.piles, b.row_info, b.row_legal)
        assert bad < 0, f"no legal action for seat {seat} at decision {E.KIND_NAMES[int(st[0, K.ST_KIND])]!r}"
        return obs[0], mask[0]

    def played(self) -> tuple[NDArray[np.int32], NDArray[np.int8], NDArray[np.int32], NDArray[np.int16]]:
        """The finished game's event log (with ``trace=True``; else empty), opening hands, record row
        and hand points: what `Played` holds for one game."""
        run = self.run
        assert run is not None and self.over, "no finished game"
        events = np.concatenate(run.events) if run.events else np.zeros((0, L.N_EV_COLS), np.int32)
        events = events[events[:, 0] == self.game]
        return events, run.opening[0].copy(), run.rec[0].copy(), run.points[0].copy()

    # ------------------------------------------------------------ observing
    def observe(self, seat: int, step: Step | None, wait: bool = False) -> NDArray[np.int16]:
        """The observation vector of ``seat`` (`unosim.env.encoding`, made by the compiled encoder
        `unosim.env.kernels.encode`); ``step``: its waiting step, if any. ``wait``: a seat without
        a step is shown the ``wait`` decision."""
        st = self._st[step.index : step.index + 1] if step is not None else self._none
        return self._encode(seat, st, wait)[0]


def as_action(action: Any, n: int) -> int:
    """``action`` as a whole number, -1 when out of ``0 .. n-1``; a wrong type or shape is refused."""
    arr = np.asarray(action)
    if arr.shape != () or arr.dtype.kind not in "iu":
        raise TypeError(f"an action is one whole number from 0 to {n - 1}; got {action!r}.")
    a = int(arr)
    return a if 0 <= a < n else -1


class SeatLanes:
    """One learning seat in every slot of a [`SeatedGame`][unosim.env.SeatedGame]'s batch, stepped by one compiled call.

    The environments with one learning seat ([`UnoEnv`][unosim.env.UnoEnv],
    [`UnoVectorEnv`][unosim.env.UnoVectorEnv]) step through this instead of [`Step`][unosim.env.Step] objects:
    `unosim.env.kernels.play` checks the actions against the masks (the engine's legal moves),
    writes the answers into the engine's decision rows as its decision call would, runs the engine
    to the learner's next steps, pays the rewards of the games that ended and encodes every slot's
    observation and mask, in one call: the same helpers [`SeatedGame`][unosim.env.SeatedGame] steps with, one step at
    a time (`unosim.env.kernels.answer`, `unosim.env.kernels.encode`); the other seats'
    Python strategies are still asked by the engine's decision call, between two calls.

    Parameters
    ----------
    game : SeatedGame
        A game with exactly one controlled seat.
    wait : bool
        A slot without a step is asked the ``wait`` decision (the vector environment).
    points : bool
        Rewards are the round's match points, else ``rewards`` (win, no winner, loss).
    rewards : tuple of float
        Win, no winner, loss.
    extend : callable, optional
        Plans more games of the run (a run dealt for ever: called when fewer games are left than slots).
    """

    def __init__(self, game: SeatedGame, *, wait: bool, points: bool, rewards: tuple[float, ...],
                 extend: Any = None) -> None:
        if len(game.controlled) != 1:
            raise UnosimInputError("SeatLanes answers one learning seat per game.")
        self._k = K
        self.game = game
        self.seat = game.controlled[0]
        self._extend = extend
        sp = game.spaces
        n, batch = sp.n_actions, game.batch
        self.obs_size = sp.obs_size
        pst = self.pst = np.zeros(K.N_P, np.int64)
        pst[K.P_SEAT], pst[K.P_PLAYERS], pst[K.P_NS], pst[K.P_LINK0] = self.seat, game.players, len(game.engine.strategies), sp.link0
        pst[K.P_RELINK], pst[K.P_WAIT], pst[K.P_FOREVER], pst[K.P_POINTS] = game.relink, wait, extend is not None, points
        pst[K.P_SWAP0] = sp.swap0
        pst[K.P_CATCH] = always_catch_mask(game.engine.strategies)  # those catches are answered in the compiled step
        self.rv = np.array(rewards, np.float64)
        self.acts = np.zeros(batch, np.int64)
        self.st = np.full((batch, K.N_ST), -1, np.int64)
        self.st[:, K.ST_PEND] = 0
        self.counts = np.zeros(2, np.int64)  # rows of the learner, of the other strategies (asked in Python)
        self.mask = np.zeros((batch, n), np.int8)
        """The masks asked (the policy gets copies)."""
        self.idle = np.zeros(batch, np.bool_)
        """Slots whose last game has ended (a finite run)."""
        self.current = np.full(batch, -1, np.int64)
        """The game index in each slot."""
        self.rewards = np.zeros(batch, np.float64)
        self.ended = np.zeros(batch, np.bool_)
        self.winners = np.full(batch, -2, np.int64)
        """The rewards, ends and winners of the games that ended in the last call."""
        self.rkey = np.zeros(1, np.uint64)
        self.shown = (self.mask.copy(), self.current.copy(), self.idle.copy())
        """Copies of ``mask``, ``current`` and ``idle``, written by each call that ends ``S_OK``: what a
        policy is shown, never what the compiled step reads again (a policy writing into them changes no game)."""
        self._env = (self.pst, self.rv, self.acts, self.st, self.counts, self.mask, self.idle, self.current, self.rewards,
                     self.ended, self.winners, game.offsets, game.pairs)
        self._args: tuple[Any, ...] = ()
        self.played = False
        """The engine was run in the last call (not only a follow-up step answered)."""
        self._bound: Run | None = None
        self._entries: dict[Any, Any] = {}
        """The entry points of `play` found by `bind`, by `_type_key` of their arguments: a run dealt for
        ever binds its grown record buffers again and again, of the same types (numba's own typing of
        the 46 arrays took about 0.75 ms a time)."""
        game.run = game.engine.start(0, batch)
        self.bind()
        self.pst[K.P_MODE] = K.M_ENCODE
        obs = np.zeros((batch, self.obs_size), np.int16)
        kernel_cache.ensure_compiled(lambda: K.play(*self._args, obs), (K.play,), copy=game.engine.kernel_copy)
        self._play = _entry_point(K.play, (*self._args, obs))

    def bind(self) -> None:
        """Take the arrays of ``game.run`` (a new run, or one whose record buffers grew)."""
        run = self.game.run
        assert run is not None
        e = run.engine
        self.rkey[0] = e.rkey
        self.pst[self._k.P_FIRST] = run.first
        self._args = (*self._env, run.games, run.seats, run.rows, run.records, run.work, e.cfg, self.rkey, e.house, e.programs,
                      self.shown)
        self._bound = run
        if hasattr(self, "_play"):  # the entry point compiled for these arrays' types (looked up, never assumed)
            args = (*self._args, np.zeros((1, self.obs_size), np.int16))
            key = _type_key(args)
            found = self._entries.get(key)
            if found is None:
                found = _entry_point(self._k.play, args)
                if found is not self._k.play:  # none compiled yet for these types: looked up again next time
                    self._entries[key] = found
            self._play = found

    def call(self, mode: int, obs: NDArray[np.int16]) -> int:
        """One call of `unosim.env.kernels.play` in ``mode``, going on through the Python
        decisions and the extensions it stops for; the status it ends with (``S_OK`` or ``S_ILLEGAL``)."""
        K, pst = self._k, self.pst
        pst[K.P_MODE] = mode
        status = self._play(*self._args, obs)
        self.played = pst.item(K.P_PLAYED) != 0
        while status != K.S_OK:
            if status == K.S_ILLEGAL:
                return status
            run = self.game.run
            assert run is not None
            if status == K.S_DECIDE:
                self.game.engine.decisions.decide(run.buffers, int(pst[K.P_PARITY]), skip=0)
                pst[K.P_DECIDED] = 1
                pst[K.P_CATCH] = always_catch_mask(self.game.engine.strategies)  # they may have changed their rates
            elif status == K.S_EXTEND:
                self._extend(run)
                self.bind()
            elif status == K.S_CHECK:
                b = run.buffers
                raise AssertionError(f"card conservation violated in game {b.game[run.err[0]]} (slot {run.err[0]})")
            else:
                raise AssertionError(f"the environment's engine call stopped with status {status} (slot {int(pst[K.P_BAD])})")
            pst[K.P_MODE] = K.M_LOOP
            status = self._play(*self._args, obs)
        self._bound.parity = pst.item(K.P_PARITY)  # type: ignore[union-attr]  # bound in __init__
        return status

    def start(self, obs: NDArray[np.int16]) -> None:
        """Play a new ``game.run`` to the learner's first steps (every slot's current game unknown)."""
        self.bind()
        assert self._bound is not None
        self.pst[self._k.P_PARITY] = self._bound.parity
        self.current[:] = -1
        self.idle[:] = False
        self.call(self._k.M_START, obs)

    def restart(self, first: int, rkey: int, obs: NDArray[np.int16]) -> None:
        """One slot: put the bound run back as a fresh run of game ``first`` (``Engine.start(first, 1)``,
        without allocating it again), keyed ``rkey``, and play to the learner's first step."""
        if self.game.run is not self._bound:  # SeatedGame.new_game made another run
            self.bind()
        run = self._bound
        assert run is not None and run.buffers.slot.shape[0] == 1 and run.rec.shape[0] == 1
        run.first = first
        self.rkey[0] = rkey
        self.pst[self._k.P_FIRST] = first
        self.call(self._k.M_RESET, obs)

    def kind(self, slot: int) -> int:
        """The decision kind asked in ``slot`` (-1: none)."""
        return int(self.st.item(slot, self._k.ST_KIND))

    def kind_name(self, slot: int) -> str | None:
        """The name of the decision asked in ``slot`` (``None``: none)."""
        k = self.st.item(slot, self._k.ST_KIND)
        return E.KIND_NAMES[k] if k >= 0 else None


def _type_key(a: Any) -> Any:
    """What numba's type of ``a`` is made of (an array's class, dtype, dimensions, layout flags,
    writability and alignment; a tuple's class and items' keys; else the class and value): equal keys,
    equal types."""
    if isinstance(a, np.ndarray):
        f = a.flags
        return type(a), a.dtype, a.ndim, f.c_contiguous, f.f_contiguous, f.writeable, f.aligned
    if isinstance(a, tuple):
        return type(a), tuple(_type_key(x) for x in a)
    return type(a), a


def _entry_point(dispatcher: Any, args: tuple[Any, ...]) -> Any:
    """The compiled function of ``dispatcher`` for the types of ``args``, called without the dispatcher's
    type matching (a third of a call's cost here); the dispatcher itself when it has none for them."""
    import numba

    found = dispatcher.overloads.get(tuple(numba.typeof(a) for a in args))
    return found.entry_point if found is not None else dispatcher
