"""RuleSet: presets, overrides, validation messages, and the options page."""

from __future__ import annotations

from pathlib import Path

import pytest

from unosim.game.cards import load_deck
from unosim.game.rules import PRESETS, RuleSet, options_markdown


def test_presets_follow_rules_md() -> None:
    party, classic, house = PRESETS["party"], PRESETS["classic"], PRESETS["classic-house"]
    assert party.first_card == "reflip_actions" and party.speed_play and not party.last_card_draws
    assert party.wd4_legal_when == "no_color_match_incl_wilds" and party.deck == "party"
    assert classic.first_card == "apply_actions" and classic.wd4_challenge and classic.last_card_draws
    assert house.draw_until_playable and house.uno_penalty == 4 and house.scoring == "penalty"
    assert house.wd4_legal_when == "no_color_or_number_match" and not house.wd4_challenge
    assert not house.action_symbol_match and house.first_wild == "reflip"


def test_decks() -> None:
    assert load_deck("classic").size == 108
    assert load_deck("party").size == 224
    assert load_deck("party").assumption


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"deck_copies": 0}, "deck_copies=0"),
        ({"wd4_legal_when": "sometimes"}, "no_color_match_incl_wilds"),
        ({"elimination": True}, "scoring=penalty"),
        ({"speed_play_error_rate": 0.1}, "speed_play=true"),
        ({"max_turns": 0}, "max_turns=0"),
        ({"uno_penalty": "two"}, "whole number"),
    ],
)
def test_invalid_values_are_refused_with_what_to_change(change: dict, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(")):
        PRESETS["classic"].replace(**change)


def test_unknown_option_lists_the_options() -> None:
    with pytest.raises(ValueError, match="the options are: .*wd4_challenge"):
        PRESETS["classic"].with_overrides(["nosuch=1"])


def test_text_overrides_are_parsed() -> None:
    r = PRESETS["classic"].with_overrides(["wd4_challenge=false", "deck_copies=2", "dealer=3"])
    assert (r.wd4_challenge, r.deck_copies, r.dealer) == (False, 2, 3)


def test_table_checks() -> None:
    with pytest.raises(ValueError, match="deck_copies=2"):
        PRESETS["classic"].check_table(16)
    PRESETS["classic"].check_table(15)
    PRESETS["classic"].replace(deck_copies=2).check_table(16)
    for bad in (1, 17):
        with pytest.raises(ValueError, match="2 to 16"):
            PRESETS["classic"].check_table(bad)
    PRESETS["classic"].replace(dealer=3).check_table(4)
    with pytest.raises(ValueError, match="dealer = 4, but a table of 4 players has seats 0 to 3"):
        PRESETS["classic"].replace(dealer=4).check_table(4)


def test_round_trip_through_dict() -> None:
    for preset in PRESETS.values():
        assert RuleSet.from_dict(preset.to_dict()) == preset


def test_options_page_is_current() -> None:
    page = Path(__file__).parents[1] / "docs" / "rule_options.md"
    assert page.read_text() == options_markdown(), "regenerate docs/rule_options.md with unosim.game.rules.options_markdown()"
    assert "](rules.md)" in options_markdown(), "the options page links the rule book"


def test_rule_book_states_every_option_and_rule_id() -> None:
    """docs/rules.md names every option of RuleSet, and every rule id an option cites is stated there."""
    import re

    book = (Path(__file__).parents[1] / "docs" / "rules.md").read_text()
    stated = set(re.findall(r"^- \*\*([STAWPUEH]-\d+)\*\*", book, flags=re.M))
    assert {"S-1", "T-7", "A-4", "W-2", "P-7", "U-2", "E-5", "H-1", "H-4"} <= stated
    for row in RuleSet.describe():
        if row["option"] != "name":
            assert f"`{row['option']}`" in book, f"docs/rules.md does not name option {row['option']}"
        for rule in re.findall(r"[STAWPUEH]-\d+", row["rule"]):
            assert rule in stated, f"option {row['option']} cites {rule}, which docs/rules.md does not state"
    assert "P-1..P-4" in {row["rule"] for row in RuleSet.describe()} and {"P-1", "P-4"} <= stated
    assert "docs/rules.md" in (RuleSet.__doc__ or ""), "RuleSet's docstring points at the rule book"
