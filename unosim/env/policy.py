"""Learned policies as strategies: a saved linear policy plays every decision (``policy:PATH``).

A policy file (JSON) holds a linear scoring of the actions of :mod:`unosim.env.encoding`::

    {"format": "unosim-linear-policy", "players": 2, "weights": [[...], ...], "bias": [...]}

``weights`` is ``[n_actions, obs_size]`` (or empty: bias only), ``bias`` ``[n_actions]``; the action
taken is the legal one of highest score ``weights @ observation + bias`` (first on ties), so a
policy plays deterministically. :class:`PolicyStrategy` encodes each decision from the
strategy's :class:`~unosim.strategy.observation.Observation` as the environments do, with one
difference: a strategy is not shown the mini pile's size, so that entry is 0 (it matters in
party games only).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..game.cards import N_TYPES, WILD_DRAW_FOUR, WILD_DRAWN_TOGETHER
from ..game.errors import UnosimInputError
from ..strategy.base import Strategy
from ..strategy.observation import Observation
from . import encoding as E

__all__ = ["FORMAT", "LinearPolicy", "PolicyStrategy", "encode_rows"]

FORMAT = "unosim-linear-policy"
_SEAT_TARGET = {"catch", "challenge", "vote", "jumpin"}


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
            raise UnosimInputError(f"{path}: not a policy file (format {data.get('format')!r}, expected {FORMAT!r}).")
        players = int(data["players"])
        spaces = E.Spaces(players, 1)
        bias = np.asarray(data["bias"], np.float64)
        weights = np.asarray(data["weights"], np.float64)
        if bias.shape != (spaces.n_actions,) or (weights.size and weights.shape != (spaces.n_actions, spaces.obs_size)):
            raise UnosimInputError(f"{path}: a {players}-player policy needs bias [{spaces.n_actions}] and weights "
                             f"[{spaces.n_actions}, {spaces.obs_size}] (or []); got {bias.shape} and {weights.shape}.")
        return cls(players, weights, bias)


def encode_rows(spaces: E.Spaces, obs: Observation, kind: str, cards: NDArray[np.integer] | None = None) -> NDArray[np.int16]:
    """The observation vectors (:mod:`unosim.env.encoding`) of the rows of ``obs`` for decision ``kind``."""
    blk, P, n = spaces.blocks, spaces.players, len(obs)
    out = np.zeros((n, spaces.obs_size), np.int16)
    seat = obs.seat.astype(np.int64)
    rel = (np.arange(P)[None, :] + seat[:, None]) % P
    rows = np.arange(n)
    out[:, blk["kind"].start + E.KINDS[kind]] = 1
    out[:, blk["hand"]] = obs.hand
    top = obs.top.astype(np.int64)
    out[rows, blk["top"].start + top] = 1
    out[:, blk["discard"]] = obs.discard
    colour = obs.colour.astype(np.int64)
    ok = (colour >= 0) & (colour < 4)
    out[rows[ok], blk["colour"].start + colour[ok]] = 1
    out[:, blk["reversed"].start] = obs.direction < 0
    out[:, blk["hand_sizes"]] = np.take_along_axis(obs.hand_sizes, rel, axis=1)
    out[:, blk["alive"]] = np.take_along_axis(obs.alive, rel, axis=1)
    out[rows, blk["turn"].start + (obs.turn.astype(np.int64) - seat) % P] = 1
    if kind in _SEAT_TARGET:
        target = obs.target.astype(np.int64)
        ok = (target >= 0) & (target < P)
        out[rows[ok], blk["target"].start + (target[ok] - seat[ok]) % P] = 1
    link = obs.link.astype(np.int64)
    for k in range(2):
        ok = link[:, k] >= 0
        out[rows[ok], blk["linked"].start + (link[ok, k] - seat[ok]) % P] = 1
    if kind == "pileup":
        mini = obs.target.astype(np.int64)
        ok = (mini >= 0) & (mini < 4)
        out[rows[ok], blk["mini_colour"].start + mini[ok]] = 1
    if kind == "drawn":
        out[rows, blk["drawn"].start + obs.drawn.astype(np.int64)] = 1
    if cards is not None:
        c = np.asarray(cards, np.int64)
        ok = c >= 0
        out[rows[ok], blk["card"].start + c[ok]] = 1
    if kind == "play":
        out[:, blk["bluffable"].start] = obs.bluffable
    if kind == "pileup":
        out[:, blk["may_take"].start] = obs.may_take
    return out


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
                raise UnosimInputError("strategy 'policy': give the policy file, policy:PATH.")
            self._policy = LinearPolicy.load(self.path)
        return self._policy

    def _choose(self, obs: Observation, kind: str, mask: NDArray[np.int8], cards: NDArray[np.integer] | None = None) -> NDArray[np.int64]:
        pol = self.policy
        if obs.players != pol.players:
            raise UnosimInputError(f"the policy {self.path} plays {pol.players} players, not {obs.players}.")
        spaces = E.Spaces(obs.players, 1)
        return pol.act(encode_rows(spaces, obs, kind, cards), mask)

    def _mask(self, obs: Observation) -> NDArray[np.int8]:
        return np.zeros((len(obs), E.Spaces(obs.players, 1).n_actions), np.int8)

    def play(self, obs: Observation) -> NDArray[np.integer]:
        """A card type to play, or -1 to draw."""
        mask = self._mask(obs)
        mask[:, :N_TYPES] = obs.legal
        mask[obs.bluffable, WILD_DRAW_FOUR] = 1
        mask[:, E.DRAW] = 1
        a = self._choose(obs, "play", mask)
        return np.where(a < N_TYPES, a, -1)

    def play_drawn(self, obs: Observation) -> NDArray[np.bool_]:
        """Play the card just drawn?"""
        mask = self._mask(obs)
        rows = np.arange(len(obs))
        mask[:, E.PLAY_DRAWN] = obs.legal[rows, obs.drawn] | ((obs.drawn == WILD_DRAW_FOUR) & obs.bluffable)
        mask[:, E.KEEP] = 1
        return self._choose(obs, "drawn", mask) == E.PLAY_DRAWN

    def choose_colour(self, obs: Observation, cards: NDArray[np.integer]) -> NDArray[np.integer]:
        """The colour chosen."""
        mask = self._mask(obs)
        mask[:, E.COLOUR0 : E.COLOUR0 + 4] = 1
        return self._choose(obs, "colour", mask, cards) - E.COLOUR0

    def _yes_no(self, obs: Observation, kind: str, yes: int, no: int) -> NDArray[np.bool_]:
        mask = self._mask(obs)
        mask[:, [yes, no]] = 1
        return self._choose(obs, kind, mask) == yes

    def challenge(self, obs: Observation) -> NDArray[np.bool_]:
        """Challenge the Wild Draw Four?"""
        return self._yes_no(obs, "challenge", E.CHALLENGE, E.ACCEPT)

    def forget_uno(self, obs: Observation) -> NDArray[np.bool_]:
        """Forget to call UNO?"""
        return self._yes_no(obs, "uno", E.FORGET_UNO, E.CALL_UNO)

    def catch_uno(self, obs: Observation) -> NDArray[np.bool_]:
        """Catch the seat that forgot to call UNO?"""
        return self._yes_no(obs, "catch", E.CATCH, E.LET_GO)

    def jump_in(self, obs: Observation) -> NDArray[np.floating]:
        """Jump in (weight 1) or not (0)."""
        return self._yes_no(obs, "jumpin", E.JUMP_IN, E.STAY).astype(np.float64)

    def point_at(self, obs: Observation) -> NDArray[np.integer]:
        """The seat pointed at."""
        mask = self._mask(obs)
        P = obs.players
        seat = obs.seat.astype(np.int64)
        for i in range(1, P):
            mask[:, E.POINT0 + i] = obs.alive[np.arange(len(obs)), (seat + i) % P]
        return (seat + self._choose(obs, "vote", mask) - E.POINT0) % P

    def choose_link(self, obs: Observation) -> NDArray[np.integer]:
        """The two seats linked."""
        spaces = E.Spaces(obs.players, 1)
        P = obs.players
        seat = obs.seat.astype(np.int64)
        rel = (np.arange(P)[None, :] + seat[:, None]) % P
        ok = np.take_along_axis(obs.link_choices, rel, axis=1)
        mask = self._mask(obs)
        mask[:, spaces.link0 :] = ok[:, spaces.pairs[:, 0]] & ok[:, spaces.pairs[:, 1]]
        card = np.full(len(obs), WILD_DRAWN_TOGETHER)  # the card a link follows, as the environments show it
        pair = spaces.pairs[self._choose(obs, "link", mask, card) - spaces.link0]
        return (pair + seat[:, None]) % P

    def add_to_pile(self, obs: Observation) -> NDArray[np.integer]:
        """A card to add to the mini pile, or -1 to take it."""
        mask = self._mask(obs)
        mask[:, :N_TYPES] = obs.legal
        mask[:, E.TAKE] = obs.may_take
        a = self._choose(obs, "pileup", mask)
        return np.where(a < N_TYPES, a, -1)
