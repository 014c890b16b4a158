"""``tunable``: a strategy whose every decision is steered by numeric parameters, for ``unosim tune``.

The parameters span the decisions that matter (see `TunableStrategy`);
`PARAMETERS` lists each with its range and default, and `to_params`
/ `to_vector` map between a vector in the unit cube (what the optimiser
searches) and the parameters. `relevant` says which parameters a rule set
can make matter (party cards, challenges, speed play), so that ``unosim tune``
searches only those and keeps the others at their defaults.

A tuned strategy is a file written by ``unosim tune`` (JSON, see
`load_tuned`); ``--strategies tuned:PATH`` plays it and
`tuned_class` turns it into a subclass of `TunableStrategy` whose
defaults are the file's parameters (the shipped ``tuned-*`` names are such files
under ``strategies/tuned/``).
"""

from __future__ import annotations

import functools
import inspect
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from unosim.game import inputs
from unosim.game.cards import (
    CARD_FACE,
    CARD_KIND,
    CARD_POINTS,
    FACES_PER_COLOUR,
    IS_NUMBER,
    KIND_NAMES,
    N_COLOURED,
    N_COLOURS,
    WILD_DRAW_FOUR,
    load_deck,
)
from unosim.game.errors import UnosimInputError
from unosim.strategy.base import Strategy, stack_preferred
from unosim.strategy.observation import Observation
from unosim.strategy.primitives import argmax_ties, colour_counts, next_seats, sample_best, sample_best_of

from . import lookahead
from .bluffer import colour_unseen_shares
from .opponent_memory import LackMemory, block_chances, unseen_cards

__all__ = [
    "DEFAULTS", "FORMAT", "NAMES", "PARAMETERS", "PILE_GROUPS", "SCALE", "SITUATIONS", "load_tuned", "Param",
    "relevant", "to_params", "to_vector", "TunableStrategy", "tuned_class", "uncovered",
]

SITUATIONS = ("calm", "next", "near")
"""Play situations, each with its own kind weights: nobody close to going out; the next player holds at
most ``threat`` cards; another opponent (not the next) does."""
PILE_GROUPS = ("number", "action", "wild")
"""Card groups weighted when adding to a mini pile (action: Skip, Reverse, Draw Two, Point Taken)."""
SCALE = 1000
"""Scores are rounded to whole multiples of 1/SCALE (the compiled pickers compare integers)."""
_KIND = CARD_KIND.astype(np.int64)
_FACE = CARD_FACE.astype(np.int64)
_IS_NUMBER = IS_NUMBER[:N_COLOURED]
_POINTS = CARD_POINTS.astype(np.float64) / 50.0
_PILE_GROUP = np.where(_KIND == 0, 0, np.where(_KIND <= 4, 1, 2))
_PARTY_KINDS = ("point_taken", "wild_pile_up", "wild_drawn_together")
_CLASSIC_COUNTS = np.asarray(load_deck("classic").counts)
_POLICY_RANGES = {"colour_share": (-5.0, 5.0), "wild_keep": (0.0, 15.0), "close_at": (0.0, 10.0)}


@dataclass(frozen=True)
class Param:
    """One tunable parameter: its name, range, default and what makes it matter.

    ``needs`` is ``""`` (always matters), a card kind name (matters when the deck holds that kind),
    ``"challenge"`` (Wild Draw Four challenges on), ``"speed_play"``, ``"two_players"``, ``"three_players"`` (searched
    from 3 players) or ``"lookahead"`` (searched only when named).
    """

    name: str
    low: float
    high: float
    default: float
    needs: str = ""
    doc: str = ""


_CALM = {"number": 1.0, "skip": 2.0, "reverse": 2.0, "draw_two": 2.0, "point_taken": 1.0,
         "wild": -2.0, "wild_draw_four": -3.0, "wild_pile_up": -2.0, "wild_drawn_together": -2.0}
_NEXT = {"number": 0.0, "skip": 3.0, "reverse": 3.0, "draw_two": 4.0, "point_taken": 2.0,
         "wild": -1.0, "wild_draw_four": 5.0, "wild_pile_up": 2.0, "wild_drawn_together": 1.0}
_NEAR = {"number": 1.0, "skip": 2.0, "reverse": 2.0, "draw_two": 2.0, "point_taken": 3.0,
         "wild": -2.0, "wild_draw_four": -2.0, "wild_pile_up": 0.0, "wild_drawn_together": 1.0}
_KIND_DEFAULTS = {"calm": _CALM, "next": _NEXT, "near": _NEAR}


def _kind_needs(kind: str) -> str:
    return kind if kind in _PARTY_KINDS else ""


PARAMETERS: tuple[Param, ...] = (
    *(Param(f"{sit}_{kind}", -5.0, 5.0, _KIND_DEFAULTS[sit][kind], _kind_needs(kind),
            f"preference for a {kind.replace('_', ' ')} card when {sit}")
      for sit in SITUATIONS for kind in KIND_NAMES),
    Param("threat", 0.5, 5.0, 2.0, "", "an opponent holding at most this many cards is close to going out"),
    Param("points_weight", -2.0, 2.0, 0.5, "", "added per 50 points of the card (shed points first when > 0)"),
    Param("colour_weight", -3.0, 5.0, 1.5, "", "added per share of the hand in the card's colour (stay in the colour held most)"),
    Param("wild_keep", 0.0, 15.0, 2.0, "", "play a wild from the hand only when at most this many non-wild cards are held "
          "(or no coloured card is legal)"),
    Param("wild_keep_next", 0.0, 15.0, 0.0, "two_players", "added to wild_keep when the next player holds at most threat "
          "cards (searched at 2 players only, with the memory, so that searches at other counts stay as they were)"),
    Param("coverage", 0.0, 5.0, 0.0, "three_players", "subtracted per colour and per face a coloured card would "
          "leave the hand without (the last held of its colour, of its face: the idea of diversity; searched from 3 "
          "players, so that the 2-player searches stay as they were)"),
    Param("drawn_wild_at", 0.0, 108.0, 108.0, "", "play a legal drawn wild only when holding at most this many cards"),
    Param("colour_slack", 0.0, 4.0, 0.0, "", "colours held within this many cards of the most held are candidates; "
          "the one rarest among unseen cards is named"),
    Param("bluff_at", 0.0, 6.0, 0.0, "challenge", "bluff a Wild Draw Four when the next player holds at most this many"),
    Param("suspicion", 0.0, 1.0, 0.25, "challenge", "assumed rate at which an opponent able to bluff does"),
    Param("challenge_above", 0.0, 1.0, 0.35, "challenge", "challenge when the estimated bluff chance exceeds this"),
    Param("point_size", -1.0, 3.0, 1.0, "point_taken", "Point Taken: preference per card fewer held by the target"),
    Param("point_next", -5.0, 5.0, 0.0, "point_taken", "Point Taken: preference for pointing at the next player"),
    Param("link_size", -1.0, 3.0, 1.0, "wild_drawn_together", "link: preference per card fewer held"),
    Param("link_self", -10.0, 10.0, -10.0, "wild_drawn_together", "link: preference for linking oneself"),
    Param("link_next", -5.0, 5.0, 0.0, "wild_drawn_together", "link: preference for linking the next player"),
    Param("jump_rate", 0.0, 1.0, 1.0, "speed_play", "probability of jumping in with an identical card"),
    Param("jump_feed", -2.0, 2.0, 0.0, "speed_play", "added to a number card per copy of it this player has not seen "
          "(in no hand of its own nor on the discard pile): the copies an opponent could jump in with"),
    Param("jump_keep_last", 0.0, 1.0, 0.0, "speed_play", "probability of not jumping in with the second-to-last card"),
    *(Param(f"pile_{group}", -5.0, 5.0, default, "wild_pile_up", f"mini pile: preference for adding a {group} card")
      for group, default in zip(PILE_GROUPS, (2.0, 1.0, -3.0), strict=True)),
    Param("pile_points", -2.0, 2.0, 0.5, "wild_pile_up", "mini pile: added per 50 points of the card"),
    Param("pile_coverage", 0.0, 5.0, 0.0, "wild_pile_up", "mini pile: as coverage, for the card added"),
    # 2 players: what the opponent is known to lack (strategies/opponent_memory.py); the defaults remember nothing
    Param("lack_colour", -5.0, 5.0, 0.0, "two_players", "added to a coloured card of a colour the opponent is known to lack"),
    Param("lack_face", -5.0, 5.0, 0.0, "two_players", "added to a coloured card of a face the opponent is known to lack"),
    Param("lack_wild", -5.0, 5.0, 0.0, "two_players", "added to a wild while the opponent is known to lack a colour"),
    Param("lack_wild_keep", 0.0, 15.0, 0.0, "two_players", "while the opponent is known to lack a colour, play a wild "
          "when at most this many non-wild cards are held (if more than wild_keep)"),
    Param("lack_name", -1.0, 10.0, -1.0, "two_players", "name a colour the opponent is known to lack if held within "
          "this many cards of the colour held most (below 0: never)"),
    Param("lack_forget", 0.0, 20.0, 4.0, "two_players", "forget a lack once the opponent has taken more than this "
          "many cards since"),
    Param("block_number", -2.0, 10.0, 0.0, "two_players", "added per unit of the chance that the opponent holds no "
          "card to answer a number card (its known lacks counted)"),
    Param("block_name", -2.0, 10.0, 0.0, "two_players", "added per unit of the chance that the opponent holds no "
          "card to answer the colour named"),
    Param("block_posterior", 0.0, 1.0, 0.0, "two_players", "share of the posterior over the opponent's hand "
          "(strategies/hand_groups.py) in those chances, the rest the hypergeometric over its lacks (above 0 the "
          "posterior is kept)"),
    # 2 players: search at decision time (strategies/lookahead.py); `unosim tune` searches these only when named (--search)
    Param("look_rollouts", 0.0, 1000.0, 0.0, "lookahead", "sampled worlds per decision of the search at decision "
          "time (rounded; 0: no search)"),
    Param("look_depth", 1.0, 200.0, 12.0, "lookahead", "turns played out in each world before the position is valued "
          "(rounded)"),
    *(Param(f"look_value_{name}", -5.0, 5.0, default, "lookahead", f"value of a position: logistic coefficient of {doc}")
      for name, default, doc in zip(("bias", "move", "own", "opponent"), lookahead.VALUE_DEFAULTS,
                                    ("1", "this seat to move", "ln(own cards)", "ln(opponent's cards)"), strict=True)),
    *(Param(f"look_{name}", *_POLICY_RANGES.get(name, (-10.0, 10.0)), default, "lookahead",
            f"playout policy: {name.replace('_', ' ')} (strategies/lookahead.py, _own_pick)")
      for name, default in zip(lookahead.POLICY_NAMES, lookahead.POLICY_DEFAULTS, strict=True)),
)
"""Every parameter of `TunableStrategy`, in the order of the search vector."""

NAMES: tuple[str, ...] = tuple(p.name for p in PARAMETERS)
DEFAULTS: dict[str, float] = {p.name: p.default for p in PARAMETERS}
_BY_NAME = {p.name: p for p in PARAMETERS}


def relevant(rules: Any, players: int = 4) -> list[str]:
    """Names of the parameters that can change a game under ``rules`` (a [`RuleSet`][unosim.RuleSet]) at ``players``.

    A card-kind parameter matters when the deck holds that kind; challenge and bluff thresholds when
    ``wd4_challenge`` is on and the deck holds a Wild Draw Four; jump-in parameters with ``speed_play``;
    the ``near_*`` weights (an opponent other than the next one close to going out) from 3 players; the
    2-player parameters (``lack_*``, ``block_*``, ``wild_keep_next``) at 2 players only. The search at
    decision time (``look_*``) is left out: a candidate with it on plays some 25 times slower; turn it on in a
    ``--start`` file and name its parameters with ``--search`` to tune them.
    """
    counts = np.asarray(rules.load_deck().counts)
    held = {kind: bool(counts[_KIND == i].sum()) for i, kind in enumerate(KIND_NAMES)}
    names = []
    for p in PARAMETERS:
        kind = p.name.split("_", 1)[1] if p.name.split("_", 1)[0] in SITUATIONS else None
        if kind is not None and not held[kind]:
            continue
        if p.name.startswith("near_") and players < 3:
            continue
        if p.needs in held and not held[p.needs]:
            continue
        if p.needs == "challenge" and not (rules.wd4_challenge and held["wild_draw_four"]):
            continue
        if p.needs == "speed_play" and not rules.speed_play:
            continue
        if p.needs == "two_players" and players != 2 or p.needs == "three_players" and players < 3:
            continue
        if p.needs == "lookahead":
            continue
        names.append(p.name)
    return names


def to_params(x: NDArray[np.floating], names: list[str] | tuple[str, ...] = NAMES,
              base: dict[str, float] | None = None) -> dict[str, float]:
    """Parameters from a search vector: ``x[i]`` in [0, 1] (clipped) maps linearly onto the range of ``names[i]``.

    Parameters not in ``names`` take their value from ``base`` (default: `DEFAULTS`). Values are
    rounded to 6 significant decimals so that they print and save exactly.
    """
    params = dict(DEFAULTS if base is None else base)
    for name, value in zip(names, np.clip(np.asarray(x, np.float64), 0.0, 1.0), strict=True):
        p = _BY_NAME[name]
        params[name] = round(float(p.low + (p.high - p.low) * value), 6)
    return params


def to_vector(params: dict[str, float], names: list[str] | tuple[str, ...] = NAMES) -> NDArray[np.float64]:
    """Inverse of `to_params`: the unit-cube coordinates of ``params`` (defaults where absent)."""
    out = []
    for name in names:
        p = _BY_NAME[name]
        out.append((float(params.get(name, p.default)) - p.low) / (p.high - p.low))
    return np.asarray(out, np.float64)


class TunableStrategy(Strategy):
    """A strategy with a numeric knob on every decision (defaults: a sensible player).

    Idea: express the decisions of the other built-ins (which kind of card to
    play when, keeping wilds, staying in a colour, attacking the leaders,
    bluffing and challenging, party targeting) as weights, so that
    ``unosim tune`` can search for the strongest combination by simulation.
    Every parameter is a float in the range `PARAMETERS` gives.

    Decisions
    ---------
    play
        Scores each legal card held and plays the highest (ties in proportion
        to copies held): the weight of its kind for the situation
        (``calm_*``: no opponent holds at most ``threat`` cards; ``next_*``:
        the next player does; ``near_*``: another opponent does), plus
        ``points_weight`` per 50 points, plus ``colour_weight`` times the share
        of the hand in the card's colour, minus ``coverage`` per colour and per
        face the card is the last held of (`uncovered`: the hand would
        no longer match them; diversity's idea), plus ``jump_feed`` per copy
        of a number card not seen (with speed play: the copies an opponent
        could jump in with). Wilds are left out while more than
        ``wild_keep`` non-wild cards are held and a coloured card is legal
        (``wild_keep + wild_keep_next`` when the next player holds at most
        ``threat`` cards). With challenges on, a held Wild Draw Four is played (as a bluff if need
        be) when the next player holds at most ``bluff_at`` cards. Never draws
        while holding a legal card.
    memory (2 players)
        With any ``lack_*`` or ``block_*`` parameter away from its default
        (`remembers`), the strategy remembers, per game, the colours,
        faces and wilds the opponent is known to lack
        (`LackMemory`: it drew and
        could not play, or drew and played the card drawn; forgotten once it
        has taken more than ``lack_forget`` cards since). Then a coloured card
        of a lacked colour gets ``lack_colour``, one of a lacked face
        ``lack_face``, a wild ``lack_wild`` while a colour is lacked (and the
        wild threshold is at least ``lack_wild_keep``), and a number card
        ``block_number`` times the chance that the opponent holds nothing to
        answer it (`block_chances`).
        With ``block_posterior`` above 0 that chance (for numbers and
        colours named) is mixed, in that share, with the one of a posterior
        over the opponent's whole hand
        (`unosim.strategies.hand_groups`: every draw and play it made
        since each of its cards was taken).
        The defaults remember nothing and play as before.
    search (2 players)
        With ``look_rollouts`` above 0, under rules the playouts follow
        (`model`: 2 players, classic cards, no speed play, one card
        drawn per turn), the card to play and the colour to name are chosen by a search at decision time
        (`best_moves`): every legal card (a wild once per colour held)
        is played out in ``look_rollouts`` worlds drawn from the posterior over the opponent's hand, for
        ``look_depth`` turns, and the position reached is valued by a logistic in the hand sizes
        (``look_value_*``). The weights above still choose where the search has a single candidate, the
        colour of a wild start card, the drawn cards played, and every decision under other rules. It plays
        some 25 times slower than without.
    stack (H-1)
        Always stacks when it can: the Draw Two (the Wild Draw Four only when no Draw Two may be
        stacked) scored by the kind weights and ``colour_weight`` as in ``play``.
    play_drawn
        A legal coloured drawn card is played; a legal drawn wild only when
        holding at most ``drawn_wild_at`` cards; a drawn Wild Draw Four that
        would be a bluff when the next player holds at most ``bluff_at``.
    choose_colour
        Among the colours held within ``colour_slack`` cards of the colour held
        most, the one rarest among the cards this player has not seen (hand
        and discard pile), i.e. the one the opponents are least likely to hold;
        with the memory, plus ``block_name`` times the chance that the opponent
        cannot answer the colour, and a colour it is known to lack is named
        when held within ``lack_name`` cards of the colour held most.
    challenge
        The bluff estimate of ``bluffer`` (``suspicion``); challenges when it
        exceeds ``challenge_above``.
    point_at
        The other player (still in the match) maximising ``-point_size`` ×
        cards held ``+ point_next`` × (is the next player), ties at random.
    choose_link
        The two allowed seats maximising ``-link_size`` × cards held
        ``+ link_self`` × (is this player) ``+ link_next`` × (is the next player).
    add_to_pile
        The card that may be added maximising ``pile_number`` / ``pile_action``
        / ``pile_wild`` (by its group) ``+ pile_points`` per 50 points
        ``- pile_coverage`` per colour and face it is the last held of.
    jump_in
        Jumps in with probability ``jump_rate``; with its second-to-last card
        it first stays out with probability ``jump_keep_last``.
    forget_uno, catch_uno
        The base rates.

    Parameters
    ----------
    calm_number, ..., near_wild_drawn_together, threat, ..., pile_points, lack_colour, ..., look_close_at : float
        See `PARAMETERS` (name, range, default, meaning).
    forget_uno_rate, catch_uno_rate : float
        See [`unosim.Strategy`][unosim.Strategy].
    """

    name = "tunable"
    parameter_constraints = {p.name: (float, p.low, p.high) for p in PARAMETERS}

    if TYPE_CHECKING:  # the constructor stores every parameter of PARAMETERS as an attribute

        def __getattr__(self, name: str) -> float: ...

    base_rates: ClassVar[dict[str, float]] = {"forget_uno_rate": 0.0, "catch_uno_rate": 1.0}
    """The defaults of the base rates ([`unosim.Strategy`][unosim.Strategy])."""
    parameter_defaults: ClassVar[dict[str, float]] = DEFAULTS
    """The default of every parameter of `PARAMETERS`: their table's, or a tuned file's."""

    def __init__(self, **params: float) -> None:
        # The keyword parameters (their names and defaults) are those of PARAMETERS and the base rates:
        # the signature this constructor shows (param_names, get_params) is built from them below.
        allowed = {**self.parameter_defaults, **self.base_rates}
        unknown = [k for k in params if k not in allowed]
        if unknown:
            raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {unknown[0]!r}")
        values = {**allowed, **params}
        super().__init__(forget_uno_rate=values["forget_uno_rate"], catch_uno_rate=values["catch_uno_rate"])
        for name in NAMES:
            setattr(self, name, values[name])

    # ------------------------------------------------------------ score tables
    def _kind_tables(self) -> NDArray[np.int64]:
        """``[3, N_TYPES]`` play scores per situation (kind weight + points), as integers."""
        weights = np.array([[getattr(self, f"{sit}_{kind}") for kind in KIND_NAMES] for sit in SITUATIONS])
        return np.rint(SCALE * (weights[:, _KIND] + self.points_weight * _POINTS)).astype(np.int64)

    def _pile_table(self) -> NDArray[np.int64]:
        weights = np.array([getattr(self, f"pile_{g}") for g in PILE_GROUPS])
        return np.rint(SCALE * (weights[_PILE_GROUP] + self.pile_points * _POINTS)).astype(np.int64)

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_cache")}

    def _tables(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        cache = self.__dict__.get("_cache_tables")
        if cache is None:
            cache = self.__dict__["_cache_tables"] = (self._kind_tables(), self._pile_table())
        return cache

    # ------------------------------------------------------------ situations
    def _next(self, obs: Observation) -> NDArray[np.int64]:
        return next_seats(obs.seat, obs.direction, obs.alive)

    def situation(self, obs: Observation) -> NDArray[np.int64]:
        """Per row: 0 calm, 1 the next player holds at most ``threat`` cards, 2 another opponent does."""
        rows = np.arange(len(obs))
        close = (obs.hand_sizes <= self.threat) & obs.alive
        close[rows, obs.seat] = False
        next_close = close[rows, self._next(obs)]
        return np.where(next_close, 1, np.where(close.any(axis=1), 2, 0))

    # ------------------------------------------------------------ decisions
    @property
    def remembers(self) -> bool:
        """True when a ``lack_*`` parameter can change a decision (at 2 players; the defaults: False)."""
        return bool(self.lack_colour or self.lack_face or self.lack_wild or self.lack_wild_keep > self.wild_keep
                    or self.lack_name >= 0 or self.block_number or self.block_name or self.searches)

    @property
    def searches(self) -> bool:
        """True when the search at decision time is on (``look_rollouts`` rounds to at least 1)."""
        return round(self.look_rollouts) >= 1

    def _memory(self, obs: Observation) -> LackMemory | None:
        """The per-game memory (2 players, `remembers`), created on first use; never pickled."""
        if obs.players != 2 or not self.remembers:
            return None
        memory = self.__dict__.get("_cache_memory")
        if memory is None:
            memory = self.__dict__["_cache_memory"] = LackMemory(posterior=self.block_posterior > 0 or self.searches)
        return memory

    def _block(self, obs: Observation, memory: LackMemory, entries: NDArray[np.int64], lack_colour: NDArray[np.bool_],
               lack_face: NDArray[np.bool_]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The chance that the opponent answers nothing, per coloured card and per colour named: the
        hypergeometric over its lacks mixed with the posterior (``block_posterior``; the hypergeometric alone
        where ``entries`` is -1)."""
        known = np.maximum(entries, 0)
        unseen = unseen_cards(obs)
        coloured, named = block_chances(obs, self._next(obs), lack_colour, lack_face, memory.taken(known), unseen)
        if self.block_posterior:
            post_coloured, post_named = memory.answers(obs, known, unseen)
            share = self.block_posterior * (entries >= 0)[:, None]
            coloured += share * (post_coloured - coloured)
            named += share * (post_named - named)
        return coloured, named

    def play(self, obs: Observation) -> NDArray[np.integer]:
        kinds, _ = self._tables()
        hand = obs.hand
        legal = obs.legal
        n = len(obs)
        memory = self._memory(obs)
        situation = self.situation(obs)
        wild_keep = self.wild_keep + self.wild_keep_next * (situation == 1)
        if memory is not None:
            opponent = self._next(obs)
            entries = memory.observe(obs, opponent)
            lack_colour, lack_face = memory.known(entries, self.lack_forget)
            lacking = np.asarray(lack_colour.any(axis=1), bool)
            wild_keep = np.where(lacking, np.maximum(wild_keep, self.lack_wild_keep), wild_keep)
        coloured = (legal[:, :N_COLOURED] & (hand[:, :N_COLOURED] > 0)).any(axis=1)
        save = coloured & (hand[:, :N_COLOURED].sum(axis=1, dtype=np.int64) > wild_keep)
        if save.any():
            legal = legal.copy()
            legal[save, N_COLOURED:] = False
        size = np.maximum(obs.hand_size, 1).astype(np.float64)
        bonus = np.rint(SCALE * self.colour_weight * colour_counts(hand) / size[:, None]).astype(np.int64)
        if memory is None and not (self.coverage or self.jump_feed):
            cards: NDArray[np.integer] = sample_best_of(hand, legal, kinds, situation, obs.random(), bonus)
        else:
            tables = kinds[situation]
            if self.coverage:
                tables -= round(SCALE * self.coverage) * uncovered(hand)
            if self.jump_feed and obs.rules.speed_play:
                tables[:, :N_COLOURED] += round(SCALE * self.jump_feed) * self._unseen(obs)[:, :N_COLOURED] * _IS_NUMBER
            if memory is not None:
                tables[:, :N_COLOURED] += round(SCALE * self.lack_face) * lack_face[:, _FACE[:N_COLOURED]]
                tables[:, N_COLOURED:] += round(SCALE * self.lack_wild) * lacking[:, None]
                bonus += round(SCALE * self.lack_colour) * lack_colour
                if self.block_number:
                    chances, _ = self._block(obs, memory, entries, lack_colour, lack_face)
                    tables[:, :N_COLOURED] += np.rint(SCALE * self.block_number * chances).astype(np.int64) * _IS_NUMBER
            cards = sample_best_of(hand, legal, tables, np.arange(n), obs.random(), bonus)
            if memory is not None and (rule := self._search_model(obs)) is not None:  # the search reads the memory
                cards, colours = self._search(obs, memory, entries, np.full(n, -1, np.int64), rule)
                self._plan(obs, cards, colours)
        if self.bluff_at >= 1 and obs.bluffable.any():
            rows = np.arange(n)
            attack = obs.bluffable & (hand[:, WILD_DRAW_FOUR] > 0)
            attack &= obs.hand_sizes[rows, self._next(obs)] <= self.bluff_at
            cards = np.where(attack, WILD_DRAW_FOUR, cards)
        if memory is not None:
            memory.moved(obs, entries, cards)
        return cards

    def _unseen(self, obs: Observation) -> NDArray[np.int64]:
        """``[n, N_TYPES]`` cards of the deck (``obs.rules``) in no hand of this player's nor on the discard pile."""
        cache = self.__dict__.setdefault("_cache_decks", {})
        if obs.rules not in cache:
            cache[obs.rules] = obs.rules.load_deck().array(obs.rules.deck_copies).astype(np.int64)
        return np.maximum(cache[obs.rules][None, :] - obs.hand - obs.discard, 0)

    def _search_model(self, obs: Observation) -> NDArray[np.int64] | None:
        """The playouts' rule model (`model`) when the search is on and the
        rules allow it, else None (cached per rule set)."""
        if not self.searches:
            return None
        cache = self.__dict__.setdefault("_cache_models", {})
        if (obs.rules, obs.players) not in cache:
            deck = obs.rules.load_deck().counts if obs.rules.deck_copies == 1 else np.zeros(0)
            classic = np.array_equal(np.asarray(deck), _CLASSIC_COUNTS)
            cache[obs.rules, obs.players] = lookahead.model(obs.rules, obs.players, np.asarray(deck)) if classic else None
        return cache[obs.rules, obs.players]

    def _search(self, obs: Observation, memory: LackMemory, entries: NDArray[np.int64], only: NDArray[np.integer],
                rule: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Cards and colours chosen by the search (`best_moves`) for the rows
        of ``obs`` (``entries``: their memory entries, -1 for none; ``only``: -1, or the card whose colour is
        asked). Draws one uniform per row."""
        seeds = (obs.random() * 2.0**53).astype(np.uint64)
        held = obs.hand_sizes[np.arange(len(obs)), 1 - obs.seat].astype(np.int64)
        value = np.array([self.look_value_bias, self.look_value_move, self.look_value_own, self.look_value_opponent])
        policy = np.array([getattr(self, f"look_{name}") for name in lookahead.POLICY_NAMES])
        return lookahead.best_moves(obs.hand, obs.legal, unseen_cards(obs), obs.discard, obs.top.astype(np.int64),
                                    obs.colour.astype(np.int64), held, memory.group_size, memory.group_weight, entries,
                                    seeds, only, rule, round(self.look_rollouts), round(self.look_depth), value, policy)

    def _plan(self, obs: Observation, cards: NDArray[np.integer], colours: NDArray[np.integer]) -> None:
        """Keep the colour the search chose for each wild played, for `choose_colour` (asked next)."""
        rows = np.flatnonzero(colours >= 0)
        keys = (obs.game[rows].astype(np.int64) * 16 + obs.seat[rows]).tolist()
        self.__dict__["_cache_plan"] = dict(zip(keys, colours[rows].tolist()))

    @property
    def plays_legal_drawn_card(self) -> bool:
        """True when `play_drawn` plays every legal drawn card, never bluffs and needs not see the
        card played (no memory: `remembers` is False); the defaults."""
        return self.drawn_wild_at >= 108 and self.bluff_at < 1 and not self.remembers

    def stack(self, obs: Observation, options: NDArray[np.bool_]) -> NDArray[np.integer]:
        """H-1: always stacks: among the Draw Twos when one may be stacked (else the Wild Draw Four), the
        highest by the kind weights of the situation and the colour bonus, as `play` scores them."""
        kinds, _ = self._tables()
        size = np.maximum(obs.hand_size, 1).astype(np.float64)
        bonus = np.rint(SCALE * self.colour_weight * colour_counts(obs.hand) / size[:, None]).astype(np.int64)
        return sample_best_of(obs.hand, stack_preferred(options), kinds, self.situation(obs), obs.random(), bonus)

    def play_drawn(self, obs: Observation) -> NDArray[np.bool_]:
        rows = np.arange(len(obs))
        drawn = obs.drawn
        play = obs.legal[rows, drawn] & ((drawn < N_COLOURED) | (obs.hand_size <= self.drawn_wild_at))
        if self.bluff_at >= 1 and obs.bluffable.any():
            play |= obs.bluffable & (obs.hand_sizes[rows, self._next(obs)] <= self.bluff_at)
        memory = self._memory(obs)
        if memory is not None:
            memory.drawn_played(obs, play)
        return play

    def choose_colour(self, obs: Observation, cards: NDArray[np.integer]) -> NDArray[np.integer]:
        held = colour_counts(obs.hand).astype(np.float64)
        most = held.max(axis=1, keepdims=True)
        candidates = held >= most - self.colour_slack
        memory = self._memory(obs)
        if memory is None:
            return argmax_ties(-colour_unseen_shares(obs), obs.random(), candidates)
        entries = memory.current(obs, wilds=cards)
        colours = self._heuristic_colour(obs, memory, entries, candidates, held, most)
        rule = self._search_model(obs)
        if rule is not None:
            cards = np.asarray(cards, np.int64)
            plan = self.__dict__.pop("_cache_plan", {})
            planned = np.array([plan.get(k, -1) for k in (obs.game.astype(np.int64) * 16 + obs.seat).tolist()], np.int64)
            colours = np.where(planned >= 0, planned, colours)
            ask = np.flatnonzero((planned < 0) & (cards >= 0))  # a drawn wild: search its colour
            if len(ask):
                _, searched = self._search(obs.subset(ask), memory, entries[ask], cards[ask], rule)
                colours[ask] = searched
        memory.named(obs, entries, colours)
        return colours

    def _heuristic_colour(self, obs: Observation, memory: LackMemory, entries: NDArray[np.int64],
                          candidates: NDArray[np.bool_], held: NDArray[np.float64], most: NDArray[np.float64]
                          ) -> NDArray[np.integer]:
        """The colour named by the weights, with the memory (see `choose_colour`)."""
        lack, lack_face = memory.known(np.maximum(entries, 0), self.lack_forget)
        lack &= (entries >= 0)[:, None]
        lack_face &= (entries >= 0)[:, None]
        scores = -colour_unseen_shares(obs)
        if self.block_name:
            _, chances = self._block(obs, memory, entries, lack, lack_face)
            scores += self.block_name * chances
        lack &= held >= most - self.lack_name
        name = np.asarray(lack.any(axis=1), bool)
        # a lacked colour within lack_name of the most held: the most held of those, then as the others
        scores += np.where(name[:, None], held * 100.0, 0.0)
        return argmax_ties(scores, obs.random(), np.where(name[:, None], lack, candidates))

    def challenge(self, obs: Observation) -> NDArray[np.bool_]:
        held = obs.hand_sizes[np.arange(len(obs)), obs.target].astype(np.float64)
        q = colour_unseen_shares(obs)
        could = 1.0 - ((1.0 - q) ** held[:, None]).mean(axis=1)
        bluffed = could * self.suspicion
        return bluffed / np.maximum(bluffed + 1.0 - could, 1e-12) > self.challenge_above

    def _seat_scores(self, obs: Observation, size_w: float, next_w: float, self_w: float) -> NDArray[np.float64]:
        rows = np.arange(len(obs))
        scores = -size_w * obs.hand_sizes.astype(np.float64)
        scores[rows, self._next(obs)] += next_w
        scores[rows, obs.seat] += self_w
        return np.round(scores, 6)

    def point_at(self, obs: Observation) -> NDArray[np.integer]:
        others = obs.alive.copy()
        others[np.arange(len(obs)), obs.seat] = False
        return argmax_ties(self._seat_scores(obs, self.point_size, self.point_next, 0.0), obs.random(), others)

    def choose_link(self, obs: Observation) -> NDArray[np.integer]:
        n = len(obs)
        scores = self._seat_scores(obs, self.link_size, self.link_next, self.link_self)
        u = obs.random(2)
        allowed = obs.link_choices.copy()
        first = argmax_ties(scores, u[:, 0], allowed)
        allowed[np.arange(n), first] = False
        second = argmax_ties(scores, u[:, 1], allowed)
        return np.stack([first, second], axis=1)

    def add_to_pile(self, obs: Observation) -> NDArray[np.integer]:
        _, pile = self._tables()
        if not self.pile_coverage:
            return sample_best(obs.hand, obs.legal, pile, obs.random())
        tables = pile[None, :] - round(SCALE * self.pile_coverage) * uncovered(obs.hand)
        return sample_best_of(obs.hand, obs.legal, tables, np.arange(len(obs)), obs.random())

    def jump_in(self, obs: Observation) -> NDArray[np.floating]:
        u = obs.random(2)
        jump = u[:, 0] < self.jump_rate
        jump &= ~((obs.hand_size == 2) & (u[:, 1] < self.jump_keep_last))
        return jump.astype(np.float64)


def _signature(defaults: dict[str, float]) -> inspect.Signature:
    """The constructor's signature: one keyword parameter per entry of `PARAMETERS` (with
    ``defaults``), then the base rates."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    names = {**defaults, **TunableStrategy.base_rates}
    return inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(k, keyword, default=v, annotation="float") for k, v in names.items()],
        return_annotation="None",
    )


TunableStrategy.__init__.__signature__ = _signature(DEFAULTS)  # type: ignore[attr-defined]


def uncovered(hand: NDArray[np.integer]) -> NDArray[np.int64]:
    """``[n, N_TYPES]``: per card type, how many colours and faces giving up one card of it leaves the hand
    without (0, 1 or 2: the only card held of its colour, of its face; 0 for wilds and cards not held), as in
    `coverage_score`."""
    coloured = hand[:, :N_COLOURED].reshape(len(hand), N_COLOURS, FACES_PER_COLOUR).astype(np.int64)
    last_colour = coloured.sum(axis=2) == 1
    last_face = coloured.sum(axis=1) == 1
    out = np.zeros(hand.shape, np.int64)
    lost = (coloured == 1) * (last_colour[:, :, None].astype(np.int64) + last_face[:, None, :])
    out[:, :N_COLOURED] = lost.reshape(len(hand), N_COLOURED)
    return out


# ------------------------------------------------------------------ tuned files
FORMAT = "unosim-tuned-strategy"
"""The ``format`` field of a tuned-strategy file."""


def load_tuned(path: str | Path) -> dict[str, Any]:
    """Read a tuned-strategy file (JSON written by ``unosim tune``): ``{"format", "strategy", "params", ...}``.

    Raises
    ------
    ValueError
        If the file is missing, not JSON, not a tuned-strategy file, or names unknown parameters.
    """
    path = Path(path)
    if not path.exists():
        raise UnosimInputError(f"tuned strategy file {str(path)!r} does not exist; give the path of a file written by "
                         "`unosim tune` (OUT/tuned.json), e.g. --strategies tuned:runs/tune/tuned.json.")
    try:
        data = inputs.parse_json(inputs.read_text(path, "tuned strategy file"), f"tuned strategy file {path}")
    except OSError as exc:
        raise UnosimInputError(f"tuned strategy file {path} cannot be read ({exc.strerror or exc}); give a file written by "
                         "`unosim tune`.") from None
    except inputs.InputFileError:
        raise
    except ValueError as exc:  # not UTF-8, not JSON, a number of more than 4300 digits
        raise UnosimInputError(f"tuned strategy file {path} is not valid JSON ({exc}); give a file written by `unosim tune`.") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("params"), dict):
        raise UnosimInputError(f"{path} is not a tuned-strategy file (no \"format\": {FORMAT!r} and \"params\"); "
                         "give a file written by `unosim tune`.")
    unknown = sorted(set(data["params"]) - set(NAMES))
    if unknown:
        raise UnosimInputError(f"tuned strategy file {path}: unknown parameter {unknown[0]!r}; the parameters are those of "
                         "unosim.strategies.tunable.PARAMETERS.")
    for name, value in data["params"].items():
        p = _BY_NAME[name]
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not number or not p.low <= value <= p.high:  # NaN compares false
            shown = json.dumps(value) if len(json.dumps(value)) <= 40 else json.dumps(value)[:37] + "..."
            raise UnosimInputError(
                f"tuned strategy file {path}: params.{name} = {shown} is not allowed; {name} is a number from "
                f"{p.low:g} to {p.high:g} (unosim.strategies.tunable.PARAMETERS): write such a number, or run "
                "`unosim tune` again to write the file."
            )
    return data


def tuned_class(label: str, path: str | Path) -> type[TunableStrategy]:
    """A subclass of `TunableStrategy` named ``label`` whose defaults are the parameters in ``path``.

    Built once per (label, file contents); its instances pickle with the label, the tuned defaults
    and their parameters, so a worker rebuilds the same class without the file.
    """
    data = load_tuned(path)
    return _tuned_class(label, json.dumps(data["params"], sort_keys=True))


def _rebuild(label: str, params_json: str, params: dict[str, Any]) -> TunableStrategy:
    """Unpickle a tuned strategy: its class (from the label and the tuned defaults), then the instance."""
    return _tuned_class(label, params_json)(**params)


@functools.lru_cache(maxsize=64)
def _tuned_class(label: str, params_json: str) -> type[TunableStrategy]:
    """The subclass of `TunableStrategy` playing the tuned parameters ``params_json`` (JSON) by default."""
    defaults = {**DEFAULTS, **{k: float(v) for k, v in json.loads(params_json).items()}}

    def __init__(self: TunableStrategy, **params: float) -> None:  # noqa: N807
        TunableStrategy.__init__(self, **params)

    __init__.__signature__ = _signature(defaults)  # type: ignore[attr-defined]
    __init__.__qualname__ = "TunedStrategy.__init__"
    __init__.__doc__ = TunableStrategy.__init__.__doc__

    def __reduce__(self: TunableStrategy) -> tuple[Any, tuple[str, str, dict[str, Any]]]:  # noqa: N807
        return _rebuild, (label, params_json, self.get_params())

    doc = f"``{label}``: `TunableStrategy` with the tuned parameters of its file as defaults.\n\n{TunableStrategy.__doc__}"
    return type("TunedStrategy", (TunableStrategy,), {
        "name": label, "parameter_defaults": defaults, "__init__": __init__, "__reduce__": __reduce__, "__doc__": doc,
        "__module__": __name__,
    })
