"""Learned policies as strategies: a saved linear policy plays every decision (``policy:PATH``).

A policy file (JSON) holds a linear scoring of the actions of :mod:`unosim.env.encoding`::

    {"format": "unosim-linear-policy", "players": 2, "weights": [[...], ...], "bias": [...]}

``weights`` is ``[n_actions, obs_size]`` (or empty: bias only), ``bias`` ``[n_actions]``; the action
taken is the legal one of highest score ``weights @ observation + bias`` (first on ties), so a
policy plays deterministically. :class:`PolicyStrategy` encodes each decision from the
strategy's :class:`~unosim.strategy.observation.Observation` with the environments' own encoder
(:func:`unosim.env.kernels.encode`), with one difference: a strategy is not shown the mini
pile's size, so that entry is 0 (it matters in party games only).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..game.cards import N_TYPES, WILD_DRAWN_TOGETHER
from ..game.kernels import layout as L
from ..strategy.base import Strategy
from ..strategy.observation import Observation
from . import encoding as E
from . import kernels as K

__all__ = ["FORMAT", "LinearPolicy", "PolicyStrategy", "encode_rows"]

FORMAT = "unosim-linear-policy"


@dataclass
class LinearPolicy:
    """A linear scoring of the actions (see the module doc)."""

    players: int
    weights: NDArray[np.float64]
    bias: NDArray[np.float64]

    def act(self, obs: NDArray[Any], mask: NDArray[Any]) -> NDArray[np.int64]:
        """The legal action of highest score of each row of ``obs`` ``[n, obs_size]`` under ``mask`` ``[n, n_actions]``."""
        scores = np.broadcast_to(self.bias, mask.shape).astype(np.float64)
        if self.weights.size:
            scores = scores + obs.astype(np.float64) @ self.weights.T
        return np.argmax(np.where(mask.astype(bool), scores, -np.inf), axis=1)

    def save(self, path: str | Path) -> None:
        """Write the policy file."""
        Path(path).write_text(json.dumps({
            "format": FORMAT, "players": self.players, "weights": self.weights.tolist(), "bias": self.bias.tolist(),
        }))

    @classmethod
    def load(cls, path: str | Path) -> LinearPolicy:
        """Read a policy file; refuse one of another format or of inconsistent sizes."""
        data = json.loads(Path(path).read_text())
        if data.get("format") != FORMAT:
            raise ValueError(f"{path}: not a policy file (format {data.get('format')!r}, expected {FORMAT!r}).")
        players = int(data["players"])
        spaces = E.Spaces(players, 1)
        bias = np.asarray(data["bias"], np.float64)
        weights = np.asarray(data["weights"], np.float64)
        if bias.shape != (spaces.n_actions,) or (weights.size and weights.shape != (spaces.n_actions, spaces.obs_size)):
            raise ValueError(f"{path}: a {players}-player policy needs bias [{spaces.n_actions}] and weights "
                             f"[{spaces.n_actions}, {spaces.obs_size}] (or []); got {bias.shape} and {weights.shape}.")
        return cls(players, weights, bias)


def encode_rows(spaces: E.Spaces, obs: Observation, kind: str, cards: NDArray[np.integer] | None = None,
                relink_must_differ: bool = False) -> tuple[NDArray[np.int16], NDArray[np.int8]]:
    """The observation vectors and action masks (:mod:`unosim.env.encoding`) of the rows of ``obs`` for
    decision step ``kind`` (``cards``: the card a follow-up is about), made by the environments' own
    encoder (:func:`unosim.env.kernels.encode`) from what the strategy is shown; the mini pile's size,
    which a strategy is not shown, is 0."""
    n, P = len(obs), spaces.players
    out = np.zeros((n, spaces.obs_size), np.int16)
    masks = np.zeros((n, spaces.n_actions), np.int8)
    if n == 0:
        return out, masks
    slot = np.zeros((n, L.N_FIELDS), np.int32)
    slot[:, L.F_TOP], slot[:, L.F_COLOUR], slot[:, L.F_DIR] = obs.top, obs.colour, obs.direction
    slot[:, L.F_ALIVE] = (obs.alive.astype(np.int64) << np.arange(P)).sum(axis=1)
    slot[:, L.F_LINK_A], slot[:, L.F_LINK_B] = obs.link[:, 0], obs.link[:, 1]
    if obs.phase_id == L.PH_PILEUP:  # a mini pile is being played: its colour is shown (its size is not)
        slot[:, L.F_MINI_N], slot[:, L.F_MINI_COLOUR] = 1, obs.target
    hsize = np.ascontiguousarray(obs.hand_sizes, np.int32)
    piles = np.zeros((n, 3, N_TYPES), np.int8)
    piles[:, L.DISC] = obs.discard
    top = obs.top.astype(np.int64)
    on = (top >= 0) & (top < N_TYPES)
    piles[np.flatnonzero(on), L.DISC, top[on]] -= 1  # a strategy's discard counts the card on top; the batch's does not
    info = np.ascontiguousarray(obs.info[None], np.int32)
    legal = np.ascontiguousarray(obs.legal[None], np.bool_)
    st = np.zeros((n, K.N_ST), np.int64)
    st[:, K.ST_KIND], st[:, K.ST_ROW], st[:, K.ST_PHASE] = E.KINDS[kind], np.arange(n), obs.phase_id
    st[:, K.ST_CARD] = -1 if cards is None else cards
    offsets = np.array([spaces.blocks[name].start for name in K.BLOCK_ORDER] + [spaces.obs_size], np.int64)
    pairs = np.ascontiguousarray(spaces.pairs, np.int64)
    seats = obs.seat.astype(np.int64)
    for seat in np.unique(seats).tolist():  # the encoder takes one acting seat per call
        rows = np.flatnonzero(seats == seat)
        m = len(rows)
        hands = np.zeros((m, P, N_TYPES), np.int8)
        hands[:, seat] = obs.hand[rows]
        o, mask = np.empty((m, spaces.obs_size), np.int16), np.empty((m, spaces.n_actions), np.int8)
        K.encode(o, mask, st[rows], np.zeros(m, np.bool_), False, 0, seat, P, offsets, spaces.link0, spaces.swap0, pairs,
                 relink_must_differ, slot[rows], hands, hsize[rows], piles[rows], info, legal)
        out[rows], masks[rows] = o, mask
    out[:, spaces.blocks["mini_size"]] = 0
    return out, masks


class PolicyStrategy(Strategy):
    """A saved linear policy (``policy:PATH``) playing every decision.

    Parameters
    ----------
    path : str
        The policy file (see the module doc).
    """

    name = "policy"

    def __init__(self, *, path: str = "") -> None:
        super().__init__()
        self.path = path
        self._policy: LinearPolicy | None = LinearPolicy.load(path) if path else None

    @property
    def policy(self) -> LinearPolicy:
        """The policy read from :attr:`path` (read once)."""
        if self._policy is None:
            if not self.path:
                raise ValueError("strategy 'policy': give the policy file, policy:PATH.")
            self._policy = LinearPolicy.load(self.path)
        return self._policy

    def _choose(self, obs: Observation, kind: str, cards: NDArray[np.integer] | None = None) -> NDArray[np.int64]:
        """The policy's action for decision step ``kind`` of every row (among the legal ones)."""
        pol = self.policy
        if obs.players != pol.players:
            raise ValueError(f"the policy {self.path} plays {pol.players} players, not {obs.players}.")
        vectors, masks = encode_rows(E.Spaces(obs.players, 1), obs, kind, cards, bool(obs.rules.relink_must_differ))
        return pol.act(vectors, masks)

    def _card(self, obs: Observation, kind: str) -> NDArray[np.integer]:
        a = self._choose(obs, kind)
        return np.where(a < N_TYPES, a, -1)

    def play(self, obs: Observation) -> NDArray[np.integer]:
        """A card type to play, or -1 to draw."""
        return self._card(obs, "play")

    def play_drawn(self, obs: Observation) -> NDArray[np.bool_]:
        """Play the card just drawn?"""
        return self._choose(obs, "drawn") == E.PLAY_DRAWN

    def choose_colour(self, obs: Observation, cards: NDArray[np.integer]) -> NDArray[np.integer]:
        """The colour chosen."""
        return self._choose(obs, "colour", cards) - E.COLOUR0

    def challenge(self, obs: Observation) -> NDArray[np.bool_]:
        """Challenge the Wild Draw Four?"""
        return self._choose(obs, "challenge") == E.CHALLENGE

    def forget_uno(self, obs: Observation) -> NDArray[np.bool_]:
        """Forget to call UNO?"""
        return self._choose(obs, "uno") == E.FORGET_UNO

    def catch_uno(self, obs: Observation) -> NDArray[np.bool_]:
        """Catch the seat that forgot to call UNO?"""
        return self._choose(obs, "catch") == E.CATCH

    def jump_in(self, obs: Observation) -> NDArray[np.floating]:
        """Jump in (weight 1) or not (0)."""
        return (self._choose(obs, "jumpin") == E.JUMP_IN).astype(np.float64)

    def point_at(self, obs: Observation) -> NDArray[np.integer]:
        """The seat pointed at."""
        return (obs.seat.astype(np.int64) + self._choose(obs, "vote") - E.POINT0) % obs.players

    def choose_link(self, obs: Observation) -> NDArray[np.integer]:
        """The two seats linked."""
        spaces = E.Spaces(obs.players, 1)
        card = np.full(len(obs), WILD_DRAWN_TOGETHER)  # the card a link follows, as the environments show it
        pair = spaces.pairs[self._choose(obs, "link", card) - spaces.link0]
        return (pair + obs.seat.astype(np.int64)[:, None]) % obs.players

    def add_to_pile(self, obs: Observation) -> NDArray[np.integer]:
        """A card to add to the mini pile, or -1 to take it."""
        return self._card(obs, "pileup")

    def stack(self, obs: Observation, options: NDArray[np.bool_]) -> NDArray[np.integer]:
        """A card to stack on the pending total, or -1 to take it (H-1)."""
        return self._card(obs, "stack")

    def swap_with(self, obs: Observation) -> NDArray[np.integer]:
        """The seat to swap hands with after a 7 (H-2)."""
        spaces = E.Spaces(obs.players, 1)
        return (obs.seat.astype(np.int64) + self._choose(obs, "swap") - spaces.swap0) % obs.players
