"""Scenario tests for the party cards this engine version plays: A-4 Point Taken,
P-6 Wild Drawn Together and P-7 links (RULES.md). One exact position each."""

from __future__ import annotations

import pytest

from unosim.config import RunConfig
from unosim.engine import Engine
from unosim.position import Position, play_from

DRAW = ["yellow 1"] * 30  # one card kind: every draw is a yellow 1


def test_A4_point_taken_everyone_points_and_draws() -> None:
    """A-4: one card per pointing player; play continues with the player after the one who played it."""
    pos = Position(hands=[["red point taken", "blue 5"], ["green 2"], ["green 3"], ["green 4"]], top="red 3", draw=DRAW)
    after = play_from(pos, script=[("play", "red point taken"), ("point_at", [1, 0, 1, 1])])
    assert after.hands == [{"blue 5": 1, "yellow 1": 1}, {"green 2": 1, "yellow 1": 3}, {"green 3": 1}, {"green 4": 1}]
    assert after.turn == 1 and after.phase == "turn" and after.top == "red point taken" and after.colour == "red"
    assert after.party["point_taken_draws"] == 4 and after.turns == 1


def test_A4_point_taken_cap() -> None:
    """A-4: at most ``point_taken_cap`` cards, however many point."""
    hands = [["red point taken", "blue 5"]] + [["green 2"]] * 5
    after = play_from(
        Position(hands=hands, top="red 3", draw=DRAW), overrides={"point_taken_cap": 3},
        script=[("play", "red point taken"), ("point_at", [2, 2, 0, 2, 2, 2])],
    )
    assert after.hand_sizes == [2, 1, 4, 1, 1, 1]
    assert after.party["point_taken_draws"] == 4


def test_A4_point_taken_ends_a_link_before_its_draws() -> None:
    """A-4 with point_taken_breaks_link_first (default): the link ends, so no echo."""
    pos = Position(hands=[["red point taken", "blue 5"], ["green 2"], ["green 3"]], top="red 3", draw=DRAW, link=(1, 2))
    after = play_from(pos, script=[("play", "red point taken"), ("point_at", [1, 0, 1])])
    assert after.hand_sizes == [2, 3, 1] and after.link is None
    assert after.party["link_echo_draws"] == 0


def test_A4_link_ends_after_the_draws_when_the_option_is_off() -> None:
    """A-4 with point_taken_breaks_link_first=false: the draws are echoed, then the link ends."""
    pos = Position(hands=[["red point taken", "blue 5"], ["green 2"], ["green 3"]], top="red 3", draw=DRAW, link=(1, 2))
    after = play_from(
        pos, overrides={"point_taken_breaks_link_first": False}, script=[("play", "red point taken"), ("point_at", [1, 0, 1])]
    )
    # seat 0 draws 1 (linked to nobody); seat 1 draws 2 and seat 2 echoes 2
    assert after.hand_sizes == [2, 3, 3] and after.link is None
    assert after.party["link_echo_draws"] == 2 and after.party["point_taken_draws"] == 3


def test_A4_point_at_oneself_is_refused() -> None:
    from unosim.engine import StrategyError

    pos = Position(hands=[["red point taken", "blue 5"], ["green 2"], ["green 3"]], top="red 3", draw=DRAW)
    with pytest.raises(StrategyError, match="point_at"):
        play_from(pos, script=[("play", "red point taken"), ("point_at", [0, 0, 1])])


def test_P6_wild_drawn_together_links_two_players() -> None:
    """P-6: the player names a colour and links two players."""
    pos = Position(hands=[["wild drawn together", "blue 5"], ["green 2"], ["green 3"], ["green 4"]], top="red 3", draw=DRAW)
    after = play_from(pos, script=[("play", "wild drawn together"), ("colour", "blue"), ("link", (2, 3))])
    assert after.link == (2, 3) and after.colour == "blue" and after.turn == 1


def test_P6_a_new_link_replaces_the_old() -> None:
    """P-6: the new pair replaces any earlier link (and may include the player)."""
    pos = Position(hands=[["wild drawn together", "blue 5"], ["green 2"], ["green 3"], ["green 4"]], top="red 3", draw=DRAW, link=(1, 2))
    after = play_from(pos, script=[("play", "wild drawn together"), ("colour", "green"), ("link", (0, 3))])
    assert after.link == (0, 3)


def test_P7_draw_two_on_a_linked_player_is_echoed_once() -> None:
    """P-7: the partner draws as many, right after; the echo does not echo back."""
    pos = Position(hands=[["red draw two", "blue 5"], ["green 2"], ["green 3"], ["green 4"]], top="red 3", draw=DRAW, link=(1, 3))
    after = play_from(pos, script=[("play", "red draw two")])
    assert after.hand_sizes == [1, 3, 1, 3] and after.turn == 2
    assert after.party["link_echo_draws"] == 2 and after.cards_drawn == 4


def test_P7_forced_turn_draw_is_echoed() -> None:
    """P-7: a draw for want of a playable card counts."""
    pos = Position(hands=[["blue 5"], ["green 2"], ["green 3"]], top="red 3", draw=DRAW, link=(0, 2))
    after = play_from(pos, script=[("draw",)])
    assert after.hand_sizes == [2, 1, 2] and after.party["link_echo_draws"] == 1


@pytest.mark.parametrize("echoes", [False, True])
def test_P7_voluntary_draw_is_echoed_only_with_the_option(echoes: bool) -> None:
    """P-7: a draw chosen while holding a playable card is echoed only with link_echoes_voluntary_draws."""
    pos = Position(hands=[["red 5", "blue 5"], ["green 2"], ["green 3"]], top="red 3", draw=["green 9"] * 10, link=(0, 2))
    after = play_from(pos, overrides={"link_echoes_voluntary_draws": echoes}, script=[("draw",)])
    assert after.hand_sizes == [3, 1, 2 if echoes else 1]


def test_P7_uno_penalty_is_echoed() -> None:
    """P-7 with U-2: the partner of a player caught not calling UNO draws too."""
    pos = Position(hands=[["red 5", "blue 5"], ["green 2"], ["green 3"]], top="red 3", draw=DRAW, link=(0, 2))
    after = play_from(pos, script=[("play", "red 5"), ("forget_uno", True), ("catch_uno", [True, False])])
    assert after.hand_sizes == [3, 1, 3] and after.counters["uno_penalties"] == 1


def test_speed_play_and_pile_up_are_refused_until_played() -> None:
    with pytest.raises(ValueError, match="not played"):
        Engine(RunConfig.build(rules="party", players=4, games=10))
    with pytest.raises(ValueError, match="not played"):
        Engine(RunConfig.build(rules="party", players=4, games=10, overrides=["speed_play=false"]))
