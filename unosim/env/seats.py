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

from ..engine.config import RunConfig
from ..engine.decisions import Rows
from ..engine.driver import Engine, Run
from ..game.cards import N_TYPES, NAMES_A_COLOUR, WILD_DRAW_FOUR, WILD_DRAWN_TOGETHER
from ..game.kernels import layout as L
from ..game.kernels.rng import run_key
from ..strategy import registry
from ..strategy.base import Strategy
from ..strategy.observation import Observation
from ..strategy.spec import StrategySpec, parse_strategies
from . import encoding as E

__all__ = ["Actions", "Outcome", "SeatedGame", "Step", "as_action"]

_NEEDS_COLOUR = np.zeros(N_TYPES, bool)
_NEEDS_COLOUR[list(NAMES_A_COLOUR)] = True
_PHASE_KIND = {
    L.PH_TURN: "play", L.PH_DRAWN: "drawn", L.PH_COLOUR: "colour", L.PH_CHALLENGE: "challenge", L.PH_CATCH: "catch",
    L.PH_PILEUP: "pileup", L.PH_VOTE: "vote", L.PH_JUMPIN: "jumpin",
}
_TARGET_SEAT = (L.PH_CATCH, L.PH_CHALLENGE, L.PH_VOTE, L.PH_JUMPIN)


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
    """

    def __init__(
        self, rules: Any, players: int, controlled: list[int], others: Any = "random", overrides: Any = None, batch: int = 1
    ) -> None:
        self.players = players
        self.controlled = sorted(set(int(s) for s in controlled))
        if not self.controlled or not all(0 <= s < players for s in self.controlled):
            raise ValueError(f"controlled seats {controlled!r}: give seats from 0 to {players - 1}.")
        free = [s for s in range(players) if s not in self.controlled]
        others_list = list(others) if isinstance(others, (list, tuple)) else [others] * len(free)
        if len(others_list) != len(free):
            raise ValueError(f"{len(others_list)} strategies for the {len(free)} other seats; give one, or one per other seat.")
        self.batch = batch
        self.config = RunConfig.build(rules=rules, players=players, strategies="random", games=1, batch_size=batch,
                                      overrides=overrides)
        house = {"stacking": "none", "seven_zero": False}
        on = [f"{k}={getattr(self.config.rules, k)}" for k, off in house.items() if getattr(self.config.rules, k) != off]
        if on:
            raise ValueError(
                f"the environments have no action for the house-rule decisions of {', '.join(on)} (H-1 stack, H-2 swap); "
                "play them with strategies (unosim simulate), or set stacking=none and seven_zero=false."
            )
        self.engine = Engine(self.config, batch_size=batch)
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

    def answer(self, action: int) -> None:
        """Answer the first waiting step with ``action`` (already checked against its mask)."""
        step = self.queue.pop(0)
        follow = self.record(step, int(action))
        self.queue[:0] = follow
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
        return follow + self._uno_step(step, True, card)

    def _uno_step(self, step: Step, shedding: bool, card: int = -1) -> list[Step]:
        if shedding and int(step.info[L.I_HSIZE]) == 2:
            return [self._step(step.seat, "uno", step.info, card, step.row, step.slot)]
        return []

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
            if 0 <= drawn < N_TYPES:
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
