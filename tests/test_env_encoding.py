"""The learning environments' encodings and the game core: spaces, masks, hidden information."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from unosim.env import encoding as E
from unosim.env.seats import SeatedGame
from unosim.game.cards import N_TYPES, WILD_DRAW_FOUR
from unosim.game.kernels import layout as L


@pytest.mark.parametrize("players", [2, 4, 16])
def test_every_action_has_one_name(players: int) -> None:
    spaces = E.Spaces(players, 108)
    names = [spaces.action_name(a) for a in range(spaces.n_actions)]
    assert len(set(names)) == spaces.n_actions
    assert not any(n.startswith("not an action") for n in names)
    assert spaces.action_name(spaces.n_actions).startswith("not an action")
    assert len(spaces.pairs) == players * (players - 1) // 2


@pytest.mark.parametrize("players", [2, 16])
def test_observation_blocks_tile_the_vector(players: int) -> None:
    spaces = E.Spaces(players, 112)
    at = 0
    for block in spaces.blocks.values():
        assert block.start == at
        at = block.stop
    assert at == spaces.obs_size == spaces.high.shape[0]
    assert spaces.high[spaces.blocks["hand"]].min() == 112


def test_importing_unosim_does_not_import_gymnasium() -> None:
    code = "import sys, unosim; print('gymnasium' in sys.modules, 'pettingzoo' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]


@pytest.mark.parametrize("rules, players", [("classic", 2), ("party", 4)])
def test_random_masked_actions_finish_every_game(rules: str, players: int) -> None:
    game = SeatedGame(rules, players, list(range(players)), [])
    rng = np.random.default_rng(0)
    kinds: set[str] = set()
    for g in range(20):
        game.new_game(5, g)
        while not game.over:
            step = game.queue[0]
            kinds.add(step.kind)
            obs = game.observe(step.seat, step)
            assert obs.shape == (game.spaces.obs_size,)
            assert (obs >= 0).all() and (obs <= game.spaces.high).all()
            assert obs[game.spaces.blocks["kind"]].sum() == 1
            game.answer(int(rng.choice(np.flatnonzero(step.mask))))
        assert game.outcome is not None
        assert game.outcome.truncated or 0 <= game.outcome.winner < players
    assert {"play", "drawn", "colour"} <= kinds
    if rules == "party":
        assert {"vote", "jumpin", "pileup"} <= kinds


def test_an_observation_holds_no_other_hand_and_no_draw_pile() -> None:
    game = SeatedGame("classic", 3, [0], "random")
    game.new_game(2, 0)
    step = game.queue[0]
    before = game.observe(0, step)
    b = game.run.buffers
    # move one card of seat 1 into the draw pile and another out: same hand size, different cards
    held = int(np.flatnonzero(b.hands[0, 1])[0])
    other = int(next(t for t in np.flatnonzero(b.piles[0, L.DRAW]) if t != held))
    b.hands[0, 1, held] -= 1
    b.hands[0, 1, other] += 1
    b.piles[0, L.DRAW, other] -= 1
    b.piles[0, L.DRAW, held] += 1
    assert np.array_equal(game.observe(0, step), before)
    b.hands[0, 0, other] += 1  # own hand is seen
    assert not np.array_equal(game.observe(0, step), before)


def test_play_mask_matches_the_engine_row() -> None:
    game = SeatedGame("classic", 2, [0, 1], [])
    game.new_game(3, 0)
    step = game.queue[0]
    assert step.kind == "play"
    not_wd4 = np.arange(N_TYPES) != WILD_DRAW_FOUR  # a Wild Draw Four may also be legal as a bluff
    b = game.run.buffers
    legal = b.row_legal[game.run.parity, 0]  # the engine's own row of the decision
    assert np.array_equal(step.mask[:N_TYPES].astype(bool)[not_wd4], legal[not_wd4])
    assert step.mask[E.DRAW] == 1
    assert step.mask[N_TYPES + 1 :].sum() == 0
