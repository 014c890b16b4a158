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
