"""The PettingZoo AEC environment: the API test, out-of-turn agents, rewards, refused actions."""

from __future__ import annotations

import numpy as np
import pytest
from env_tables import RULES, overrides_of, rules_of
from pettingzoo.test import api_test

from unosim.env import encoding as E
from unosim.env.multi import UnoAECEnv
from unosim.env.single import IllegalAction


# A Dict observation (vector and action mask) is PettingZoo's own convention for masked actions,
# which its API test nonetheless warns about.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("players", [2, 4, 16])
def test_api_test_passes(rules: str, players: int) -> None:
    env = UnoAECEnv(rules_of(rules), players, overrides=overrides_of(players))
    api_test(env, num_cycles=1000)
    assert env.possible_agents == [f"player_{s}" for s in range(players)]


def _round(env: UnoAECEnv, seed: int, rng: np.random.Generator) -> tuple[list[tuple[str, str]], dict[str, float]]:
    env.reset(seed=seed)
    asked, totals = [], {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        asked.append((agent, info["decision"]))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return asked, totals


def test_agents_follow_out_of_turn_decisions() -> None:
    env = UnoAECEnv("party", 4)
    rng = np.random.default_rng(0)
    kinds = set()
    for seed in range(10):
        asked, totals = _round(env, seed, rng)
        kinds |= {kind for _, kind in asked}
        assert sorted(totals.values()) in ([-1.0, -1.0, -1.0, 1.0], [0.0] * 4)
    assert {"vote", "jumpin", "pileup", "catch"} <= kinds
    # every seat votes on a Point Taken: the votes of one decision are asked of consecutive agents
    env.reset(seed=0)
    seen = []
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        seen.append((agent, info["decision"]))
        mask = obs["action_mask"]
        assert mask.sum() >= 1
        others = [a for a in env.agents if a != agent]
        assert all(env.observe(a)["action_mask"].sum() == 0 for a in others)
        env.step(int(rng.choice(np.flatnonzero(mask))))
    votes = [a for a, kind in seen if kind == "vote"]
    assert len(set(votes)) > 1


def test_an_illegal_action_names_the_agent_and_the_decision() -> None:
    env = UnoAECEnv("classic", 2)
    env.reset(seed=4)
    agent = env.agent_selection
    obs = env.observe(agent)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction, match=rf"{agent}: action .* at decision 'play'; legal actions: .*\(draw\)"):
        env.step(illegal)
    with pytest.raises(TypeError, match="not None"):
        env.step(None)
    env.step(E.DRAW)  # still playable after the refusals


def test_a_finished_round_refuses_a_step() -> None:
    env = UnoAECEnv("classic", 2)
    _round(env, 1, np.random.default_rng(0))
    assert env.agents == []
    with pytest.raises(RuntimeError, match="reset"):
        env.step(E.DRAW)


def test_penalty_ends_the_round_for_the_offender_only() -> None:
    env = UnoAECEnv("classic", 3, illegal="penalty", penalty=-4.0)
    env.reset(seed=2)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[agent] == -4.0
    assert sum(env._cumulative_rewards.values()) == -4.0
