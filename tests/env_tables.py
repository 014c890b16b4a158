"""The tables every environment is tested at: classic, party, and classic with every house rule on."""

from __future__ import annotations

from typing import Any

from unosim.game.rules import RuleSet

RULES = ["classic", "party", "house:same_face", "house:mixed", "house:plus4_on_plus2"]
"""Presets, and ``house:STACKING``: classic with every house rule on and that stacking value."""

HOUSE = ["seven_zero=true", "speed_play=true", "jump_in_cards=numbers_and_actions", "go_out_on_action=false"]
"""Every house rule but stacking (H-2, H-3, H-4)."""


def rules_of(name: str) -> Any:
    """The rules argument of a name of :data:`RULES`."""
    if name.startswith("house:"):
        return RuleSet.preset("classic").with_overrides([f"stacking={name[len('house:'):]}", *HOUSE])
    return name


def overrides_of(players: int) -> list[str] | None:
    """Two decks at 16 players (the deck must deal every hand)."""
    return ["deck_copies=2"] if players == 16 else None
