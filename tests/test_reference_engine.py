"""Sanity tests of the pure-Python reference engine (tests/reference_engine.py) only."""

import random
from collections import Counter

import pytest

try:
    import reference_engine as ref
except ImportError:  # tests/ became a package
    from tests import reference_engine as ref

Card = ref.Card
R, Y, G, B = ref.COLOURS


# ---------------------------------------------------------------- helpers

def scripted_game(preset, strategies, hands, top, colour=None, draw_pile=(), seed=0, **opts):
    """A Game in a hand-made position (no set-up): seat 0 to play, clockwise."""
    options = dict(ref.PRESETS[preset], **opts)
    game = ref.Game(options, [ref.Strategy(s) for s in strategies], random.Random(seed), 0)
    game.hands = [list(h) for h in hands]
    game.discard = [top]
    game.colour = colour or top.colour
    game.draw_pile = list(draw_pile)
    game.current = 0
    return game


def conservation_hook(game):
    in_play = sum(len(h) for h in game.hands) + len(game.draw_pile) + len(game.discard) + len(game.mini)
    assert in_play == game.total_cards


def run_checked(options, players, strategies, seed):
    game = ref._new_game(options, players, strategies, seed)
    game.after_turn_hook = conservation_hook
    res = game.run()
    conservation_hook(game)
    hand_sizes = sum(len(h) for h in game.hands)
    dealt = players * game.o["hand_size"]
    # every card in a hand was dealt, drawn or taken from a mini pile, minus plays/additions
    assert hand_sizes == (dealt + res["cards_drawn"] + res["pileup_cards_taken"]
                          - res["cards_played"] - game.pileup_additions)
    assert sum(res["played_by_kind"].values()) == res["cards_played"]
    assert res["hand_points"] == [ref.hand_points(h) for h in game.hands]
    if res["truncated"]:
        assert res["winner"] is None and res["winner_offset"] is None
        assert res["winner_points"] == 0
        assert res["turns"] == game.o["max_turns"]
    else:
        w = res["winner"]
        assert not game.hands[w]
        assert res["winner_offset"] == ((w - res["dealer"]) % players or players)
        assert 1 <= res["winner_offset"] <= players
        assert res["winner_points"] == sum(res["hand_points"]) - res["hand_points"][w]
        assert res["turns"] <= game.o["max_turns"]
    return res


# ---------------------------------------------------------------- decks, presets, errors

def test_deck_compositions():
    classic = ref.build_deck("classic")
    party = ref.build_deck("party")
    assert len(classic) == 108 and len(party) == 224
    assert len(ref.build_deck("party", 2)) == 448
    kinds = Counter(ref.kind_of(c) for c in classic)
    assert kinds == {"number": 76, "skip": 8, "reverse": 8, "draw_two": 8,
                     "wild": 4, "wild_draw_four": 4}
    kinds = Counter(ref.kind_of(c) for c in party)
    assert kinds == {"number": 152, "skip": 16, "reverse": 16, "draw_two": 16,
                     "point_taken": 8, "wild": 4, "wild_draw_four": 4,
                     "wild_pile_up": 4, "wild_drawn_together": 4}
    assert Counter(party)[Card(R, 0)] == 2 and Counter(party)[Card(R, 5)] == 4


def test_points_worked_example():
    # §1 [P]: numbers 2, 4, 7, 9, four 20-point cards and four wilds -> 302
    hand = [Card(R, 2), Card(Y, 4), Card(G, 7), Card(B, 9), Card(R, "skip"),
            Card(Y, "reverse"), Card(G, "draw_two"), Card(B, "point_taken"),
            Card(None, "wild"), Card(None, "wild_draw_four"),
            Card(None, "wild_pile_up"), Card(None, "wild_drawn_together")]
    assert ref.hand_points(hand) == 302


def test_presets():
    assert set(ref.PRESETS) == {"classic", "classic-house", "party"}
    keys = set(ref.PRESETS["party"])
    assert all(set(p) == keys for p in ref.PRESETS.values())
    c, h, p = ref.PRESETS["classic"], ref.PRESETS["classic-house"], ref.PRESETS["party"]
    assert (c["deck"], c["first_card"], c["wd4_legal_when"], c["scoring"]) == (
        "classic", "apply_actions", "no_color_match", "winner_takes")
    assert (h["draw_until_playable"], h["uno_penalty"], h["scoring"], h["wd4_challenge"],
            h["action_symbol_match"], h["first_wild"]) == (True, 4, "penalty", False, False, "reflip")
    assert (p["deck"], p["speed_play"], p["first_card"], p["last_card_draws"]) == (
        "party", True, "reflip_actions", False)


def test_refuses_tables_it_cannot_deal():
    with pytest.raises(ValueError, match="hand_size"):
        ref.play_game(ref.PRESETS["classic"], 16, ["random"] * 16, 1)
    ref.play_game(dict(ref.PRESETS["classic"], deck_copies=2), 16, ["random"] * 16, 1)
    with pytest.raises(ValueError):
        ref.play_game(dict(ref.PRESETS["classic"], hand_size=27), 4, ["random"] * 4, 1)
    ref.play_game(dict(ref.PRESETS["classic"], hand_size=26), 4, ["random"] * 4, 1)
    with pytest.raises(ValueError):
        ref.play_game(ref.PRESETS["party"], 1, ["random"], 1)
    with pytest.raises(ValueError):
        ref.play_game(ref.PRESETS["party"], 3, ["random", "clever", "random"], 1)


# ---------------------------------------------------------------- whole games

@pytest.mark.parametrize("preset", ["classic", "classic-house", "party"])
def test_conservation_and_accounting(preset):
    rng = random.Random(preset)
    for seed in range(300):
        players = rng.choice([2, 3, 4, 5, 6])
        strategies = [rng.choice(["random", "greedy"]) for _ in range(players)]
        res = run_checked(ref.PRESETS[preset], players, strategies, seed)
        assert not res["truncated"]
        if preset != "party":
            assert res["jump_ins"] == res["pileups"] == res["point_taken_draws"] == 0
            assert res["played_by_kind"]["wild_pile_up"] == 0
        assert res["challenges"] == res["uno_penalties"] == res["wrong_jump_ins"] == 0


def test_conservation_under_option_variants():
    rng = random.Random(7)
    variants = [
        dict(speed_play_error_rate=0.3),
        dict(pileup_flipped_wilds="mini_pile", link_shares_pileup=True),
        dict(point_taken_breaks_link_first=False, relink_must_differ=True),
        dict(first_card="ignore_effect"),
        dict(first_card="apply_actions", first_wild="reflip"),
        dict(draw_until_playable=True, wd4_legal_when="always"),
        dict(deck_copies=2, point_taken_cap=1),
        dict(hand_size=20),
        dict(hand_size=26, deck="classic"),  # piles run short, T-5
    ]
    for i, v in enumerate(variants):
        for seed in range(40):
            players = rng.choice([2, 3, 4, 8])
            if v.get("deck") == "classic":
                players = 4
            strategies = [rng.choice(["random", "greedy"]) for _ in range(players)]
            res = run_checked(dict(ref.PRESETS["party"], **v), players, strategies, 1000 * i + seed)
            if v.get("speed_play_error_rate"):
                assert res["wrong_jump_ins"] > 0


def test_many_players():
    for seed in range(10):
        run_checked(ref.PRESETS["party"], 16, ["greedy", "random"] * 8, seed)
        run_checked(dict(ref.PRESETS["classic"], deck_copies=2), 16, ["random"] * 16, seed)


def test_determinism():
    a = ref.play_game(ref.PRESETS["party"], 5, ["random"] * 5, 42)
    b = ref.play_game(ref.PRESETS["party"], 5, ["random"] * 5, 42)
    assert a == b


def test_truncation():
    res = run_checked(dict(ref.PRESETS["classic"], max_turns=3), 4, ["random"] * 4, 5)
    assert res["truncated"] and res["turns"] == 3


def test_dealer_option_and_first_player():
    for seed in range(20):
        res = ref.play_game(dict(ref.PRESETS["party"], dealer=2), 4, ["random"] * 4, seed)
        assert res["dealer"] == 2
    dealers = Counter(ref.play_game(ref.PRESETS["classic"], 3, ["random"] * 3, s)["dealer"]
                      for s in range(300))
    assert set(dealers) == {0, 1, 2}


@pytest.mark.parametrize("preset", ["classic", "classic-house", "party"])
def test_matches_end(preset):
    for seed in range(5):
        m = ref.play_match(ref.PRESETS[preset], 4, ["random", "greedy", "random", "greedy"], seed)
        scores, w = m["scores"], m["match_winner"]
        assert max(scores) >= 500 and m["rounds"] >= 1
        if ref.PRESETS[preset]["scoring"] == "penalty":
            assert scores[w] == min(scores)
        else:
            assert scores[w] == max(scores)
    m = ref.play_match(dict(ref.PRESETS["classic-house"], elimination=True), 4, ["random"] * 4, 3)
    assert sum(s >= 500 for s in m["scores"]) >= 3


# ---------------------------------------------------------------- scripted positions

def test_action_symbol_match():
    hands = [[Card(B, "skip"), Card(B, 3)], [Card(R, 1)]]
    g = scripted_game("classic", ["random"] * 2, hands, Card(R, "skip"))
    assert g.playable(0, Card(B, "skip"))                 # T-1 [official]
    g = scripted_game("classic-house", ["random"] * 2, hands, Card(R, "skip"))
    assert not g.playable(0, Card(B, "skip"))             # T-1 [003]: colour only
    assert not g.playable(0, Card(B, 3))


def test_wd4_legality_rules():
    wd4 = Card(None, "wild_draw_four")
    top = Card(R, 5)

    def legal(rule, hand):
        g = scripted_game("classic", ["random"] * 2, [hand, [Card(R, 1)]], top, wd4_legal_when=rule)
        return g.playable(0, wd4)

    assert legal("no_color_match", [wd4, Card(B, 5)])
    assert not legal("no_color_match", [wd4, Card(R, 9)])
    assert not legal("no_color_or_number_match", [wd4, Card(B, 5)])
    assert legal("no_color_or_number_match", [wd4, Card(B, 6)])
    assert legal("no_color_match", [wd4, Card(None, "wild")])
    assert not legal("no_color_match_incl_wilds", [wd4, Card(None, "wild")])
    assert not legal("no_color_match_incl_wilds", [wd4, wd4])   # two WD4s block each other
    assert legal("no_color_match_incl_wilds", [wd4, Card(B, 1)])
    assert legal("always", [wd4, Card(R, 1)])
    assert not legal("no_color_match_incl_plain_wilds", [wd4, Card(None, "wild")])
    assert legal("no_color_match_incl_plain_wilds", [wd4, wd4])   # a second WD4 does not block
    assert not legal("no_color_match_incl_plain_wilds", [wd4, wd4, Card(R, 2)])


def test_reverse_with_two_players_skips():
    g = scripted_game("classic", ["greedy"] * 2, [[Card(R, "reverse"), Card(R, 1)], [Card(B, 1)] * 3],
                      Card(R, 4))
    g.take_turn(0)
    assert g.current == 0 and g.direction == -1


def test_draw_two_skips_victim():
    g = scripted_game("classic", ["greedy"] * 3,
                      [[Card(R, "draw_two"), Card(R, 1)], [Card(B, 1)], [Card(B, 2)]],
                      Card(R, 4), draw_pile=[Card(G, 1)] * 5)
    g.take_turn(0)
    assert len(g.hands[1]) == 3 and g.current == 2 and g.cards_drawn == 2 and g.turns == 1


def test_draw_when_stuck_and_empty_piles():
    # T-3: no playable card, the drawn card is playable -> played in the same turn
    g = scripted_game("classic", ["random"] * 2, [[Card(B, 1), Card(B, 2)], [Card(B, 3)]],
                      Card(R, 4), draw_pile=[Card(R, 7)])
    g.take_turn(0)
    assert g.top() == Card(R, 7) and g.cards_drawn == 1 and g.cards_played == 1 and g.turns == 1
    # T-5: both piles empty -> the draw takes nothing, the turn ends
    g = scripted_game("classic", ["random"] * 2, [[Card(B, 1)], [Card(B, 3)]], Card(R, 4))
    g.take_turn(0)
    assert g.cards_drawn == 0 and g.current == 1 and g.turns == 1


def test_draw_until_playable():
    g = scripted_game("classic-house", ["random"] * 2, [[Card(B, 1), Card(B, 2)], [Card(B, 3)]],
                      Card(R, 4), draw_pile=[Card(R, 8), Card(G, 1), Card(G, 2)])
    g.take_turn(0)                                        # T-4: draws G2, G1, R8, plays R8
    assert g.cards_drawn == 3 and g.top() == Card(R, 8) and len(g.hands[0]) == 4


def test_greedy_plays_highest_points_and_picks_colour():
    g = scripted_game("classic", ["greedy"] * 2,
                      [[Card(R, 9), Card(R, "skip"), Card(None, "wild"), Card(G, 1), Card(G, 2), Card(G, 3)],
                       [Card(B, 3)]], Card(R, 4))
    g.take_turn(0)
    assert g.top() == Card(None, "wild") and g.colour == G


def test_point_taken_greedy():
    # 3 greedy players: seat 0 plays Point Taken; every player points at the other
    # player with fewest cards
    hands = [[Card(R, "point_taken"), Card(R, 1), Card(R, 2)], [Card(B, 1)], [Card(B, 2)] * 4]
    g = scripted_game("party", ["greedy"] * 3, hands, Card(R, 4), draw_pile=[Card(G, 5)] * 20)
    g.link = (1, 2)
    g.take_turn(0)
    # seat 0 (2 cards left) points at seat 1; seats 1 and 2 point at seat 0 (2 cards) or 1
    assert g.link is None and g.current == 1
    assert g.counts["point_taken_draws"] == 3 and g.counts["link_echo_draws"] == 0
    assert len(g.hands[0]) + len(g.hands[1]) + len(g.hands[2]) == 2 + 1 + 4 + 3


def test_link_echo():
    hands = [[Card(R, "draw_two"), Card(R, 1)], [Card(B, 1)], [Card(B, 2)]]
    g = scripted_game("party", ["greedy"] * 3, hands, Card(R, 4), draw_pile=[Card(G, 5)] * 10)
    g.link = (1, 2)
    g.take_turn(0)
    assert len(g.hands[1]) == 3 and len(g.hands[2]) == 3
    assert g.counts["link_echo_draws"] == 2 and g.cards_drawn == 4


def test_pile_up():
    # seat 0 plays Wild Pile Up; turned-up card is a green 5 (after a flipped wild);
    # seat 1 adds G7, seat 2 adds a wild, seat 0 has no green -> takes the mini pile
    hands = [[Card(None, "wild_pile_up"), Card(B, 1)],
             [Card(G, 7), Card(B, 2)], [Card(None, "wild"), Card(B, 3)]]
    g = scripted_game("party", ["random"] * 3, hands, Card(R, 4), colour=R,
                      draw_pile=[Card(G, 5), Card(None, "wild_drawn_together")],
                      wd4_legal_when="always")
    g.take_turn(0)
    assert g.counts["pileups"] == 1 and g.counts["pileup_cards_taken"] == 3
    assert Counter(g.hands[0]) == Counter([Card(B, 1), Card(G, 5), Card(G, 7), Card(None, "wild")])
    assert g.colour == G and g.current == 1 and g.cards_drawn == 0 and g.turns == 1
    assert g.discard == [Card(R, 4), Card(None, "wild_drawn_together"), Card(None, "wild_pile_up")]


def test_jump_in():
    # greedy seat 2 holds the identical R5 and always jumps in; play goes on after seat 2
    hands = [[Card(R, 5), Card(B, 1)], [Card(B, 2), Card(B, 3)], [Card(R, 5), Card(G, 1)]]
    g = scripted_game("party", ["greedy"] * 3, hands, Card(R, 4))
    g.take_turn(0)
    assert g.counts["jump_ins"] == 1 and g.cards_played == 2 and g.turns == 1
    assert g.current == 0 and g.top() == Card(R, 5)
    # the turn player's own jump-in counts as their turn
    hands = [[Card(R, 5), Card(B, 1)], [Card(R, 5), Card(B, 3)], [Card(G, 1), Card(G, 2)]]
    g = scripted_game("party", ["greedy"] * 3, hands, Card(R, 4))
    g.take_turn(0)
    assert g.counts["jump_ins"] == 1 and g.turns == 2 and g.current == 2


def test_classic_first_card_effects():
    firsts = Counter()
    for seed in range(400):
        g = ref._new_game(dict(ref.PRESETS["classic"], dealer=0), 4, ["random"] * 4, seed)
        g.setup()
        top = g.discard[-1]
        assert len(g.discard) == 1 and top.face != "wild_draw_four"
        expected = {"skip": 2, "reverse": 3, "draw_two": 2}.get(top.face, 1)
        assert g.current == expected
        firsts[ref.kind_of(top)] += 1
    assert firsts["wild_draw_four"] == 0 and firsts["number"] > 200
    for seed in range(200):
        g = ref._new_game(ref.PRESETS["party"], 4, ["random"] * 4, seed)
        g.setup()
        assert isinstance(g.discard[-1].face, int)      # S-2 reflip_actions


def test_uno_forgetting_and_challenges_exist():
    # U-1/U-2 and W-2 machinery with non-default strategy parameters
    forgetful = [ref.Strategy("random", forget_prob=1.0)] * 4
    total = Counter()
    for seed in range(50):
        game = ref.Game(ref.PRESETS["classic"], forgetful, random.Random(seed), 0)
        game.after_turn_hook = conservation_hook
        res = game.run()
        total["uno"] += res["uno_penalties"]
    assert total["uno"] > 0
    challengers = [ref.Strategy("greedy", challenge_prob=1.0)] * 4
    for seed in range(50):
        game = ref.Game(ref.PRESETS["classic"], challengers, random.Random(seed), 0)
        res = game.run()
        total["ch"] += res["challenges"]
        assert res["challenges_won"] == 0          # these strategies never bluff
        assert res["challenges"] <= res["played_by_kind"]["wild_draw_four"]
    assert total["ch"] > 0


# ---------------------------------------------------------------- §10 house rules

D2 = "draw_two"
WD4 = Card(None, "wild_draw_four")
PILE = [Card(G, 5)] * 30


def test_reference_H1_none_is_the_plain_draw_two():
    g = scripted_game("classic", ["greedy"] * 3, [[Card(R, D2), Card(R, 1)], [Card(B, D2), Card(B, 1)], [Card(B, 2)]],
                      Card(R, 4), draw_pile=PILE)
    g.take_turn(0)
    assert len(g.hands[1]) == 4 and g.current == 2 and g.turns == 1
    assert g.counts["stacks"] == g.counts["stack_max"] == g.counts["stack_cards"] == 0


def test_reference_H1_same_face_draw_two_on_draw_two():
    # seat 1 stacks a blue Draw Two (any colour goes, by face); seat 2 cannot, takes 4
    g = scripted_game("classic", ["greedy"] * 3, [[Card(R, D2), Card(R, 1)], [Card(B, D2), Card(B, 1)], [Card(Y, 2)] * 2],
                      Card(R, 4), draw_pile=PILE, stacking="same_face")
    g.take_turn(0)
    assert g.top() == Card(B, D2) and g.colour == B
    assert len(g.hands[2]) == 6 and g.current == 0
    assert g.turns == 2                       # the play and the stack; the take is a lost turn (T-7)
    assert (g.counts["stacks"], g.counts["stack_max"], g.counts["stack_cards"]) == (1, 4, 4)


def test_reference_H1_same_face_no_wd4_on_draw_two():
    g = scripted_game("classic", ["greedy"] * 3, [[Card(R, D2), Card(R, 1)], [WD4, Card(B, 1)], [Card(Y, 2)]],
                      Card(R, 4), draw_pile=PILE, stacking="same_face")
    g.take_turn(0)
    assert len(g.hands[1]) == 4 and g.current == 2 and g.turns == 1
    assert (g.counts["stacks"], g.counts["stack_max"], g.counts["stack_cards"]) == (0, 2, 0)


def test_reference_H1_same_face_wd4_on_wd4():
    g = scripted_game("classic", ["greedy"] * 3, [[WD4, Card(B, 1)], [WD4, Card(B, 2)], [Card(Y, 2)]],
                      Card(R, 4), draw_pile=PILE, stacking="same_face")
    g.take_turn(0)
    assert g.counts["stacks"] == 1 and len(g.hands[2]) == 9 and g.counts["stack_max"] == 8


def test_reference_H1_mixed_wd4_on_draw_two():
    # seat 1 holds only a Wild Draw Four to stack with; it holds red, so W-2 would forbid
    # the card as a play, but stacking is its own permission
    g = scripted_game("classic", ["greedy"] * 3, [[Card(R, D2), Card(R, 1)], [WD4, Card(R, 7), Card(G, 1)], [Card(Y, 2)]],
                      Card(R, 4), draw_pile=PILE, stacking="mixed")
    assert not g.playable(1, WD4)
    g.take_turn(0)
    assert g.top() == WD4 and g.colour in (R, G)            # greedy names a colour it holds
    assert len(g.hands[2]) == 7 and g.current == 0 and g.counts["stack_cards"] == 6


def test_reference_H1_mixed_no_draw_two_on_wd4():
    g = scripted_game("classic", ["greedy"] * 3, [[WD4, Card(B, 1)], [Card(B, D2), Card(B, 2)], [Card(Y, 2)]],
                      Card(R, 4), draw_pile=PILE, stacking="mixed")
    g.take_turn(0)
    assert g.counts["stacks"] == 0 and len(g.hands[1]) == 6 and g.current == 2


def test_reference_H1_plus4_on_plus2_wd4_ends_chain():
    hands = [[Card(R, D2), Card(R, 1)], [WD4, Card(B, 1)], [WD4, Card(Y, D2), Card(Y, 2)]]
    g = scripted_game("classic", ["greedy"] * 3, hands, Card(R, 4), draw_pile=PILE, stacking="plus4_on_plus2")
    g.take_turn(0)
    assert g.counts["stacks"] == 1 and len(g.hands[2]) == 9 and g.current == 0
    assert g.counts["stack_max"] == 6


def test_reference_H1_greedy_keeps_wd4_when_a_draw_two_will_do():
    for seed in range(20):
        hands = [[Card(R, D2), Card(R, 1)], [WD4, Card(G, D2), Card(B, 1)], [Card(Y, 2)]]
        g = scripted_game("classic", ["greedy"] * 3, hands, Card(R, 4), draw_pile=PILE, stacking="mixed", seed=seed)
        g.take_turn(0)
        assert g.top() == Card(G, D2) and WD4 in g.hands[1]


def test_reference_H1_random_takes_or_stacks_uniformly():
    seen = Counter()
    for seed in range(600):
        hands = [[Card(R, D2), Card(R, 1)], [Card(G, D2), Card(B, D2), Card(B, D2), Card(B, 1)], [Card(Y, 2)]]
        g = scripted_game("classic", ["greedy", "random", "random"], hands, Card(R, 4), draw_pile=PILE,
                          stacking="same_face", seed=seed)
        g.take_turn(0)
        seen[g.top() if g.counts["stacks"] else None] += 1
    assert set(seen) == {None, Card(G, D2), Card(B, D2)}
    assert all(150 < n < 250 for n in seen.values()), seen   # 1/3 each: the two blue copies are one choice


def test_reference_H1_challenge_of_a_stacked_bluff():
    # seat 1 stacks a Wild Draw Four while holding the active colour (red): a bluff.
    # seat 2 challenges it and wins: seat 1 draws the whole total 6, seat 2 plays on
    challenger = ref.Strategy("greedy", challenge_prob=1.0)
    hands = [[Card(R, D2), Card(R, 1)], [WD4, Card(R, 7), Card(G, 1)], [Card(Y, 2), Card(Y, 3)]]
    g = ref.Game(dict(ref.PRESETS["classic"], stacking="mixed"),
                 [ref.Strategy("greedy"), ref.Strategy("greedy"), challenger], random.Random(1), 0)
    g.hands, g.discard, g.colour, g.draw_pile, g.current = [list(h) for h in hands], [Card(R, 4)], R, list(PILE), 0
    g.take_turn(0)
    assert g.counts["challenges"] == g.counts["challenges_won"] == 1
    assert len(g.hands[1]) == 2 + 6 and len(g.hands[2]) == 2 and g.current == 2
    assert g.turns == 2 and g.counts["stack_max"] == 6 and g.counts["stack_cards"] == 6


def test_reference_H1_lost_challenge_draws_total_plus_two():
    challenger = ref.Strategy("greedy", challenge_prob=1.0)
    hands = [[Card(R, D2), Card(R, 1)], [WD4, Card(G, 1)], [Card(Y, 2), WD4]]
    g = ref.Game(dict(ref.PRESETS["classic"], stacking="mixed"),
                 [ref.Strategy("greedy"), ref.Strategy("greedy"), challenger], random.Random(1), 0)
    g.hands, g.discard, g.colour, g.draw_pile, g.current = [list(h) for h in hands], [Card(R, 4)], R, list(PILE), 0
    g.take_turn(0)
    # the stacked card was legal (no red left): seat 2 draws 2 + 4 + 2, no stack of its own
    assert g.counts["challenges"] == 1 and g.counts["challenges_won"] == 0
    assert len(g.hands[2]) == 10 and g.current == 0 and g.counts["stacks"] == 1 and g.turns == 2


@pytest.mark.parametrize("last_card_draws", [True, False])
def test_reference_H1_going_out_on_a_stack_ends_the_round(last_card_draws):
    hands = [[Card(R, D2), Card(R, 1)], [Card(B, D2)], [Card(Y, D2), Card(Y, 2)]]
    g = scripted_game("classic", ["greedy"] * 3, hands, Card(R, 4), draw_pile=PILE, stacking="same_face",
                      last_card_draws=last_card_draws)
    g.take_turn(0)
    assert g.over and g.winner == 1
    assert len(g.hands[2]) == (6 if last_card_draws else 2)
    assert g.counts["stack_cards"] == (4 if last_card_draws else 0)


def test_reference_H1_linked_victim_echoes_the_total():
    hands = [[Card(R, D2), Card(R, 1)], [Card(B, D2), Card(B, 1)], [Card(Y, 2)], [Card(Y, 3)]]
    g = scripted_game("party", ["greedy"] * 4, hands, Card(R, 4), draw_pile=PILE, stacking="same_face", speed_play=False)
    g.link = (2, 0)
    g.take_turn(0)
    assert len(g.hands[2]) == 5 and g.counts["link_echo_draws"] == 4 and len(g.hands[0]) == 5


def test_reference_H1_party_actions_are_not_stacking_cards():
    hands = [[Card(R, D2), Card(R, 1)], [Card(R, "point_taken"), Card(None, "wild_pile_up"), Card(B, 1)], [Card(Y, 2)]]
    g = scripted_game("party", ["greedy"] * 3, hands, Card(R, 4), draw_pile=PILE, stacking="mixed", speed_play=False)
    g.take_turn(0)
    assert g.counts["stacks"] == 0 and len(g.hands[1]) == 5 and g.current == 2


def test_reference_H1_start_card_starts_no_chain():
    for seed in range(300):
        g = ref._new_game(dict(ref.PRESETS["classic"], dealer=0, stacking="mixed"), 4, ["greedy"] * 4, seed)
        g.setup()
        if g.discard[-1].face == D2:
            assert len(g.hands[1]) == 9 and g.current == 2 and g.counts["stacks"] == 0
            break
    else:
        raise AssertionError("no Draw Two start card in 300 deals")


def test_reference_H1_nobody_jumps_in_on_a_pending_chain():
    # seat 2 holds the identical red Draw Two but cannot jump in while seat 1's chain is
    # pending; once seat 1 has taken the 2, the window opens and seat 2 jumps in
    hands = [[Card(R, D2), Card(R, 1)], [Card(B, 1)], [Card(R, D2), Card(G, 3)], [Card(Y, 3)]]
    g = scripted_game("classic", ["greedy"] * 4, hands, Card(R, 4), draw_pile=PILE, stacking="same_face",
                      speed_play=True, jump_in_cards="numbers_and_actions")
    g.take_turn(0)
    # seat 1 took 2; seat 2 jumped in (its turn, T-7), seat 3 faces 2: takes (takes are lost turns)
    assert len(g.hands[1]) == 3 and len(g.hands[3]) == 3
    assert g.counts["jump_ins"] == g.counts["action_jump_ins"] == 1
    assert g.turns == 2 and g.current == 0


def test_reference_H2_seven_swaps_with_the_fewest_cards():
    hands = [[Card(R, 7), Card(R, 1), Card(R, 2)], [Card(B, 1)] * 3, [Card(G, 1)], [Card(Y, 1)]]
    g = scripted_game("classic", ["greedy"] * 4, hands, Card(R, 4), seven_zero=True)
    g.take_turn(0)
    # seats 2 and 3 tie with one card: the nearer in the direction of play (2)
    assert g.hands[0] == [Card(G, 1)] and Counter(g.hands[2]) == Counter([Card(R, 1), Card(R, 2)])
    assert g.counts["seven_swaps"] == 1 and g.current == 1
    g = scripted_game("classic", ["greedy"] * 4, hands, Card(R, 4), seven_zero=True)
    g.direction = -1
    g.take_turn(0)
    assert g.hands[0] == [Card(Y, 1)] and g.current == 3


def test_reference_H2_random_swaps_uniformly():
    seen = Counter()
    for seed in range(300):
        hands = [[Card(R, 7), Card(B, 9)], [Card(B, 1)], [Card(G, 1)], [Card(Y, 1)]]
        g = scripted_game("classic", ["random"] * 4, hands, Card(R, 4), seven_zero=True, seed=seed)
        g.take_turn(0)
        seen[g.hands[0][0].colour] += 1
    assert set(seen) == {B, G, Y} and all(70 < n < 130 for n in seen.values())


@pytest.mark.parametrize("direction", [1, -1])
def test_reference_H2_zero_passes_every_hand_on(direction):
    hands = [[Card(R, 0), Card(B, 9)], [Card(B, 1)] * 2, [Card(G, 1)] * 3, [Card(Y, 1)] * 4]
    g = scripted_game("classic", ["greedy"] * 4, hands, Card(R, 4), seven_zero=True)
    g.direction = direction
    g.take_turn(0)
    after = [list(h) for h in hands]
    after[0].remove(Card(R, 0))
    assert [g.hands[(q + direction) % 4] for q in range(4)] == after
    assert g.counts["zero_passes"] == 1 and g.current == direction % 4


def test_reference_H2_last_card_seven_or_zero_ends_the_round():
    for face in (7, 0):
        hands = [[Card(R, face)], [Card(B, 1)] * 2, [Card(G, 1)]]
        g = scripted_game("classic", ["greedy"] * 3, hands, Card(R, 4), seven_zero=True)
        g.take_turn(0)
        assert g.over and g.winner == 0 and g.counts["seven_swaps"] == g.counts["zero_passes"] == 0


def test_reference_H2_jump_in_seven_swaps_for_the_jumper_and_links_stay():
    # seat 0 plays red 7 (swaps with seat 2, the fewest); seat 1 jumps in with the
    # identical red 7 and swaps too, with the player then holding the fewest cards
    hands = [[Card(R, 7), Card(R, 1), Card(R, 2), Card(R, 3)], [Card(R, 7), Card(B, 1), Card(B, 2)],
             [Card(G, 1)], [Card(Y, 1)] * 4]
    g = scripted_game("party", ["greedy"] * 4, hands, Card(R, 4), seven_zero=True)
    g.link = (1, 3)
    g.take_turn(0)
    assert g.counts["seven_swaps"] == 2 and g.counts["jump_ins"] == 1 and g.link == (1, 3)
    # after the first swap seat 0 holds G1 (1 card), seat 2 three reds: seat 1 swaps with seat 0
    assert Counter(g.hands[0]) == Counter([Card(B, 1), Card(B, 2)]) and g.hands[1] == [Card(G, 1)]
    assert g.current == 2 and g.cards_drawn == 0


def test_reference_H3_speed_play_in_classic_presets():
    for preset in ("classic", "classic-house"):
        jumps = 0
        for seed in range(60):
            res = run_checked(dict(ref.PRESETS[preset], speed_play=True), 4, ["greedy", "random"] * 2, seed)
            jumps += res["jump_ins"]
            assert res["action_jump_ins"] == 0
        assert jumps > 0
        jumps = Counter()
        for seed in range(60):
            res = run_checked(dict(ref.PRESETS[preset], speed_play=True, jump_in_cards="numbers_and_actions"),
                              4, ["greedy"] * 4, seed)
            jumps.update(jump_ins=res["jump_ins"], actions=res["action_jump_ins"])
        assert jumps["jump_ins"] > jumps["actions"] > 0


def test_reference_H3_jumped_in_skip_skips_after_the_jumper():
    hands = [[Card(R, "skip"), Card(R, 1)], [Card(B, 1)], [Card(R, "skip"), Card(B, 2)], [Card(Y, 1)], [Card(Y, 2)]]
    g = scripted_game("classic", ["greedy"] * 5, hands, Card(R, 4), speed_play=True, jump_in_cards="numbers_and_actions")
    g.take_turn(0)
    # seat 0's Skip makes seat 2 the turn player; seat 2 jumps in (its turn), skipping seat 3
    assert g.counts["action_jump_ins"] == 1 and g.current == 4 and g.turns == 2


def test_reference_H3_jumped_in_reverse_goes_on_from_the_jumper():
    hands = [[Card(R, "reverse"), Card(R, 1)], [Card(B, 1)], [Card(B, 2)], [Card(R, "reverse"), Card(Y, 1)], [Card(Y, 2)]]
    g = scripted_game("classic", ["greedy"] * 5, hands, Card(R, 4), speed_play=True, jump_in_cards="numbers_and_actions")
    g.take_turn(0)
    # seat 0 reverses (direction -1, seat 4 next); seat 3 jumps in: clockwise again, seat 4 next
    assert g.direction == 1 and g.current == 4 and g.turns == 1 and g.counts["action_jump_ins"] == 1
    # two players: a Reverse is a Skip, so the jumper plays next
    hands = [[Card(R, "reverse"), Card(R, 1)], [Card(R, "reverse"), Card(Y, 1)]]
    g = scripted_game("classic", ["greedy"] * 2, hands, Card(R, 4), speed_play=True, jump_in_cards="numbers_and_actions")
    g.take_turn(0)
    assert g.current == 1 and g.direction == 1


def test_reference_H3_jumped_in_draw_two_and_point_taken():
    hands = [[Card(R, D2), Card(R, 1)], [Card(B, 1)], [Card(R, D2), Card(B, 2)], [Card(Y, 1)]]
    g = scripted_game("classic", ["greedy"] * 4, hands, Card(R, 4), draw_pile=PILE, speed_play=True,
                      jump_in_cards="numbers_and_actions")
    g.take_turn(0)
    # seat 1 draws 2; seat 2, whose turn it is, jumps in (a turn); seat 3 draws 2
    assert len(g.hands[1]) == 3 and len(g.hands[3]) == 3 and g.current == 0 and g.turns == 2
    hands = [[Card(R, "point_taken"), Card(R, 1)], [Card(R, "point_taken"), Card(B, 1), Card(B, 2)], [Card(Y, 1)] * 3]
    g = scripted_game("party", ["greedy"] * 3, hands, Card(R, 4), draw_pile=PILE, jump_in_cards="numbers_and_actions")
    g.take_turn(0)
    assert g.counts["action_jump_ins"] == 1 and g.current == 2 and g.counts["point_taken_draws"] == 6


def test_reference_H3_wilds_and_numbers_only_windows():
    hands = [[Card(None, "wild"), Card(R, 1)], [Card(None, "wild"), Card(B, 1)], [Card(Y, 1)]]
    g = scripted_game("classic", ["greedy"] * 3, hands, Card(R, 4), speed_play=True, jump_in_cards="numbers_and_actions")
    g.take_turn(0)
    assert g.counts["jump_ins"] == 0
    hands = [[Card(R, "skip"), Card(R, 1)], [Card(R, "skip"), Card(B, 1)], [Card(Y, 1)]]
    g = scripted_game("classic", ["greedy"] * 3, hands, Card(R, 4), speed_play=True)
    g.take_turn(0)
    assert g.counts["jump_ins"] == 0 and g.current == 2


def test_reference_H3_actions_need_speed_play():
    with pytest.raises(ValueError, match="jump_in_cards=numbers_and_actions needs speed_play=true"):
        ref.play_game(dict(ref.PRESETS["classic"], jump_in_cards="numbers_and_actions"), 3, ["random"] * 3, 1)
    with pytest.raises(ValueError, match="stacking"):
        ref.play_game(dict(ref.PRESETS["classic"], stacking="mixed",
                           deck={"per_colour": {"1": 9, "skip": 2}, "wild": {"wild": 4}}), 3, ["random"] * 3, 1)
    with pytest.raises(ValueError, match="seven_zero"):
        ref.play_game(dict(ref.PRESETS["classic"], seven_zero=True,
                           deck={"per_colour": {"1": 9, "skip": 2}, "wild": {"wild": 4}}), 3, ["random"] * 3, 1)


def test_reference_H4_a_last_action_card_or_wild_cannot_go():
    for last in (Card(R, "skip"), Card(None, "wild"), WD4):
        g = scripted_game("classic", ["greedy"] * 2, [[last], [Card(B, 1)] * 3], Card(R, 4),
                          draw_pile=[Card(Y, 8)], go_out_on_action=False)
        assert not g.playable(0, last)
        g.take_turn(0)
        assert not g.over and len(g.hands[0]) == 2 and g.counts["blocked_finishes"] == 1 and g.current == 1
    # the card drawn is playable and is then not the last card: it may go
    g = scripted_game("classic", ["greedy"] * 2, [[Card(R, "skip")], [Card(B, 1)] * 3], Card(R, 4),
                      draw_pile=[Card(R, 8)], go_out_on_action=False)
    g.take_turn(0)
    assert g.top() == Card(R, 8) and g.hands[0] == [Card(R, "skip")]
    # with two cards, the action card is allowed; a lone number card goes out
    g = scripted_game("classic", ["greedy"] * 2, [[Card(R, "skip"), Card(R, 1)], [Card(B, 1)] * 3], Card(R, 4),
                      go_out_on_action=False)
    g.take_turn(0)
    assert g.top() == Card(R, "skip") and g.hands[0] == [Card(R, 1)]
    g.take_turn(0)
    assert g.over and g.winner == 0 and g.counts["blocked_finishes"] == 0


def test_reference_H4_a_last_card_that_is_not_playable_is_no_blocked_finish():
    g = scripted_game("classic", ["greedy"] * 2, [[Card(B, "skip")], [Card(B, 1)] * 3], Card(R, 4),
                      draw_pile=[Card(Y, 8)], go_out_on_action=False)
    g.take_turn(0)
    assert g.counts["blocked_finishes"] == 0 and len(g.hands[0]) == 2


def test_reference_H4_no_last_card_jump_in_stack_or_addition():
    hands = [[Card(R, "skip"), Card(R, 1)], [Card(R, "skip")], [Card(Y, 1)]]
    g = scripted_game("classic", ["greedy"] * 3, hands, Card(R, 4), speed_play=True,
                      jump_in_cards="numbers_and_actions", go_out_on_action=False)
    g.take_turn(0)
    assert g.counts["jump_ins"] == 0 and not g.over
    hands = [[Card(R, D2), Card(R, 1)], [Card(B, D2)], [Card(Y, 1)]]
    g = scripted_game("classic", ["greedy"] * 3, hands, Card(R, 4), draw_pile=PILE, stacking="same_face",
                      go_out_on_action=False)
    g.take_turn(0)
    assert g.counts["stacks"] == 0 and len(g.hands[1]) == 3 and g.counts["blocked_finishes"] == 0 and g.turns == 1
    hands = [[Card(None, "wild_pile_up"), Card(B, 1)], [Card(None, "wild")], [Card(B, 3)]]
    g = scripted_game("party", ["greedy"] * 3, hands, Card(R, 4), draw_pile=[Card(G, 5)], go_out_on_action=False)
    g.take_turn(0)
    assert not g.over and Counter(g.hands[1]) == Counter([Card(None, "wild"), Card(G, 5)])


HOUSE_VARIANTS = [
    dict(stacking="same_face"), dict(stacking="mixed"), dict(stacking="plus4_on_plus2"),
    dict(seven_zero=True), dict(speed_play=True, jump_in_cards="numbers_and_actions"),
    dict(go_out_on_action=False),
    dict(stacking="mixed", seven_zero=True, speed_play=True, jump_in_cards="numbers_and_actions", go_out_on_action=False),
]


@pytest.mark.parametrize("preset", ["classic", "classic-house", "party"])
def test_reference_H1_H4_conservation_in_every_preset(preset):
    rng = random.Random(preset + "house")
    totals = Counter()
    for i, v in enumerate(HOUSE_VARIANTS):
        for seed in range(25):
            players = rng.choice([2, 3, 5, 8])
            strategies = [rng.choice(["random", "greedy"]) for _ in range(players)]
            res = run_checked(dict(ref.PRESETS[preset], **v), players, strategies, 100 * i + seed)
            totals.update({k: res[k] for k in ("stacks", "seven_swaps", "zero_passes", "action_jump_ins",
                                                "blocked_finishes")})
            if v.get("stacking", "none") == "none":
                assert res["stacks"] == res["stack_max"] == res["stack_cards"] == 0
            assert res["stack_cards"] <= res["cards_drawn"] and res["action_jump_ins"] <= res["jump_ins"]
    assert all(totals[k] > 0 for k in totals), totals
