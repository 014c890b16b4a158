"""Module-level tables shared by every strategy of a process cannot be written."""

from __future__ import annotations

import numpy as np
import pytest

from unosim.game import cards
from unosim.strategy import primitives, rule_strategy

TABLES = [
    (cards, "CARD_COLOUR"), (cards, "CARD_FACE"), (cards, "CARD_POINTS"), (cards, "CARD_KIND"), (cards, "IS_NUMBER"),
    (cards, "IS_WILD"), (primitives, "CARD_SCORE_POINTS"), (primitives, "_COLOUR"), (primitives, "_POINTS"),
    (rule_strategy, "_COLOUR"), (rule_strategy, "_FACE"), (rule_strategy, "_POINTS"), (rule_strategy, "_COLOURED"),
]


@pytest.mark.parametrize(("module", "name"), TABLES, ids=[f"{m.__name__}.{n}" for m, n in TABLES])
def test_writing_a_shared_table_raises(module, name: str) -> None:
    table = getattr(module, name)
    before = table.copy()
    with pytest.raises(ValueError, match="read-only"):
        table[0] = 7
    assert np.array_equal(table, before)


def test_primitives_take_the_read_only_score_table() -> None:
    hand = np.zeros((3, cards.N_TYPES), np.int8)
    hand[:, [0, cards.WILD]] = 1
    legal = hand > 0
    u = np.full(3, 0.5)
    assert (primitives.sample_best(hand, legal, primitives.CARD_SCORE_POINTS, u) == cards.WILD).all()
    assert (primitives.sample_best_of(hand, legal, primitives.CARD_SCORE_POINTS, None, u) == cards.WILD).all()
    assert primitives.colour_counts(hand)[:, 0].tolist() == [1, 1, 1]
