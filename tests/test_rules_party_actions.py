"""Scenario tests for the party rules (docs/rules.md): S-2 the start card, A-4 Point Taken, P-5 Wild
Pile Up, P-6 Wild Drawn Together and P-7 links. One exact position each (speed play, P-1..P-4:
``test_rules_speed_play.py``)."""

from __future__ import annotations

import pytest

from unosim.engine.position import Position, card_id, play_from
from unosim.game.cards import CARD_FACE
from unosim.game.kernels import layout as L

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
    from unosim.engine.driver import StrategyError

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


@pytest.mark.parametrize("relink", [False, True])
def test_P6_relink_must_differ_forbids_the_old_pair(relink: bool) -> None:
    """P-6 with relink_must_differ: the new pair shares no member with the old one (default: it may)."""
    from unosim.engine.driver import StrategyError

    pos = Position(hands=[["wild drawn together", "blue 5"], ["green 2"], ["green 3"], ["green 4"]], top="red 3", draw=DRAW, link=(1, 2))
    script = [("play", "wild drawn together"), ("colour", "green"), ("link", (2, 3))]
    if relink:
        with pytest.raises(StrategyError, match=r"choose_link.*\[0, 3\]"):
            play_from(pos, overrides={"relink_must_differ": True}, script=script)
        after = play_from(pos, overrides={"relink_must_differ": True}, script=script[:2] + [("link", (3, 0))])
        assert after.link == (3, 0)
    else:
        assert play_from(pos, script=script).link == (2, 3)


def test_P6_relink_must_differ_with_nobody_left_to_link_ends_the_link() -> None:
    """P-6 [reading of relink_must_differ]: three players, seats 1 and 2 linked: only seat 0 may be
    linked, so no pair exists; the strategy is not asked and the old link ends."""
    pos = Position(hands=[["wild drawn together", "blue 5"], ["green 2"], ["green 3"]], top="red 3", draw=DRAW, link=(1, 2))
    after = play_from(pos, overrides={"relink_must_differ": True}, script=[("play", "wild drawn together"), ("colour", "green")])
    assert after.link is None and after.turn == 1


# ---------------------------------------------------------------- P-5 Wild Pile Up
PARTY = {"speed_play": False}


def test_P5_pile_up_must_add_then_the_first_who_cannot_takes_it() -> None:
    """P-5: the turned-up card starts the pile in front of the next player; whoever can add must;
    the first who cannot takes every card; the colour becomes the pile's; play goes on after them."""
    pos = Position(hands=[["wild pile up", "blue 5"], ["green 7", "red 2"], ["red 5"]], top="red 3", draw=["green 4"])
    after = play_from(pos, rules="party", overrides=PARTY, script=[("play", "wild pile up"), ("add", "green 7"), ("take",)])
    assert after.hands == [{"blue 5": 1}, {"red 2": 1}, {"red 5": 1, "green 4": 1, "green 7": 1}]
    assert after.colour == "green" and after.turn == 0 and after.top == "wild pile up" and after.mini_pile == {}
    assert after.party["pileups"] == 1 and after.party["pileup_cards"] == 2 and after.turns == 1


def test_P5_pile_goes_round_past_the_player_and_wilds_add_without_changing_colour() -> None:
    pos = Position(hands=[["wild pile up", "green 1", "blue 5"], ["green 7", "wild", "red 2"]], top="red 3", draw=["green 4"])
    after = play_from(
        pos, rules="party", overrides=PARTY,
        script=[("play", "wild pile up"), ("add", "green 7"), ("add", "green 1"), ("add", "wild"), ("take",)],
    )
    assert after.hands == [{"blue 5": 1, "green 4": 1, "green 7": 1, "green 1": 1, "wild": 1}, {"red 2": 1}]
    assert after.colour == "green" and after.turn == 1


def test_P5_emptying_the_hand_into_the_mini_pile_wins() -> None:
    pos = Position(hands=[["wild pile up", "blue 5"], ["green 7"], ["red 5"]], top="red 3", draw=["green 4"])
    after = play_from(pos, rules="party", overrides=PARTY, script=[("play", "wild pile up"), ("add", "green 7")])
    assert after.finished and after.winner == 1


def test_P5_no_non_wild_to_start_a_pile_acts_as_a_wild() -> None:
    """P-5 [default]: no non-wild in the draw or discard pile: the player names a colour instead."""
    pos = Position(hands=[["wild pile up", "blue 5"], ["green 7"], ["red 5"]], top="wild", colour="red", draw=["wild"] * 2)
    after = play_from(pos, rules="party", overrides=PARTY, script=[("play", "wild pile up"), ("colour", "blue")])
    assert after.colour == "blue" and after.turn == 1 and after.party["pileups"] == 0
    assert after.discard == {"wild": 1} and after.draw == {"wild": 2} and after.mini_pile == {}


def test_P5_a_reshuffle_starts_the_pile_when_the_draw_pile_is_empty() -> None:
    """T-5 with P-5: turning up the first card reshuffles the discard pile (below its top)."""
    pos = Position(hands=[["wild pile up", "blue 5"], ["red 7"], ["red 5"]], top="wild", colour="red", draw=[], discard=["green 4"])
    after = play_from(pos, rules="party", overrides=PARTY, script=[("play", "wild pile up"), ("take",)])
    # the reshuffled pile holds green 4 and the old top (a wild, turned up to the discard pile if drawn first)
    assert after.hands[1] == {"red 7": 1, "green 4": 1}
    assert after.draw.get("wild", 0) + after.discard.get("wild", 0) == 1 and after.party["pileups"] == 1


def test_P5_a_reshuffle_while_a_mini_pile_is_out_leaves_the_pile_alone() -> None:
    """T-5 with P-5 and pileup_flipped_wilds=mini_pile: a wild turned up goes into the mini pile; the
    draw pile then runs out and the discard pile (below its top) is reshuffled, the mini pile not."""
    pos = Position(hands=[["wild pile up", "blue 5"], ["yellow 7"], ["red 5"]], top="red 3", draw=["wild"], discard=["green 4"])
    after = play_from(
        pos, rules="party", overrides={**PARTY, "pileup_flipped_wilds": "mini_pile"}, script=[("play", "wild pile up"), ("take",)]
    )
    # turned up: the wild (into the mini pile), then after the reshuffle the red 3 or the green 4
    assert after.hand_sizes[1] == 3 and after.hands[1]["wild"] == 1 and after.party["pileup_cards"] == 2
    assert after.draw.get("red 3", 0) + after.draw.get("green 4", 0) == 1 and after.discard == {}
    kinds = after.events[:, 1].tolist()
    assert kinds.index(L.EV_RESHUFFLE) < kinds.index(L.EV_PILE_TAKE)


def test_P5_U1_adding_down_to_one_card_needs_the_UNO_call() -> None:
    """U-1 with P-5: an addition that leaves one card is a call like a play; forgotten and caught,
    the player draws 2 (U-2) and the pile goes on to the next player."""
    pos = Position(hands=[["wild pile up", "blue 5"], ["green 7", "red 2"], ["red 5"]], top="red 3", draw=["green 4"] * 6)
    after = play_from(
        pos, rules="party", overrides=PARTY,
        script=[("play", "wild pile up"), ("forget_uno", False), ("add", "green 7"), ("forget_uno", True),
                ("catch_uno", [True, False]), ("take",)],
    )
    assert after.hands[1] == {"red 2": 1, "green 4": 2} and after.hands[2] == {"red 5": 1, "green 4": 1, "green 7": 1}
    assert after.counters["uno_penalties"] == 1 and after.turn == 0 and after.colour == "green"


def test_P5_refusing_to_add_is_illegal_unless_the_option_allows_it() -> None:
    from unosim.engine.driver import StrategyError

    pos = Position(hands=[["wild pile up", "blue 5"], ["green 7", "red 2"], ["red 5"]], top="red 3", draw=["green 4"])
    with pytest.raises(StrategyError, match="add_to_pile"):
        play_from(pos, rules="party", overrides=PARTY, script=[("play", "wild pile up"), ("take",)])
    after = play_from(pos, rules="party", overrides={**PARTY, "pileup_may_refuse": True}, script=[("play", "wild pile up"), ("take",)])
    assert after.hands[1] == {"green 7": 1, "red 2": 1, "green 4": 1}


@pytest.mark.parametrize("shares", [False, True])
def test_P5_taking_the_pile_is_a_draw_for_a_link_only_with_the_option(shares: bool) -> None:
    pos = Position(hands=[["wild pile up", "blue 5"], ["red 7"], ["red 5"]], top="red 3", draw=["green 4"] + ["yellow 1"] * 5, link=(1, 2))
    after = play_from(pos, rules="party", overrides={**PARTY, "link_shares_pileup": shares}, script=[("play", "wild pile up"), ("take",)])
    # the first card turned up is random among the draw pile's counts: only sizes are exact here
    assert after.hand_sizes[1] == 2 and after.hand_sizes[2] == (2 if shares else 1)


# ---------------------------------------------------------------- S-2 the party start card
def test_S2_reflip_actions_flips_until_a_number_and_keeps_the_others_under_it() -> None:
    """S-2 reflip_actions (party default): non-number cards turned up stay under the start card,
    without effect; the dealer's left starts, clockwise, with full hands."""
    from test_rules_classic import events, first_decisions, game_rows

    n = 300
    b, trace = first_decisions(n, rules="party")
    reflipped = 0
    for g in range(n):
        rows = game_rows(trace, g)
        ((_, start, _, _),) = events(rows, "START")
        assert CARD_FACE[card_id(start)] <= 9 and card_id(start) < 56
        under = events(rows, "RETURN")
        assert all(a == 1 for _, _, a, _ in under)  # they stay under the pile, not back into the deck
        assert int(b.slot[g, L.F_DISC_N]) == len(under)
        assert int(b.slot[g, L.F_DIR]) == 1 and int(b.slot[g, L.F_TURN]) == (int(b.slot[g, L.F_DEALER]) + 1) % 4
        assert b.hsize[g].tolist() == [7] * 4 and events(rows, "SKIP") == [] and events(rows, "DRAW") == []
        reflipped += bool(under)
    assert reflipped > 10


def test_S2_ignore_effect_keeps_an_action_start_card_without_effect() -> None:
    """S-2 ignore_effect: the first card stays on top whatever it is, with no effect; a wild start
    card has the first player choose the colour."""
    from test_rules_classic import events, first_decisions, game_rows

    n = 300
    b, trace = first_decisions(n, rules="party", first_card="ignore_effect")
    seen = set()
    for g in range(n):
        rows = game_rows(trace, g)
        ((_, start, _, _),) = events(rows, "START")
        first = (int(b.slot[g, L.F_DEALER]) + 1) % 4
        assert events(rows, "RETURN") == [] and events(rows, "SKIP") == [] and events(rows, "DRAW") == []
        assert int(b.slot[g, L.F_DIR]) == 1 and b.hsize[g].tolist() == [7] * 4
        phase = int(b.slot[g, L.F_PHASE])
        if card_id(start) >= 56:
            assert phase == L.PH_COLOUR and int(b.slot[g, L.F_ACTOR]) == first
            seen.add("wild")
        else:
            assert phase == L.PH_TURN and int(b.slot[g, L.F_TURN]) == first
            seen.add("action" if CARD_FACE[card_id(start)] >= 10 else "number")
    assert seen == {"wild", "action", "number"}


@pytest.mark.parametrize(("when", "other", "legal"), [
    ("no_color_match_incl_plain_wilds", "wild draw four", True),
    ("no_color_match_incl_plain_wilds", "wild pile up", True),
    ("no_color_match_incl_plain_wilds", "wild", False),
    ("no_color_match_incl_wilds", "wild draw four", False),
    ("no_color_match_incl_wilds", "wild pile up", False),
])
def test_W2_only_a_plain_wild_blocks_a_wild_draw_four(when: str, other: str, legal: bool) -> None:
    """W-2, ``no_color_match_incl_plain_wilds``: a plain Wild counts as matching, another wild does not."""
    from unosim.engine.driver import StrategyError

    pos = Position(hands=[["wild draw four", other, "green 1"], ["blue 4"], ["yellow 5"]], top="red 3", draw=DRAW)
    script = [("play", "wild draw four"), ("colour", "blue")]
    overrides = {"wd4_legal_when": when, "wd4_challenge": False, "speed_play": False}
    if not legal:
        with pytest.raises(StrategyError, match="may not be played"):
            play_from(pos, rules="party", overrides=overrides, script=script)
        return
    after = play_from(pos, rules="party", overrides=overrides, script=script)
    assert after.top == "wild draw four" and after.colour == "blue"
    assert after.hands[1] == {"blue 4": 1, "yellow 1": 4} and after.hands[0] == {other: 1, "green 1": 1}
