"""Scenario tests of the house rules (docs/rules.md §10): H-1 stacking, H-2 seven-zero, H-3 jump-ins in
every preset and with action cards, H-4 no going out on an action card or a wild.

Each test puts an exact position on the table (:func:`unosim.engine.position.play_from`), answers a
short script of decisions and checks the table after it. Draw piles hold one card kind, so every
expected hand is exact. The refused combinations and the built-in strategies' own house-rule
decisions close the file.
"""

from __future__ import annotations

import numpy as np
import pytest

from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine, StrategyError
from unosim.engine.position import Position, play_from
from unosim.game.cards import CARD_NAMES
from unosim.game.kernels import layout as L
from unosim.game.rules import RuleSet
from unosim.strategy import registry

DRAW = ["yellow 1"] * 40  # one card kind: every draw is a yellow 1


def events(after, kind: int) -> list[tuple[int, str, int]]:
    """(seat, card name or '-', a) of every traced event of ``kind``."""
    ev = after.events
    return [(int(r[2]), CARD_NAMES[int(r[3])] if r[3] >= 0 else "-", int(r[4])) for r in ev[ev[:, 1] == kind]]


def jumps(after) -> list[tuple[int, str]]:
    ev = after.events
    return [(int(r[2]), CARD_NAMES[int(r[3])]) for r in ev[(ev[:, 1] == L.EV_PLAY) & (ev[:, 5] == 1)]]


# ---------------------------------------------------------------- H-1 stacking
def test_H1_same_face_draw_two_on_draw_two() -> None:
    """H-1 same_face: a Draw Two of another colour goes on a Draw Two; the next player draws 4 and loses the turn."""
    pos = Position(hands=[["red draw two", "blue 5"], ["blue draw two", "green 2"], ["green 3", "green 4"]], top="red 3", draw=DRAW)
    after = play_from(pos, overrides={"stacking": "same_face"}, script=[("play", "red draw two"), ("stack", "blue draw two")])
    assert after.hand_sizes == [1, 1, 6] and after.hands[2]["yellow 1"] == 4
    assert after.turn == 0 and after.phase == "turn"
    assert after.top == "blue draw two" and after.colour == "blue"  # a stacked Draw Two sets its own colour
    assert after.turns == 2  # the play and the stack; taking the total is the victim's lost turn
    assert after.house["stacks"] == 1 and after.house["stack_max"] == 4 and after.house["stack_cards"] == 4
    assert events(after, L.EV_STACK) == [(1, "blue draw two", 4)]


def test_H1_same_face_wild_draw_four_on_wild_draw_four() -> None:
    """H-1 same_face: a Wild Draw Four on a Wild Draw Four (classic-house: no challenges); 8 cards."""
    pos = Position(hands=[["wild draw four", "blue 5"], ["wild draw four", "green 2"], ["green 3", "green 4"]], top="red 3", draw=DRAW)
    after = play_from(pos, rules="classic-house", overrides={"stacking": "same_face"},
                      script=[("play", "wild draw four"), ("colour", "green"), ("stack", "wild draw four"), ("colour", "yellow")])
    assert after.hand_sizes == [1, 1, 10] and after.turn == 0 and after.colour == "yellow"
    assert after.house["stack_max"] == 8


def test_H1_same_face_never_mixes_faces() -> None:
    """H-1 same_face: a Wild Draw Four is no stacking card on a Draw Two: the victim is not asked and draws 2."""
    pos = Position(hands=[["red draw two", "blue 5"], ["wild draw four", "green 2"], ["green 3", "green 4"]], top="red 3", draw=DRAW)
    after = play_from(pos, overrides={"stacking": "same_face"}, script=[("play", "red draw two")])
    assert after.hand_sizes == [1, 4, 2] and after.turn == 2
    assert after.house["stacks"] == 0 and after.house["stack_max"] == 2 and after.house["stack_cards"] == 0


def test_H1_mixed_wild_draw_four_on_draw_two() -> None:
    """H-1 mixed: a Wild Draw Four goes on a Draw Two (classic-house: no challenge); the next draws 6."""
    pos = Position(hands=[["red draw two", "blue 5"], ["wild draw four", "green 2"], ["green 3", "green 4"]], top="red 3", draw=DRAW)
    after = play_from(pos, rules="classic-house", overrides={"stacking": "mixed"},
                      script=[("play", "red draw two"), ("stack", "wild draw four"), ("colour", "blue")])
    assert after.hand_sizes == [1, 1, 8] and after.turn == 0 and after.top == "wild draw four" and after.colour == "blue"


def test_H1_mixed_no_draw_two_on_wild_draw_four() -> None:
    """H-1 mixed: a Draw Two never goes on a Wild Draw Four."""
    pos = Position(hands=[["wild draw four", "blue 5"], ["red draw two", "green 2"], ["green 3", "green 4"]], top="red 3", draw=DRAW)
    after = play_from(pos, rules="classic-house", overrides={"stacking": "mixed"}, script=[("play", "wild draw four"), ("colour", "red")])
    assert after.hand_sizes == [1, 6, 2] and after.turn == 2


def test_H1_mixed_wild_draw_four_on_wild_draw_four() -> None:
    pos = Position(hands=[["wild draw four", "blue 5"], ["wild draw four", "green 2"], ["green 3", "green 4"]], top="red 3", draw=DRAW)
    after = play_from(pos, rules="classic-house", overrides={"stacking": "mixed"},
                      script=[("play", "wild draw four"), ("colour", "red"), ("stack", "wild draw four"), ("colour", "red")])
    assert after.hand_sizes == [1, 1, 10]


def test_H1_plus4_on_plus2_the_wild_draw_four_ends_the_chain() -> None:
    """H-1 plus4_on_plus2: a Wild Draw Four on a Draw Two; nothing goes on the Wild Draw Four, so the
    next player, who holds one too, draws 6."""
    pos = Position(hands=[["red draw two", "blue 5"], ["wild draw four", "green 2"], ["wild draw four", "green 4"], ["green 6"]],
                   top="red 3", draw=DRAW)
    after = play_from(pos, rules="classic-house", overrides={"stacking": "plus4_on_plus2"},
                      script=[("play", "red draw two"), ("stack", "wild draw four"), ("colour", "green")])
    assert after.hand_sizes == [1, 1, 8, 1] and after.turn == 3
    assert after.house["stacks"] == 1 and after.house["stack_cards"] == 6


def test_H1_plus4_on_plus2_draw_two_on_draw_two() -> None:
    pos = Position(hands=[["red draw two", "blue 5"], ["green draw two", "green 2"], ["green 3", "green 4"]], top="red 3", draw=DRAW)
    after = play_from(pos, overrides={"stacking": "plus4_on_plus2"}, script=[("play", "red draw two"), ("stack", "green draw two")])
    assert after.hand_sizes == [1, 1, 6]


def test_H1_none_is_the_official_draw_two() -> None:
    """H-1 none (default): the victim holding a Draw Two is not asked; draws 2 and loses the turn."""
    pos = Position(hands=[["red draw two", "blue 5"], ["blue draw two", "green 2"], ["green 3", "green 4"]], top="red 3", draw=DRAW)
    after = play_from(pos, script=[("play", "red draw two")])
    assert after.hand_sizes == [1, 4, 2] and after.turn == 2
    assert after.house == dict.fromkeys(after.house, 0)


def test_H1_a_player_able_to_stack_may_take_the_total() -> None:
    """H-1: the first player who will not stack draws the whole total (a stack of two Draw Twos: 4)."""
    pos = Position(hands=[["red draw two", "blue 5"], ["blue draw two", "green 2"], ["green draw two", "green 4"], ["red 6"]],
                   top="red 3", draw=DRAW)
    after = play_from(pos, overrides={"stacking": "same_face"},
                      script=[("play", "red draw two"), ("stack", "blue draw two"), ("stack", None)])
    assert after.hand_sizes == [1, 1, 6, 1] and after.turn == 3
    assert after.house["stacks"] == 1 and after.house["stack_cards"] == 4


def test_H1_an_illegal_stack_is_refused() -> None:
    pos = Position(hands=[["red draw two", "blue 5"], ["blue draw two", "green 2"], ["green 3", "green 4"]], top="red 3", draw=DRAW)
    with pytest.raises(StrategyError, match="stack"):
        play_from(pos, overrides={"stacking": "same_face"}, script=[("play", "red draw two"), ("stack", "green 2")])


def test_H1_challenge_fails_on_a_stacked_wild_draw_four() -> None:
    """H-1 with W-2: the victim of a stacked Wild Draw Four challenges; it was legal (no red held when it
    was stacked on the red Draw Two), so the challenger draws the total and 2 and loses the turn."""
    pos = Position(hands=[["red draw two", "blue 5"], ["wild draw four", "green 2"], ["green 3", "green 4"], ["green 6"]],
                   top="red 3", draw=DRAW)
    after = play_from(pos, overrides={"stacking": "mixed"},
                      script=[("play", "red draw two"), ("stack", "wild draw four"), ("colour", "blue"), ("challenge", True)])
    assert after.hand_sizes == [1, 1, 10, 1] and after.turn == 3
    assert after.counters["challenges"] == 1 and after.counters["challenges_won"] == 0
    assert after.house["stack_max"] == 8 and after.house["stack_cards"] == 8


def test_H1_challenge_catches_a_stacked_bluff_and_its_player_draws_the_total() -> None:
    """H-1 with W-2: stacking is its own permission, but W-2 judges the stacked Wild Draw Four on the hand
    and colour when it was played: seat 1 held a red card under a red Draw Two, so the challenge
    succeeds; seat 1 draws the whole total (6) and the challenger takes a normal turn."""
    pos = Position(hands=[["red draw two", "blue 5"], ["wild draw four", "red 9"], ["green 3", "green 4"], ["green 6"]],
                   top="red 3", draw=DRAW)
    after = play_from(pos, overrides={"stacking": "mixed"},
                      script=[("play", "red draw two"), ("stack", "wild draw four"), ("colour", "blue"), ("challenge", True)])
    assert after.hand_sizes == [1, 7, 2, 1] and after.turn == 2 and after.phase == "turn"
    assert after.counters["challenges_won"] == 1 and after.house["stack_max"] == 6


def test_H1_a_victim_who_does_not_challenge_may_stack() -> None:
    """H-1 with W-2: no challenge, then a stack; the next victim is asked to challenge the top Wild Draw Four."""
    pos = Position(hands=[["wild draw four", "blue 5"], ["wild draw four", "green 2"], ["green 3", "green 4"]], top="red 3", draw=DRAW)
    after = play_from(pos, overrides={"stacking": "same_face"}, script=[
        ("play", "wild draw four"), ("colour", "blue"), ("challenge", False),
        ("stack", "wild draw four"), ("colour", "green"), ("challenge", False),
    ])
    assert after.hand_sizes == [1, 1, 10] and after.turn == 0 and after.counters["challenges"] == 0


@pytest.mark.parametrize("last_card_draws", [True, False])
def test_H1_going_out_on_a_stack_ends_the_round(last_card_draws: bool) -> None:
    """H-1 with E-2: going out on a stacked Draw Two ends the round at once; with last_card_draws the next
    player draws the whole total (4), without it nobody draws."""
    pos = Position(hands=[["red draw two", "blue 5"], ["blue draw two"], ["blue draw two", "green 4"]], top="red 3", draw=DRAW)
    after = play_from(pos, overrides={"stacking": "same_face", "last_card_draws": last_card_draws},
                      script=[("play", "red draw two"), ("stack", "blue draw two")])
    assert after.finished and after.winner == 1
    assert after.hand_sizes == [1, 0, 6 if last_card_draws else 2]
    assert after.house["stack_max"] == (4 if last_card_draws else 0)


def test_H1_a_linked_victim_takes_the_total_and_the_partner_echoes_it() -> None:
    """H-1 with P-7 (party): the total taken is a penalty draw, echoed over the link."""
    pos = Position(hands=[["red draw two", "blue 5"], ["blue draw two", "green 2"], ["green 3", "green 4"], ["green 6"]],
                   top="red 3", draw=DRAW, link=(2, 3))
    after = play_from(pos, rules="party", overrides={"stacking": "same_face"},
                      script=[("play", "red draw two"), ("stack", "blue draw two")])
    assert after.hand_sizes == [1, 1, 6, 5] and after.party["link_echo_draws"] == 4 and after.turn == 3


def test_H1_party_action_wilds_are_not_stacking_cards() -> None:
    """H-1 (party): Point Taken, Wild Pile Up and Wild Drawn Together cannot go on a chain."""
    hands = [["red draw two", "blue 5"], ["red point taken", "wild pile up", "wild drawn together"], ["green 3"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", overrides={"stacking": "mixed"},
                      script=[("play", "red draw two")])
    assert after.hand_sizes == [1, 5, 1] and after.turn == 2


def test_H1_uno_is_called_on_a_stack() -> None:
    """H-1 with U-1: stacking down to one card without calling UNO is caught; then the chain goes on."""
    pos = Position(hands=[["red draw two", "blue 5"], ["blue draw two", "green 2"], ["green 3", "green 4"]], top="red 3", draw=DRAW)
    after = play_from(pos, overrides={"stacking": "same_face"}, script=[
        ("play", "red draw two"), ("forget_uno", False), ("stack", "blue draw two"), ("forget_uno", True),
        ("catch_uno", [True, False]),
    ])
    assert after.hand_sizes == [1, 3, 6] and after.counters["uno_penalties"] == 1 and after.turn == 0


def test_H1_the_chain_is_resolved_before_a_jump_in_window() -> None:
    """H-1 with H-3 (party, action jump-ins): the chain is taken first; the window then opens on the Draw
    Two on top, and the jumped-in Draw Two starts a new chain faced by the player after the jumper."""
    hands = [["red draw two", "blue 5"], ["blue draw two", "green 2"], ["green 3", "green 4"], ["blue draw two", "green 6"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party",
                      overrides={"stacking": "same_face", "jump_in_cards": "numbers_and_actions"},
                      script=[("play", "red draw two"), ("stack", "blue draw two"), ("jump_in", [1])])
    assert jumps(after) == [(3, "blue draw two")]
    assert after.hand_sizes == [3, 1, 6, 1] and after.turn == 1
    assert after.house["stacks"] == 1 and after.house["action_jump_ins"] == 1 and after.house["stack_max"] == 4


def test_H1_a_stack_past_max_turns_stops_the_round() -> None:
    """H-1 with E-5: a stack is a turn, so a chain offered after the last allowed turn truncates the round."""
    pos = Position(hands=[["red draw two", "blue 5"], ["blue draw two", "green 2"], ["green 3", "green 4"]], top="red 3", draw=DRAW,
                   turns=9)
    after = play_from(pos, overrides={"stacking": "same_face", "max_turns": 10}, script=[("play", "red draw two")])
    assert after.finished and after.counters["truncated"] == 1 and after.turns == 10


# ---------------------------------------------------------------- H-2 seven-zero
def test_H2_seven_swaps_hands_with_the_chosen_player() -> None:
    hands = [["red 7", "blue 5"], ["blue 2", "green 2", "green 9"], ["green 3", "green 4", "red 1", "red 2"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), overrides={"seven_zero": True},
                      script=[("play", "red 7"), ("swap", 2)])
    assert after.hands == [{"green 3": 1, "green 4": 1, "red 1": 1, "red 2": 1}, {"blue 2": 1, "green 2": 1, "green 9": 1},
                           {"blue 5": 1}]
    assert after.turn == 1 and after.top == "red 7" and after.house["seven_swaps"] == 1
    assert events(after, L.EV_SWAP) == [(0, "-", 2)]


@pytest.mark.parametrize("direction", [1, -1])
def test_H2_zero_passes_every_hand_on_in_the_direction_of_play(direction: int) -> None:
    hands = [["red 0", "blue 5"], ["blue 2", "green 2"], ["green 3", "green 4", "red 1"], ["yellow 8"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW, direction=direction), overrides={"seven_zero": True},
                      script=[("play", "red 0")])
    given = [{"blue 5": 1}, {"blue 2": 1, "green 2": 1}, {"green 3": 1, "green 4": 1, "red 1": 1}, {"yellow 8": 1}]
    assert after.hands == [given[(p - direction) % 4] for p in range(4)]
    assert after.turn == (0 + direction) % 4 and after.house["zero_passes"] == 1 and after.direction == direction


@pytest.mark.parametrize("card", ["red 7", "red 0"])
def test_H2_a_last_card_seven_or_zero_ends_the_round_without_swap(card: str) -> None:
    hands = [[card], ["blue 2", "green 2"], ["green 3"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), overrides={"seven_zero": True}, script=[("play", card)])
    assert after.finished and after.winner == 0 and after.hand_sizes == [0, 2, 1]
    assert after.house["seven_swaps"] == 0 and after.house["zero_passes"] == 0


def test_H2_a_hand_of_one_card_received_by_a_swap_is_not_caught() -> None:
    """H-2 with U-1: seat 1 receives seat 0's last card by the swap: no UNO call was due, nobody is asked."""
    hands = [["red 7", "blue 5"], ["green 2", "green 9", "yellow 4"], ["green 3", "green 4"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), overrides={"seven_zero": True},
                      script=[("play", "red 7"), ("swap", 1)])
    assert after.hand_sizes == [3, 1, 2] and after.phase == "turn" and after.turn == 1
    assert after.counters["uno_penalties"] == 0


def test_H2_the_player_down_to_one_card_calls_uno_as_after_any_play() -> None:
    """H-2 with U-1: playing the 7 down to one card, forgetting UNO, is caught before the swap."""
    hands = [["red 7", "blue 5"], ["green 2", "green 9", "yellow 4"], ["green 3", "green 4"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), overrides={"seven_zero": True},
                      script=[("play", "red 7"), ("forget_uno", True), ("catch_uno", [True, True]), ("swap", 2)])
    assert after.counters["uno_penalties"] == 1 and after.hand_sizes == [2, 3, 3]


def test_H2_a_swap_with_oneself_is_refused() -> None:
    hands = [["red 7", "blue 5"], ["green 2"], ["green 3"]]
    with pytest.raises(StrategyError, match="swap_with"):
        play_from(Position(hands=hands, top="red 3", draw=DRAW), overrides={"seven_zero": True}, script=[("play", "red 7"), ("swap", 0)])


def test_H2_links_join_seats_not_hands() -> None:
    """H-2 with P-6/P-7 (party): the link stays between the seats; the swap is no draw and is not echoed."""
    hands = [["red 7", "blue 5"], ["green 2", "green 9"], ["green 3"], ["yellow 9"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW, link=(0, 2)), rules="party",
                      overrides={"seven_zero": True, "speed_play": False}, script=[("play", "red 7"), ("swap", 1)])
    assert after.link == (0, 2) and after.hand_sizes == [2, 1, 1, 1] and after.party["link_echo_draws"] == 0


def test_H2_eliminated_players_take_no_part_in_a_pass() -> None:
    """H-2 with E-4: a seat out of the match neither gives nor receives a hand."""
    hands = [["red 0", "blue 5"], ["blue 2", "green 2"], [], ["green 3", "green 4", "red 1"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW, eliminated=[2]), overrides={"seven_zero": True},
                      script=[("play", "red 0")])
    assert after.hand_sizes == [3, 1, 0, 2] and after.turn == 1


def test_H2_a_jumped_in_seven_swaps_for_its_player() -> None:
    """H-2 with speed play (party): the swap happens before the window; the jumper's identical 7 swaps too."""
    hands = [["red 7", "blue 5"], ["green 2", "green 9"], ["green 3", "yellow 2", "yellow 3"], ["red 7", "blue 9", "blue 8"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", overrides={"seven_zero": True},
                      script=[("play", "red 7"), ("swap", 1), ("jump_in", [1]), ("swap", 2)])
    assert jumps(after) == [(3, "red 7")] and after.house["seven_swaps"] == 2
    assert after.hands[3] == {"green 3": 1, "yellow 2": 1, "yellow 3": 1} and after.hands[2] == {"blue 9": 1, "blue 8": 1}
    assert after.turn == 0


# ---------------------------------------------------------------- H-3 jump-ins in every preset
@pytest.mark.parametrize("preset", ["classic", "classic-house"])
def test_H3_speed_play_works_in_the_classic_presets(preset: str) -> None:
    hands = [["red 5", "blue 9"], ["green 1"], ["red 5", "blue 3"], ["green 4"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules=preset, overrides={"speed_play": True},
                      script=[("play", "red 5"), ("jump_in", [1])])
    assert jumps(after) == [(2, "red 5")] and after.turn == 3 and after.party["jump_ins"] == 1


def test_H3_numbers_only_by_default() -> None:
    """H-3 numbers (default): an identical Skip is not jumped in with; nobody is asked."""
    hands = [["red skip", "blue 9"], ["green 1"], ["red skip", "blue 3"], ["green 4"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", script=[("play", "red skip")])
    assert jumps(after) == [] and after.turn == 2


def test_H3_a_jumped_in_skip_skips_the_player_after_the_jumper() -> None:
    hands = [["red skip", "blue 5"], ["red skip", "green 2", "green 9"], ["green 3", "green 4"], ["green 5"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="classic",
                      overrides={"speed_play": True, "jump_in_cards": "numbers_and_actions"},
                      script=[("play", "red skip"), ("jump_in", [1])])
    assert jumps(after) == [(1, "red skip")] and after.turn == 3
    assert after.house["action_jump_ins"] == 1 and after.party["jump_ins"] == 1


def test_H3_a_jumped_in_reverse_turns_play_from_the_jumper() -> None:
    """The Reverse of seat 0 turns play counter-clockwise; seat 2 jumps in with the identical Reverse:
    clockwise again, from seat 2, so seat 3 plays next."""
    hands = [["red reverse", "blue 5"], ["green 2"], ["red reverse", "green 3"], ["green 5"], ["green 6"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", overrides={"jump_in_cards": "numbers_and_actions"},
                      script=[("play", "red reverse"), ("jump_in", [1])])
    assert jumps(after) == [(2, "red reverse")] and after.direction == 1 and after.turn == 3


def test_H3_a_jumped_in_draw_two_makes_the_player_after_the_jumper_draw() -> None:
    hands = [["red draw two", "blue 5"], ["green 2"], ["red draw two", "green 3"], ["green 5"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", overrides={"jump_in_cards": "numbers_and_actions"},
                      script=[("play", "red draw two"), ("jump_in", [1])])
    assert after.hand_sizes == [1, 3, 1, 3] and after.turn == 0  # seat 1 drew 2 first, then seat 3


def test_H3_wilds_are_never_jumped_on() -> None:
    hands = [["wild", "blue 5"], ["wild", "green 2"], ["green 3"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", overrides={"jump_in_cards": "numbers_and_actions"},
                      script=[("play", "wild"), ("colour", "blue")])
    assert jumps(after) == [] and after.turn == 1 and after.phase == "turn"


def test_H3_a_jumped_in_point_taken_opens_another_vote() -> None:
    hands = [["red point taken", "blue 5"], ["green 2"], ["red point taken", "green 3"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party", overrides={"jump_in_cards": "numbers_and_actions"},
                      script=[("play", "red point taken"), ("point_at", [1, 0, 1]), ("jump_in", [1]), ("point_at", [1, 0, 1])])
    assert jumps(after) == [(2, "red point taken")] and after.party["point_taken_draws"] == 6 and after.turn == 0


def test_H3_action_jump_ins_need_speed_play() -> None:
    with pytest.raises(ValueError, match="jump_in_cards=numbers_and_actions needs speed_play=true"):
        RuleSet.preset("classic").replace(jump_in_cards="numbers_and_actions")
    RuleSet.preset("classic").replace(jump_in_cards="numbers_and_actions", speed_play=True)


# ---------------------------------------------------------------- H-4 no going out on an action card or a wild
@pytest.mark.parametrize("card", ["wild", "red skip", "wild draw four", "red draw two"])
def test_H4_a_lone_action_card_or_wild_may_not_go_out(card: str) -> None:
    after = play_from(Position(hands=[[card], ["blue 2"]], top="red 3", draw=DRAW), overrides={"go_out_on_action": False},
                      script=[("draw",)])
    assert after.hand_sizes == [2, 1] and after.turn == 1 and after.house["blocked_finishes"] == 1


@pytest.mark.parametrize(("card", "go_out"), [("green skip", False), ("wild", False), ("green 7", True)])
def test_H4_a_lone_action_card_or_wild_is_not_added_to_a_mini_pile(card: str, go_out: bool) -> None:
    """H-4 with P-5: adding the last card to a mini pile would go out on it, so a lone action card
    or wild cannot be added: the player takes the pile. A lone number card is added and wins."""
    pos = Position(hands=[["wild pile up", "blue 5"], [card], ["red 5"]], top="red 3", draw=["green 4"])
    script = [("play", "wild pile up"), ("add", card)] if go_out else [("play", "wild pile up"), ("take",)]
    after = play_from(pos, rules="party", overrides={"speed_play": False, "go_out_on_action": False}, script=script)
    if go_out:
        assert after.finished and after.winner == 1
    else:
        assert not after.finished and after.hands[1] == {card: 1, "green 4": 1} and after.turn == 2


def test_H4_the_lone_action_card_is_not_legal() -> None:
    with pytest.raises(StrategyError, match="may not be played"):
        play_from(Position(hands=[["red skip"], ["blue 2"]], top="red 3", draw=DRAW), overrides={"go_out_on_action": False},
                  script=[("play", "red skip")])


def test_H4_a_lone_number_card_goes_out() -> None:
    after = play_from(Position(hands=[["red 5"], ["blue 2"]], top="red 3", draw=DRAW), overrides={"go_out_on_action": False},
                      script=[("play", "red 5")])
    assert after.finished and after.winner == 0 and after.house["blocked_finishes"] == 0


def test_H4_an_action_card_with_a_second_card_may_be_played() -> None:
    after = play_from(Position(hands=[["red skip", "blue 9"], ["blue 2"], ["green 4"]], top="red 3", draw=DRAW),
                      overrides={"go_out_on_action": False}, script=[("play", "red skip")])
    assert after.hand_sizes == [1, 1, 1] and after.turn == 2  # the Skip was played; seat 1 is skipped


def test_H4_an_unplayable_lone_card_is_not_a_blocked_finish() -> None:
    after = play_from(Position(hands=[["blue skip"], ["blue 2"]], top="red 3", draw=DRAW), overrides={"go_out_on_action": False},
                      script=[("draw",)])
    assert after.house["blocked_finishes"] == 0


def test_H4_draw_until_playable_with_a_lone_wild() -> None:
    """H-4 with T-4 (classic-house): the lone Wild is no playable card, so the player draws until a card
    is; with two cards in hand the drawn card may then be played."""
    after = play_from(Position(hands=[["wild"], ["blue 2"], ["green 5"]], top="red 3", draw=["red 1"] * 10), rules="classic-house",
                      overrides={"go_out_on_action": False}, script=[("draw",), ("play_drawn", True)])
    assert after.hand_sizes == [1, 1, 1] and after.hands[0] == {"wild": 1} and after.top == "red 1"


def test_H4_no_jump_in_with_a_last_action_card() -> None:
    hands = [["red skip", "blue 5"], ["green 2"], ["red skip"], ["green 5"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), rules="party",
                      overrides={"jump_in_cards": "numbers_and_actions", "go_out_on_action": False}, script=[("play", "red skip")])
    assert jumps(after) == [] and after.turn == 2


def test_H4_no_stack_with_the_last_card() -> None:
    hands = [["red draw two", "blue 5"], ["blue draw two"], ["green 3"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW), overrides={"stacking": "same_face", "go_out_on_action": False},
                      script=[("play", "red draw two")])
    assert after.hand_sizes == [1, 3, 1] and after.turn == 2 and after.house["stacks"] == 0


# ---------------------------------------------------------------- refused combinations
def _deck(tmp_path, name: str, per_colour: dict[str, int], wild: dict[str, int]) -> str:
    lines = [f'name = "{name}"', "[per_colour]", *(f'"{k}" = {v}' for k, v in per_colour.items()), "[wild]",
             *(f"{k} = {v}" for k, v in wild.items())]
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_house_rule_combinations_refused_before_any_game(tmp_path) -> None:
    numbers = {str(f): 2 for f in range(1, 7)}
    no_penalty = _deck(tmp_path, "no_penalty", {**numbers, "skip": 2}, {"wild": 4})
    with pytest.raises(ValueError, match=r"stacking='same_face'.*neither.*stacking=none"):
        RuleSet.preset("classic").replace(deck=no_penalty, stacking="same_face")
    RuleSet.preset("classic").replace(deck=no_penalty, seven_zero=False)  # the deck itself plays
    with pytest.raises(ValueError, match=r"seven_zero=true.*no 7 and no 0.*seven_zero=false"):
        RuleSet.preset("classic").replace(deck=no_penalty, seven_zero=True)
    only_wd4 = _deck(tmp_path, "only_wd4", {**numbers, "7": 1}, {"wild_draw_four": 4})
    assert RuleSet.preset("classic").replace(deck=only_wd4, stacking="mixed", seven_zero=True).stacking == "mixed"
    with pytest.raises(ValueError, match="jump_in_cards"):
        RuleSet.preset("classic").with_overrides(["jump_in_cards=numbers_and_actions"])
    with pytest.raises(ValueError, match="stacking"):
        RuleSet.preset("classic").with_overrides(["stacking=deflection"])


def test_every_house_rule_is_off_in_every_preset() -> None:
    for name in ("classic", "classic-house", "party"):
        r = RuleSet.preset(name)
        assert (r.stacking, r.seven_zero, r.jump_in_cards, r.go_out_on_action) == ("none", False, "numbers", True)


# ---------------------------------------------------------------- the built-in strategies decide
BUILTINS = [name for name in registry.REGISTRY if name != "rules"] + ["rules:holder"]


@pytest.mark.parametrize("name", BUILTINS)
def test_builtin_strategies_stack_and_swap(name: str) -> None:
    """Every built-in strategy stacks and chooses whom to swap with (H-1, H-2), on both engine paths."""
    spec = "search(playouts=8)" if name == "search" else name  # a small budget: the same decisions are asked
    config = RunConfig.build(rules="classic", players=4, strategies=[spec, "greedy", spec, "random"], seed=3,
                             overrides=["stacking=mixed", "seven_zero=true", "wd4_challenge=false"])
    for compiled in (True, False):
        played = Engine(config, compiled=compiled).play(0, 60)
        assert played.rec[:, L.R_STACKS].sum() > 0 and played.rec[:, L.R_SEVEN_SWAPS].sum() > 0


def test_stack_defaults_keep_the_wild_draw_four() -> None:
    """The base decisions: a Draw Two is stacked before a Wild Draw Four; the swap goes to the player with
    fewest cards, ties to the nearest in the direction of play."""
    pos = Position(hands=[["red draw two", "blue 5"], ["wild draw four", "green draw two", "green 2"], ["green 3", "green 4"],
                          ["green 7"]], top="red 3", draw=DRAW)
    greedy = registry.make("greedy", {})
    for compiled in (True, False):
        after = play_from(pos, rules="classic-house", overrides={"stacking": "mixed"},
                          script=[("play", "red draw two"), ("draw",)], seats={1: greedy}, compiled=compiled)
        assert after.top == "green draw two" and after.hands[1] == {"wild draw four": 1, "green 2": 1}
    hands = [["red 7", "blue 5", "blue 6"], ["green 2", "green 9"], ["green 3", "green 4", "yellow 1"], ["green 6", "yellow 9"]]
    for direction, target in ((1, 1), (-1, 3)):
        for compiled in (True, False):
            after = play_from(Position(hands=hands, top="red 3", draw=DRAW, direction=direction), overrides={"seven_zero": True},
                              script=[("draw",)], seats={0: greedy}, compiled=compiled)
            swaps = events(after, L.EV_SWAP)
            assert swaps and swaps[0] == (0, "-", target)


def test_random_takes_or_stacks_uniformly() -> None:
    config = RunConfig.build(rules="classic", players=3, strategies="random", seed=9, overrides=["stacking=same_face"])
    rec = Engine(config).play(0, 3000).rec
    stacks, chains = rec[:, L.R_STACKS].sum(), (rec[:, L.R_STACK_MAX] > 0).sum()
    assert 0 < stacks and chains > 0
    assert np.all(rec[:, L.R_STACK_CARDS] <= rec[:, L.R_DRAWN])


def test_the_environments_ask_the_house_decisions_as_actions() -> None:
    pytest.importorskip("gymnasium")
    from unosim.env.seats import SeatedGame

    game = SeatedGame("classic", 3, [0, 1, 2], [], ["stacking=mixed", "seven_zero=true"])
    rng = np.random.default_rng(0)
    kinds: set[str] = set()
    for g in range(20):
        game.new_game(4, g)
        while not game.over:
            step = game.queue[0]
            kinds.add(step.kind)
            game.answer(int(rng.choice(np.flatnonzero(step.mask))))
    assert {"stack", "swap"} <= kinds  # H-1 and H-2 are decisions with actions (unosim/env/encoding.py)
