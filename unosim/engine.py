"""The engine driver: plays a range of games of a run in lockstep batches.

:class:`Engine` owns the batch state (layout in :mod:`unosim.kernels.layout`),
calls the :func:`~unosim.kernels.advance.advance` kernel, and between two calls
asks each strategy for the decisions of its seats, one call per
(phase, strategy) group, checking every answer. :func:`play_range` is the entry
point used by the runner.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from . import kernel_cache, registry
from .cards import CARD_NAMES, N_TYPES, NAMES_A_COLOUR, WILD_DRAW_FOUR, WILD_DRAWN_TOGETHER
from .config import RunConfig
from .fast_paths import asks_forget_uno, auto_drawn_mask, compiled_policy
from .kernels.policy import POLICY_RULES
from .kernels import layout as L
from .kernels.advance import advance
from .kernels.rng import run_key
from .observation import Observation, SeatStreams, TableFields, gather_public
from .primitives import first_illegal_card
from .records import matches_table, records_table, rounds_table
from .rules import RuleSet
from .strategy import Strategy

_NEEDS_COLOUR = np.zeros(N_TYPES + 1, bool)  # index -1 (draw) maps to the last entry
_NEEDS_COLOUR[list(NAMES_A_COLOUR)] = True

_CHOICES = {
    "first_card": ("apply_actions", "reflip_actions", "ignore_effect"),
    "first_wild": ("first_player_chooses", "reflip"),
    "wd4_legal_when": ("no_color_match_incl_wilds", "no_color_match", "no_color_or_number_match", "always"),
    "pileup_flipped_wilds": ("discard", "mini_pile"),
    "scoring": ("winner_takes", "penalty"),
}


class StrategyError(RuntimeError):
    """A strategy returned an illegal or ill-shaped decision, or raised an exception."""


def encode_rules(rules: RuleSet, players: int, *, match: bool, trace: bool, check: bool) -> NDArray[np.int32]:
    """Pack a rule set into the kernels' ``cfg`` vector (``C_*`` in ``layout``); the strategy
    entries are set by :meth:`Engine.set_strategies`."""
    cfg = np.zeros(L.N_CFG, np.int32)
    cfg[L.C_PLAYERS] = players
    cfg[L.C_HAND] = rules.hand_size
    cfg[L.C_FIRST_CARD] = _CHOICES["first_card"].index(rules.first_card)
    cfg[L.C_FIRST_WILD] = _CHOICES["first_wild"].index(rules.first_wild)
    cfg[L.C_DEALER] = -1 if rules.dealer == "random" else int(rules.dealer)
    cfg[L.C_SYMBOL_MATCH] = rules.action_symbol_match
    cfg[L.C_DRAW_UNTIL] = rules.draw_until_playable
    cfg[L.C_REV2_SKIPS] = rules.reverse_two_players_skips
    cfg[L.C_PT_CAP] = rules.point_taken_cap
    cfg[L.C_PT_LINK_FIRST] = rules.point_taken_breaks_link_first
    cfg[L.C_WD4_WHEN] = _CHOICES["wd4_legal_when"].index(rules.wd4_legal_when)
    cfg[L.C_WD4_CHALLENGE] = rules.wd4_challenge
    cfg[L.C_PILEUP_WILDS] = _CHOICES["pileup_flipped_wilds"].index(rules.pileup_flipped_wilds)
    cfg[L.C_PILEUP_REFUSE] = rules.pileup_may_refuse
    cfg[L.C_LINK_PILEUP] = rules.link_shares_pileup
    cfg[L.C_RELINK_DIFFER] = rules.relink_must_differ
    cfg[L.C_LINK_VOLUNTARY] = rules.link_echoes_voluntary_draws
    cfg[L.C_SPEED] = rules.speed_play
    cfg[L.C_SPEED_ERR_PPM] = round(rules.speed_play_error_rate * 1_000_000)
    cfg[L.C_UNO_PENALTY] = rules.uno_penalty
    cfg[L.C_LAST_DRAWS] = rules.last_card_draws
    cfg[L.C_SCORING] = _CHOICES["scoring"].index(rules.scoring)
    cfg[L.C_TARGET] = rules.target_score
    cfg[L.C_ELIMINATION] = rules.elimination
    cfg[L.C_MAX_TURNS] = rules.max_turns
    cfg[L.C_MATCH] = match
    cfg[L.C_TRACE] = trace
    cfg[L.C_CHECK] = check
    return cfg


def check_supported(rules: RuleSet, players: int, *, match: bool = False) -> None:
    """Refuse rules the engine does not play yet, before any work starts."""
    if rules.dealer != "random" and int(rules.dealer) >= players:
        raise ValueError(f"rule option dealer={rules.dealer} is not a seat of a {players}-player table; use 0 to {players - 1} or 'random'.")


@dataclass
class Buffers:
    """The batch state and the observation/decision row buffers (see ``layout``)."""

    players: int
    relink_must_differ: bool
    slot: NDArray[np.int32]
    game: NDArray[np.int64]
    keys: NDArray[np.uint64]
    hands: NDArray[np.int8]
    hsize: NDArray[np.int32]
    piles: NDArray[np.int8]
    seat_strat: NDArray[np.int32]
    seat_ctr: NDArray[np.int32]
    seat_dec: NDArray[np.int32]
    seat_w: NDArray[np.float64]
    opening: NDArray[np.int8]
    row_slot: NDArray[np.int32]
    row_seat: NDArray[np.int32]
    row_hand: NDArray[np.int8]
    row_legal: NDArray[np.bool_]
    row_info: NDArray[np.int32]
    dec: NDArray[np.int32]
    dec_w: NDArray[np.float64]
    group_base: NDArray[np.int64]
    group_count: NDArray[np.int64]

    @classmethod
    def allocate(cls, batch: int, players: int, hand_size: int, n_strategies: int, relink_must_differ: bool = False) -> Buffers:
        """Buffers for ``batch`` slots; each (phase, strategy) group gets its own row region."""
        caps = [
            batch * players if phase in L.MULTI_ACTOR else batch
            for phase in range(L.N_DECISION_PHASES)
            for _ in range(n_strategies)
        ]
        base = np.concatenate([[0], np.cumsum(caps)[:-1]]).astype(np.int64)
        rows = int(sum(caps))
        return cls(
            players=players,
            relink_must_differ=relink_must_differ,
            slot=np.zeros((batch, L.N_FIELDS), np.int32),
            game=np.full(batch, -1, np.int64),
            keys=np.zeros(batch, np.uint64),
            hands=np.zeros((batch, players, N_TYPES), np.int8),
            hsize=np.zeros((batch, players), np.int32),
            piles=np.zeros((batch, 3, N_TYPES), np.int8),
            seat_strat=np.zeros((batch, players), np.int32),
            seat_ctr=np.zeros((batch, players), np.int32),
            seat_dec=np.zeros((batch, players), np.int32),
            seat_w=np.zeros((batch, players), np.float64),
            opening=np.zeros((batch, players, hand_size), np.int8),
            row_slot=np.zeros((2, rows), np.int32),
            row_seat=np.zeros((2, rows), np.int32),
            row_hand=np.zeros((2, rows, N_TYPES), np.int8),
            row_legal=np.zeros((2, rows, N_TYPES), np.bool_),
            row_info=np.zeros((2, rows, L.N_INFO), np.int32),
            dec=np.zeros((2, rows, L.N_DEC), np.int32),
            dec_w=np.zeros((2, rows), np.float64),
            group_base=base,
            group_count=np.zeros(len(caps), np.int64),
        )


class Rows(TableFields):
    """The engine's own record of a group of decision rows (one phase, one strategy).

    Answers are checked against these arrays (the engine's row buffers), never against
    what a strategy was shown: :meth:`observe` builds the strategy's
    :class:`~unosim.observation.Observation` from fresh read-only copies.
    """

    def __init__(self, b: Buffers, phase: int, slots: NDArray[np.int32], seat: NDArray[np.int32], hand: NDArray[np.int8],
                 legal: NDArray[np.bool_], info: NDArray[np.int32]) -> None:
        self._b = b
        self.phase, self.slots, self.seat, self.hand, self.legal, self.info = phase, slots, seat, hand, legal, info
        self.players = b.players

    def __len__(self) -> int:
        return int(self.slots.shape[0])

    def subset(self, rows: NDArray[np.intp]) -> Rows:
        """The rows ``rows`` (indices) of this group."""
        return Rows(self._b, self.phase, self.slots[rows], self.seat[rows], self.hand[rows], self.legal[rows], self.info[rows])

    def observe(self) -> Observation:
        """What the strategy sees: public information of these rows, in fresh read-only arrays."""
        b = self._b
        games, sizes, alive, link, choices, discard = gather_public(
            b.slot, b.hsize, b.piles, b.game, self.slots, self.info[:, L.I_TOP], b.relink_must_differ
        )
        return Observation(
            phase=self.phase, players=self.players, seat=self.seat.copy(), game=games, hand=self.hand.copy(),
            legal=self.legal.copy(), info=self.info.copy(), hand_sizes=sizes, alive=alive, discard=discard, link=link,
            link_choices=choices, streams=SeatStreams.of_rows(b.keys, b.seat_ctr, self.slots, self.seat),
        )

    @property
    def game(self) -> NDArray[np.int64]:
        """Global game index of each row."""
        return self._b.game[self.slots]

    @property
    def alive(self) -> NDArray[np.bool_]:
        """``[n, players]`` seats still in the match, from the engine's state."""
        return ((self._b.slot[self.slots, L.F_ALIVE, None] >> np.arange(self.players)) & 1).astype(bool)

    @property
    def link_choices(self) -> NDArray[np.bool_]:
        """Seats a Wild Drawn Together may link now (P-6), from the engine's state."""
        allowed = self.alive
        if self._b.relink_must_differ:
            link = self._b.slot[self.slots][:, [L.F_LINK_A, L.F_LINK_B]]
            linked = np.flatnonzero(link[:, 0] >= 0)
            allowed[linked, link[linked, 0]] = False
            allowed[linked, link[linked, 1]] = False
        return allowed


@dataclass
class Played:
    """Raw results of :meth:`Engine.play`.

    Single rounds: row ``i`` of ``rec``/``points``/``opening`` is game ``first + i``.
    Matches: those rows are the rounds, sorted by match then round (``round_game`` holds
    each row's match, ``rec[:, R_ROUND]`` its round); ``match_scores[i]`` and
    ``match_winner[i]`` are the final totals and winner of match ``first + i``.
    """

    first: int
    rec: NDArray[np.int32]
    points: NDArray[np.int16]
    opening: NDArray[np.int8]
    events: NDArray[np.int32] | None = None
    round_game: NDArray[np.int64] | None = None
    match_scores: NDArray[np.int32] | None = None
    match_winner: NDArray[np.int32] | None = None


class Engine:
    """Plays games of one run configuration in lockstep batches.

    Parameters
    ----------
    config : RunConfig
        What to play.
    batch_size : int, optional
        Slots stepped together (default: ``config.effective_batch_size``).
        Results do not depend on it.
    trace : bool
        Keep the full event log of every game (for replay and the referee).
    check : bool
        Verify after every step that every card is accounted for.
    compiled : bool
        Let strategies with a compiled policy (the shipped ``random`` and
        ``greedy``) decide inside the kernel. Same games either way; ``False``
        asks their Python methods.
    """

    def __init__(
        self, config: RunConfig, *, batch_size: int | None = None, trace: bool = False, check: bool = False, compiled: bool = True
    ) -> None:
        check_supported(config.rules, config.players, match=config.match)
        self.config = config
        self.trace = trace
        self.compiled = compiled
        self.batch_size = batch_size or config.effective_batch_size
        self.cfg = encode_rules(config.rules, config.players, match=config.match, trace=trace, check=check)
        specs = {str(spec): spec for spec in config.strategies}  # one object per distinct spec, in seat order
        labels = list(specs)
        strategies = [registry.make(spec.name, dict(spec.params)) for spec in specs.values()]
        self.set_strategies(strategies, labels, [labels.index(str(spec)) for spec in config.strategies])
        self.deck = config.rules.load_deck().array(config.rules.deck_copies)
        self.rkey = np.uint64(run_key(config.seed))
        kernel_cache.ensure_compiled(Run(self, 0, 0).advance)  # compiles once per machine (file lock), else loads

    def set_strategies(self, strategies: list[Strategy], labels: list[str], lineup: list[int]) -> None:
        """Seat ``strategies[lineup[seat]]`` at each seat (``labels`` name them in errors)."""
        self.strategies = list(strategies)
        self.strategy_labels = list(labels)
        self.lineup = np.asarray(lineup, np.int32)
        self.cfg[L.C_N_STRATS] = len(strategies)
        self.cfg[L.C_AUTO_DRAWN] = auto_drawn_mask(self.strategies)
        self.cfg[L.C_POLICY0 : L.C_POLICY0 + 16] = 0
        self.asks_forget_uno = [asks_forget_uno(strat) for strat in self.strategies]
        if self.compiled:
            programs: list[NDArray[np.int32]] = []  # issue 13: rule programs, appended after the fixed cfg entries
            for k, strat in enumerate(self.strategies):
                pol = compiled_policy(strat)
                if pol == POLICY_RULES:
                    from .rulebot.encode import encode_program

                    pol += L.N_CFG + sum(len(words) for words in programs)
                    programs.append(encode_program(strat.program))  # type: ignore[attr-defined]
                self.cfg[L.C_POLICY0 + k] = pol
            self.cfg = np.concatenate([self.cfg[: L.N_CFG], *programs]).astype(np.int32)

    def play(self, first: int, n_games: int) -> Played:
        """Play games ``first .. first + n_games - 1``; return their raw records."""
        run = self.start(first, n_games)
        while run.step():
            pass
        return run.finish()

    def start(self, first: int, n_games: int) -> Run:
        """Set up a batch for games ``first .. first + n_games - 1`` (step it with :meth:`Run.step`)."""
        return Run(self, first, n_games)

    # ------------------------------------------------------------------ decisions
    def decide(self, parity: int) -> None:
        """Ask every strategy for the decisions of its rows in buffer ``parity``."""
        b = self.buffers
        ns = len(self.strategies)
        counts = b.group_count.tolist()
        bases = b.group_base.tolist()
        for grp, count in enumerate(counts):
            if count == 0:
                continue
            lo = bases[grp]
            phase, k = divmod(grp, ns)
            obs = Rows(b, phase, b.row_slot[parity, lo : lo + count], b.row_seat[parity, lo : lo + count],
                       b.row_hand[parity, lo : lo + count], b.row_legal[parity, lo : lo + count], b.row_info[parity, lo : lo + count])
            if phase == L.PH_JUMPIN:
                self._jumpin(self.strategies[k], k, obs, b.dec[parity, lo : lo + count], b.dec_w[parity, lo : lo + count])
            else:
                _DISPATCH[phase](self, self.strategies[k], k, obs, b.dec[parity, lo : lo + count])

    def _ask(self, k: int, decision: str, rows: Rows, *args: Any) -> Any:
        """Call strategy ``k``'s ``decision`` on a fresh read-only observation of ``rows``; an
        exception it raises becomes a :class:`StrategyError` naming the strategy, the decision,
        the game and seat, with the traceback frames of the strategy's own code."""
        method = getattr(self.strategies[k], decision)
        try:
            return method(rows.observe(), *args)
        except Exception as exc:
            frames = traceback.extract_tb(exc.__traceback__)[1:]  # drop this frame: the rest is the strategy's
            row = _culprit(method, rows, args)
            where = f"a batch of {len(rows)} decisions" if row < 0 else f"game {int(rows.game[row])} (seat {int(rows.seat[row])})"
            raise StrategyError(
                f"strategy {self.strategy_labels[k]!r} raised {type(exc).__name__} in {decision!r} in {where}: {exc}\n"
                "In the strategy's code (most recent call last):\n" + "".join(traceback.format_list(frames)).rstrip()
            ) from None

    def _fail(self, k: int, decision: str, obs: Rows, row: int, what: str) -> StrategyError:
        game = int(obs.game[row]) if row >= 0 else -1
        where = f"game {game} (seat {int(obs.seat[row])})" if row >= 0 else f"a batch of {len(obs)} decisions"
        return StrategyError(f"strategy {self.strategy_labels[k]!r} returned an illegal decision for {decision!r} in {where}: {what}")

    def _array(self, k: int, decision: str, obs: Rows, value: Any, shape: tuple[int, ...]) -> NDArray[Any]:
        arr = np.asarray(value)
        if arr.shape != shape:
            raise self._fail(k, decision, obs, -1, f"expected an array of shape {shape}, got shape {arr.shape}")
        if arr.dtype.kind not in "biuf":
            raise self._fail(k, decision, obs, -1, f"expected numbers, got dtype {arr.dtype}")
        if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
            row = int(np.flatnonzero(~np.isfinite(arr).reshape(len(obs), -1).all(axis=1))[0])
            raise self._fail(k, decision, obs, row, "value is not finite")
        return arr

    def _whole(self, k: int, decision: str, obs: Rows, value: Any, shape: tuple[int, ...]) -> NDArray[np.int64]:
        """``value`` as whole numbers (cards, seats, colours), checked like :meth:`_array`."""
        arr = self._array(k, decision, obs, value, shape)
        if arr.dtype.kind == "f" and np.any(arr != np.round(arr)):
            raise self._fail(k, decision, obs, -1, "expected whole numbers (card types, seats or colours)")
        return arr.astype(np.int64)

    def _cards(self, k: int, decision: str, obs: Rows, value: Any) -> NDArray[np.int64]:
        cards = self._whole(k, decision, obs, value, (len(obs),))
        row = first_illegal_card(cards, obs.legal, obs.bluffable, WILD_DRAW_FOUR)
        if row >= 0:
            legal = [CARD_NAMES[t] for t in np.flatnonzero(obs.legal[row])]
            c = int(cards[row])
            name = CARD_NAMES[c] if 0 <= c < N_TYPES else "not a card type"
            raise self._fail(k, decision, obs, row, f"card {c} ({name}) may not be played; legal: {legal or 'none'}, or -1 to draw")
        return cards

    def _colours(self, strat: Strategy, k: int, obs: Rows, cards: NDArray[np.int64]) -> NDArray[Any]:
        """Ask ``choose_colour`` and check the answer (0..3 per row)."""
        colours = self._whole(k, "choose_colour", obs, self._ask(k, "choose_colour", obs, cards), (len(obs),))
        bad = (colours < 0) | (colours > 3)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise self._fail(k, "choose_colour", obs, row, f"colour {colours[row]} is not 0..3")
        return colours

    def _follow_ups(self, strat: Strategy, k: int, obs: Rows, cards: NDArray[np.int64], dec: NDArray[np.int32]) -> None:
        """Colour for wilds and the UNO call: asked only of the rows that need them."""
        dec[:, L.D_CARD] = cards
        wild = _NEEDS_COLOUR[cards]
        if wild.any():
            rows = np.flatnonzero(wild)
            dec[rows, L.D_COLOUR] = self._colours(strat, k, obs.subset(rows), cards[rows])
        dec[:, L.D_A] = -1
        rows = np.flatnonzero(cards == WILD_DRAWN_TOGETHER)
        if len(rows):  # P-6; with fewer than two seats to link (relink_must_differ) the link just ends
            rows = rows[obs.subset(rows).link_choices.sum(axis=1) >= 2]
        if len(rows):
            sub = obs.subset(rows)
            allowed = sub.link_choices
            pairs = self._whole(k, "choose_link", sub, self._ask(k, "choose_link", sub), (len(rows), 2))
            bad = (pairs < 0).any(axis=1) | (pairs >= obs.players).any(axis=1) | (pairs[:, 0] == pairs[:, 1])
            if not bad.any():
                at = np.arange(len(rows))
                bad = ~allowed[at, pairs[:, 0]] | ~allowed[at, pairs[:, 1]]
            if bad.any():
                row = int(np.flatnonzero(bad)[0])
                may = np.flatnonzero(allowed[row]).tolist()
                raise self._fail(k, "choose_link", sub, row, f"pair {pairs[row].tolist()} is not two distinct seats of {may} (P-6)")
            dec[rows, L.D_A], dec[rows, L.D_B] = pairs[:, 0], pairs[:, 1]
        self._uno_calls(strat, k, obs, cards >= 0, dec[:, L.D_FORGET])

    def _uno_calls(self, strat: Strategy, k: int, obs: Rows, shedding: NDArray[np.bool_], out: NDArray[np.int32]) -> None:
        """U-1: ``forget_uno`` for the rows whose card (played, added to a mini pile, or jumped in)
        leaves one card in hand; ``out`` gets 1 where the call is forgotten."""
        out[:] = 0
        if not self.asks_forget_uno[k]:
            return
        going_to_one = shedding & (obs.hand_size == 2)
        if going_to_one.any():
            rows = np.flatnonzero(going_to_one)
            sub = obs.subset(rows)
            out[rows] = self._array(k, "forget_uno", sub, self._ask(k, "forget_uno", sub), (len(rows),)).astype(bool)

    def _turn(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        cards = self._cards(k, "play", obs, self._ask(k, "play", obs))
        self._follow_ups(strat, k, obs, cards, dec)

    def _drawn(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        flags = self._array(k, "play_drawn", obs, self._ask(k, "play_drawn", obs), (len(obs),)).astype(bool)
        cards = np.where(flags, obs.drawn, -1).astype(np.int64)
        self._cards(k, "play_drawn", obs, cards)
        dec[:, L.D_FLAG] = flags
        self._follow_ups(strat, k, obs, cards, dec)

    def _colour(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        dec[:, L.D_COLOUR] = self._colours(strat, k, obs, np.full(len(obs), -1))

    def _flag(name: str):  # noqa: N805 - builds a method
        def decide(self: Engine, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
            dec[:, L.D_FLAG] = self._array(k, name, obs, self._ask(k, name, obs), (len(obs),)).astype(bool)

        return decide

    _challenge = _flag("challenge")
    _catch = _flag("catch_uno")

    def _pileup(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        cards = self._whole(k, "add_to_pile", obs, self._ask(k, "add_to_pile", obs), (len(obs),))
        may_take = (obs.n_legal == 0) | self.config.rules.pileup_may_refuse
        row = first_illegal_card(cards, obs.legal, np.zeros(len(obs), bool), WILD_DRAW_FOUR)
        if row < 0:
            takes = np.flatnonzero((cards == -1) & ~may_take)
            row = int(takes[0]) if len(takes) else -1
        if row >= 0:
            able = [CARD_NAMES[t] for t in np.flatnonzero(obs.legal[row])]
            raise self._fail(k, "add_to_pile", obs, row, f"card {int(cards[row])} may not be added; must add one of {able} (P-5)")
        dec[:, L.D_CARD] = cards
        self._uno_calls(strat, k, obs, cards >= 0, dec[:, L.D_FORGET])

    def _vote(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32]) -> None:
        targets = self._whole(k, "point_at", obs, self._ask(k, "point_at", obs), (len(obs),))
        bad = (targets < 0) | (targets >= obs.players) | (targets == obs.seat)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise self._fail(k, "point_at", obs, row, f"seat {targets[row]} is not another player's seat")
        out = ~obs.alive[np.arange(len(obs)), targets]
        if out.any():
            row = int(np.flatnonzero(out)[0])
            may = np.flatnonzero(obs.alive[row]).tolist()
            raise self._fail(k, "point_at", obs, row,
                             f"seat {targets[row]} is out of the match (E-4 elimination); point at one of {may}, not oneself")
        dec[:, L.D_FLAG] = targets

    def _jumpin(self, strat: Strategy, k: int, obs: Rows, dec: NDArray[np.int32], weights: NDArray[np.float64]) -> None:
        """P-1/P-2: a reaction weight per row (0 = no jump-in), and the UNO call of a jump-in to one card."""
        w = self._array(k, "jump_in", obs, self._ask(k, "jump_in", obs), (len(obs),)).astype(np.float64)
        if (w < 0).any():
            row = int(np.flatnonzero(w < 0)[0])
            raise self._fail(k, "jump_in", obs, row, f"reaction weight {w[row]} is negative; use 0 for no jump-in")
        weights[:] = w
        self._uno_calls(strat, k, obs, w > 0, dec[:, L.D_FLAG])


class Run:
    """One batch being played: the state arrays, the records, and the step loop."""

    def __init__(self, engine: Engine, first: int, n_games: int) -> None:
        cfg = engine.config
        P, H = cfg.players, cfg.rules.hand_size
        self.engine = engine
        self.first = first
        batch = max(1, min(engine.batch_size, n_games))
        b = Buffers.allocate(batch, P, H, len(engine.strategies), cfg.rules.relink_must_differ)
        b.slot[:, L.F_PHASE] = L.PH_NEWGAME
        b.slot[:, L.F_ROW] = -1
        b.seat_strat[:] = engine.lineup
        engine.buffers = self.buffers = b
        self.match = cfg.match
        rows = 2 * max(n_games, batch) if self.match else n_games  # matches: round rows, grown when full
        self.rec = np.zeros((rows, L.N_REC), np.int32)
        self.points = np.zeros((rows, P), np.int16)
        self.opening = np.zeros((rows, P, H), np.int8)
        self.match_scores = np.zeros((n_games, P + 1) if self.match else (1, 1), np.int32)  # totals, then the winner
        # tracing: most events one phase step of a slot can log (a first card re-flipped up to 4 times the deck
        # size, with reshuffles; draws, echoes and wrong jump-ins of every seat); see _advance_once
        self.step_events = 8 * int(engine.deck.sum()) + 8 * P + 64
        self.ev = np.zeros((max(batch * 512, 2 * self.step_events) if engine.trace else 1, L.N_EV_COLS), np.int32)
        self.events: list[NDArray[np.int32]] = []
        self.nev = np.zeros(1, np.int64)
        self.ctr = np.zeros(L.N_CTR, np.int64)
        self.ctr[L.CT_NEXT], self.ctr[L.CT_END] = first, first + n_games
        self.err = np.full(1, -1, np.int64)
        self.scratch = np.zeros(int(engine.deck.sum()), np.int16)
        self.actors = np.zeros(max(P, 64), np.int64)
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
        n_rows = advance(
            b.slot, b.game, b.keys, b.hands, b.hsize, b.piles, b.seat_strat, b.seat_ctr, b.seat_dec, b.seat_w, b.opening,
            self.rec, self.points, self.opening, self.match_scores, self.first, self.ctr, e.rkey, e.deck, e.cfg,
            self.ev, self.nev, self.parity, b.row_slot, b.row_seat, b.row_hand, b.row_legal, b.row_info, b.dec, b.dec_w,
            b.group_base, b.group_count, self.err, self.scratch, self.actors,
        )
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

        self.rec, self.points, self.opening = map(grown, (self.rec, self.points, self.opening))

    def step(self) -> bool:
        """One lockstep step: advance, then ask the strategies. False when every game is done."""
        if self.advance() == 0:
            return False
        self.engine.decide(self.parity)
        self.parity = 1 - self.parity
        return True

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


def _culprit(method: Any, rows: Rows, args: tuple[Any, ...]) -> int:
    """The row whose decision makes ``method`` raise, found by halving the batch; -1 if no
    single half raises alone. (The run stops anyway, so asking again does no harm.)"""
    at = np.arange(len(rows))

    def raises(part: NDArray[np.intp]) -> bool:
        try:
            method(rows.subset(part).observe(), *(a[part] for a in args))
        except Exception:
            return True
        return False

    while len(at) > 1:
        halves = at[: len(at) // 2], at[len(at) // 2 :]
        at = next((h for h in halves if raises(h)), np.zeros(0, np.intp))
    return int(at[0]) if len(at) else -1


_DISPATCH = {
    L.PH_TURN: Engine._turn,
    L.PH_DRAWN: Engine._drawn,
    L.PH_COLOUR: Engine._colour,
    L.PH_CHALLENGE: Engine._challenge,
    L.PH_CATCH: Engine._catch,
    L.PH_PILEUP: Engine._pileup,
    L.PH_VOTE: Engine._vote,
}  # PH_JUMPIN answers weights too: Engine._jumpin


def compile_kernels(configs: Iterable[RunConfig]) -> None:
    """Compile, or load from the disk cache, the kernels the runs ``configs`` need, in this process.

    Plays one game of each distinct line-up: the engine kernel compiles (once per machine, see
    :mod:`unosim.kernel_cache`) and so do the compiled helpers the strategies' Python methods use.
    """
    seen = set()
    for config in configs:
        key = (tuple(str(spec) for spec in config.strategies), config.match)
        if key not in seen:
            seen.add(key)
            Engine(config, batch_size=1).play(0, 1)


def play_range(config: RunConfig, first_game: int, n_games: int) -> pa.Table:
    """Play games ``first_game .. first_game + n_games - 1`` of the run ``config``.

    Returns one row per game in game order (schema: :mod:`unosim.records`); for a
    match run (``config.match``) one row per match (the match table; the rounds
    come from :func:`play_tables`). Results depend only on (config, game index),
    never on batch size or chunking.
    """
    return play_tables(config, first_game, n_games)[0]


def play_tables(config: RunConfig, first_game: int, n_games: int) -> tuple[pa.Table, pa.Table | None]:
    """Play games (matches) ``first_game .. first_game + n_games - 1`` of the run ``config``.

    Returns
    -------
    main : pyarrow.Table
        One row per game (single rounds) or per match (``config.match``), in index order.
    rounds : pyarrow.Table or None
        Match runs: one row per round, in (match, round) order; ``None`` for single rounds.
        Schemas: :mod:`unosim.records`.
    """
    engine = Engine(config)
    played = engine.play(first_game, n_games)
    if not config.match:
        return records_table(config, played), None
    return matches_table(config, played), rounds_table(config, played)


