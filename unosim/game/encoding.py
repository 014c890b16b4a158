"""A rule set as the kernels read it: the rules' part of the ``cfg`` vector (slots ``C_*`` in
`unosim.game.kernels.layout`), the run's flags, and the rules the engine refuses before any work.

The rules' part depends on the [`RuleSet`][unosim.RuleSet] and the player count alone; the line-up (which
strategy decides how) is a vector of its own, built by the engine from the strategies' declarations
and appended after these two.

Choice options are encoded by `unosim.game.rules.choice_code` (their order in the
``RuleSet`` ``Literal``), the same function the kernels' named constants come from.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray

from .errors import UnosimInputError
from .kernels import layout as L
from .kernels.policy import POLICY_RULES
from .rules import RuleSet, choice_code

__all__ = ["HOUSE_SLOTS", "check_supported", "copy_flags", "encode_flags", "encode_rules"]

HOUSE_SLOTS = (L.C_STACKING, L.C_SEVEN_ZERO, L.C_JUMP_ACTIONS, L.C_NO_ACTION_OUT)
"""The slots of the rules' part of ``cfg`` that turn on house-rule code in the kernels (H-1 stacking, H-2
seven-zero, H-3 jump-ins with action cards, H-4 no going out on an action card or a wild); all zero in
the official games. A jump-in with number cards in any preset is speed play's own code (P-1)."""


def encode_rules(rules: RuleSet, players: int) -> NDArray[np.int32]:
    """Pack a rule set for a table of ``players`` into the rules' part of the kernels' ``cfg`` vector
    (``cfg[:N_RULES]``, slots ``C_*`` in ``layout``). The deck is not in it: it is dealt from the
    array [`RuleSet.load_deck`][unosim.RuleSet.load_deck] builds."""
    cfg = np.zeros(L.N_RULES, np.int32)
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
    cfg[L.C_STACKING] = choice_code("stacking", rules.stacking)
    cfg[L.C_SEVEN_ZERO] = rules.seven_zero
    cfg[L.C_JUMP_ACTIONS] = choice_code("jump_in_cards", rules.jump_in_cards)
    cfg[L.C_NO_ACTION_OUT] = not rules.go_out_on_action
    return cfg


def copy_flags(rules_cfg: NDArray[np.int32], policies: Iterable[int]) -> tuple[int | None, int | None]:
    """The kernels' ``house`` and ``programs`` arguments, whose types select the kernels' compiled copy
    (the comment at ``layout.HOUSE_OFF`` says how), for the rules' part of ``cfg`` and the compiled
    policies of the line-up (``cfg[C_POLICY0 + k]``).

    ``house`` is ``layout.HOUSE_OFF`` when every house rule is off (`HOUSE_SLOTS`), else
    ``layout.HOUSE_ON``; ``programs`` is ``layout.PROGRAMS_ON`` when a strategy plays by a compiled
    rule program (policy ``POLICY_RULES`` and above) or a house rule is on (the house rules' copy
    carries the rule interpreter), else ``layout.PROGRAMS_OFF``."""
    house = L.HOUSE_ON if any(int(rules_cfg[i]) for i in HOUSE_SLOTS) else L.HOUSE_OFF
    rules = house is L.HOUSE_ON or any(int(pol) >= POLICY_RULES for pol in policies)
    return house, L.PROGRAMS_ON if rules else L.PROGRAMS_OFF


def encode_flags(*, match: bool, trace: bool, check: bool) -> NDArray[np.int32]:
    """The run's flags, ``cfg[N_RULES:N_RULES + N_FLAGS]``: play matches, keep the event log, verify
    card conservation after every step."""
    flags = np.zeros(L.N_FLAGS, np.int32)
    flags[L.C_MATCH - L.N_RULES] = match
    flags[L.C_TRACE - L.N_RULES] = trace
    flags[L.C_CHECK - L.N_RULES] = check
    return flags


def check_supported(rules: RuleSet, players: int, *, match: bool = False) -> None:
    """Refuse rules the engine does not play yet, before any work starts."""
    if rules.dealer != "random" and int(rules.dealer) >= players:
        raise UnosimInputError(
            f"rule option dealer={rules.dealer} is not a seat of a {players}-player table; use 0 to {players - 1} or 'random'."
        )
