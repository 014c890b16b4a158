"""``search``: decision-time search with playouts on the engine itself, for every rule set and table size.

At a searched decision each legal answer is scored by games played on from the decision's position
by the compiled engine (`unosim.strategy.playouts`), in worlds consistent with what the seat saw,
and the best is played. This is flat Monte Carlo over determinizations (perfect-information Monte
Carlo) with sequential halving over the answers:

1. **Worlds.** The cards the seat has not seen (the whole deck less its own hand and the discard
   pile, top card included) are dealt at random to the other hands, each getting as many as it holds,
   and the rest is the draw pile (the engine draws from the pile's counts, so the pile has no order to
   sample). Nothing else is hidden at a searched decision; the table (top card, colour, direction,
   turn, hand sizes, links, the pending chain, seats in the round) comes from the observation. With
   ``lacks`` each other seat's hand is dealt without the colours, faces and wilds it was seen to lack (it
   drew and could not play), as far as its hand predates that (`LackMemory` at 2 players, `TableLackMemory`
   at more); with ``posterior`` (2 players) the opponent's hand is dealt from the posterior over it (`LackMemory`
   with ``posterior=True``).
2. **Playouts.** One engine slot per (world, answer): the position is set into the slot, the answer
   written as the slot's pending decision, and the slot played on for ``depth`` turns per seat at the
   table (0: to the end of the round), this seat playing the compiled ``policy`` and the others
   ``others`` (``random``, ``greedy`` or a shipped rule file, ``rules:NAME``). Slots of one world share
   its random stream (common random numbers), so answers are compared on the same deals and the same
   draws for as long as their games stay alike. A playout is
   worth 1 when this seat wins the round, 0 when another does, and, stopped at its depth, by ``value``:
   the seat's share of ``cards ** -share_power`` over the seats in the round (``"share"``), or the
   logistic chance of winning of `strategies/lookahead.py` (``"logistic"``, `VALUE_DEFAULTS`: the bias, this
   seat to move, the log of its cards and the log of the cards of the other seat holding fewest), or the
   seat's share of ``exp(u)`` over the seats in the round (``"table"``, `TABLE_VALUE_DEFAULTS`, fitted at 6
   players: ``u`` from the log of the seat's cards, its wilds and whether it moves next or after that), or a
   logistic over the cards the seat and the other seat with fewest cards hold (``"hand"``, `hand_features`,
   `HAND_VALUE_DEFAULTS`, fitted at 2 players).
3. **Sequential halving.** The ``playouts`` budget of a decision is split evenly over ⌈log2 A⌉ rounds
   (A answers); in each round the answers left share the round's playouts in fresh worlds, each
   answer played in every world of the round; the better half by total value (all rounds so far) goes
   on, ties to the earlier answer; the last one left is played. A decision with one answer is not
   searched.

Searched decisions and their answers:

- **turn** (play or draw): every legal card type held (with ``bluff``, a Wild Draw Four also when it
  may be played as a bluff), each wild once per colour held after it (all four when none is held), and
  drawing (with ``draw_by_choice=False`` only when nothing may be played). A Wild Drawn Together links
  the two other seats with fewest cards (lowest seats on ties; the seat itself when fewer than two
  others may be linked) — that pair is a stated rule, not searched.
- **drawn** (the card just drawn): keep it, or play it (a wild once per colour as above).
- **stack** (H-1): take the total, or stack each card type that may be stacked (a Wild Draw Four once
  per colour).
- **swap** (H-2, after a 7): each other seat still in the round.

Decisions decided by a stated rule:

- colour of a wild start card, or of a Wild Pile Up that acts as a Wild: the colour held most, ties at
  random (the colour of a searched wild is the one searched with it);
- playing a Wild Draw Four as a bluff: never, unless ``bluff`` (then searched);
- challenge of a Wild Draw Four (W-2): never; calling UNO: always; catching a forgotten call: always;
- Point Taken vote (A-4): the other seat with fewest cards, ties at random;
- mini pile (P-5): add the highest-point card that may be added, ties by copies (take when none may);
- jump-in (P-1/P-2): always, weight 1.

Every random number comes from one uniform per searched row of the row's own (game, seat) stream, so
the answers are the same for a seed whatever the batch size. The search sees only its observation:
the other hands and the draw pile of its worlds are its own deals, never the game's.
"""

from __future__ import annotations

import math
import time
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from unosim.game.cards import (
    FACES_PER_COLOUR,
    N_COLOURED,
    N_TYPES,
    NAMES_A_COLOUR,
    WILD,
    WILD_DRAW_FOUR,
    WILD_DRAWN_TOGETHER,
)
from unosim.game.kernels import layout as L
from unosim.strategy.base import DRAW, TAKE, Strategy
from unosim.strategy.observation import Observation
from unosim.strategy.parameters import Constraint
from unosim.strategy.playouts import (
    N_PUBLIC,
    P_ALIVE,
    P_COLOUR,
    P_DIR,
    P_LAST,
    P_LINK_A,
    P_LINK_B,
    P_NEXT,
    P_PENALTY,
    P_PENDING,
    P_PHASE,
    P_SEAT,
    P_TOP,
    P_TURN,
    P_TURNS,
    PLAYOUT_POLICIES,
    Playouts,
)
from unosim.strategy.primitives import CARD_SCORE_POINTS, sample_best

from .lookahead import HAND_VALUE_DEFAULTS, TABLE_VALUE_DEFAULTS, VALUE_DEFAULTS
from .opponent_memory import WILDS, LackMemory, TableLackMemory

__all__ = ["HAND_VALUE_NAMES", "OneOf", "SearchStrategy", "hand_features"]

_NEEDS_COLOUR = np.zeros(N_TYPES, bool)
_NEEDS_COLOUR[list(NAMES_A_COLOUR)] = True
_TYPE_COLOUR = np.full(N_TYPES, -1, np.int64)
_TYPE_COLOUR[:N_COLOURED] = np.arange(N_COLOURED) // FACES_PER_COLOUR
_TYPE_FACE = np.full(N_TYPES, WILDS, np.int64)
_TYPE_FACE[:N_COLOURED] = np.arange(N_COLOURED) % FACES_PER_COLOUR
_WORLDS_PER_ROUND = 1 << 20
"""World numbers of one round of sequential halving start at ``round * _WORLDS_PER_ROUND`` (fresh worlds)."""
_MAX_SLOTS = 1 << 17
"""Playouts per call of the engine at most (the rows of a round are played in calls of whole rows): the engine's
slots hold some kilobytes each, so a round of thousands of rows at a large budget is played in parts."""


HAND_VALUE_NAMES = ("bias", "moves next", "ln own cards", "ln fewest other", "own wilds", "other wilds", "own actions",
                    "other actions", "own wild draw fours", "own colours")
"""The terms of ``value='hand'`` (`hand_features`), in the order of `HAND_VALUE_DEFAULTS`."""


def hand_features(hands: NDArray[np.integer], sizes: NDArray[np.integer], turn: NDArray[np.integer],
                  seat: NDArray[np.integer], inside: NDArray[np.bool_]) -> NDArray[np.float64]:
    """The terms of ``value='hand'`` at positions stopped at a playout's depth.

    Parameters
    ----------
    hands : ndarray, shape (m, players, N_TYPES)
        Every seat's cards.
    sizes : ndarray, shape (m, players)
        Every seat's hand size.
    turn : ndarray, shape (m,)
        The seat that moves next.
    seat : ndarray, shape (m,)
        The seat valued.
    inside : ndarray, shape (m, players)
        The seats still in the round.

    Returns
    -------
    ndarray, shape (m, 10)
        Per position, `HAND_VALUE_NAMES`: 1, whether ``seat`` moves next, the log of its cards and of the cards of the
        other seat in the round holding fewest (the "other", lowest seat on ties), the wild cards of the seat and of the
        other, their action cards (the coloured cards that are not numbers), the seat's Wild Draw Four cards and the
        number of colours it holds.
    """
    m, players = sizes.shape
    rows = np.arange(m)
    size = np.maximum(sizes.astype(np.float64), 1.0)
    other = np.where(inside & (np.arange(players)[None, :] != seat[:, None]), size, np.inf).argmin(axis=1)
    coloured = hands[:, :, :N_COLOURED].astype(np.int64).reshape(m, players, N_COLOURED // FACES_PER_COLOUR, FACES_PER_COLOUR)
    wilds = hands[:, :, N_COLOURED:].sum(axis=2, dtype=np.int64)
    actions = coloured[:, :, :, 10:].sum(axis=(2, 3))
    colours = (coloured[rows, seat].sum(axis=2) > 0).sum(axis=1)
    return np.stack([np.ones(m), turn == seat, np.log(size[rows, seat]), np.log(size[rows, other]), wilds[rows, seat],
                     wilds[rows, other], actions[rows, seat], actions[rows, other],
                     hands[rows, seat, WILD_DRAW_FOUR].astype(np.int64), colours], axis=1).astype(np.float64)


class OneOf(Constraint):
    """One of a few names."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names

    def allows(self, value: Any) -> bool:
        return isinstance(value, str) and value in self.names

    def describe(self) -> str:
        return "one of " + ", ".join(repr(n) for n in self.names)


def _colours_after(hand: NDArray[np.integer], card: int) -> list[int]:
    """The colours worth naming after playing wild ``card`` from ``hand``: each colour held, all four when none."""
    counts = [int(hand[c * 14 : c * 14 + 14].sum()) for c in range(4)]
    held = [c for c in range(4) if counts[c] > 0]
    return held or [0, 1, 2, 3]


def _link_pair(sizes: NDArray[np.integer], choices: NDArray[np.bool_], seat: int) -> tuple[int, int]:
    """The stated rule for a Wild Drawn Together: the two other seats with fewest cards (lowest seat on ties), the
    seat itself when fewer than two others may be linked; (-1, -1) when fewer than two seats may be linked."""
    allowed = np.flatnonzero(choices)
    if len(allowed) < 2:
        return -1, -1
    others = [int(p) for p in allowed if p != seat]
    pool = others if len(others) >= 2 else [int(p) for p in allowed]
    pool.sort(key=lambda p: (int(sizes[p]), p))
    return pool[0], pool[1]


class SearchStrategy(Strategy):
    """Flat Monte Carlo search over sampled worlds with playouts on the engine (see the module doc).

    Decisions
    ---------
    Searched: the turn's card or draw (with the wild's colour), the drawn card, stacking (H-1), the 7's swap
    (H-2). Stated rules: a wild start card's colour (held most), never challenge, always call UNO and catch,
    point at the seat with fewest cards, add the highest-point card to a mini pile, always jump in, link the
    two other seats with fewest cards.

    Parameters
    ----------
    playouts : int
        Playouts per searched decision (all answers together).
    policy : str
        The compiled policy this seat plays in the playouts: ``"greedy"``, ``"random"`` or a shipped rule
        file run by the compiled rule interpreter, ``"rules:NAME"`` (e.g. ``"rules:wild-saver"``; ``"rules:lookahead"``
        is the playout policy of `strategies/lookahead.py`).
    others : str
        The compiled policy the other seats play in the playouts (the search's model of its opponents),
        from the same choices.
    depth : int
        Turns per seat at the table a playout plays before it is valued (``depth * players`` turns;
        0: to the end of the round).
    bluff : bool
        Search playing a Wild Draw Four as a bluff where the rules allow it (W-2). Off by default: the
        playouts' opponents never challenge, so a bluff would look free.
    draw_by_choice : bool
        Search drawing as an answer when a card may be played (False: draw only with nothing to play).
    lacks : int
        Deal each other seat's hand in the worlds without the colours, faces and wilds it is known to lack
        (it drew and could not play: `LackMemory` at 2 players, `TableLackMemory` at more), while it has taken
        at most ``lacks`` cards since; the cards it took since are dealt from every unseen card.
        0 (the default): worlds dealt uniformly.
    posterior : bool
        At 2 players, deal the opponent's hand in the worlds from the posterior over it (`LackMemory` with
        ``posterior=True``, `strategies/hand_groups.py`): its cards as groups taken at the same time, none of a group
        answering a table it drew on since, and the answers to a table it played on from its hand less likely (it
        played one of its legal cards at random); instead of ``lacks`` for that seat. Made for an opponent that never
        draws while it holds a legal card and plays a legal drawn card (``random``, most built-ins), under
        ``wd4_legal_when=always``. Not used at more players.
    wild_credit : float
        A playout stopped at its depth counts each wild a seat holds as ``1 - wild_credit`` cards (0: a card like
        any other).
    share_power : float
        A playout stopped at its depth is worth the seat's share of ``cards ** -share_power`` over the
        seats in the round (fewer cards, a larger share).
    value : str
        How a playout stopped at its depth is valued: ``"share"`` (the share above) or ``"logistic"``
        (``1 / (1 + exp(-z))``, ``z = b + m * (this seat moves) + o * ln(its cards) + p * ln(fewest cards of
        another seat)``, the coefficients ``VALUE_DEFAULTS`` of `strategies/lookahead.py`, fitted at 2 players) or
        ``"table"`` (the seat's share of ``exp(u)`` over the seats in the round, ``u`` a sum over the log of the seat's
        cards, its Wild and Wild Draw Four cards, whether it moves next and whether it moves after that, by
        ``TABLE_VALUE_DEFAULTS`` of `strategies/lookahead.py`, fitted at 6 players; ``wild_credit`` is not used) or
        ``"hand"`` (``1 / (1 + exp(-z))``, ``z`` the sum of `hand_features` times ``HAND_VALUE_DEFAULTS`` of
        `strategies/lookahead.py`: the terms of ``"logistic"``, the wilds and action cards of the seat and of the other
        seat with fewest cards, the seat's Wild Draw Fours and colours held; fitted at 2 players to ``rules:lookahead``
        against ``random``; ``wild_credit`` is not used).
    forget_uno_rate, catch_uno_rate : float
        See [`unosim.Strategy`][unosim.Strategy].
    """

    name = "search"
    parameter_constraints: ClassVar[dict[str, Any]] = {
        "playouts": (int, 1, 1_000_000),
        "policy": OneOf(tuple(PLAYOUT_POLICIES)),
        "others": OneOf(tuple(PLAYOUT_POLICIES)),
        "depth": (int, 0, 10_000),
        "share_power": (float, 0.0, 10.0),
        "draw_by_choice": (bool,),
        "bluff": (bool,),
        "lacks": (int, 0, 1000),
        "posterior": (bool,),
        "wild_credit": (float, 0.0, 1.0),
        "value": OneOf(("share", "logistic", "table", "hand")),
    }

    def __init__(self, *, playouts: int = 1024, policy: str = "greedy", others: str = "greedy", depth: int = 4,
                 share_power: float = 1.5, draw_by_choice: bool = True, bluff: bool = False,
                 lacks: int = 0, posterior: bool = False, wild_credit: float = 0.0, value: str = "share", forget_uno_rate: float = 0.0,
                 catch_uno_rate: float = 1.0) -> None:
        super().__init__(forget_uno_rate=forget_uno_rate, catch_uno_rate=catch_uno_rate)
        self.playouts = playouts
        self.policy = policy
        self.others = others
        self.depth = depth
        self.share_power = share_power
        self.draw_by_choice = draw_by_choice
        self.bluff = bluff
        self.lacks = lacks
        self.posterior = posterior
        self.wild_credit = wild_credit
        self.value = value
        self.searched = 0
        """Decisions searched so far (with more than one answer), for benchmarks."""
        self.search_seconds = 0.0
        """Seconds spent searching them."""
        self._engines: dict[tuple[str, int], Playouts] = {}
        self._colour: dict[tuple[int, int], int] = {}
        self._link: dict[tuple[int, int], tuple[int, int]] = {}
        self._memories: dict[int, LackMemory] = {}
        self._constraint: tuple[NDArray[np.int8], NDArray[np.int64]] | None = None
        self._groups: tuple[NDArray[np.int64], NDArray[np.float64]] | None = None

    @property
    def plays_legal_drawn_card(self) -> bool:
        """Not declared: the drawn card is searched."""
        return False

    @property
    def forced_draw_uniforms(self) -> int | None:
        """`play` draws one uniform per row and answers `DRAW` when nothing is
        playable (nothing to search); not declared with ``lacks`` or ``posterior``, whose memory must see every turn."""
        return None if self.lacks > 0 or self.posterior else 1

    # ------------------------------------------------------------ the search
    def _engine(self, obs: Observation) -> Playouts:
        key = (repr(obs.rules), obs.players)
        engine = self._engines.get(key)
        if engine is None:
            engine = self._engines[key] = Playouts(obs.rules, obs.players, self.policy, self.others, self.depth * obs.players)
        return engine

    def _uses_memory(self, obs: Observation) -> bool:
        return self.lacks > 0 or (self.posterior and obs.players == 2)

    def _memory_of(self, obs: Observation) -> LackMemory:
        """The lack memory of the table size of ``obs`` (one per table size)."""
        memory = self._memories.get(obs.players)
        if memory is None:
            memory = self._memories[obs.players] = (LackMemory(posterior=self.posterior) if obs.players == 2
                                                    else TableLackMemory(obs.players))
        return memory

    def _observe(self, obs: Observation) -> NDArray[np.int64] | None:
        """With ``lacks`` or ``posterior``: update the memory from a turn observation, set the worlds' constraint (the
        other seats' known lacks, the opponent's posterior) for the search that follows; the memory entry of each row."""
        self._constraint = None
        self._groups = None
        if not self._uses_memory(obs):
            return None
        memory = self._memory_of(obs)
        n, rows = len(obs), np.arange(len(obs))
        if isinstance(memory, TableLackMemory):
            entries = memory.observe(obs)
            colour, face, ages = memory.seat_lacks(entries, self.lacks)
        else:
            opponent = (1 - obs.seat).astype(np.int64)
            entries = memory.observe(obs, opponent)
            if self.posterior:
                size = np.zeros((n, obs.players, memory.group_size.shape[1]), np.int64)
                weight = np.zeros((n, obs.players, *memory.group_weight.shape[1:]), np.float64)
                size[rows, opponent] = memory.group_size[entries]
                weight[rows, opponent] = memory.group_weight[entries]
                self._groups = (size, weight)
            if self.lacks == 0:
                return entries
            known_colour, known_face = memory.known(entries, self.lacks)
            colour = np.zeros((n, obs.players, known_colour.shape[1]), bool)
            face = np.zeros((n, obs.players, known_face.shape[1]), bool)
            colour[rows, opponent], face[rows, opponent] = known_colour, known_face
            ages = np.concatenate([memory.lack_colour[entries], memory.lack_face[entries]], axis=1)
            ages = np.where(np.concatenate([known_colour, known_face], axis=1), ages, 0).max(axis=1)
            ages = np.where(np.arange(obs.players)[None, :] == opponent[:, None], ages[:, None], 0)
        lacks = np.zeros((n, obs.players, N_TYPES), np.int8)
        lacks[:, :, :N_COLOURED] = colour[:, :, _TYPE_COLOUR[:N_COLOURED]] | face[:, :, _TYPE_FACE[:N_COLOURED]]
        lacks[:, :, N_COLOURED:] = face[:, :, WILDS][:, :, None]
        known = lacks.any(axis=2)
        kept = np.where(known, np.maximum(obs.hand_sizes.astype(np.int64) - ages, 0), 0)
        kept[rows, obs.seat] = 0
        self._constraint = (lacks, kept)
        return entries

    def _public(self, obs: Observation) -> NDArray[np.int64]:
        """The table of each row, as the playouts set it (columns ``P_*``)."""
        n = len(obs)
        pub = np.zeros((n, N_PUBLIC), np.int64)
        pub[:, P_PHASE] = obs.phase_id
        pub[:, P_SEAT] = obs.seat
        pub[:, P_TURN] = obs.seat  # every searched decision is the acting seat's turn (a stack is the victim's)
        pub[:, P_DIR] = obs.direction
        pub[:, P_TOP] = obs.top
        pub[:, P_COLOUR] = obs.colour
        pub[:, P_LINK_A] = obs.link[:, 0]
        pub[:, P_LINK_B] = obs.link[:, 1]
        pub[:, P_ALIVE] = (obs.alive.astype(np.int64) << np.arange(obs.players)).sum(axis=1)
        pub[:, P_PENALTY] = obs.penalty
        pub[:, P_LAST] = obs.target if obs.phase_id == L.PH_STACK else -1
        pub[:, P_NEXT] = obs.target if obs.phase_id == L.PH_SWAP else obs.seat
        pub[:, P_PENDING] = obs.drawn if obs.phase_id == L.PH_DRAWN else -1
        pub[:, P_TURNS] = 0  # not observed: the playouts count turns from here (E-5 truncation comes that much later)
        return pub

    def _search(self, obs: Observation, answers: list[list[tuple[int, int, int, int, int]]]) -> NDArray[np.int64] | None:
        """The index of the best answer of each row (0 for a row with one answer).
        None when the worlds of some row cannot be dealt (the caller then decides by its rule)."""
        start = time.perf_counter()
        try:
            return self._halve(obs, answers)
        finally:
            self.search_seconds += time.perf_counter() - start

    def _halve(self, obs: Observation, answers: list[list[tuple[int, int, int, int, int]]]) -> NDArray[np.int64] | None:
        """`_search` itself: sequential halving over the answers of every row at once."""
        n = len(obs)
        seeds = (obs.random() * 9007199254740992.0).astype(np.uint64)
        counts = np.array([len(a) for a in answers], np.int64)
        best = np.zeros(n, np.int64)
        searched = np.flatnonzero(counts > 1)
        self.searched += len(searched)
        if len(searched) == 0:
            return best
        width = int(counts.max())
        table = np.zeros((n, width, 5), np.int64)
        for i in searched:
            table[i, : counts[i]] = answers[i]
        deck = obs.rules.load_deck().array(obs.rules.deck_copies).astype(np.int64)
        hand = obs.hand.astype(np.int64)
        discard = obs.discard.astype(np.int64)
        unseen = np.maximum(deck[None, :] - hand - discard, 0)
        sizes = obs.hand_sizes.astype(np.int64)
        public = self._public(obs)
        engine = self._engine(obs)
        left = {int(i): list(range(counts[i])) for i in searched}
        rounds = {i: max(1, math.ceil(math.log2(len(c)))) for i, c in left.items()}
        totals = np.zeros((n, width), np.float64)
        r = 0
        while left:
            rows, worlds, cand = [], [], []
            for row, alive in left.items():
                k = max(1, self.playouts // (rounds[row] * len(alive)))
                w = np.repeat(np.arange(k, dtype=np.int64) + r * _WORLDS_PER_ROUND, len(alive))
                rows.append(np.full(len(w), row, np.int64))
                worlds.append(w)
                cand.append(np.tile(np.asarray(alive, np.int64), k))
            lacks, kept = self._constraint if self._constraint is not None else (None, None)
            size, weight = self._groups if self._groups is not None else (None, None)
            bounds = np.cumsum([0] + [len(w) for w in worlds])
            first = 0
            while first < len(rows):  # the rows' jobs in calls of at most _MAX_SLOTS slots (one row's at least)
                last = max(first + 1, int(np.searchsorted(bounds, bounds[first] + _MAX_SLOTS, side="right")) - 1)
                job_row, job_world, job_answer = (np.concatenate(rows[first:last]), np.concatenate(worlds[first:last]),
                                                  np.concatenate(cand[first:last]))
                played = engine.play(job_row, job_world, job_answer, public, sizes, hand, unseen, discard, seeds, table, lacks,
                                     kept, size, weight)
                if played is None:
                    return None
                wilds = engine.hands[: len(job_row), :, N_COLOURED:].sum(axis=2, dtype=np.int64) if self.wild_credit else None
                np.add.at(totals, (job_row, job_answer),
                          self._values(played, engine, public[job_row, P_SEAT], public[job_row, P_ALIVE], wilds))
                first = last
            for row in list(left):
                alive = left[row]
                keep = max(1, (len(alive) + 1) // 2)
                order = sorted(alive, key=lambda a: (-totals[row, a], a))
                left[row] = sorted(order[:keep])
                if keep == 1:
                    best[row] = left.pop(row)[0]
            r += 1
        return best

    def _values(self, played: tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int32]], engine: Playouts,
                seat: NDArray[np.int64], alive: NDArray[np.int64], wilds: NDArray[np.int64] | None = None) -> NDArray[np.float64]:
        """What each playout is worth to ``seat``: 1 won, 0 lost; stopped at its depth, by ``value`` (the seat's
        share of ``size ** -share_power`` over the seats in the round, the logistic, or the table value)."""
        winners, sizes, turn = played
        value = (winners == seat).astype(np.float64)
        open_ = winners < 0
        if open_.any():
            players = sizes.shape[1]
            inside = ((alive[open_, None] >> np.arange(players)) & 1).astype(bool)
            if self.value == "table":
                value[open_] = self._table_share(engine, np.flatnonzero(open_), sizes, inside, turn, seat)
                return value
            if self.value == "hand":
                x = hand_features(engine.hands[np.flatnonzero(open_)], sizes[open_], turn[open_], seat[open_], inside)
                value[open_] = 1.0 / (1.0 + np.exp(-(x @ np.asarray(HAND_VALUE_DEFAULTS))))
                return value
            size = sizes[open_].astype(np.float64)
            if wilds is not None:  # a wild held counts as less than a card: it can always be played
                size = size - self.wild_credit * wilds[open_]
            size = np.maximum(size, 0.5)
            rows, me = np.arange(len(size)), seat[open_]
            if self.value == "logistic":
                bias, moves, own, other = VALUE_DEFAULTS
                others = np.where(inside, size, np.inf)
                others[rows, me] = np.inf
                z = bias + moves * (turn[open_] == me) + own * np.log(size[rows, me]) + other * np.log(others.min(axis=1))
                value[open_] = 1.0 / (1.0 + np.exp(-z))
            else:
                weight = np.where(inside, size ** -self.share_power, 0.0)
                value[open_] = weight[rows, me] / weight.sum(axis=1)
        return value

    @staticmethod
    def _table_share(engine: Playouts, open_: NDArray[np.int64], sizes: NDArray[np.int32], inside: NDArray[np.bool_],
                     turn: NDArray[np.int32], seat: NDArray[np.int64]) -> NDArray[np.float64]:
        """``value='table'`` of the playouts ``open_`` stopped at their depth: the seat's share of ``exp(u)`` over the
        seats in the round (``inside``), ``u`` of `TABLE_VALUE_DEFAULTS` (the log of its cards, its Wild and Wild Draw
        Four cards, whether it moves next and whether it moves after that)."""
        players = sizes.shape[1]
        at = np.arange(players)
        held = engine.hands[open_, :, WILD].astype(np.int64) + engine.hands[open_, :, WILD_DRAW_FOUR]
        step = engine.slot[open_, L.F_DIR].astype(np.int64)[:, None]
        moves = turn[open_].astype(np.int64)[:, None]
        second = (moves + step) % players
        cards, wilds, first_, second_ = TABLE_VALUE_DEFAULTS
        u = (cards * np.log(np.maximum(sizes[open_], 1)) + wilds * held
             + first_ * (at == moves) + second_ * (at == second))
        weight = np.where(inside, np.exp(u - u.max(axis=1, keepdims=True)), 0.0)
        return weight[np.arange(len(open_)), seat[open_]] / weight.sum(axis=1)

    # ------------------------------------------------------------ searched decisions
    def play(self, obs: Observation) -> NDArray[np.integer]:
        self._colour.clear()
        self._link.clear()
        answers = []
        for i in range(len(obs)):
            hand = obs.hand[i]
            cards = set(np.flatnonzero(obs.legal[i] & (hand > 0)).tolist())
            if self.bluff and obs.bluffable[i] and hand[WILD_DRAW_FOUR] > 0:
                cards.add(WILD_DRAW_FOUR)
            row: list[tuple[int, int, int, int, int]] = []
            pair = (-1, -1)
            if WILD_DRAWN_TOGETHER in cards:
                pair = _link_pair(obs.hand_sizes[i], obs.link_choices[i], int(obs.seat[i]))
            for c in sorted(cards):
                if _NEEDS_COLOUR[c]:
                    left = hand.copy()
                    left[c] -= 1
                    link = pair if c == WILD_DRAWN_TOGETHER else (-1, -1)
                    row += [(c, colour, 0, *link) for colour in _colours_after(left, c)]
                else:
                    row.append((c, -1, 0, -1, -1))
            if self.draw_by_choice or not row:
                row.append((DRAW, -1, 0, -1, -1))
            answers.append(row)
        entries = self._observe(obs)
        best = self._search(obs, answers)
        self._constraint = None
        self._groups = None
        picked: NDArray[np.integer]
        if best is None:
            picked = sample_best(obs.hand, obs.legal, CARD_SCORE_POINTS, obs.random())
        else:
            picked = self._remember(obs, answers, best, 0)
        if entries is not None:
            self._memory_of(obs).moved(obs, entries, picked)
        return picked

    def play_drawn(self, obs: Observation) -> NDArray[np.bool_]:
        self._colour.clear()
        self._link.clear()
        answers = []
        for i in range(len(obs)):
            c = int(obs.drawn[i])
            row = [(-1, -1, 0, -1, -1)]
            if obs.legal[i, c]:
                if _NEEDS_COLOUR[c]:
                    left = obs.hand[i].copy()
                    left[c] -= 1
                    link = _link_pair(obs.hand_sizes[i], obs.link_choices[i], int(obs.seat[i])) if c == WILD_DRAWN_TOGETHER \
                        else (-1, -1)
                    row += [(c, colour, 1, *link) for colour in _colours_after(left, c)]
                else:
                    row.append((c, -1, 1, -1, -1))
            answers.append(row)
        best = self._search(obs, answers)
        if best is None:
            play = obs.legal[np.arange(len(obs)), obs.drawn]
        else:
            play = self._remember(obs, answers, best, 2).astype(bool)
        if self._uses_memory(obs):
            self._memory_of(obs).drawn_played(obs, play)
        return play

    def stack(self, obs: Observation, options: NDArray[np.bool_]) -> NDArray[np.integer]:
        self._colour.clear()
        answers = []
        for i in range(len(obs)):
            row = [(TAKE, -1, 0, -1, -1)]
            for c in np.flatnonzero(options[i] & (obs.hand[i] > 0)).tolist():
                if c == WILD_DRAW_FOUR:
                    left = obs.hand[i].copy()
                    left[c] -= 1
                    row += [(c, colour, 0, -1, -1) for colour in _colours_after(left, c)]
                else:
                    row.append((c, -1, 0, -1, -1))
            answers.append(row)
        best = self._search(obs, answers)
        if best is None:
            return np.asarray(super().stack(obs, options), np.int64)
        return self._remember(obs, answers, best, 0)

    def swap_with(self, obs: Observation) -> NDArray[np.integer]:
        answers = []
        for i in range(len(obs)):
            seat = int(obs.seat[i])
            answers.append([(-1, -1, p, -1, -1) for p in np.flatnonzero(obs.alive[i]).tolist() if p != seat])
        best = self._search(obs, answers)
        if best is None:
            return super().swap_with(obs)
        return np.array([answers[i][best[i]][2] for i in range(len(obs))], np.int64)

    def _remember(self, obs: Observation, answers: list[list[tuple[int, int, int, int, int]]], best: NDArray[np.int64],
                  column: int) -> NDArray[np.int64]:
        """Column ``column`` of each row's best answer; its colour and link are kept for the follow-up questions."""
        out = np.empty(len(obs), np.int64)
        for i in range(len(obs)):
            card, colour, flag, a, b = answers[i][best[i]]
            out[i] = (card, colour, flag)[column]
            key = (int(obs.game[i]), int(obs.seat[i]))
            if colour >= 0:
                self._colour[key] = colour
            if a >= 0:
                self._link[key] = (a, b)
        return out

    # ------------------------------------------------------------ follow-ups and stated rules
    def choose_colour(self, obs: Observation, cards: NDArray[np.integer]) -> NDArray[np.integer]:
        """The colour searched with the wild; else (a wild start card, a Wild Pile Up acting as a Wild) the colour
        held most, ties at random."""
        rule = super().choose_colour(obs, cards)
        out = np.asarray(rule, np.int64).copy()
        for i in range(len(obs)):
            colour = self._colour.pop((int(obs.game[i]), int(obs.seat[i])), None)
            if colour is not None:
                out[i] = colour
        if self._uses_memory(obs):
            memory = self._memory_of(obs)
            memory.named(obs, memory.current(obs, wilds=cards), out)
        return out

    def choose_link(self, obs: Observation) -> NDArray[np.integer]:
        """The pair the search played the Wild Drawn Together with (the stated rule of the module doc)."""
        out = np.empty((len(obs), 2), np.int64)
        for i in range(len(obs)):
            pair = self._link.pop((int(obs.game[i]), int(obs.seat[i])), None)
            if pair is None:
                pair = _link_pair(obs.hand_sizes[i], obs.link_choices[i], int(obs.seat[i]))
            out[i] = pair
        return out

    def add_to_pile(self, obs: Observation) -> NDArray[np.integer]:
        """The highest-point card that may be added, ties by copies; take the pile when none may be added."""
        return sample_best(obs.hand, obs.legal, CARD_SCORE_POINTS, obs.random())

