"""Scenario tests for speed play, P-1..P-4 (docs/rules.md §6): one exact position each.

Jump-in rows are asked of every seat holding the identical card (except the
player of the card), in seat order; the script answers their reaction
weights. The race is drawn from the game's stream in proportion to the
weights, so the exact scenarios give a single positive weight, and one test
checks the proportions over many deals.
"""

from __future__ import annotations

import numpy as np
import pytest

from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine, StrategyError
from unosim.engine.position import Position, play_from
from unosim.game.kernels import layout as L

DRAW = ["yellow 1"] * 30


def jumps(after) -> list[tuple[int, str]]:
    """(seat, card) of every jump-in in the trace."""
    from unosim.game.cards import CARD_NAMES

    ev = after.events
    rows = ev[(ev[:, 1] == L.EV_PLAY) & (ev[:, 5] == 1)]
    return [(int(r[2]), CARD_NAMES[int(r[3])]) for r in rows]


def test_P1_identical_card_jumps_in_and_play_continues_after_the_jumper() -> None:
    """P-1: seat 3 plays the identical red 5 out of turn; seats 1 and 2 are passed over."""
    hands = [["red 5", "blue 9"], ["green 1"], ["green 2"], ["red 5", "blue 3"], ["green 4"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", script=[("play", "red 5"), ("jump_in", [1])])
    assert jumps(after) == [(3, "red 5")]
    assert after.turn == 4 and after.phase == "turn" and after.top == "red 5"
    assert after.hands[3] == {"blue 3": 1} and after.discard == {"red 3": 1, "red 5": 1}
    assert after.turns == 1 and after.party["jump_ins"] == 1  # the jump-in was not seat 3's turn


def test_P1_a_jump_in_skips_several_seats_counter_clockwise() -> None:
    """P-1 in the current direction: counter-clockwise, seat 2's jump-in passes over seats 4 and 3."""
    hands = [["red 5", "blue 9"], ["green 1"], ["red 5", "blue 3"], ["green 2"], ["green 4"]]
    after = play_from(
        Position(hands=hands, top="red 3", draw=DRAW, direction=-1), rules="party", script=[("play", "red 5"), ("jump_in", [1])]
    )
    assert jumps(after) == [(2, "red 5")] and after.turn == 1 and after.direction == -1


def test_P1_only_an_identical_card_may_jump_in() -> None:
    """P-1: the same number in another colour is not identical; nobody is asked."""
    hands = [["red 5", "blue 9"], ["green 1"], ["blue 5", "yellow 5"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", script=[("play", "red 5")])
    assert jumps(after) == [] and after.turn == 1 and after.phase == "turn"


def test_P2_the_turn_players_jump_in_is_their_turn() -> None:
    """P-2/T-7: the next player jumping in simply plays; it counts as their turn."""
    hands = [["red 5", "blue 9"], ["red 5", "green 1"], ["green 2"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", script=[("play", "red 5"), ("jump_in", [1])])
    assert jumps(after) == [(1, "red 5")] and after.turns == 2 and after.turn == 2


def test_P2_the_player_of_the_card_cannot_jump_on_it() -> None:
    """P-2 [default]: seat 0 holds a second red 5 but is not asked; no one else holds one."""
    hands = [["red 5", "red 5", "blue 9"], ["green 1"], ["green 2"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", script=[("play", "red 5")])
    assert jumps(after) == [] and after.turn == 1 and after.hands[0] == {"red 5": 1, "blue 9": 1}


def test_P2_the_race_goes_to_a_jumper_with_positive_weight() -> None:
    """P-2: seats 2 and 3 both hold the card; seat 2 answers 0 (does not jump), seat 3 wins."""
    hands = [["red 5", "blue 9"], ["green 1"], ["red 5", "green 2"], ["red 5", "blue 3"], ["green 4"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", script=[("play", "red 5"), ("jump_in", [0, 2.5])])
    assert jumps(after)[0] == (3, "red 5") and after.hands[2]["red 5"] == 1


def test_P2_nobody_jumping_in_passes_the_turn_as_usual() -> None:
    hands = [["red 5", "blue 9"], ["green 1"], ["red 5", "green 2"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", script=[("play", "red 5"), ("jump_in", [0])])
    assert jumps(after) == [] and after.turn == 1 and after.party["jump_ins"] == 0


def test_P2_race_is_won_in_proportion_to_reaction_weights() -> None:
    """P-2: weights 1 and 3 → seat 3 wins 3/4 of the races. 400 deals (seeds 0..399);
    tolerance 4 standard errors (0.087)."""
    hands = [["red 5", "blue 9"], ["green 1"], ["red 5", "green 2"], ["red 5", "blue 3"], ["green 4"]]
    wins = 0
    n = 400
    for seed in range(n):
        after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", seed=seed,
                          script=[("play", "red 5"), ("jump_in", [1, 3])])
        wins += jumps(after)[0][0] == 3
    assert abs(wins / n - 0.75) < 4 * np.sqrt(0.75 * 0.25 / n)


def test_P2_a_jump_in_can_itself_be_jumped_on() -> None:
    """P-2 chain: seat 2 jumps on seat 0's red 5, seat 4 on seat 2's; play goes on after seat 4.
    Seat 0 (the first player) may jump on seat 2's card: it is not their own play."""
    hands = [["red 5", "red 5", "blue 9"], ["green 1"], ["red 5", "green 2"], ["green 3"], ["red 5", "blue 3"]]
    after = play_from(
        Position(hands=hands, top="red 3", draw=DRAW), rules="party",
        script=[("play", "red 5"), ("jump_in", [1, 0]), ("jump_in", [0, 1])],
    )
    assert jumps(after) == [(2, "red 5"), (4, "red 5")]
    assert after.turn == 0 and after.party["jump_ins"] == 2 and after.turns == 1


def test_P2_a_jump_in_with_the_last_card_wins() -> None:
    hands = [["red 5", "blue 9"], ["green 1"], ["red 5"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", script=[("play", "red 5"), ("jump_in", [1])])
    assert after.finished and after.winner == 2


def test_P2_a_jump_in_to_one_card_must_call_UNO() -> None:
    """U-1 applies to a jump-in: forgotten and caught, the jumper draws 2 (U-2)."""
    hands = [["red 5", "blue 9"], ["green 1"], ["red 5", "green 2"]]
    after = play_from(
        Position(hands=hands, top="red 3", draw=DRAW), rules="party",
        script=[("play", "red 5"), ("forget_uno", False), ("jump_in", [1]), ("forget_uno", True), ("catch_uno", [True, False])],
    )
    assert after.hand_sizes[2] == 3 and after.counters["uno_penalties"] == 1 and after.turn == 0


def test_P2_only_a_number_card_can_be_jumped_on() -> None:
    """P-1: an identical action card is not jumped on."""
    hands = [["red skip", "blue 9"], ["green 1"], ["red skip", "green 2"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", script=[("play", "red skip")])
    assert jumps(after) == [] and after.turn == 2


def test_P2_a_card_added_to_a_mini_pile_is_not_jumped_on() -> None:
    """P-2 [default]: seat 2 holds the red 7 seat 1 added but is only asked to add (P-5), not to jump."""
    hands = [["wild pile up", "blue 1"], ["red 7", "green 2"], ["red 7", "green 3"]]
    after = play_from(
        Position(hands=hands, top="red 3", draw=["red 4"]), rules="party",
        script=[("play", "wild pile up"), ("add", "red 7"), ("add", "red 7"), ("take",)],
    )
    assert jumps(after) == [] and after.party["jump_ins"] == 0 and after.turn == 1


def test_P2_the_start_card_is_not_jumped_on() -> None:
    """P-2 [default]: in dealt games the first event after the start card is the first turn."""
    config = RunConfig.build(rules="party", players=12, strategies="greedy", seed=4)
    played = Engine(config, trace=True).play(0, 300)
    ev = played.events
    starts = np.flatnonzero(ev[:, 1] == L.EV_START)
    nxt = ev[starts + 1, 1]
    assert set(nxt.tolist()) <= {L.EV_TURN, L.EV_COLOUR}  # a wild start card's colour comes first
    assert played.rec[:, L.R_JUMP_INS].sum() > 0


def test_P3_wrong_jump_ins_draw_one() -> None:
    """P-3 at speed_play_error_rate=1: every other player without the identical card jumps in
    wrongly and draws 1; play goes on as if nothing happened."""
    hands = [["red 5", "blue 9"], ["green 1"], ["green 2"], ["green 3"]]
    after = play_from(
        Position(hands=hands, top="red 3", draw=DRAW), rules="party", overrides={"speed_play_error_rate": 1.0},
        script=[("play", "red 5")],
    )
    assert after.hand_sizes == [1, 2, 2, 2] and after.party["wrong_jump_ins"] == 3 and after.turn == 1


def test_P3_a_wrong_jump_in_is_echoed_over_a_link() -> None:
    """P-3 with P-7: the penalty draw is a forced draw, so a linked partner draws too."""
    hands = [["red 5", "blue 9"], ["green 1"], ["red 5", "green 2"]]
    after = play_from(
        Position(hands=hands, top="red 3", draw=DRAW, link=(1, 0)), rules="party", overrides={"speed_play_error_rate": 1.0},
        script=[("play", "red 5"), ("jump_in", [0])],
    )
    # seat 1 (no red 5) jumps in wrongly and draws 1; seat 0, its partner, echoes 1
    assert after.hand_sizes == [2, 2, 2] and after.party["wrong_jump_ins"] == 1 and after.turn == 1


def test_P4_no_speed_play_in_classic_presets() -> None:
    """P-4: speed_play is false for the classic presets: an identical card waits for its turn."""
    hands = [["red 5", "blue 9"], ["green 1"], ["red 5", "green 2"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="classic", script=[("play", "red 5")])
    assert jumps(after) == [] and after.turn == 1


def test_P4_speed_play_false_turns_it_off_in_party() -> None:
    hands = [["red 5", "blue 9"], ["green 1"], ["red 5", "green 2"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", overrides={"speed_play": False},
                      script=[("play", "red 5")])
    assert jumps(after) == [] and after.turn == 1


def test_a_negative_reaction_weight_is_refused() -> None:
    hands = [["red 5", "blue 9"], ["green 1"], ["red 5", "green 2"]]
    with pytest.raises(StrategyError, match="jump_in.*negative"):
        play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", script=[("play", "red 5"), ("jump_in", [-1])])
