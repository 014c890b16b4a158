"""One game on the engine with some seats answered action by action (the environments' core).

:class:`SeatedGame` plays one game at a time in a batch of one slot of the lockstep engine
(:class:`~unosim.engine.driver.Run`, through ``advance()`` and ``decide()``). The seats it
controls are played by :class:`Actions`, a :class:`~unosim.strategy.base.Strategy` whose
every decision method answers from the actions given beforehand; the other seats are played
by their strategies — compiled ones inside the kernel, the others through Python.

When the engine stops with decision rows of controlled seats waiting, each row is split into
decision steps (:mod:`unosim.env.encoding`: the decision, then its follow-ups); the game asks
for one action per step, in order, and only once every step of every waiting row is answered
does it let the engine's decision call (``Run.decide``) ask :class:`Actions` for them, which
the engine checks as it checks any strategy. The follow-ups are derived exactly as the
engine's decision call asks them (``engine/decisions.py``): a colour for a wild played, a
pair for a Wild Drawn Together when at least two seats may be linked, the UNO call for a card
leaving one in hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..engine import kernel_cache
from ..engine.config import RunConfig
from ..engine.decisions import Rows
from ..engine.driver import Engine, Run
from ..game.cards import N_TYPES, NAMES_A_COLOUR, WILD_DRAW_FOUR, WILD_DRAWN_TOGETHER
from ..game.errors import UnosimInputError
from ..game.kernels import layout as L
from ..game.kernels.rng import run_key
from ..strategy import registry
from ..strategy.base import Strategy
from ..strategy.observation import Observation
from ..strategy.spec import StrategySpec, parse_strategies
from . import encoding as E

__all__ = ["Actions", "Outcome", "SeatLanes", "SeatedGame", "Step", "as_action"]

_NEEDS_COLOUR = np.zeros(N_TYPES, bool)
_NEEDS_COLOUR[list(NAMES_A_COLOUR)] = True
_PHASE_KIND = {
    L.PH_TURN: "play", L.PH_DRAWN: "drawn", L.PH_COLOUR: "colour", L.PH_CHALLENGE: "challenge", L.PH_CATCH: "catch",
    L.PH_PILEUP: "pileup", L.PH_VOTE: "vote", L.PH_JUMPIN: "jumpin",
}
_TARGET_SEAT = (L.PH_CATCH, L.PH_CHALLENGE, L.PH_VOTE, L.PH_JUMPIN)
_ENCODING = (E.DRAW, E.PLAY_DRAWN, E.KEEP, E.COLOUR0, E.CHALLENGE, E.ACCEPT, E.CATCH, E.LET_GO, E.TAKE, E.JUMP_IN, E.STAY,
             E.CALL_UNO, E.FORGET_UNO, E.WAIT, E.POINT0, E.N_KINDS)


class Actions(Strategy):
    """The strategy of the controlled seats: every decision answers what :attr:`answers` holds.

    ``answers[(game, seat)][method]`` is the answer of one decision method for one row; each
    is used once. It declares no shortcut, so the engine asks every decision (even a draw on a
    turn with nothing to play).
    """

    name = "actions"

    def __init__(self) -> None:
        super().__init__()
        self.answers: dict[tuple[int, int], dict[str, Any]] = {}

    never_forgets_uno = False
    never_challenges = False
    plays_legal_drawn_card = False
    forced_draw_uniforms = None

    def compiled_covers(self) -> bool:
        """Never compiled: the answers come from outside the engine."""
        return False

    def _take(self, obs: Observation, method: str, dtype: Any) -> NDArray[Any]:
        return np.array([self.answers[(g, s)].pop(method) for g, s in zip(obs.game.tolist(), obs.seat.tolist())], dtype)

    def play(self, obs: Observation) -> NDArray[np.integer]:
        """The card type to play, or -1 to draw."""
        return self._take(obs, "play", np.int64)

    def play_drawn(self, obs: Observation) -> NDArray[np.bool_]:
        """Play the card just drawn?"""
        return self._take(obs, "play_drawn", bool)

    def choose_colour(self, obs: Observation, cards: NDArray[np.integer]) -> NDArray[np.integer]:
        """The colour chosen."""
        return self._take(obs, "choose_colour", np.int64)

    def challenge(self, obs: Observation) -> NDArray[np.bool_]:
        """Challenge the Wild Draw Four?"""
        return self._take(obs, "challenge", bool)

    def forget_uno(self, obs: Observation) -> NDArray[np.bool_]:
        """Forget to call UNO?"""
        return self._take(obs, "forget_uno", bool)

    def catch_uno(self, obs: Observation) -> NDArray[np.bool_]:
        """Catch the seat that forgot to call UNO?"""
        return self._take(obs, "catch_uno", bool)

    def point_at(self, obs: Observation) -> NDArray[np.integer]:
        """The seat pointed at."""
        return self._take(obs, "point_at", np.int64)

    def choose_link(self, obs: Observation) -> NDArray[np.integer]:
        """The two seats linked, ``(n, 2)``."""
        return self._take(obs, "choose_link", np.int64).reshape(len(obs), 2)

    def add_to_pile(self, obs: Observation) -> NDArray[np.integer]:
        """The card added to the mini pile, or -1 to take it."""
        return self._take(obs, "add_to_pile", np.int64)

    def jump_in(self, obs: Observation) -> NDArray[np.floating]:
        """Reaction weight: 1 to jump in, 0 not to."""
        return self._take(obs, "jump_in", np.float64)


@dataclass
class Step:
    """One decision step waiting for an action.

    Attributes
    ----------
    seat : int
        The acting seat.
    kind : str
        The decision kind (:data:`unosim.env.encoding.KIND_NAMES`).
    mask : ndarray
        ``int8`` legal actions.
    info : ndarray
        The engine row's table fields (``layout.I_*``).
    card : int
        The card a follow-up is about (-1: none).
    row : dict
        What the follow-ups need: ``legal``, ``link_choices`` of the row.
    slot : int
        The batch slot of the game.
    """

    seat: int
    kind: str
    mask: NDArray[np.int8]
    info: NDArray[np.int32]
    card: int
    row: dict[str, NDArray[Any]]
    slot: int = 0

    def legal_names(self, spaces: E.Spaces) -> list[str]:
        """Names of the legal actions (for error messages)."""
        return [f"{a} ({spaces.action_name(a)})" for a in np.flatnonzero(self.mask).tolist()]


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
        Rule overrides, as for :meth:`RunConfig.build`.
    batch : int
        Game slots stepped together (:mod:`unosim.env.vector`); the one-game methods use slot 0.
    trace : bool
        Keep the engine's event log of every game (:meth:`played`: for replay and the referee).
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
        house = {"stacking": "none", "seven_zero": False}
        on = [f"{k}={getattr(self.config.rules, k)}" for k, off in house.items() if getattr(self.config.rules, k) != off]
        if on:
            raise UnosimInputError(
                f"the environments have no action for the house-rule decisions of {', '.join(on)} (H-1 stack, H-2 swap); "
                "play them with strategies (unosim simulate), or set stacking=none and seven_zero=false."
            )
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
        self.spaces = E.Spaces(players, int(self.engine.deck.sum()))
        self.run: Run | None = None
        self.queue: list[Step] = []
        self.outcome: Outcome | None = None
        self.game = 0
        self._is_controlled = np.zeros(players, bool)
        self._is_controlled[self.controlled] = True

    # ------------------------------------------------------------ playing
    def new_game(self, seed: int, game: int) -> None:
        """Deal game ``game`` of the run seeded ``seed`` (the engine's counter-based streams) and
        play to the first decision step of a controlled seat."""
        self.engine.rkey = np.uint64(run_key(seed))
        self.game = game
        self.run = self.engine.start(game, 1)
        self.outcome = None
        self.queue = []
        self.actions.answers.clear()  # a game left mid-decision leaves answers behind
        self._play_on()

    @property
    def over(self) -> bool:
        """The game has ended."""
        return self.outcome is not None

    def answer(self, action: int, index: int = 0) -> None:
        """Answer waiting step ``index`` (the first by default) with ``action`` (already checked
        against its mask); its follow-ups take its place in the queue."""
        step = self.queue.pop(index)
        follow = self.record(step, int(action))
        self.queue[index:index] = follow
        if not self.queue:
            assert self.run is not None
            self.run.decide()
            leftover = {k: v for k, v in self.actions.answers.items() if v}
            self.actions.answers.clear()
            if leftover:
                raise AssertionError(f"answers the engine did not ask for: {leftover}")
            self._play_on()

    def _play_on(self) -> None:
        run = self.run
        assert run is not None
        while True:
            if run.advance() == 0:
                rec, pts = run.rec[0], run.points[0]
                self.outcome = Outcome(int(rec[L.R_WINNER]), bool(rec[L.R_TRUNCATED]), pts.astype(np.int32))
                return
            self.queue = self.waiting(run)[0]
            if self.queue:
                return
            run.decide()

    def waiting(self, run: Run) -> list[list[Step]]:
        """Per slot, the first decision steps of the controlled seats' waiting rows, in seat order."""
        b = run.buffers
        ns = len(self.engine.strategies)
        counts = b.group_count
        steps: list[list[Step]] = [[] for _ in range(b.slot.shape[0])]
        for grp in np.flatnonzero(counts).tolist():
            phase, k = divmod(grp, ns)
            if k != 0:
                continue
            lo = int(b.group_base[grp])
            rows = Rows(b, phase, run.parity, slice(lo, lo + int(counts[grp])))
            legal, info, seats, slots = rows.legal.copy(), rows.info.copy(), rows.seat.tolist(), rows.slots.tolist()
            choices = rows.link_choices if phase in (L.PH_TURN, L.PH_DRAWN) else None
            for r, (seat, s) in enumerate(zip(seats, slots)):
                row = {"legal": legal[r], "link_choices": choices[r] if choices is not None else None}
                steps[s].append(self._step(seat, _PHASE_KIND[phase], info[r], -1, row, s))
        for queue in steps:
            queue.sort(key=lambda st: st.seat)
        return steps

    def _step(self, seat: int, kind: str, info: NDArray[np.int32], card: int, row: dict[str, Any], slot: int = 0) -> Step:
        sp = self.spaces
        mask = np.zeros(sp.n_actions, np.int8)
        legal = row["legal"]
        if kind == "play":
            mask[:N_TYPES] = legal
            if info[L.I_BLUFFABLE]:
                mask[WILD_DRAW_FOUR] = 1
            mask[E.DRAW] = 1
        elif kind == "drawn":
            drawn = int(info[L.I_DRAWN])
            mask[E.PLAY_DRAWN] = bool(legal[drawn]) or (drawn == WILD_DRAW_FOUR and bool(info[L.I_BLUFFABLE]))
            mask[E.KEEP] = 1
        elif kind == "colour":
            mask[E.COLOUR0 : E.COLOUR0 + 4] = 1
        elif kind == "challenge":
            mask[[E.CHALLENGE, E.ACCEPT]] = 1
        elif kind == "catch":
            mask[[E.CATCH, E.LET_GO]] = 1
        elif kind == "pileup":
            mask[:N_TYPES] = legal
            mask[E.TAKE] = info[L.I_MAY_TAKE] != 0
        elif kind == "vote":
            alive = self._alive(slot)
            for i in range(1, self.players):
                mask[E.POINT0 + i] = alive[(seat + i) % self.players]
        elif kind == "jumpin":
            mask[[E.JUMP_IN, E.STAY]] = 1
        elif kind == "link":
            ok = np.roll(row["link_choices"], -seat)
            pairs = sp.pairs
            mask[sp.link0 :] = ok[pairs[:, 0]] & ok[pairs[:, 1]]
        elif kind == "uno":
            mask[[E.CALL_UNO, E.FORGET_UNO]] = 1
        assert mask.any(), f"no legal action for seat {seat} at decision {kind!r}"
        return Step(seat, kind, mask, info, card, row, slot)

    def _alive(self, slot: int) -> NDArray[np.bool_]:
        assert self.run is not None
        bits = int(self.run.buffers.slot[slot, L.F_ALIVE])
        return np.array([(bits >> p) & 1 for p in range(self.players)], bool)

    def record(self, step: Step, a: int) -> list[Step]:
        """Store the answer of ``step`` for the engine's decision call; return its follow-up steps."""
        key = (int(self.run.buffers.game[step.slot]) if self.run is not None else 0, step.seat)
        answers = self.actions.answers.setdefault(key, {})
        kind, seat, P = step.kind, step.seat, self.players
        card = -1
        if kind == "play":
            card = a if a < N_TYPES else -1
            answers["play"] = card
        elif kind == "drawn":
            answers["play_drawn"] = a == E.PLAY_DRAWN
            card = int(step.info[L.I_DRAWN]) if a == E.PLAY_DRAWN else -1
        elif kind == "colour":
            answers["choose_colour"] = a - E.COLOUR0
        elif kind == "challenge":
            answers["challenge"] = a == E.CHALLENGE
        elif kind == "catch":
            answers["catch_uno"] = a == E.CATCH
        elif kind == "pileup":
            answers["add_to_pile"] = a if a < N_TYPES else -1
            return self._uno_step(step, a < N_TYPES)
        elif kind == "vote":
            answers["point_at"] = (seat + a - E.POINT0) % P
        elif kind == "jumpin":
            answers["jump_in"] = 1.0 if a == E.JUMP_IN else 0.0
            return self._uno_step(step, a == E.JUMP_IN)
        elif kind == "link":
            i, j = self.spaces.pairs[a - self.spaces.link0]
            answers["choose_link"] = [(seat + int(i)) % P, (seat + int(j)) % P]
        elif kind == "uno":
            answers["forget_uno"] = a == E.FORGET_UNO
        if card < 0:
            return []
        follow = []
        if _NEEDS_COLOUR[card]:
            follow.append(self._step(seat, "colour", step.info, card, step.row, step.slot))
        if card == WILD_DRAWN_TOGETHER and int(step.row["link_choices"].sum()) >= 2:
            follow.append(self._step(seat, "link", step.info, card, step.row, step.slot))
        return follow + self._uno_step(step, True)

    def _uno_step(self, step: Step, shedding: bool) -> list[Step]:
        # no card: the engine does not tell a strategy's forget_uno the card (a policy plays the same in both)
        if shedding and int(step.info[L.I_HSIZE]) == 2:
            return [self._step(step.seat, "uno", step.info, -1, step.row, step.slot)]
        return []

    def played(self) -> tuple[NDArray[np.int32], NDArray[np.int8], NDArray[np.int32], NDArray[np.int16]]:
        """The finished game's event log (with ``trace=True``; else empty), opening hands, record row
        and hand points: what :class:`~unosim.engine.driver.Played` holds for one game."""
        run = self.run
        assert run is not None and self.over, "no finished game"
        events = np.concatenate(run.events) if run.events else np.zeros((0, L.N_EV_COLS), np.int32)
        events = events[events[:, 0] == self.game]
        return events, run.opening[0].copy(), run.rec[0].copy(), run.points[0].copy()

    # ------------------------------------------------------------ observing
    def observe(self, seat: int, step: Step | None, slot: int = 0) -> NDArray[np.int16]:
        """The observation vector of ``seat`` in ``slot`` (:mod:`unosim.env.encoding`); ``step``: its waiting step, if any."""
        assert self.run is not None
        sp, P = self.spaces, self.players
        blk = sp.blocks
        b = self.run.buffers
        f = b.slot[slot]
        out = np.zeros(sp.obs_size, np.int16)
        out[blk["hand"]] = b.hands[slot, seat]
        top = int(f[L.F_TOP])
        if 0 <= top < N_TYPES:
            out[blk["top"].start + top] = 1
            out[blk["discard"]] = b.piles[slot, L.DISC]
            out[blk["discard"].start + top] += 1
        colour = int(f[L.F_COLOUR])
        if 0 <= colour < 4:
            out[blk["colour"].start + colour] = 1
        out[blk["reversed"]] = int(f[L.F_DIR]) < 0
        rel = (np.arange(P) + seat) % P
        out[blk["hand_sizes"]] = b.hsize[slot, rel]
        alive = int(f[L.F_ALIVE])
        out[blk["alive"]] = (alive >> rel) & 1
        turn = int(step.info[L.I_TURN]) if step is not None else int(f[L.F_TURN])
        if 0 <= turn < P:
            out[blk["turn"].start + (turn - seat) % P] = 1
        for linked in (int(f[L.F_LINK_A]), int(f[L.F_LINK_B])):
            if 0 <= linked < P:
                out[blk["linked"].start + (linked - seat) % P] = 1
        mini = int(f[L.F_MINI_N])
        out[blk["mini_size"]] = mini
        if mini > 0 and 0 <= int(f[L.F_MINI_COLOUR]) < 4:
            out[blk["mini_colour"].start + int(f[L.F_MINI_COLOUR])] = 1
        if step is not None:
            out[blk["kind"].start + E.KINDS[step.kind]] = 1
            phase = int(step.info[L.I_PHASE])
            arg = int(step.info[L.I_ARG])
            if phase in _TARGET_SEAT and 0 <= arg < P:
                out[blk["target"].start + (arg - seat) % P] = 1
            drawn = int(step.info[L.I_DRAWN])
            if step.kind == "drawn" and 0 <= drawn < N_TYPES:  # the drawn decision only, not its follow-ups
                out[blk["drawn"].start + drawn] = 1
            if step.card >= 0:
                out[blk["card"].start + step.card] = 1
            out[blk["bluffable"]] = step.kind == "play" and bool(step.info[L.I_BLUFFABLE])
            out[blk["may_take"]] = step.kind == "pileup" and bool(step.info[L.I_MAY_TAKE])
        return out


def as_action(action: Any, n: int) -> int:
    """``action`` as a whole number, -1 when out of ``0 .. n-1``; a wrong type or shape is refused."""
    arr = np.asarray(action)
    if arr.shape != () or arr.dtype.kind not in "iu":
        raise TypeError(f"an action is one whole number from 0 to {n - 1}; got {action!r}.")
    a = int(arr)
    return a if 0 <= a < n else -1


class SeatLanes:
    """One learning seat in every slot of a :class:`SeatedGame`'s batch, stepped by one compiled call.

    The environments with one learning seat (:class:`~unosim.env.single.UnoEnv`,
    :class:`~unosim.env.vector.UnoVectorEnv`) step through this instead of :class:`Step` objects:
    :func:`unosim.env.kernels.play` checks the actions against the masks (the engine's legal moves),
    writes the answers into the engine's decision rows as its decision call would, runs the engine
    to the learner's next steps, pays the rewards of the games that ended and encodes every slot's
    observation and mask, in one call. The same steps, masks, observations and decisions as
    :meth:`SeatedGame.waiting`, :meth:`SeatedGame.record` and :meth:`SeatedGame.observe`; the other
    seats' Python strategies are still asked by the engine's decision call, between two calls.

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
            raise ValueError("SeatLanes answers one learning seat per game.")
        from . import kernels as K

        if K.ACTIONS != _ENCODING or K.BLOCK_ORDER != tuple(game.spaces.blocks):
            raise AssertionError("unosim.env.kernels does not follow unosim.env.encoding: update its constants.")
        self._k = K
        self.game = game
        self.seat = game.controlled[0]
        self._extend = extend
        sp = game.spaces
        n, batch = sp.n_actions, game.batch
        self.obs_size = sp.obs_size
        pst = self.pst = np.zeros(K.N_P, np.int64)
        pst[K.P_SEAT], pst[K.P_PLAYERS], pst[K.P_NS], pst[K.P_LINK0] = self.seat, game.players, len(game.engine.strategies), sp.link0
        pst[K.P_RELINK], pst[K.P_WAIT], pst[K.P_FOREVER], pst[K.P_POINTS] = (
            bool(game.config.rules.relink_must_differ), wait, extend is not None, points)
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
        self._env = (self.pst, self.rv, self.acts, self.st, self.counts, self.mask, self.idle, self.current, self.rewards,
                     self.ended, self.winners, np.array([sp.blocks[name].start for name in K.BLOCK_ORDER] + [sp.obs_size], np.int64),
                     np.ascontiguousarray(sp.pairs, np.int64))
        self._args: tuple[Any, ...] = ()
        self.played = False
        """The engine was run in the last call (not only a follow-up step answered)."""
        self._bound: Run | None = None
        game.run = game.engine.start(0, batch)
        self.bind()
        self.pst[K.P_MODE] = K.M_ENCODE
        obs = np.zeros((batch, self.obs_size), np.int16)
        kernel_cache.ensure_compiled(lambda: K.play(*self._args, obs), (K.play,), house=game.engine.house is not None)
        self._play = _entry_point(K.play, (*self._args, obs))

    def bind(self) -> None:
        """Take the arrays of ``game.run`` (a new run, or one whose record buffers grew)."""
        run = self.game.run
        assert run is not None
        b, e = run.buffers, run.engine
        self.rkey[0] = e.rkey
        self.pst[self._k.P_FIRST] = run.first
        self._args = (*self._env, b.slot, b.game, b.keys, b.hands, b.hsize, b.piles, b.seat_strat, b.seat_ctr, b.seat_dec,
                      b.seat_w, b.opening, run.rec, run.points, run.opening, run.match_scores, run.ctr, self.rkey, run.deck,
                      e.cfg, run.ev, run.nev, b.row_slot, b.row_seat, b.row_legal, b.row_info, b.dec, b.dec_w, b.group_base,
                      b.group_count, run.err, run.scratch, run.actors, e.house)
        self._bound = run
        if hasattr(self, "_play"):  # the entry point compiled for these arrays' types (looked up, never assumed)
            self._play = _entry_point(self._k.play, (*self._args, np.zeros((1, self.obs_size), np.int16)))

    def call(self, mode: int, obs: NDArray[np.int16]) -> int:
        """One call of :func:`unosim.env.kernels.play` in ``mode``, going on through the Python
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


def _entry_point(dispatcher: Any, args: tuple[Any, ...]) -> Any:
    """The compiled function of ``dispatcher`` for the types of ``args``, called without the dispatcher's
    type matching (a third of a call's cost here); the dispatcher itself when it has none for them."""
    import numba

    found = dispatcher.overloads.get(tuple(numba.typeof(a) for a in args))
    return found.entry_point if found is not None else dispatcher
