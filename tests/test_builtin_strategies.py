"""The idea of each built-in strategy, shown on scripted decisions, and parameter validation.

Decisions are asked of a :class:`ScriptedObs`: the public fields a strategy
reads, set by hand, with uniforms from a seeded generator. Arrays are made
read-only, as the engine's are, so a strategy that writes into them fails here.
"""

from __future__ import annotations

import numpy as np
import pytest
from unosim.strategies.attacker import AttackerStrategy
from unosim.strategies.bluffer import BlufferStrategy
from unosim.strategies.colour_keeper import ColourKeeperStrategy
from unosim.strategies.diversity import DiversityStrategy
from unosim.strategies.random_strategy import RandomStrategy
from unosim.strategies.ranking import DEFAULT_ORDER, RankingStrategy
from unosim.strategies.wild_saver import WildSaverStrategy

from unosim.engine.config import RunConfig
from unosim.game.cards import DRAW_TWO, N_TYPES, SKIP, WILD, WILD_DRAW_FOUR
from unosim.strategy import registry
from unosim.strategy.base import Strategy
from unosim.strategy.parameters import ParameterError

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3


def card(colour: int, face: int) -> int:
    return 14 * colour + face


class ScriptedObs:
    """``rows`` copies of one decision: hand, legal cards, table sizes (all read-only)."""

    def __init__(
        self, hand: list[int], legal: list[int], *, rows: int = 400, sizes: list[int] | None = None, seat: int = 0,
        direction: int = 1, bluffable: bool = False, target: int = -1, drawn: int = -1, discard: list[int] = (),
        seed: int = 0,
    ) -> None:
        players = len(sizes) if sizes else 4
        h = np.zeros((rows, N_TYPES), np.int8)
        for c in hand:
            h[:, c] += 1
        lg = np.zeros((rows, N_TYPES), bool)
        lg[:, legal] = True
        d = np.zeros((rows, N_TYPES), np.int16)
        for c in discard:
            d[:, c] += 1
        self.players = players
        self.hand, self.legal, self.discard = h, lg, d
        self.hand_size = np.full(rows, len(hand), np.int32)
        self.n_legal = (h * lg).sum(axis=1).astype(np.int32)
        self.hand_sizes = np.tile(np.asarray(sizes or [len(hand)] * players, np.int32), (rows, 1))
        self.hand_sizes[:, seat] = len(hand)
        self.alive = np.ones((rows, players), bool)
        self.link_choices = self.alive.copy()
        self.seat = np.full(rows, seat, np.int32)
        self.direction = np.full(rows, direction, np.int32)
        self.bluffable = np.full(rows, bluffable)
        self.target = np.full(rows, target, np.int32)
        self.drawn = np.full(rows, drawn, np.int32)
        for value in vars(self).values():
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
        self._rng = np.random.default_rng(seed)

    def __len__(self) -> int:
        return self.hand.shape[0]

    def random(self, k: int | None = None) -> np.ndarray:
        return self._rng.random(len(self) if k is None else (len(self), k))


def picks(cards: np.ndarray) -> set[int]:
    return set(np.unique(cards).tolist())


# ------------------------------------------------------------------ diversity
def test_diversity_keeps_colours_and_faces_covered() -> None:
    # red 5 is the last red card (playing it uncovers red); yellow 7 leaves yellow and 7 covered
    obs = ScriptedObs([card(RED, 5), card(YELLOW, 5), card(YELLOW, 7), card(BLUE, 7)], [card(RED, 5), card(YELLOW, 7)])
    assert picks(DiversityStrategy().play(obs)) == {card(YELLOW, 7)}
    # a wild covers everything: kept while a coloured card is legal, even one that uncovers a colour
    obs = ScriptedObs([card(RED, 1), WILD, card(BLUE, 2)], [card(RED, 1), WILD])
    assert picks(DiversityStrategy().play(obs)) == {card(RED, 1)}
    obs = ScriptedObs([WILD, card(BLUE, 2)], [WILD])
    assert picks(DiversityStrategy().play(obs)) == {WILD}


# ------------------------------------------------------------------ ranking
def test_ranking_follows_its_order() -> None:
    hand = [card(RED, 9), card(RED, SKIP), card(RED, DRAW_TWO), WILD]
    obs = ScriptedObs(hand, hand)
    assert picks(RankingStrategy().play(obs)) == {card(RED, DRAW_TWO)}  # default: Draw Two first
    assert picks(RankingStrategy(order=("number", "skip")).play(obs)) == {card(RED, 9)}
    assert picks(RankingStrategy(order=("wild", "skip")).play(obs)) == {WILD}
    # kinds not listed come after the listed ones, by points: Draw Two (20) over the 9
    obs = ScriptedObs([card(RED, 9), card(RED, DRAW_TWO)], [card(RED, 9), card(RED, DRAW_TWO)])
    assert picks(RankingStrategy(order=("skip",)).play(obs)) == {card(RED, DRAW_TWO)}


@pytest.mark.parametrize("order", [(), ("number", "number"), ("joker",), "number", ("number", 3)])
def test_ranking_refuses_a_bad_order(order) -> None:
    with pytest.raises(ParameterError, match=r"strategy 'ranking': order=.* is not allowed; use a tuple of distinct names"):
        RankingStrategy(order=order)


# ------------------------------------------------------------------ wild-saver
def test_wild_saver_holds_wilds_while_many_other_cards_are_held() -> None:
    hand = [WILD, card(RED, 1), card(RED, 2), card(BLUE, 3), card(GREEN, 4), card(YELLOW, 5)]
    obs = ScriptedObs(hand, [WILD, card(RED, 1), card(RED, 2)])
    assert picks(WildSaverStrategy(k=2).play(obs)) == {card(RED, 2)}
    random_wilds = np.mean(RandomStrategy().play(obs) == WILD)  # 1 in 3 legal physical cards
    assert abs(random_wilds - 1 / 3) < 4 * np.sqrt(2 / 9 / len(obs))  # 4 SE, seed 0
    # at most k non-wild cards left: the wild (50 points) goes first
    obs = ScriptedObs([WILD, card(RED, 1), card(RED, 2)], [WILD, card(RED, 1), card(RED, 2)])
    assert picks(WildSaverStrategy(k=2).play(obs)) == {WILD}
    assert picks(WildSaverStrategy(k=1).play(obs)) == {card(RED, 2)}
    obs = ScriptedObs(hand, [WILD])  # nothing else playable
    assert picks(WildSaverStrategy(k=0).play(obs)) == {WILD}


@pytest.mark.parametrize("k", [-1, 109, 2.5, True, "2"])
def test_wild_saver_refuses_a_bad_k(k) -> None:
    with pytest.raises(ParameterError) as info:
        WildSaverStrategy(k=k)
    assert str(info.value) == f"strategy 'wild-saver': k={k!r} is not allowed; use a whole number from 0 to 108."


# ------------------------------------------------------------------ colour-keeper
def test_colour_keeper_plays_and_names_the_colour_held_most() -> None:
    hand = [card(RED, 9), card(BLUE, 1), card(BLUE, 4), card(BLUE, 6), WILD]
    obs = ScriptedObs(hand, [card(RED, 9), card(BLUE, 1), WILD])
    strat = ColourKeeperStrategy()
    assert picks(strat.play(obs)) == {card(BLUE, 1)}
    assert picks(strat.choose_colour(obs, np.full(len(obs), WILD))) == {BLUE}


# ------------------------------------------------------------------ attacker
def test_attacker_attacks_the_next_player_only_when_close_to_winning() -> None:
    hand = [card(RED, 9), card(RED, DRAW_TWO), card(RED, SKIP)]
    strat = AttackerStrategy(threat=2)
    close = ScriptedObs(hand, hand, sizes=[3, 2, 7, 7])  # seat 1 plays next
    assert picks(strat.play(close)) == {card(RED, DRAW_TWO)}
    calm = ScriptedObs(hand, hand, sizes=[3, 5, 1, 7])  # seat 2 is close, but not next
    assert picks(strat.play(calm)) == {card(RED, 9)}
    turned = ScriptedObs(hand, hand, sizes=[3, 5, 7, 1], direction=-1)  # counter-clockwise: seat 3 is next
    assert picks(strat.play(turned)) == {card(RED, DRAW_TWO)}


def test_attacker_points_at_and_links_the_leaders() -> None:
    obs = ScriptedObs([card(RED, 1)] * 4, [], sizes=[4, 6, 2, 3, 9], seat=0)
    strat = AttackerStrategy()
    assert picks(strat.point_at(obs)) == {2}
    pairs = strat.choose_link(obs)
    assert {tuple(sorted(p)) for p in pairs.tolist()} == {(2, 3)}
    two = ScriptedObs([card(RED, 1)] * 4, [], sizes=[4, 6], seat=0)
    assert {tuple(sorted(p)) for p in strat.choose_link(two).tolist()} == {(0, 1)}


# ------------------------------------------------------------------ bluffer
def test_bluffer_bluffs_against_a_player_about_to_win() -> None:
    hand = [WILD_DRAW_FOUR, card(RED, 9), card(BLUE, 2)]
    strat = BlufferStrategy(bluff_at=2)
    close = ScriptedObs(hand, [card(RED, 9)], sizes=[3, 1, 7, 7], bluffable=True)
    assert picks(strat.play(close)) == {WILD_DRAW_FOUR}
    far = ScriptedObs(hand, [card(RED, 9)], sizes=[3, 5, 7, 7], bluffable=True)
    assert picks(strat.play(far)) == {card(RED, 9)}
    assert picks(BlufferStrategy(bluff_at=0).play(close)) == {card(RED, 9)}


def test_bluffer_challenges_big_hands_and_counts_the_cards_seen() -> None:
    strat = BlufferStrategy()
    many = ScriptedObs([card(RED, 1)] * 5, [], sizes=[5, 12, 5, 5], target=1)
    few = ScriptedObs([card(RED, 1)] * 5, [], sizes=[5, 1, 5, 5], target=1)
    assert strat.challenge(many).all() and not strat.challenge(few).any()
    # every card of three colours already seen on the discard pile: only one colour can be held
    seen = [card(c, f) for c in (RED, YELLOW, GREEN) for f in range(13) for _ in range(2 if f else 1)]
    fresh = ScriptedObs([card(BLUE, 1)] * 5, [], sizes=[5, 4, 5, 5], target=1)
    told = ScriptedObs([card(BLUE, 1)] * 5, [], sizes=[5, 4, 5, 5], target=1, discard=seen)
    assert strat.bluff_chance(told)[0] < strat.bluff_chance(fresh)[0]


def test_bluffer_plays_a_drawn_bluff_only_against_a_close_player() -> None:
    strat = BlufferStrategy(bluff_at=2)
    close = ScriptedObs([card(RED, 9), WILD_DRAW_FOUR], [], sizes=[2, 1, 7], bluffable=True, drawn=WILD_DRAW_FOUR)
    far = ScriptedObs([card(RED, 9), WILD_DRAW_FOUR], [], sizes=[2, 6, 7], bluffable=True, drawn=WILD_DRAW_FOUR)
    assert strat.play_drawn(close).all() and not strat.play_drawn(far).any()


# ------------------------------------------------------------------ parameters
@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("wild-saver(k=-1)", "strategy 'wild-saver': k=-1 is not allowed; use a whole number from 0 to 108."),
        ("bluffer(suspicion=1.5)", "strategy 'bluffer': suspicion=1.5 is not allowed; use a number from 0 to 1."),
        ("attacker(threat=0)", "strategy 'attacker': threat=0 is not allowed; use a whole number from 1 to 108."),
        ("random(draw_rate=2)", "strategy 'random': draw_rate=2 is not allowed; use a number from 0 to 1."),
        ("greedy(forget_uno_rate=-0.1)", "strategy 'greedy': forget_uno_rate=-0.1 is not allowed; use a number from 0 to 1."),
    ],
)
def test_bad_parameter_values_are_refused_before_any_game(spec: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        RunConfig.build(players=3, strategies=spec)
    assert str(info.value) == message


def test_a_user_strategy_declares_its_parameters_once() -> None:
    class Cautious(Strategy):
        parameter_constraints = {"margin": (int, 0, 10), "bold": (bool,)}

        def __init__(self, *, margin: int = 1, bold: bool = False, forget_uno_rate: float = 0.0) -> None:
            self.margin = margin  # stored before super().__init__: still checked
            self.bold = bold
            super().__init__(forget_uno_rate=forget_uno_rate)

    assert Cautious(margin=3).get_params() == {"margin": 3, "bold": False, "forget_uno_rate": 0.0}
    with pytest.raises(ParameterError, match=r"strategy 'Cautious': margin=11 is not allowed; use a whole number from 0 to 10\."):
        Cautious(margin=11)
    with pytest.raises(ParameterError, match=r"bold=1 is not allowed; use True or False\."):
        Cautious(bold=1)
    with pytest.raises(ParameterError, match=r"forget_uno_rate=2 is not allowed"):
        Cautious(forget_uno_rate=2)


@pytest.mark.parametrize("name", sorted(registry.REGISTRY))
def test_every_builtin_declares_every_parameter(name: str) -> None:
    cls = registry.resolve(name)
    declared: dict = {}
    for klass in reversed(cls.__mro__):
        declared.update(getattr(klass, "parameter_constraints", None) or {})
    assert set(cls.param_names()) <= set(declared)
    assert cls.__doc__ and "Parameters" in cls.__doc__ and "Decisions" in cls.__doc__ or name in ("random", "greedy")


def test_default_ranking_order_names_every_kind_once() -> None:
    from unosim.game.cards import KIND_NAMES

    assert sorted(DEFAULT_ORDER) == sorted(KIND_NAMES)
