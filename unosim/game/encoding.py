"""A rule set as the kernels read it: the ``cfg`` vector (slots ``C_*`` in
:mod:`unosim.game.kernels.layout`), and the rules the engine refuses before any work.

Choice options are encoded by :func:`unosim.game.rules.choice_code` (their order in the
``RuleSet`` ``Literal``), the same function the kernels' named constants come from.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .kernels import layout as L
from .rules import RuleSet, choice_code

__all__ = ["check_supported", "encode_rules"]


def encode_rules(rules: RuleSet, players: int, *, match: bool, trace: bool, check: bool) -> NDArray[np.int32]:
    """Pack a rule set into the kernels' ``cfg`` vector (``C_*`` in ``layout``); the strategy
    entries are set by :meth:`Engine.set_strategies`."""
    cfg = np.zeros(L.N_CFG, np.int32)
    cfg[L.C_PLAYERS] = players
    cfg[L.C_HAND] = rules.hand_size
    cfg[L.C_FIRST_CARD] = choice_code("first_card", rules.first_card)
    cfg[L.C_FIRST_WILD] = choice_code("first_wild", rules.first_wild)
    cfg[L.C_DEALER] = -1 if rules.dealer == "random" else int(rules.dealer)
    cfg[L.C_SYMBOL_MATCH] = rules.action_symbol_match
    cfg[L.C_DRAW_UNTIL] = rules.draw_until_playable
    cfg[L.C_REV2_SKIPS] = rules.reverse_two_players_skips
    cfg[L.C_PT_CAP] = rules.point_taken_cap
    cfg[L.C_PT_LINK_FIRST] = rules.point_taken_breaks_link_first
    cfg[L.C_WD4_WHEN] = choice_code("wd4_legal_when", rules.wd4_legal_when)
    cfg[L.C_WD4_CHALLENGE] = rules.wd4_challenge
    cfg[L.C_PILEUP_WILDS] = choice_code("pileup_flipped_wilds", rules.pileup_flipped_wilds)
    cfg[L.C_PILEUP_REFUSE] = rules.pileup_may_refuse
    cfg[L.C_LINK_PILEUP] = rules.link_shares_pileup
    cfg[L.C_RELINK_DIFFER] = rules.relink_must_differ
    cfg[L.C_LINK_VOLUNTARY] = rules.link_echoes_voluntary_draws
    cfg[L.C_SPEED] = rules.speed_play
    cfg[L.C_SPEED_ERR_PPM] = round(rules.speed_play_error_rate * 1_000_000)
    cfg[L.C_UNO_PENALTY] = rules.uno_penalty
    cfg[L.C_LAST_DRAWS] = rules.last_card_draws
    cfg[L.C_SCORING] = choice_code("scoring", rules.scoring)
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
        raise ValueError(
            f"rule option dealer={rules.dealer} is not a seat of a {players}-player table; use 0 to {players - 1} or 'random'."
        )
