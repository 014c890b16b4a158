"""Deck compositions, kind by kind, against the tables of the rule book (docs/rules.md §1).

The tables are written out here by hand, not read through the deck loader
under test. Two checks: the loaded composition, card type by card type, and
the cards the engine actually deals — nearly the whole deck is dealt
(15 × 7 = 105 of 108 classic cards, 16 × 13 = 208 of 224 party cards), so over
30 deals every card type must reach its count and never exceed it.
"""

from __future__ import annotations

import numpy as np
import pytest

from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine
from unosim.game.cards import load_deck

COLOURS = ("red", "yellow", "green", "blue")
FACES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "reverse", "draw_two", "point_taken")
WILDS = ("wild", "wild_draw_four", "wild_pile_up", "wild_drawn_together")

# docs/rules.md §1: copies per colour of each coloured kind, copies in all of each wild kind
TABLES = {
    "classic": {
        "per_colour": {"0": 1, **{str(n): 2 for n in range(1, 10)}, "skip": 2, "reverse": 2, "draw_two": 2, "point_taken": 0},
        "wild": {"wild": 4, "wild_draw_four": 4, "wild_pile_up": 0, "wild_drawn_together": 0},
        "total": 108,
    },
    "party": {
        "per_colour": {"0": 2, **{str(n): 4 for n in range(1, 10)}, "skip": 4, "reverse": 4, "draw_two": 4, "point_taken": 2},
        "wild": {"wild": 4, "wild_draw_four": 4, "wild_pile_up": 4, "wild_drawn_together": 4},
        "total": 224,
    },
}


def expected_counts(deck: str) -> dict[int, int]:
    """Card type id -> copies, by the encoding of unosim.game.cards: 14 * colour + face, wilds 56-59."""
    table = TABLES[deck]
    counts = {14 * c + f: table["per_colour"][face] for c in range(4) for f, face in enumerate(FACES)}
    counts.update({56 + i: table["wild"][kind] for i, kind in enumerate(WILDS)})
    assert sum(counts.values()) == table["total"]
    return counts


@pytest.mark.parametrize("deck", ["classic", "party"])
def test_loaded_deck_has_every_kind_of_the_rule_book(deck: str) -> None:
    loaded = load_deck(deck).counts
    expected = expected_counts(deck)
    wrong = {t: (loaded[t], n) for t, n in expected.items() if loaded[t] != n}
    assert not wrong, f"{deck} deck: card type -> (loaded, rule book) {wrong}"
    assert len(loaded) == 60 and sum(loaded) == TABLES[deck]["total"]


@pytest.mark.parametrize(("preset", "players", "hand_size"), [("classic", 15, 7), ("party", 16, 13)])
def test_the_engine_deals_the_rule_book_deck(preset: str, players: int, hand_size: int) -> None:
    config = RunConfig.build(rules=preset, players=players, seed=21, overrides=[f"hand_size={hand_size}", "max_turns=1"])
    played = Engine(config, trace=True).play(0, 30)
    expected = np.zeros(60, int)
    for t, n in expected_counts(config.rules.deck).items():
        expected[t] = n
    dealt = np.zeros((30, 60), int)
    for g in range(30):
        cards = played.opening[g].ravel()
        dealt[g] = np.bincount(cards[cards >= 0].astype(int), minlength=60)
        assert dealt[g].sum() == players * hand_size
    over = np.flatnonzero((dealt > expected).any(axis=0))
    assert not len(over), f"types dealt more often than the deck holds: {over.tolist()}"
    short = np.flatnonzero(dealt.max(axis=0) != expected)
    assert not len(short), f"types never dealt in full over 30 deals: {short.tolist()} (expected {expected[short].tolist()})"
