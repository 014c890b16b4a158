"""Learned policies as strategies: a saved linear policy plays every decision (``policy:PATH``).

A policy file (JSON) holds a linear scoring of the actions of `unosim.env.encoding`::

    {"format": "unosim-linear-policy", "players": 2, "weights": [[...], ...], "bias": [...]}

``weights`` is ``[n_actions, obs_size]`` (or empty: bias only), ``bias`` ``[n_actions]``; the action
taken is the legal one of highest score ``weights @ observation + bias`` (first on ties), so a
policy plays deterministically. [`PolicyStrategy`][unosim.env.PolicyStrategy] encodes each decision from the
strategy's [`Observation`][unosim.strategy.Observation] with the environments' own encoder
(`unosim.env.kernels.encode`), with one difference: a strategy is not shown the mini
pile's size, so that entry is 0 (it matters in party games only).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..game import inputs
from ..game.cards import N_TYPES, WILD_DRAWN_TOGETHER
from ..game.errors import UnosimInputError
from ..game.kernels import layout as L
from ..game.rules import MAX_PLAYERS, MIN_PLAYERS
from ..strategy.base import Strategy
from ..strategy.observation import Observation
from ..strategy.parameters import ParameterError
from . import encoding as E
from . import kernels as K

__all__ = ["FORMAT", "LinearPolicy", "PolicyFileError", "PolicyStrategy", "encode_rows"]

FORMAT = "unosim-linear-policy"


class PolicyFileError(ParameterError):
    """A policy file that cannot be played: the message names the file, what is wrong and what it should hold."""


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
        """Read a policy file; refuse a file that is not one, of another format, of sizes that do not
        match its ``players``, or with a weight that is not a finite number.

        Raises
        ------
        PolicyFileError
            Naming the file, what is wrong with it and what it should hold.
        """
        try:
            data = inputs.parse_json(inputs.read_text(path, "policy file"), f"policy file {path}")
        except FileNotFoundError:
            raise PolicyFileError(f"policy file {path} does not exist; {_GIVE}") from None
        except OSError as exc:
            raise PolicyFileError(f"policy file {path} cannot be read ({exc.strerror or exc}); {_GIVE}") from None
        except inputs.InputFileError as exc:
            raise PolicyFileError(str(exc)) from None
        except ValueError as exc:  # not UTF-8, not JSON, a number of more than 4300 digits
            raise PolicyFileError(f"policy file {path} is not JSON text ({exc}); {_GIVE}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            found = data.get("format") if isinstance(data, dict) else f"a JSON {type(data).__name__}"
            raise PolicyFileError(f"{path} is not a policy file (format {found!r}, expected {FORMAT!r}); {_GIVE}")
        players = data.get("players")
        if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise PolicyFileError(f"policy file {path}: players = {_short(players)} is not allowed; a policy plays a table of "
                                  f"{MIN_PLAYERS} to {MAX_PLAYERS} players (a whole number): {_GIVE}")
        spaces = E.Spaces(players, 1)
        need = f"bias [{spaces.n_actions}] and weights [{spaces.n_actions}, {spaces.obs_size}] (or [])"
        arrays = {}
        for key in ("bias", "weights"):
            try:
                arrays[key] = np.asarray(_numbers(data.get(key)), np.float64)
            except (TypeError, ValueError, OverflowError):
                raise PolicyFileError(f"policy file {path}: {key} is not an array of numbers; a {players}-player "
                                      f"policy needs {need}.") from None
        bias, weights = arrays["bias"], arrays["weights"]
        if bias.shape != (spaces.n_actions,) or (weights.size and weights.shape != (spaces.n_actions, spaces.obs_size)):
            raise PolicyFileError(f"policy file {path}: a {players}-player policy needs {need}; got {bias.shape} and "
                                  f"{weights.shape}.")
        for key, values in (("bias", bias), ("weights", weights)):
            bad = np.flatnonzero(~np.isfinite(values))
            if bad.size:
                where = np.unravel_index(bad[0], values.shape)
                raise PolicyFileError(
                    f"policy file {path}: {key}{list(map(int, where))} = {values[where]} is not a finite number "
                    f"({bad.size} non-finite in all); every weight and bias must be finite: retrain the policy or "
                    "replace them."
                )
        return cls(players, weights, bias)


_GIVE = "give the path of a policy file written by LinearPolicy.save (format in unosim.env.policy)."


def _short(value: Any) -> str:
    """``repr(value)``, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _numbers(value: Any) -> Any:
    """``value`` if it is a number or a (nested) list of numbers, else a ``TypeError`` (no bool, text or null)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, bool) or not isinstance(item, (int, float)):
            raise TypeError(f"{item!r} is not a number")
    return value


def encode_rows(spaces: E.Spaces, obs: Observation, kind: str, cards: NDArray[np.integer] | None = None,
                relink_must_differ: bool = False) -> tuple[NDArray[np.int16], NDArray[np.int8]]:
    """The observation vectors and action masks (`unosim.env.encoding`) of the rows of ``obs`` for
    decision step ``kind`` (``cards``: the card a follow-up is about), made by the environments' own
    encoder (`unosim.env.kernels.encode`) from what the strategy is shown; the mini pile's size,
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
        K.encode(o, mask, st[rows], np.zeros(m, np.bool_), False, False, 0, seat, P, offsets, spaces.link0, spaces.swap0, pairs,
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
        """The policy read from `path` (read once)."""
        if self._policy is None:
            if not self.path:
                raise UnosimInputError("strategy 'policy': give the policy file, policy:PATH.")
            self._policy = LinearPolicy.load(self.path)
        return self._policy

    def _choose(self, obs: Observation, kind: str, cards: NDArray[np.integer] | None = None) -> NDArray[np.int64]:
        """The policy's action for decision step ``kind`` of every row (among the legal ones)."""
        pol = self.policy
        if obs.players != pol.players:
            raise UnosimInputError(f"the policy {self.path} plays {pol.players} players, not {obs.players}.")
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
