"""Rounds played through the environments with random masked actions pass the referee.

Every finished round's event log, opening hands, record and hand points are re-played by the
referee (tests/referee.py, written from the rule book, not from the engine): the actions the
environments turn into decisions are legal plays, in the right turn order, with the right draws.
"""

from __future__ import annotations

import numpy as np
import pytest
from referee import check_game

from unosim.env.multi import UnoAECEnv
from unosim.env.parallel import UnoParallelEnv
from unosim.env.seats import SeatedGame
from unosim.env.single import UnoEnv
from unosim.game.kernels import layout as L
from unosim.game.rules import RuleSet

TABLES = [("classic", 2), ("classic", 4), ("party", 3), ("party", 6), ("classic", 16), ("party", 16)]


def _overrides(players: int) -> list[str] | None:
    return ["deck_copies=2"] if players == 16 else None


def _referee(game: SeatedGame) -> None:
    events, opening, rec, points = game.played()
    assert len(events), "no events traced"
    check_game(game.config.rules, game.players, events, opening, rec, points)
    # and the log is the round's: with one card played changed, the referee objects
    changed = events.copy()
    first_play = int(np.flatnonzero(changed[:, 1] == L.EV_PLAY)[0])
    changed[first_play, 3] = (changed[first_play, 3] + 1) % 56
    with pytest.raises(AssertionError):
        check_game(game.config.rules, game.players, changed, opening, rec, points)


def _rounds(players: int) -> int:
    return 4 if players == 16 else 12


@pytest.mark.parametrize("rules, players", TABLES)
def test_aec_rounds_pass_the_referee(rules: str, players: int) -> None:
    env = UnoAECEnv(rules, players, overrides=_overrides(players), trace=True)
    rng = np.random.default_rng(players)
    for seed in range(_rounds(players)):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        _referee(env.game)


@pytest.mark.parametrize("rules, players", TABLES)
def test_gym_rounds_pass_the_referee(rules: str, players: int) -> None:
    # classic against compiled random; party against random and greedy, every other seat
    others = "random" if rules == "classic" else [("random", "greedy")[k % 2] for k in range(players - 1)]
    env = UnoEnv(rules, players, others, seat=1, overrides=_overrides(players))
    env.game = SeatedGame(rules, players, [1], others, _overrides(players), trace=True)  # the same seats, traced
    rng = np.random.default_rng(players)
    for seed in range(_rounds(players)):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        _referee(env.game)


@pytest.mark.parametrize("rules, players", [("classic", 3), ("party", 4), ("party", 16)])
def test_parallel_rounds_pass_the_referee(rules: str, players: int) -> None:
    env = UnoParallelEnv(rules, players, overrides=_overrides(players), trace=True)
    rng = np.random.default_rng(players)
    for seed in range(_rounds(players)):
        observations, _ = env.reset(seed=seed)
        while env.agents:
            observations, *_ = env.step({a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in env.agents})
        _referee(env.game)


HOUSE = ["seven_zero=true", "speed_play=true", "jump_in_cards=numbers_and_actions", "go_out_on_action=false"]
"""Every house rule but stacking, whose value each test chooses."""


@pytest.mark.parametrize("stacking, players", [("same_face", 2), ("mixed", 4), ("plus4_on_plus2", 3)])
def test_env_rounds_with_every_house_rule_pass_the_referee(stacking: str, players: int) -> None:
    rules = RuleSet.preset("classic").with_overrides([f"stacking={stacking}", *HOUSE])
    rng = np.random.default_rng(players)
    aec = UnoAECEnv(rules, players, trace=True)
    par = UnoParallelEnv(rules, players, trace=True)
    gym = UnoEnv(rules, players, "random", seat=1)
    gym.game = SeatedGame(rules, players, [1], "random", trace=True)
    stacks = swaps = 0
    for seed in range(10):
        aec.reset(seed=seed)
        for _agent in aec.agent_iter():
            obs, _, term, trunc, _ = aec.last()
            aec.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        observations, _ = par.reset(seed=seed)
        while par.agents:
            observations, *_ = par.step({a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in par.agents})
        obs, _ = gym.reset(seed=seed)
        done = False
        while not done:
            obs, _, done, _, _ = gym.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        for game in (aec.game, par.game, gym.game):
            _referee(game)
            rec = game.played()[2]
            stacks += int(rec[L.R_STACKS])
            swaps += int(rec[L.R_SEVEN_SWAPS])
    assert stacks > 0 and swaps > 0  # the house decisions were played through the actions
