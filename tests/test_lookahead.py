"""The search at decision time (strategies/lookahead.py, tunable's look_* parameters)."""

from __future__ import annotations

import numpy as np
import pytest
from unosim.strategies import lookahead, tunable
from unosim.strategies.random_strategy import RandomStrategy

import unosim
from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine
from unosim.game.cards import CARD_COLOUR, N_TYPES, card_name, load_deck
from unosim.strategy import registry
from unosim.strategy.spec import StrategySpec

CLASSIC = np.asarray(load_deck("classic").counts, np.int64)
TYPE = {card_name(t): t for t in range(N_TYPES)}
SEARCH = {"look_rollouts": 4.0, "look_depth": 6.0, "block_posterior": 1.0}


class Recorder(RandomStrategy):
    """``random``, keeping every turn observation it is shown."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[unosim.Observation] = []

    def play(self, obs):
        self.seen.append(obs)
        return super().play(obs)


def _engine(rules: unosim.RuleSet, strategies: list, games: int = 1, batch: int | None = None, seed: int = 3) -> Engine:
    config = RunConfig(rules=rules, players=2, strategies=(StrategySpec("random"),) * 2, seed=seed, games=games)
    engine = Engine(config, batch_size=batch)
    engine.set_strategies(strategies, [f"s{i}" for i in range(len(strategies))], list(range(len(strategies))))
    return engine


@pytest.mark.parametrize("options", [
    {"wd4_legal_when": "always", "wd4_challenge": False},
    {"wd4_legal_when": "no_color_match", "wd4_challenge": False},
    {"wd4_legal_when": "no_color_match_incl_wilds", "wd4_challenge": False},
    {"wd4_legal_when": "no_color_or_number_match", "wd4_challenge": False, "action_symbol_match": False},
], ids=["always", "no_color_match", "incl_wilds", "colour_or_number_no_symbols"])
def test_T1_W2_playout_legality_is_the_engines(options):
    """T-1, W-2: the playouts' legality (lookahead._legal under lookahead.model) agrees with the engine's legal
    cards on every held card type of 2,000 games' turn observations (seed 3)."""
    rules = unosim.RuleSet.preset("classic").replace(**options)
    recorder = Recorder()
    _engine(rules, [recorder, registry.make("random")]).play(0, 2000)
    rule = lookahead.model(rules, 2, CLASSIC)
    checked = 0
    for obs in recorder.seen:
        assert obs.rules == rules
        for r in range(len(obs)):
            hand = obs.hand[r].astype(np.int64)
            for t in np.flatnonzero(hand):
                assert lookahead._legal(t, int(obs.top[r]), int(obs.colour[r]), hand[None], 0, rule) == obs.legal[r, t]
                checked += 1
    assert checked > 50_000


def test_model_only_where_the_playouts_follow_the_rules():
    """The search runs only under 2-player rules with classic cards, no speed play, one card drawn per turn."""
    classic = unosim.RuleSet.preset("classic")
    assert lookahead.model(classic, 2, CLASSIC).tolist() == [1, 1, 1]
    assert lookahead.model(classic, 3, CLASSIC) is None
    assert lookahead.model(unosim.RuleSet.preset("classic-house"), 2, CLASSIC) is None  # draws until playable
    party = unosim.RuleSet.preset("party")
    assert lookahead.model(party, 2, np.asarray(party.load_deck().counts)) is None
    assert lookahead.model(classic.replace(speed_play=True), 2, CLASSIC) is None


def _row(hand: list[str], top: str, unseen_from: np.ndarray, held: int):
    """Arguments of best_moves for one row: ``hand`` on ``top``, the opponent holding ``held`` cards."""
    own = np.zeros((1, N_TYPES), np.int8)
    for card in hand:
        own[0, TYPE[card]] += 1
    discard = np.zeros((1, N_TYPES), np.int16)
    discard[0, TYPE[top]] = 1
    unseen = np.maximum(unseen_from[None] - own - discard, 0).astype(np.int64)
    legal = (own > 0) & np.array([lookahead._legal(t, TYPE[top], int(CARD_COLOUR[TYPE[top]]), own.astype(np.int64), 0,
                                                     np.array([0, 1, 1])) for t in range(N_TYPES)])[None]
    return own, legal, unseen, discard, np.array([TYPE[top]]), np.array([int(CARD_COLOUR[TYPE[top]])]), np.array([held])


def test_search_keeps_the_colour_the_opponent_cannot_answer():
    """The opponent holds one card, known to be blue (the posterior's one group weighs blue cards only): on a red
    3, the search plays the red 5 (the opponent draws) and not the blue 5 (the opponent would go out)."""
    own, legal, unseen, discard, top, colour, held = _row(["red 5", "blue 5", "yellow 9", "green 1"], "red 3", CLASSIC, 1)
    size = np.zeros((1, 8), np.int16)
    size[0, 0] = 1
    weight = np.zeros((1, 8, N_TYPES))
    weight[0, 0, CARD_COLOUR == 3] = 1.0
    for seed in range(5):
        cards, colours = lookahead.best_moves(own, legal, unseen, discard, top, colour, held, size, weight,
                                              np.zeros(1, np.int64), np.array([seed], np.uint64), np.full(1, -1),
                                              np.array([0, 1, 1]), 20, 12, np.array(lookahead.VALUE_DEFAULTS),
                                              np.array(lookahead.POLICY_DEFAULTS))
        assert card_name(int(cards[0])) == "red 5" and colours[0] == -1


def test_search_names_the_colour_the_opponent_lacks():
    """Asked the colour of a Wild played with red and green cards left, the opponent holding two cards known to
    be green: the search names red."""
    own, legal, unseen, discard, top, colour, held = _row(["wild", "red 2", "red 7", "green 4"], "blue 3", CLASSIC, 2)
    size = np.zeros((1, 8), np.int16)
    size[0, 0] = 2
    weight = np.zeros((1, 8, N_TYPES))
    weight[0, 0, CARD_COLOUR == 2] = 1.0
    cards, colours = lookahead.best_moves(own, legal, unseen, discard, top, colour, held, size, weight,
                                          np.zeros(1, np.int64), np.array([1], np.uint64), np.array([TYPE["wild"]]),
                                          np.array([0, 1, 1]), 30, 12, np.array(lookahead.VALUE_DEFAULTS),
                                          np.array(lookahead.POLICY_DEFAULTS))
    assert cards[0] == TYPE["wild"] and colours[0] == 0


def test_search_is_reproducible_across_batches_and_reuse():
    """With the search on: the same games whatever the batch size, and for a reused strategy object."""
    rules = unosim.RuleSet.preset("classic").replace(wd4_legal_when="always", wd4_challenge=False)
    strategy = tunable.TunableStrategy(**SEARCH)
    records = [_engine(rules, [strategy, registry.make("random")], batch=batch, seed=11).play(0, 300).rec[:300].copy()
               for batch in (300, 41, 300)]
    assert (records[0] == records[1]).all() and (records[0] == records[2]).all()
    fresh = _engine(rules, [tunable.TunableStrategy(**SEARCH), registry.make("random")], batch=300, seed=11)
    assert (fresh.play(0, 300).rec[:300] == records[0]).all()


def test_search_changes_the_play_and_only_where_it_may():
    """The search changes the games at 2 players under classic rules; at 3 players (no model) the same
    parameters play exactly the games of the strategy without the search. Never searched by `unosim tune`."""
    on = "tunable(look_rollouts=4.0,look_depth=6.0,block_posterior=1.0)"
    off = "tunable(block_posterior=1.0)"
    two = [unosim.simulate(rules="classic", players=2, games=300, strategies=f"{s},random", seed=5) for s in (on, off)]
    assert not two[0]["winner"].equals(two[1]["winner"])
    three = [unosim.simulate(rules="classic", players=3, games=300, strategies=f"{s},random,greedy", seed=5) for s in (on, off)]
    assert three[0][["winner", "turns", "cards_drawn"]].equals(three[1][["winner", "turns", "cards_drawn"]])
    assert not any(name.startswith("look_") for name in tunable.relevant(unosim.RuleSet.preset("classic"), 2))
