"""The posterior over the 2-player opponent's hand (strategies/hand_groups.py, tunable's block_posterior)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import hypergeom
from unosim.strategies import tunable
from unosim.strategies.hand_groups import GROUPS, PLAY_TILT, advance, answer_chances, forget

import unosim
from unosim.game.cards import CARD_COLOUR, CARD_FACE, N_COLOURED, N_TYPES, WILD, card_name, load_deck

CLASSIC = np.asarray(load_deck("classic").counts, np.int64)
TYPE = {card_name(t): t for t in range(N_TYPES)}


def _answers(top: str) -> np.ndarray:
    """The card types that may be played on ``top`` (a coloured card), wilds included."""
    t = TYPE[top]
    return np.array([u >= N_COLOURED or CARD_COLOUR[u] == CARD_COLOUR[t] or CARD_FACE[u] == CARD_FACE[t]
                     for u in range(N_TYPES)])


class Entry:
    """One game's groups, moved by :func:`advance` one interval (between two of this seat's turns) at a time."""

    def __init__(self, held: int) -> None:
        self.size = np.zeros((1, GROUPS), np.int16)
        self.weight = np.ones((1, GROUPS, N_TYPES))
        self.idx = np.zeros(1, np.int64)
        self.rows = np.zeros(1, np.int64)
        forget(self.size, self.weight, self.idx, self.rows, np.array([held]))

    def step(self, pool, played=(), took=0, turn=True, top="red 5", final=None) -> bool:
        """The interval: ``played`` cards, ``took`` cards taken, on the table ``top`` (its colour); True if
        reconstructed."""
        counts = np.zeros((1, N_TYPES), np.int64)
        for card in played:
            counts[0, TYPE[card]] += 1
        held = int(self.size.sum()) - len(played) + took
        colour = int(CARD_COLOUR[TYPE[top]])
        failed = advance(self.size, self.weight, self.idx, self.rows, pool[None], counts, np.array([held]),
                         np.array([took]), np.array([turn]), np.array([TYPE[top]]), np.array([colour]),
                         np.array([colour if final is None else final]), PLAY_TILT)
        return not failed[0]

    def groups(self) -> list[tuple[int, frozenset[int]]]:
        """(cards, excluded types: weight 0) of each group, largest first."""
        return sorted(((int(self.size[0, g]), frozenset(np.flatnonzero(self.weight[0, g] == 0).tolist()))
                       for g in range(GROUPS) if self.size[0, g] > 0), key=lambda x: -x[0])


def _none(pool: np.ndarray, excluded: np.ndarray, answers: np.ndarray, held: int) -> float:
    """Hypergeometric chance that ``held`` cards drawn from ``pool`` without ``excluded`` hold none of ``answers``."""
    allowed = np.where(excluded, 0, pool)
    return float(hypergeom.pmf(0, allowed.sum(), allowed[answers].sum(), held))


def test_a_draw_excludes_the_answers_of_the_table_from_every_card_held():
    """The opponent (7 cards) draws on a red 5 and keeps the card: all 8 cards exclude red, fives and wilds
    (one group); after a card of this seat's Draw Two (2 unconstrained cards) the chance that it cannot
    answer a green 2 is the product of the two groups' hypergeometric chances."""
    pool = CLASSIC.copy()
    entry = Entry(7)
    assert entry.step(pool, took=1, top="red 5")
    red_5 = _answers("red 5")
    assert entry.groups() == [(8, frozenset(np.flatnonzero(red_5).tolist()))]
    assert entry.step(pool, took=2, turn=False, top="red draw two")
    assert entry.groups() == [(8, frozenset(np.flatnonzero(red_5).tolist())), (2, frozenset())]
    coloured, named = answer_chances(entry.size, entry.weight, entry.idx, pool[None])
    green_2 = _answers("green 2")
    expected = _none(pool, red_5, green_2, 8) * _none(pool, np.zeros(N_TYPES, bool), green_2, 2)
    assert coloured[0, TYPE["green 2"]] == pytest.approx(expected, rel=1e-12)
    # a wild naming red: nothing in the old group answers it, so only the 2 fresh cards matter
    red = (CARD_COLOUR == 0) | (np.arange(N_TYPES) >= N_COLOURED)
    assert named[0, 0] == pytest.approx(_none(pool, np.zeros(N_TYPES, bool), red, 2), rel=1e-12)
    red_9 = _answers("red 9")  # the old group may answer it with another 9
    expected = _none(pool, red_5, red_9, 8) * _none(pool, np.zeros(N_TYPES, bool), red_9, 2)
    assert coloured[0, TYPE["red 9"]] == pytest.approx(expected, rel=1e-12)


def test_a_card_played_leaves_the_group_that_may_hold_it_and_a_drawn_card_played_teaches_a_lack():
    """After a lack of red, fives and wilds (8 cards), this seat's Draw Two adds 2 fresh cards; a red 7 played
    from the hand can only come from them. Then, on a blue 4, the opponent plays a blue Skip, a green Skip and a
    green 9 and took one card: it drew the blue Skip (its hand answered nothing on the blue 4) and played the
    green cards from the old group (the likelier: the green cards are a larger share of what it may hold)."""
    pool = CLASSIC.copy()
    entry = Entry(7)
    entry.step(pool, took=1, top="red 5")
    entry.step(pool, took=2, turn=False, top="red draw two")
    assert entry.step(pool, played=["red 7"], top="red draw two")
    red_5 = frozenset(np.flatnonzero(_answers("red 5")).tolist())
    assert entry.groups() == [(8, red_5), (1, frozenset())]
    assert entry.step(pool, played=["blue skip", "green skip", "green 9"], took=1, top="blue 4")
    blue_4 = frozenset(np.flatnonzero(_answers("blue 4")).tolist())
    assert entry.groups() == [(6, red_5 | blue_4), (1, blue_4)]
    # the hand played from its hand on the red Draw Two, the blue Skip and the green Skip: their answers tilted
    old = entry.weight[0, np.argmax(entry.size[0])]
    assert old[TYPE["yellow draw two"]] == pytest.approx(PLAY_TILT)  # answers the red Draw Two only
    assert old[TYPE["green 3"]] == pytest.approx(PLAY_TILT)  # the green Skip
    assert old[TYPE["yellow skip"]] == pytest.approx(PLAY_TILT ** 2)  # both Skips
    assert old[TYPE["yellow 3"]] == 1.0


def test_a_turn_that_cannot_be_reconstructed_is_reported():
    """Two cards that end a turn cannot both have been played in one turn of the opponent."""
    entry = Entry(7)
    assert not entry.step(CLASSIC.copy(), played=["red 7", "red 8"], top="red 5")


def test_groups_merge_and_stay_within_capacity():
    """Many draws on tables of different colours: never more than GROUPS - 1 groups, cards conserved."""
    pool = CLASSIC * 2
    entry = Entry(7)
    tops = ["red 5", "yellow 6", "green 7", "blue 8", "red 9", "yellow 1", "green 2", "blue 3", "red 4", "yellow 0"]
    for top in tops:
        entry.step(pool, took=2, turn=False, top=top)
        assert entry.step(pool, took=1, top=top)
    assert len(entry.groups()) <= GROUPS - 1
    assert sum(size for size, _ in entry.groups()) == 7 + 3 * len(tops)
    assert TYPE["wild"] == WILD and all(WILD in out for _, out in entry.groups())


def test_the_opponents_opening_move_is_replayed():
    """The opponent moves first, draws on the red 2 and keeps the green 9 (3 cards dealt to each seat): at
    this seat's first turn its 4 cards form one group excluding the answers to the red 2 (a red, a 2, a wild)."""
    from unosim.engine.position import Position, play_from

    strategy = tunable.TunableStrategy(block_number=1.0, block_posterior=1.0)
    play_from(Position(hands=[["red 5", "blue 3", "blue 4"], ["yellow 1", "yellow 2", "green 7"]], top="red 2", turn=1,
                       draw=["green 9"] * 10),
              rules="classic", script=[("draw",), ("draw",)], seats={0: strategy}, overrides={"wd4_challenge": False})
    memory = strategy.__dict__["_cache_memory"]  # as of this seat's only turn (the second draw: the opponent's next)
    i = memory.index[0]
    assert memory.group_size[i].tolist() == [4] + [0] * (GROUPS - 1)
    assert set(np.flatnonzero(memory.group_weight[i, 0] == 0).tolist()) == set(np.flatnonzero(_answers("red 2")).tolist())
    assert (memory.group_weight[i, 0][~_answers("red 2")] == 1.0).all()


def test_posterior_is_calibrated_against_the_true_hands():
    """Peeking at the engine's hands (300 games, seed 4, against random, memory as tuned-classic-2): at each
    decision, for each number card held and legal, the predicted chance that the opponent cannot answer it
    against the truth. The posterior's Brier score beats the hypergeometric over the lacks by at least 0.005
    (measured: 0.128 against 0.146 over 2,000 games), and its mean prediction is within 0.02 of the observed
    rate (about 10,000 pairs; 4 SE of the rate is about 0.02 with the clustering by game)."""
    from unosim.engine import decisions
    from unosim.engine.config import RunConfig
    from unosim.engine.driver import Engine
    from unosim.strategy import registry
    from unosim.strategy.spec import StrategySpec

    answers = np.zeros((N_COLOURED, N_TYPES), bool)
    for t in range(N_COLOURED):
        answers[t] = (np.arange(N_TYPES) >= N_COLOURED) | (CARD_COLOUR == CARD_COLOUR[t]) | (CARD_FACE == CARD_FACE[t])
    numbers = (CARD_FACE[:N_COLOURED] < 10)
    log: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    observe = decisions.Rows.observe

    class rows:  # noqa: N801 - the group of rows being observed
        current = None

    def spying(self, shown):
        rows.current = self
        return observe(self, shown)

    tuned = registry.make("tuned-classic-2")

    class Spy(type(tuned)):
        def play(self, obs):
            cards = super().play(obs)
            memory = self.__dict__["_cache_memory"]
            entries = memory.rows(obs, create=False)
            hands = rows.current._b.hands[rows.current.slots, 1 - obs.seat].astype(np.int64)
            truth = (hands @ answers.T) == 0
            lack_colour, lack_face = memory.known(entries, self.lack_forget)
            old, _ = tunable.block_chances(obs, 1 - obs.seat, lack_colour, lack_face, memory.taken(entries))
            new, _ = memory.answers(obs, entries)
            candidates = obs.legal[:, :N_COLOURED] & (obs.hand[:, :N_COLOURED] > 0) & numbers
            log.append((old[candidates], new[candidates], truth[candidates]))
            return cards

    rules = unosim.RuleSet.preset("classic").replace(wd4_legal_when="always", wd4_challenge=False)
    config = RunConfig(rules=rules, players=2, strategies=(StrategySpec("random"),) * 2, seed=4, games=1)
    engine = Engine(config, batch_size=100)
    engine.set_strategies([Spy(block_posterior=1.0), registry.make("random")], ["spy", "random"], [0, 1])
    decisions.Rows.observe = spying
    try:
        engine.play(0, 300)
    finally:
        decisions.Rows.observe = observe
    old, new, truth = (np.concatenate(parts) for parts in zip(*log, strict=True))
    truth = truth.astype(np.float64)
    assert len(truth) > 5000
    brier_old, brier_new = np.mean((old - truth) ** 2), np.mean((new - truth) ** 2)
    assert brier_new < brier_old - 0.005, (brier_new, brier_old)
    assert abs(new.mean() - truth.mean()) < 0.02, (new.mean(), truth.mean())


def test_default_parameters_keep_no_posterior():
    """block_posterior 0 (the default) keeps no groups; any value above keeps them (2 players)."""
    assert tunable.TunableStrategy().block_posterior == 0.0
    assert "block_posterior" in tunable.relevant(unosim.RuleSet.preset("classic"), 2)
    assert "block_posterior" not in tunable.relevant(unosim.RuleSet.preset("classic"), 3)


def test_posterior_games_do_not_depend_on_batching_or_reuse():
    """With the posterior on (tuned-classic-2): the same 300 games (seed 9) whatever the batch size, and a
    strategy object played twice on the same game indices plays the same games."""
    from unosim.engine.config import RunConfig
    from unosim.engine.driver import Engine
    from unosim.strategy import registry
    from unosim.strategy.spec import StrategySpec

    rules = unosim.RuleSet.preset("classic").replace(wd4_legal_when="always", wd4_challenge=False)
    config = RunConfig(rules=rules, players=2, strategies=(StrategySpec("random"),) * 2, seed=9, games=1)
    strategy = registry.make("tuned-classic-2")
    assert strategy.block_posterior > 0
    records = []
    for batch in (300, 41, 300):
        engine = Engine(config, batch_size=batch)
        engine.set_strategies([strategy, registry.make("random")], ["posterior", "random"], [0, 1])
        records.append(engine.play(0, 300).rec[:300].copy())
    assert (records[0] == records[1]).all() and (records[0] == records[2]).all()
