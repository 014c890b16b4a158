"""Property tests: any combination of classic rule options, with or without
the house rules, keeps every card accounted for after every step and passes
the independent referee.

On CI (``CI`` set) the examples are derandomised (tests/conftest.py), so a
failing run repeats on the same commit; a failure prints its reproduction blob.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from referee import check_played

from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine

NOISY = "random(draw_rate=0.2, keep_rate=0.3, bluff_rate=0.5, challenge_rate=0.5, forget_uno_rate=0.3, catch_uno_rate=0.5)"

options = st.fixed_dictionaries(
    {
        "wd4_legal_when": st.sampled_from(["no_color_match_incl_wilds", "no_color_match", "no_color_or_number_match", "always"]),
        "wd4_challenge": st.booleans(),
        "first_card": st.sampled_from(["apply_actions", "ignore_effect", "reflip_actions"]),
        "first_wild": st.sampled_from(["first_player_chooses", "reflip"]),
        "action_symbol_match": st.booleans(),
        "draw_until_playable": st.booleans(),
        "reverse_two_players_skips": st.booleans(),
        "last_card_draws": st.booleans(),
        "uno_penalty": st.integers(0, 6),
        "hand_size": st.integers(1, 12),
        "max_turns": st.integers(5, 400),
        "deck_copies": st.integers(2, 3),  # 9 players × 12 cards need more than one deck
    }
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=options, players=st.integers(2, 9), seed=st.integers(0, 2**32))
def test_any_classic_options_keep_the_invariants(options: dict, players: int, seed: int) -> None:
    config = RunConfig.build(
        rules="classic", players=players, seed=seed, overrides=options,
        strategies=[[NOISY, "greedy", NOISY, "random"][i % 4] for i in range(players)],
    )
    played = Engine(config, trace=True, check=True, batch_size=64).play(0, 150)
    assert check_played(config.rules, players, played) == 150


house_options = st.fixed_dictionaries(
    {
        "stacking": st.sampled_from(["none", "same_face", "mixed", "plus4_on_plus2"]),
        "seven_zero": st.booleans(),
        "speed_play": st.booleans(),
        "go_out_on_action": st.booleans(),
        "wd4_legal_when": st.sampled_from(["no_color_match_incl_wilds", "no_color_match", "no_color_or_number_match", "always"]),
        "wd4_challenge": st.booleans(),
        "first_card": st.sampled_from(["apply_actions", "ignore_effect", "reflip_actions"]),
        "action_symbol_match": st.booleans(),
        "draw_until_playable": st.booleans(),
        "last_card_draws": st.booleans(),
        "hand_size": st.integers(1, 12),
        "max_turns": st.integers(5, 400),
        "deck_copies": st.integers(2, 3),
    }
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=house_options, action_jump_ins=st.booleans(), players=st.integers(2, 9), seed=st.integers(0, 2**32))
def test_any_house_rules_pass_the_referee(options: dict, action_jump_ins: bool, players: int, seed: int) -> None:
    """H-1..H-4 in any combination, with each other and with classic options (``jump_in_cards`` with
    action cards only where speed play is on, the one combination refused)."""
    if options["speed_play"] and action_jump_ins:
        options = {**options, "jump_in_cards": "numbers_and_actions"}
    config = RunConfig.build(
        rules="classic", players=players, seed=seed, overrides=options,
        strategies=[[NOISY, "greedy", NOISY, "random"][i % 4] for i in range(players)],
    )
    played = Engine(config, trace=True, check=True, batch_size=64).play(0, 150)
    assert check_played(config.rules, players, played) == 150


def test_ci_runs_the_same_examples_every_time() -> None:
    """The hypothesis profile follows the CI variable: derandomised there, and the blob always printed."""
    current = settings()
    assert current.derandomize == bool(os.environ.get("CI"))
    assert current.print_blob
