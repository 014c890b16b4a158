"""The learning environments' spaces: one action space for every decision, one observation vector.

Version
-------
The layouts below are version [`VERSION`][unosim.env.VERSION] (2); it changes whenever the meaning of an action
number or an observation entry changes, and every environment states it in its ``metadata``
(``encoding_version``). Version 2 added the house rules' decisions (``stack``, ``swap``), the
``swap:+i`` actions and the ``penalty`` entry; the kinds ``link``, ``uno`` and ``wait`` moved
from ids 8-10 to 10-12.

Decision kinds
--------------
Every engine decision of a seat is split into one or more *decision steps*, each answered
by one action. A decision phase (``kernels/layout.py``, ``PH_*``) gives the first step (kind
id = phase number); its follow-ups (the colour of a wild, the pair of a Wild Drawn Together,
the UNO call) come right after it, asked of the same seat, in the order the engine asks a
strategy:

=========  ==================  ===============================================================
kind id    name                asked when
=========  ==================  ===============================================================
0          ``play``            the seat's turn: play a card or draw (T-1..T-4)
1          ``drawn``           play the card just drawn, or keep it (T-3/T-4)
2          ``colour``          a wild start card (S-2/S-3), or after playing a wild
3          ``challenge``       the victim of a Wild Draw Four challenges it or not (W-2)
4          ``catch``           another seat forgot to call UNO: catch it or not (U-1)
5          ``pileup``          add a card to the mini pile, or take it (P-5)
6          ``vote``            point at a seat for a Point Taken (A-4)
7          ``jumpin``          jump in with the identical card, or not (P-1/P-2, H-3)
8          ``stack``           stack a card on the pending Draw Two / Wild Draw Four total, or
                               take it (H-1)
9          ``swap``            after playing a 7: the seat to swap hands with (H-2)
10         ``link``            after a Wild Drawn Together: the two seats to link (P-6)
11         ``uno``             after a play leaving one card: call UNO or forget to (U-1)
12         ``wait``            a seat (or a game of the vector environment) not asked anything
                               this step (the one legal action: ``wait``)
=========  ==================  ===============================================================

Action encoding
---------------
One ``Discrete(n_actions(P))`` space for ``P`` players; ``K = N_TYPES = 60`` card types
(`unosim.game.cards`). Seats in actions are *relative*: offset ``i`` is the seat
``(seat + i) % P``, counted in increasing seat numbers from the acting seat (offset 0).

=====================  ==========================  ==============================================
actions                name                        meaning
=====================  ==========================  ==============================================
``0 .. K-1``           ``card:NAME``               ``play``: play card type ``t``; ``pileup``: add
                                                   it; ``stack``: stack it
``K``                  ``draw``                    ``play``: draw a card
``K+1``, ``K+2``       ``play-drawn``, ``keep``    ``drawn``: play the card just drawn, or keep it
``K+3 .. K+6``         ``colour:NAME``             ``colour``: red, yellow, green, blue
``K+7``, ``K+8``       ``challenge``, ``accept``   ``challenge``
``K+9``, ``K+10``      ``catch``, ``let-go``       ``catch``
``K+11``               ``take``                    ``pileup``: take the mini pile; ``stack``:
                                                   take the pending total
``K+12``, ``K+13``     ``jump-in``, ``stay``       ``jumpin``
``K+14``, ``K+15``     ``call-uno``, ``forget``    ``uno``
``K+16``               ``wait``                    ``wait`` (vector environment only)
``K+17 .. K+16+P``     ``point:+i``                ``vote``: point at offset ``i`` (never 0)
``K+17+P ..``          ``link:+i+j``               ``link``: the pair of offsets ``i < j``, in
                                                   lexicographic order (``P(P-1)/2`` actions;
                                                   offset 0, oneself, only where the rules allow)
``swap0 .. +P-1``      ``swap:+i``                 ``swap``: swap hands with offset ``i`` (never
                                                   0); ``swap0 = K+17+P+P(P-1)/2``
=====================  ==========================  ==============================================

The action mask (``int8``, one per action) marks the legal actions of the pending decision
step, computed from the engine's own decision row: at least one is legal whenever a seat is
asked, none when it is not.

Observation encoding
--------------------
A fixed-size ``int16`` vector of ``obs_size(P)`` entries, the acting seat's view only (its own
hand, the public table; never another hand, the draw pile or another seat's pending answer —
Point Taken votes are secret until counted). Seats are relative as in the actions
(entry ``i`` of a per-seat block is offset ``i``; entry 0 is oneself). Blocks, in order:

==================  ========  ==================================================================
block               entries   meaning
==================  ========  ==================================================================
``kind``            13        one-hot decision kind (all zero when the seat is not asked)
``hand``            K         own cards per type
``top``             K         one-hot card type on top of the discard pile
``discard``         K         cards of each type in the discard pile, top card included
``colour``          4         one-hot active colour (all zero before a wild start card's colour)
``reversed``        1         1 when play goes counter-clockwise (decreasing seat numbers)
``hand_sizes``      P         cards held by each seat
``alive``           P         1 for each seat still in the match
``turn``            P         one-hot seat whose turn it is (``jumpin``: whose turn comes next)
``target``          P         one-hot phase seat: who forgot UNO (``catch``), played the Wild
                              Draw Four (``challenge``), the Point Taken (``vote``), the card
                              jumped on (``jumpin``), the card stacked on (``stack``), or whose
                              turn comes next (``swap``)
``linked``          P         1 for each of the two linked seats (P-6/P-7)
``mini_size``       1         cards in the mini pile (P-5)
``mini_colour``     4         one-hot colour of the mini pile (zero while there is none)
``drawn``           K         one-hot card just drawn (``drawn``)
``card``            K         one-hot card the follow-up is about (``colour``, ``link``; not
                              ``uno``: a strategy's ``forget_uno`` is not told the card)
``bluffable``       1         a Wild Draw Four held may be played as a bluff (``play``)
``may_take``        1         the mini pile may be taken (``pileup``)
``penalty``         1         the cards taking the pending total draws (``stack``)
==================  ========  ==================================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from ..game.cards import CARD_NAMES, COLOUR_NAMES, N_TYPES
from . import kernels as KK

__all__ = [
    "VERSION", "ACCEPT", "CALL_UNO", "CATCH", "CHALLENGE", "COLOUR0", "DRAW", "FORGET_UNO", "JUMP_IN", "KEEP", "KIND_NAMES", "KINDS",
    "LET_GO", "N_KINDS", "PLAY_DRAWN", "POINT0", "STAY", "TAKE", "WAIT", "Spaces",
]

VERSION = 2
"""The version of the action and observation layouts (see the module doc)."""

K = N_TYPES
# the action numbers, as the compiled helpers define them (unosim.env.kernels: one definition)
DRAW, PLAY_DRAWN, KEEP, COLOUR0, CHALLENGE, ACCEPT, CATCH, LET_GO = (
    KK.A_DRAW, KK.A_PLAY_DRAWN, KK.A_KEEP, KK.A_COLOUR0, KK.A_CHALLENGE, KK.A_ACCEPT, KK.A_CATCH, KK.A_LET_GO)
TAKE, JUMP_IN, STAY, CALL_UNO, FORGET_UNO, WAIT, POINT0 = (
    KK.A_TAKE, KK.A_JUMP_IN, KK.A_STAY, KK.A_CALL_UNO, KK.A_FORGET_UNO, KK.A_WAIT, KK.A_POINT0)

KIND_NAMES = ("play", "drawn", "colour", "challenge", "catch", "pileup", "vote", "jumpin", "stack", "swap", "link", "uno",
              "wait")
"""The decision kinds' names, by kind id (the compiled helpers' kind numbers)."""
KINDS = {name: i for i, name in enumerate(KIND_NAMES)}
N_KINDS = KK.N_KINDS

_FIXED_NAMES = {
    DRAW: "draw", PLAY_DRAWN: "play-drawn", KEEP: "keep", CHALLENGE: "challenge", ACCEPT: "accept", CATCH: "catch",
    LET_GO: "let-go", TAKE: "take", WAIT: "wait", JUMP_IN: "jump-in", STAY: "stay", CALL_UNO: "call-uno", FORGET_UNO: "forget",
    **{COLOUR0 + c: f"colour:{name}" for c, name in enumerate(COLOUR_NAMES)},
}


@dataclass(frozen=True)
class Spaces:
    """The action and observation encodings for ``players`` seats (see the module doc).

    Parameters
    ----------
    players : int
        Seats at the table, 2-16.
    cards : int
        Cards in the deck: the bound of every count in the observation.
    """

    players: int
    cards: int

    # ------------------------------------------------------------ actions
    @property
    def link0(self) -> int:
        """First link-pair action."""
        return POINT0 + self.players

    @cached_property
    def pairs(self) -> NDArray[np.int64]:
        """``[n_pairs, 2]`` the offset pairs ``i < j`` of the link actions, in action order."""
        p = self.players
        return np.array([(i, j) for i in range(p) for j in range(i + 1, p)], np.int64).reshape(-1, 2)

    @property
    def swap0(self) -> int:
        """First swap action (``swap:+0``, never legal)."""
        return self.link0 + len(self.pairs)

    @property
    def n_actions(self) -> int:
        """Size of the ``Discrete`` action space."""
        return self.swap0 + self.players

    def action_name(self, action: int) -> str:
        """A short name of ``action`` (``card:red 7``, ``draw``, ``point:+2``, ``link:+0+3``...)."""
        a = int(action)
        if 0 <= a < K:
            return f"card:{CARD_NAMES[a]}"
        if a in _FIXED_NAMES:
            return _FIXED_NAMES[a]
        if POINT0 <= a < self.link0:
            return f"point:+{a - POINT0}"
        if self.link0 <= a < self.swap0:
            i, j = self.pairs[a - self.link0]
            return f"link:+{i}+{j}"
        if self.swap0 <= a < self.n_actions:
            return f"swap:+{a - self.swap0}"
        return f"not an action (0..{self.n_actions - 1})"

    # ------------------------------------------------------------ observations
    @cached_property
    def blocks(self) -> dict[str, slice]:
        """Name -> slice of each observation block, in order."""
        p = self.players
        sizes = {"kind": N_KINDS, "hand": K, "top": K, "discard": K, "colour": 4, "reversed": 1, "hand_sizes": p, "alive": p,
                 "turn": p, "target": p, "linked": p, "mini_size": 1, "mini_colour": 4, "drawn": K, "card": K, "bluffable": 1,
                 "may_take": 1, "penalty": 1}
        out, at = {}, 0
        for name in KK.BLOCK_ORDER:  # in the compiled encoder's order
            size = sizes[name]
            out[name] = slice(at, at + size)
            at += size
        return out

    @property
    def obs_size(self) -> int:
        """Entries of the observation vector."""
        return self.blocks["penalty"].stop

    @cached_property
    def high(self) -> NDArray[np.int16]:
        """Upper bound of each observation entry (the lower bound is 0)."""
        high = np.ones(self.obs_size, np.int16)
        for name in ("hand", "discard", "hand_sizes", "mini_size", "penalty"):
            high[self.blocks[name]] = self.cards
        return high
