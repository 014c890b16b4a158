"""The engine driver: plays a range of games of a run in lockstep batches.

[`Engine`][unosim.engine.Engine] holds what a run configuration fixes (the encoded rules, the deck,
the strategies); each `Run` owns the state of one batch of games
(`Buffers`) and loops: the
`advance` kernel runs every game to its next
decision, then `Decisions` asks the strategies and checks
their answers. Two runs of one engine share nothing mutable. [`play_tables`][unosim.engine.play_tables] is
the entry point used by the runner.

The other jobs live beside it: `unosim.game.encoding` (rules to the kernels'
``cfg``), `unosim.engine.decisions` (asking and checking), `unosim.engine.batch` (the
batch state and raw results).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from ..game.encoding import check_supported, copy_flags, encode_flags, encode_rules
from ..game.kernels import deal
from ..game.kernels import layout as L
from ..game.kernels import state as S
from ..game.kernels.advance import advance, compile_advance
from ..game.kernels.policy import POLICY_RULES
from ..game.kernels.rng import run_key
from ..strategy import registry
from ..strategy.base import Strategy
from ..strategy.spec import StrategySpec
from . import kernel_cache
from .batch import Buffers, Played
from .config import LARGEST_DEFAULT_BATCH, RunConfig
from .decisions import Decisions, StepChanged, StrategyError, TamperingError, compile_helpers
from .fast_paths import auto_drawn_mask, compiled_policy, forced_draw_uniforms, no_challenge_mask, rule_program
from .records import matches_table, records_table, rounds_table

__all__ = [
    "LOCKSTEP_ROW_BYTES", "Engine", "Played", "Run", "StrategyError", "TamperingError", "compile_kernels", "lockstep_batch_size",
    "kernel_copy_for", "make_strategy", "play_tables",
]

LOCKSTEP_ROW_BYTES = 96 << 20
"""Most memory the row buffers of a batch whose strategies decide in Python may take for the engine
to double its default batch size (`lockstep_batch_size`)."""

_ENGINE_ARRAYS = ("cfg", "rules_cfg", "deck", "lineup")
"""The engine's arrays no strategy may change (verification), restored before a replay."""


class Engine:
    """Plays games of one run configuration in lockstep batches.

    Parameters
    ----------
    config : RunConfig
        What to play.
    batch_size : int, optional
        Slots stepped together (default: ``config.effective_batch_size``, or `lockstep_batch_size`
        when a strategy decides in Python). Results do not depend on it.
    trace : bool
        Keep the full event log of every game (for replay and the referee).
    check : bool
        Verify after every step that every card is accounted for, and verify (``verify``) with
        checksums of the guarded state before and after every step.
    compiled : bool
        Let strategies with a compiled policy (the shipped ``random`` and
        ``greedy``) decide inside the kernel. Same games either way; ``False``
        asks their Python methods.
    verify : bool
        Guard, at every call of a Python strategy, what it must not touch (hands, piles, other
        answers, the strategies, the rules, the records; read-only during the call, compared after
        it; see `unosim.engine.integrity`), else stop with a
        `TamperingError` naming the strategy and the decision.
        On with ``check``; the same games either way.
    isolate : bool
        Play each user strategy (`is_user_code`) from a process of
        its own (`unosim.engine.isolation`); the same games either way.
    """

    def __init__(
        self, config: RunConfig, *, batch_size: int | None = None, trace: bool = False, check: bool = False, compiled: bool = True,
        verify: bool = False, isolate: bool = False,
    ) -> None:  # fmt: skip
        check_supported(config.rules, config.players, match=config.match)
        self.config = config
        self.verify = verify or check
        self.check = check
        self.trace = trace
        self.compiled = compiled
        self._spare: Buffers | None = None  # the buffers of the last run play() finished, for the next
        self.rules_cfg = encode_rules(config.rules, config.players)
        self.flags_cfg = encode_flags(match=config.match, trace=trace, check=check)
        specs = {str(spec): spec for spec in config.strategies}  # one object per distinct spec, in seat order
        labels = list(specs)
        strategies = [make_strategy(spec, isolate) for spec in specs.values()]
        self.set_strategies(strategies, labels, [labels.index(str(spec)) for spec in config.strategies])
        self.batch_size = batch_size or (config.effective_batch_size if self.cfg[L.C_ALL_COMPILED]
                                         else lockstep_batch_size(config, len(strategies)))
        self.deck = config.rules.load_deck().array(config.rules.deck_copies)
        self._pristine["deck"] = self.deck.copy()
        self.rkey = np.uint64(run_key(config.seed))

    def set_strategies(self, strategies: list[Strategy], labels: list[str], lineup: list[int]) -> None:
        """Seat ``strategies[lineup[seat]]`` at each seat (``labels`` name them in errors)."""
        self.decisions = Decisions(strategies, labels, verify=self.verify, checksums=self.check)
        self.strategies = self.decisions.strategies
        self.strategy_labels = self.decisions.strategy_labels
        self.lineup = np.asarray(lineup, np.int32)
        self.lineup_cfg, programs = self._encode_lineup()
        self.cfg = np.concatenate([self.rules_cfg, self.flags_cfg, self.lineup_cfg, *programs]).astype(np.int32)
        self.house, self.programs = copy_flags(self.rules_cfg, self.cfg[L.C_POLICY0 : L.C_POLICY0 + len(self.strategies)])
        # compiles once per machine (file lock), else loads; each copy of the kernels on its own
        kernel_cache.ensure_compiled(lambda: compile_advance(self.house, self.programs), copy=self.kernel_copy)
        self._pristine = {name: getattr(self, name).copy() for name in _ENGINE_ARRAYS if hasattr(self, name)}  # for a replay

    @property
    def kernel_copy(self) -> str:
        """The kernels' compiled copy this engine's games run on (`unosim.engine.kernel_cache.COPIES`)."""
        return kernel_cache.kernel_copy(self.house, self.programs)

    def _encode_lineup(self) -> tuple[NDArray[np.int32], list[NDArray[np.int32]]]:
        """The line-up's part of ``cfg`` (``cfg[C_N_STRATS:N_CFG]``) and the rule programs that follow it:
        per strategy, its declared shortcuts and, when compiling, its compiled policy."""
        lineup = np.zeros(L.N_CFG - L.C_N_STRATS, np.int32)

        def put(slot: int, value: int) -> None:
            lineup[slot - L.C_N_STRATS] = value

        put(L.C_N_STRATS, len(self.strategies))
        put(L.C_AUTO_DRAWN, auto_drawn_mask(self.strategies))
        put(L.C_NO_CHALLENGE, no_challenge_mask(self.strategies))
        for k, strat in enumerate(self.strategies):
            uniforms = forced_draw_uniforms(strat)
            if uniforms is not None:
                put(L.C_FORCED0 + k, uniforms + 1)
        programs: list[NDArray[np.int32]] = []  # appended after the fixed cfg entries
        if self.compiled:
            policies = []
            for k, strat in enumerate(self.strategies):
                pol = compiled_policy(strat)
                if pol == POLICY_RULES:
                    from ..strategy.rule_programs import encode_program

                    pol += L.N_CFG + sum(len(words) for words in programs)
                    programs.append(encode_program(rule_program(strat)))
                put(L.C_POLICY0 + k, pol)
                policies.append(pol)
            put(L.C_ALL_COMPILED, all(policies))
        return lineup, programs

    def play(self, first: int, n_games: int) -> Played:
        """Play games ``first .. first + n_games - 1``; return their raw records."""
        run = Run(self, first, n_games, spare=self._spare)
        self._spare = None  # a run that stops on an error leaves its buffers to no one
        while run.step():
            pass
        played = run.finish()
        self._spare = run.buffers  # nothing returned refers to them: the next play() sets them up again
        return played

    def tables(self, first: int, n_games: int) -> tuple[pa.Table, pa.Table | None]:
        """Play games (matches) ``first .. first + n_games - 1``; return their tables, as [`play_tables`][unosim.engine.play_tables]."""
        config = self.config
        played = self.play(first, n_games)
        if not config.match:
            return records_table(config, played), None
        return matches_table(config, played), rounds_table(config, played)

    def _name_tamperer(self, run: Run, found: StepChanged) -> None:
        """Verification found state changed at the end of a step of ``run``: play its games again from
        the start, comparing after every strategy call, so that the error names the strategy and the
        decision (always raises `TamperingError`)."""
        integrity = self.decisions.integrity
        assert integrity is not None
        integrity.restore()
        for name, kept in self._pristine.items():
            setattr(self, name, kept.copy())
        integrity.strict = True
        try:
            again = Run(self, run.first, run.n_games)
            while again.step():
                pass
        finally:
            integrity.strict = False
        raise TamperingError(
            f"the state of the game ({', '.join(found.what)}) changed while the strategies {found.asked} decided one "
            "step, and playing the games again did not show which; a strategy may read only the observation it is "
            "given and change nothing else. The run is stopped."
        )

    def start(self, first: int, n_games: int) -> Run:
        """Set up a batch for games ``first .. first + n_games - 1`` (step it with `Run.step`)."""
        return Run(self, first, n_games)

def _held(record: str, field: str) -> Any:
    """An attribute of `Run` that is the array ``field`` of its record ``record``; setting it
    replaces the record (the kernels then get the new array)."""

    def get(run: Run) -> Any:
        return getattr(getattr(run, record), field)

    def put(run: Run, value: Any) -> None:
        setattr(run, record, getattr(run, record)._replace(**{field: value}))

    return property(get, put, doc=f"``{record}.{field}``")


class Run:
    """One batch being played: the state arrays, the records, and the step loop.

    The kernels take the arrays in the records of `unosim.game.kernels.state`, built here once:
    ``games``, ``seats`` and ``rows`` from the `Buffers`, ``records`` (the
    records of the games played and the event log) and ``work`` (the counters, the run's cards, the work
    buffers); ``rec``, ``points``, ``opening``, ``deck`` … name their arrays.
    """

    rec = _held("records", "rec")
    points = _held("records", "rec_points")
    opening = _held("records", "rec_open")
    match_scores = _held("records", "match_scores")
    ev = _held("records", "ev")
    nev = _held("records", "nev")
    ctr = _held("work", "ctr")
    deck = _held("work", "deck")
    scratch = _held("work", "scratch")
    actors = _held("work", "actors")
    err = _held("work", "err")

    def __init__(self, engine: Engine, first: int, n_games: int, spare: Buffers | None = None) -> None:
        cfg = engine.config
        P, H = cfg.players, cfg.rules.hand_size
        self.engine = engine
        self.first = first
        self.n_games = n_games
        batch = max(1, min(engine.batch_size, n_games))
        if spare is not None and spare.slot.shape[0] == batch:  # the same engine: the same shapes
            b = spare.reset()
        else:
            b = Buffers.allocate(batch, P, len(engine.strategies), cfg.rules)
        b.slot[:, L.F_PHASE] = L.PH_NEWGAME
        b.slot[:, L.F_ROW] = -1
        b.seat_strat[:] = engine.lineup
        self.buffers = b
        self.games = S.Games(b.slot, b.game, b.keys, b.hands, b.hsize, b.piles, b.opening)
        self.seats = S.Seats(b.seat_strat, b.seat_ctr, b.seat_dec, b.seat_w)
        self.rows = S.Rows(b.row_slot, b.row_seat, b.row_legal, b.row_info, b.dec, b.dec_w, b.group_base, b.group_count)
        deck = engine.deck.copy()  # the cards dealt (a set-up position replaces it, unosim.engine.position)
        self.match = cfg.match
        rows = 2 * max(n_games, batch) if self.match else n_games  # matches: round rows, grown when full
        # tracing: most events one phase step of a slot can log (a first card re-flipped up to 4 times the deck
        # size, with reshuffles; draws, echoes and wrong jump-ins of every seat); see _advance_once
        self.step_events = 8 * int(deck.sum()) + 8 * P + 64
        self.records = S.Records(
            rec=np.zeros((rows, L.N_REC), np.int32),
            rec_points=np.zeros((rows, P), np.int16),
            rec_open=np.zeros((rows, P, H), np.int8),
            match_scores=np.zeros((n_games, P + 1) if self.match else (1, 1), np.int32),  # totals, then the winner
            ev=np.zeros((max(batch * 512, 2 * self.step_events) if engine.trace else 1, L.N_EV_COLS), np.int32),
            nev=np.zeros(1, np.int64),
        )
        self.events: list[NDArray[np.int32]] = []
        self.work = S.Work(
            ctr=np.zeros(L.N_CTR, np.int64),
            deck=deck,
            scratch=S.deal_scratch(deck),
            actors=np.zeros(max(P, 64), np.int64),
            err=np.full(1, -1, np.int64),
        )
        self.ctr[L.CT_NEXT], self.ctr[L.CT_END] = first, first + n_games
        self.parity = 0

    def advance(self) -> int:
        """Apply pending decisions and run every slot to its next decision; return the rows waiting."""
        while True:
            n_rows = self._advance_once()
            waited, paused = self.ctr[L.CT_WAIT], self.ctr[L.CT_PAUSED]
            if waited:
                self._grow_rounds()  # a finished match round waited for room in the round buffers
            if n_rows or not (waited or paused):
                return n_rows  # a waiting round is recorded, a paused slot goes on, in the next call
            # nothing to decide: call again at once (no decision row is pending, so this is safe)

    def _advance_once(self) -> int:
        b, e = self.buffers, self.engine
        self.nev[0] = 0
        self.ctr[L.CT_WAIT] = self.ctr[L.CT_PAUSED] = 0
        if e.trace:  # room for one phase step of every slot that must read its decision before it may pause
            need = (int(np.count_nonzero(b.slot[:, L.F_ROW] >= 0)) + 1) * self.step_events
            if self.ev.shape[0] < 2 * need:
                self.ev = np.zeros((2 * need, L.N_EV_COLS), np.int32)
            self.ctr[L.CT_TRACE_ROOM] = self.ev.shape[0] - need
        n_rows = advance(self.games, self.seats, self.rows, self.records, self.work, e.cfg, self.first, e.rkey, self.parity,
                         e.house, e.programs)
        if self.err[0] >= 0:
            raise AssertionError(f"card conservation violated in game {b.game[self.err[0]]} (slot {self.err[0]})")
        if e.trace:
            if self.nev[0] > self.ev.shape[0]:
                raise AssertionError(f"trace buffer overflow: {self.nev[0]} events for room {self.ev.shape[0]}")
            self.events.append(self.ev[: self.nev[0]].copy())
        return n_rows

    def _grow_rounds(self) -> None:
        """Double the round buffers of a match run, keeping the rows written."""
        n = int(self.ctr[L.CT_ROUNDS])

        def grown(a: NDArray[Any]) -> NDArray[Any]:
            out = np.zeros((2 * a.shape[0],) + a.shape[1:], a.dtype)
            out[:n] = a[:n]
            return out

        self.rec, self.points, self.opening = grown(self.rec), grown(self.points), grown(self.opening)

    # ------------------------------------------------------------ named operations on the batch
    def deal_all(self) -> None:
        """Deal every slot its game now (slot ``s`` <- game ``first + s``), as the kernel would on
        its first step; the batch must hold every game of the run (batch size at least ``n_games``)."""
        b, e = self.buffers, self.engine
        n = b.slot.shape[0]
        if self.ctr[L.CT_END] - self.ctr[L.CT_NEXT] != n:
            raise ValueError(f"the engine's batch size must be at least {int(self.ctr[L.CT_END] - self.first)} "
                             "to deal every game of the batch at once.")
        for s in range(n):  # a Python loop once per game, next to the thousands of kernel steps of playing it
            g = self.ctr[L.CT_NEXT]
            self.ctr[L.CT_NEXT] = g + 1
            dealer = deal.new_game(s, g, e.rkey, b.slot, b.game, b.keys, b.hands, b.hsize, b.piles, b.seat_ctr, e.cfg)
            deal.deal_round(s, dealer, self.deck, self.scratch, b.slot, b.game, b.keys, b.hands, b.hsize, b.piles, b.opening,
                       e.cfg, self.ev, self.nev)

    def dealt(self) -> tuple[NDArray[np.int8], NDArray[np.int8]]:
        """After `deal_all`: copies of every slot's opening hands (slot, seat, card) and draw-pile
        counts (slot, card type)."""
        b = self.buffers
        return b.opening.copy(), b.piles[:, L.DRAW, :].copy()

    def exchange(self, slots: NDArray[np.int64], seats: NDArray[np.int64], positions: NDArray[np.int64],
                 into: NDArray[np.int64]) -> None:
        """Before the first turn: the card at ``positions`` of each ``seats``' opening hand goes to the
        draw pile and a card of type ``into`` comes from the draw pile in its place (one per slot)."""
        b = self.buffers
        out = b.opening[slots, seats, positions].astype(np.int64)
        b.hands[slots, seats, out] -= 1
        b.hands[slots, seats, into] += 1
        b.piles[slots, L.DRAW, into] -= 1
        b.piles[slots, L.DRAW, out] += 1
        b.opening[slots, seats, positions] = into

    def place(self, hands: NDArray[np.int8], draw: NDArray[np.int8], discard: NDArray[np.int8], top: int, colour: int,
              direction: int, link: tuple[int, int], alive: int, turns: int, turn: int, dealer: int) -> None:
        """Put a set-up position into the batch's only slot as its only game (see
        `unosim.engine.position.play_from`): these hands and piles are the run's cards."""
        b, e = self.buffers, self.engine
        self.ctr[L.CT_NEXT] = self.ctr[L.CT_END]  # no further game is dealt into the slot
        self.deck = (hands.sum(axis=0) + draw + discard).astype(np.int16)  # the run's cards (card conservation)
        self.deck[top] += 1
        self.scratch = S.deal_scratch(self.deck)
        deal.set_position(0, self.first, e.rkey, dealer, hands, draw, discard, top, colour, direction, *link, alive, turns, turn,
                     b.slot, b.game, b.keys, b.hands, b.hsize, b.piles, b.seat_ctr)

    def state(self, slot: int = 0) -> tuple[NDArray[np.int32], NDArray[np.int8], NDArray[np.int8], NDArray[np.int8]]:
        """Copies of one slot's fields (``F_*``), hands (seat, card), hand sizes and piles (pile, card)."""
        b = self.buffers
        return b.slot[slot].copy(), b.hands[slot].copy(), b.hsize[slot].copy(), b.piles[slot].copy()

    def step(self) -> bool:
        """One lockstep step: advance, then ask the strategies. False when every game is done."""
        if self.advance() == 0:
            return False
        try:
            self.decide()
        except StepChanged as found:
            integrity = self.engine.decisions.integrity
            if integrity is not None and integrity.strict:
                raise TamperingError(
                    f"the state of the game ({', '.join(found.what)}) changed while the strategies {found.asked} decided "
                    "one step; a strategy may read only the observation it is given and change nothing else. "
                    "The run is stopped."
                ) from None
            self.engine._name_tamperer(self, found)
        return True

    def decide(self) -> None:
        """Ask the strategies for the decisions waiting in this batch (then `advance` applies them)."""
        e = self.engine
        guarded = _guarded(self)  # read-only while strategies are called, in every mode
        e.decisions.decide(self.buffers, self.parity, guarded)
        self.parity = 1 - self.parity

    def extend(self, n_games: int) -> None:
        """Plan ``n_games`` more games (single rounds) after the last one: the slots deal them as they
        free up, as any game of the batch; the record buffers grow, keeping the rows written."""
        if self.match:
            raise ValueError("a match batch cannot be extended.")

        def grown(a: NDArray[Any]) -> NDArray[Any]:
            return np.concatenate([a, np.zeros((n_games,) + a.shape[1:], a.dtype)])

        self.rec, self.points, self.opening = grown(self.rec), grown(self.points), grown(self.opening)
        self.ctr[L.CT_END] += n_games

    def finish(self) -> Played:
        """The raw records (and events, when tracing) of the games played."""
        played = Played(self.first, self.rec, self.points, self.opening)
        if self.match:
            n = int(self.ctr[L.CT_ROUNDS])
            order = np.lexsort((self.rec[:n, L.R_ROUND], self.rec[:n, L.R_MATCH]))  # rows in (match, round) order
            rec = self.rec[order]
            played = Played(
                self.first, rec, self.points[order], self.opening[order], round_game=self.first + rec[:, L.R_MATCH].astype(np.int64),
                match_scores=self.match_scores[:, :-1], match_winner=self.match_scores[:, -1],
            )
        if self.engine.trace:
            played.events = np.concatenate(self.events) if self.events else np.zeros((0, L.N_EV_COLS), np.int32)
        return played


def lockstep_batch_size(config: RunConfig, n_strategies: int) -> int:
    """The batch size of a run whose strategies (``n_strategies`` distinct ones) decide in Python, unless
    ``config`` sets one: twice the default, up to the largest default (8,192), while the row buffers
    stay within `LOCKSTEP_ROW_BYTES`, else the default. Each lockstep step costs a fixed time in
    Python besides its rows; a larger batch spreads it over more of them."""
    batch = config.effective_batch_size
    if config.batch_size is None and 2 * batch <= LARGEST_DEFAULT_BATCH:
        if Buffers.row_bytes(2 * batch, config.players, n_strategies) <= LOCKSTEP_ROW_BYTES:
            return 2 * batch
    return batch


def make_strategy(spec: StrategySpec, isolate: bool = False) -> Strategy:
    """The strategy of ``spec``: in this process, or (``isolate``, user code) from its own
    (`unosim.engine.isolation`)."""
    if isolate and registry.is_user_code(spec.name):
        from .isolation import isolated

        return isolated(spec.name, dict(spec.params))
    return registry.make(spec.name, dict(spec.params))


def _guarded(run: Run) -> tuple[tuple[str, Any, str], ...]:
    """The run's and the engine's arrays no strategy may change, as `Decisions.decide` takes them."""
    e = run.engine
    return (
        ("the records", run, "rec"), ("the records", run, "points"), ("the records", run, "opening"),
        ("the records", run, "match_scores"), ("the records", run, "ctr"), ("the records", run, "deck"),
        ("the rules", e, "cfg"), ("the rules", e, "rules_cfg"), ("the rules", e, "deck"), ("the rules", run, "deck"),
        ("the strategies", e, "lineup"),
    )  # fmt: skip


def kernel_copy_for(config: RunConfig, isolate: bool = False) -> str:
    """The kernels' compiled copy (`unosim.engine.kernel_cache.COPIES`) the run ``config`` plays on:
    ``"house"`` when it turns on a house rule with code of its own in the kernels, ``"programs"`` when
    a strategy of its line-up plays by a compiled rule program, else ``""``
    (`unosim.game.encoding.copy_flags`). ``isolate``: user strategies play isolated (and are not
    imported here); none of them plays by a compiled policy then."""
    specs = {str(spec): spec for spec in config.strategies}.values()
    policies = [compiled_policy(make_strategy(spec)) for spec in specs if not (isolate and registry.is_user_code(spec.name))]
    return kernel_cache.kernel_copy(*copy_flags(encode_rules(config.rules, config.players), policies))


def compile_kernels(configs: Iterable[RunConfig], isolate: bool = False) -> None:
    """Compile, or load from the disk cache, the kernels the runs ``configs`` need, in this process.

    Plays one game of each distinct line-up: the engine kernel compiles (once per machine, see
    `unosim.engine.kernel_cache`) and so do the compiled helpers the strategies' Python methods use;
    a line-up that decides in Python also compiles every helper of `Decisions`.
    ``isolate``: the runs play user strategies isolated, so this game seats
    `StandIn` in their place (asked as they will be; their modules are
    not imported here).
    """
    seen = set()
    for config in configs:
        if isolate and any(registry.is_user_code(spec.name) for spec in config.strategies):
            from .isolation import STAND_IN

            stand_in = StrategySpec(STAND_IN)
            config = dataclasses.replace(
                config, strategies=tuple(stand_in if registry.is_user_code(s.name) else s for s in config.strategies)
            )
        key = (tuple(str(spec) for spec in config.strategies), config.match, kernel_copy_for(config, isolate))
        if key not in seen:
            seen.add(key)
            engine = Engine(config, batch_size=1)
            run = engine.start(0, 1)
            while run.step():
                pass
            if not engine.cfg[L.C_ALL_COMPILED]:
                compile_helpers(run.buffers)


def play_tables(
    config: RunConfig, first_game: int, n_games: int, *, verify: bool = False, isolate: bool = False
) -> tuple[pa.Table, pa.Table | None]:
    """Play games (matches) ``first_game .. first_game + n_games - 1`` of the run ``config``; with
    ``verify``, stop a strategy that changes what it must not touch; with ``isolate``, play user
    strategies from processes of their own ([`Engine`][unosim.engine.Engine]).

    Returns
    -------
    main : pyarrow.Table
        One row per game (single rounds) or per match (``config.match``), in index order.
    rounds : pyarrow.Table or None
        Match runs: one row per round, in (match, round) order; ``None`` for single rounds.
        Schemas: `unosim.engine.records`.
    """
    return Engine(config, verify=verify, isolate=isolate).tables(first_game, n_games)


