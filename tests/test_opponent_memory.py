"""tunable's memory of what the 2-player opponent lacks (strategies/opponent_memory.py, the lack_* parameters)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
from unosim.strategies import tunable
from unosim.strategies.opponent_memory import UNKNOWN, WILDS

import unosim
from unosim.engine.position import Position, play_from
from unosim.game.cards import COLOUR_NAMES

MEMORY = {"lack_colour": 3.0, "lack_face": 1.0, "lack_wild": 1.0, "lack_name": 2.0, "lack_forget": 2.0}
"""Parameters that switch the memory on (and use every part of it)."""


def _lacks(strategy: tunable.TunableStrategy, game: int = 0, seat: int = 0) -> tuple[set[str], set[int]]:
    """The colours and faces ``strategy`` (at ``seat`` of ``game``) holds its opponent to lack."""
    memory = strategy.__dict__["_cache_memory"]
    i = memory.index[game * 16 + seat]
    colours = {COLOUR_NAMES[c] for c in np.flatnonzero(memory.lack_colour[i] != UNKNOWN)}
    return colours, set(np.flatnonzero(memory.lack_face[i] != UNKNOWN).tolist())


@pytest.mark.parametrize(("opponent", "colours", "faces"), [
    # the opponent draws a green 9 and cannot play it on the red 5: it holds no red, no 5, no wild (face 14)
    ([("draw",), ("draw",)], {"red"}, {5, WILDS}),
    # it draws a red 9 and plays it: the hand it kept (the one before the draw) held no red, no 5, no wild
    ([("draw",), ("play_drawn", True), ("draw",)], {"red"}, {5, WILDS}),
    # it plays its red 6 from its hand: nothing is learnt
    ([("play", "red 6"), ("draw",)], set(), set()),
], ids=["draw-no-play", "draw-and-play", "play"])
def test_inference_on_a_scripted_game(opponent, colours, faces):
    """Seat 0 (tunable, memory on) must play its red 5 on the red 2; seat 1 answers as scripted (as random
    would: it draws only when it holds nothing legal); then seat 0, with no legal card, draws."""
    drawn = "red 9" if ("play_drawn", True) in opponent else "green 9"
    theirs = ["yellow 1", "yellow 2", "green 7", "red 6" if ("play", "red 6") in opponent else "green 8"]
    strategy = tunable.TunableStrategy(**MEMORY)
    after = play_from(Position(hands=[["red 5", "blue 3", "blue 4"], theirs], top="red 2", turn=0, draw=[drawn] * 10),
                      rules="classic", script=opponent, seats={0: strategy}, overrides={"wd4_challenge": False})
    assert "red 5" not in after.hands[0] and after.top != "red 2"
    assert _lacks(strategy) == (colours, faces)


def test_knowledge_ages_and_is_forgotten():
    """Seat 0 plays its red 5 on the yellow 5 (its only legal card); the opponent draws and cannot play (it lacks
    red and 5); seat 0 then plays its red Draw Two: the opponent takes 2 cards, so the lack is 2 cards old,
    forgotten under lack_forget 1, kept under lack_forget 2."""
    strategy = tunable.TunableStrategy(**MEMORY)
    play_from(Position(hands=[["red 5", "red draw two", "blue 3"], ["yellow 1", "yellow 2", "green 7"]],
                       top="yellow 5", turn=0, draw=["green 9"] * 10),
              rules="classic", script=[("draw",), ("draw",)], seats={0: strategy}, overrides={"wd4_challenge": False})
    memory = strategy.__dict__["_cache_memory"]
    i = memory.index[0]
    assert memory.lack_colour[i].tolist() == [2, UNKNOWN, UNKNOWN, UNKNOWN]
    assert np.flatnonzero(memory.lack_face[i] >= 0).tolist() == [5, WILDS] and memory.lack_face[i, 5] == 2
    assert not memory.known(np.array([i]), 1.0)[0].any()
    assert memory.known(np.array([i]), 2.0)[0][0].tolist() == [True, False, False, False]


def test_inference_is_never_wrong_against_random():
    """Peeking at the engine's hands: a lack just learnt (no card taken since: a colour, a face or the wilds)
    always holds (500 games, seed 4)."""
    from unosim.engine import decisions
    from unosim.engine.config import RunConfig
    from unosim.engine.driver import Engine
    from unosim.game.cards import CARD_COLOUR, CARD_FACE, N_COLOURED, N_TYPES
    from unosim.strategy import registry
    from unosim.strategy.spec import StrategySpec

    seen: dict[str, int] = {"claims": 0, "wrong": 0}
    BY_COLOUR = np.zeros((N_TYPES, 4), np.int64)  # noqa: N806
    BY_COLOUR[np.arange(N_COLOURED), CARD_COLOUR[:N_COLOURED]] = 1
    BY_FACE = np.zeros((N_TYPES, WILDS + 1), np.int64)  # noqa: N806
    BY_FACE[np.arange(N_COLOURED), CARD_FACE[:N_COLOURED]] = 1
    BY_FACE[N_COLOURED:, WILDS] = 1
    observe = decisions.Rows.observe

    class Spy(tunable.TunableStrategy):
        def play(self, obs):
            cards = super().play(obs)
            memory = self.__dict__["_cache_memory"]
            i = memory.rows(obs, create=False)
            hands = rows.current._b.hands[rows.current.slots, 1 - obs.seat].astype(np.int64)
            for lacks, held in ((memory.lack_colour[i], hands @ BY_COLOUR), (memory.lack_face[i], hands @ BY_FACE)):
                fresh = lacks == 0
                seen["claims"] += int(fresh.sum())
                seen["wrong"] += int((fresh & (held > 0)).sum())
            return cards

    class rows:  # noqa: N801 - the group of rows being observed
        current = None

    def spying(self, shown):
        rows.current = self
        return observe(self, shown)

    rules = unosim.RuleSet.preset("classic").replace(wd4_legal_when="always", wd4_challenge=False)
    config = RunConfig(rules=rules, players=2, strategies=(StrategySpec("random"),) * 2, seed=4, games=1)
    engine = Engine(config, batch_size=64)
    engine.set_strategies([Spy(**MEMORY), registry.make("random")], ["spy", "random"], [0, 1])
    decisions.Rows.observe = spying
    try:
        engine.play(0, 500)
    finally:
        decisions.Rows.observe = observe
    assert seen["claims"] > 5000 and seen["wrong"] == 0, seen


def test_table_inference_is_never_wrong_against_random():
    """Peeking at the engine's hands at 6 players: the cards `TableLackMemory` deals without the lacks (``kept``)
    never outnumber the cards of a seat that are not of a lacked type (40 games, seed 4, ``search`` with
    ``lacks=30`` at one seat, five ``random``)."""
    from unosim.strategies.search import SearchStrategy

    from unosim.engine import decisions
    from unosim.engine.config import RunConfig
    from unosim.engine.driver import Engine
    from unosim.strategy import registry
    from unosim.strategy.spec import StrategySpec

    seen: dict[str, int] = {"seats": 0, "wrong": 0}
    observe = decisions.Rows.observe

    class Spy(SearchStrategy):
        def _observe(self, obs):
            entries = super()._observe(obs)
            assert self._constraint is not None
            lacks, kept = self._constraint
            hands = rows.current._b.hands[rows.current.slots].astype(np.int64)
            lacked = (hands * (lacks > 0)).sum(axis=2)
            seen["seats"] += int((kept > 0).sum())
            seen["wrong"] += int(((kept > 0) & (lacked > hands.sum(axis=2) - kept)).sum())
            return entries

    class rows:  # noqa: N801 - the group of rows being observed
        current = None

    def spying(self, shown):
        rows.current = self
        return observe(self, shown)

    rules = unosim.RuleSet.preset("classic").replace(wd4_legal_when="always", wd4_challenge=False)
    config = RunConfig(rules=rules, players=6, strategies=(StrategySpec("random"),) * 6, seed=4, games=1)
    engine = Engine(config, batch_size=16)
    engine.set_strategies([Spy(playouts=8, others="random", lacks=30), registry.make("random")], ["spy", "random"],
                          [0, 1, 1, 1, 1, 1])
    decisions.Rows.observe = spying
    try:
        engine.play(0, 40)
    finally:
        decisions.Rows.observe = observe
    assert seen["seats"] > 50 and seen["wrong"] == 0, seen


def _digest(df) -> str:
    return hashlib.sha256(df[["winner", "turns", "cards_drawn"]].to_numpy().tobytes()).hexdigest()[:16]


BEFORE = Path(__file__).with_name("data") / "tuned_classic_2_before_memory.json"
"""strategies/tuned/classic-2.json as shipped before the memory (commit a3243ea)."""
PARTY_BEFORE = Path(__file__).with_name("data") / "tuned_party_6_first_search.json"
"""strategies/tuned/party-6.json as shipped before coverage and jump_feed (the first party search, commit cba6990)."""


@pytest.mark.parametrize(("rules", "players", "strategies", "digest"), [
    ("classic", 2, f"tuned:{BEFORE},random", "70042b0885896a74"),
    ("party", 4, f"tunable,tuned:{PARTY_BEFORE},random,greedy", "34273e6b985802db"),
    ("classic", 2, "tunable,greedy", "cede50117b201648"),
], ids=["tuned-classic-2-before", "party", "tunable"])
def test_defaults_play_the_old_games(rules, players, strategies, digest):
    """At the lack_* (and coverage, jump_feed) defaults nothing changes: the games (winner, turns and cards drawn
    of 300 games, seed 7) are those played by the commit before the memory (a3243ea), tuned files of then included."""
    df = unosim.simulate(rules=rules, players=players, games=300, strategies=strategies, seed=7)
    assert _digest(df) == digest
    assert not tunable.TunableStrategy().remembers


def test_memory_is_reproducible_across_batches_and_reuse():
    """With the memory on: the same games whatever the batch size, and a strategy object played twice on the
    same game indices plays the same games (stale entries are not trusted)."""
    from unosim.engine.config import RunConfig
    from unosim.engine.driver import Engine
    from unosim.strategy import registry
    from unosim.strategy.spec import StrategySpec

    rules = unosim.RuleSet.preset("classic").replace(wd4_legal_when="always", wd4_challenge=False)
    config = RunConfig(rules=rules, players=2, strategies=(StrategySpec("random"),) * 2, seed=9, games=1)
    strategy = tunable.TunableStrategy(**MEMORY)
    winners = []
    for batch in (400, 37, 400):
        engine = Engine(config, batch_size=batch)
        engine.set_strategies([strategy, registry.make("random")], ["memory", "random"], [0, 1])
        winners.append(engine.play(0, 400).rec[:400].copy())
    assert (winners[0] == winners[1]).all() and (winners[0] == winners[2]).all()
    fresh = Engine(config, batch_size=400)
    fresh.set_strategies([tunable.TunableStrategy(**MEMORY), registry.make("random")], ["memory", "random"], [0, 1])
    assert (fresh.play(0, 400).rec[:400] == winners[0]).all()


def test_memory_parameters_only_at_two_players():
    """The 2-player parameters are searched at 2 players only: what the first party search searched is what a party
    search searches now, but for the 3 parameters added since (coverage, jump_feed, pile_coverage)."""
    party = tunable.load_tuned(PARTY_BEFORE)
    added = {"coverage", "jump_feed", "pile_coverage"}
    now = tunable.relevant(unosim.RuleSet.preset("party"), 6)
    assert party["tuned"]["searched"] == [name for name in now if name not in added] and added <= set(now)
    assert "lack_colour" in tunable.relevant(unosim.RuleSet.preset("classic"), 2)
    assert not any(name.startswith("lack_") for name in tunable.relevant(unosim.RuleSet.preset("classic"), 3))
    assert not tunable.TunableStrategy(lack_colour=1.0).plays_legal_drawn_card  # it must see the drawn card played


def test_block_chance_is_hypergeometric():
    """The chance that the opponent holds no answer (`block_chances` and the posterior share it) is the
    hypergeometric P(0 of `legal` among `held` of `pool`)."""
    from scipy.stats import hypergeom
    from unosim.strategies.hand_groups import _none_of

    for pool, legal, held in ((80, 20, 7), (80, 0, 7), (30, 25, 6), (10, 10, 1), (12, 3, 9), (5, 0, 0)):
        assert _none_of(pool, legal, held) == pytest.approx(hypergeom.pmf(0, pool, legal, held), rel=1e-9, abs=1e-15)
