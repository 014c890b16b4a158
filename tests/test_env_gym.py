"""The Gymnasium environment: the API checker, seeds, rewards, refused actions, opponents of every kind."""

from __future__ import annotations

import numpy as np
import pytest
from env_tables import RULES, overrides_of, rules_of
from gymnasium.utils.env_checker import check_env
from unosim.strategies.random_strategy import RandomStrategy

from unosim.env import encoding as E
from unosim.env.single import IllegalAction, UnoEnv
from unosim.strategy.base import Strategy


def _sensible(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A random legal card when there is one; play a drawn card, call UNO; else a random legal action."""
    for a in (E.PLAY_DRAWN, E.CALL_UNO):
        if mask[a]:
            return a
    legal = np.flatnonzero(mask)
    cards = legal[legal < E.DRAW]
    return int(rng.choice(cards if len(cards) else legal))


def _play(env: UnoEnv, seed: int, rng: np.random.Generator, sensible: bool = False) -> tuple[list[int], float, dict]:
    obs, info = env.reset(seed=seed)
    actions, reward, done = [], 0.0, False
    while not done:
        a = _sensible(obs["action_mask"], rng) if sensible else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(a)
        obs, reward, done, truncated, info = env.step(a)
        assert not truncated
    return actions, float(reward), info


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("players", [2, 4, 16])
def test_check_env_passes(rules: str, players: int) -> None:
    # check_env steps an action sampled before it resets the environment, so with a mask that depends on
    # the deal it steps illegal actions: it checks the environment that ends the round on them
    env = UnoEnv(rules_of(rules), players, "random", illegal="penalty", overrides=overrides_of(players))
    check_env(env, skip_render_check=True)


@pytest.mark.parametrize("rules, players", [("classic", 4), ("party", 4)])
def test_a_seed_replays_the_same_round(rules: str, players: int) -> None:
    env = UnoEnv(rules, players, "random")
    first = _play(env, 7, np.random.default_rng(1))
    again = _play(env, 7, np.random.default_rng(1))
    assert first[0] == again[0] and first[1] == again[1]
    other = _play(env, 8, np.random.default_rng(1))
    assert other[0] != first[0]


def test_rewards_follow_the_winner() -> None:
    env = UnoEnv("classic", 3, "greedy", rewards=(2.0, 0.5, -3.0))
    rng = np.random.default_rng(0)
    seen = set()
    for seed in range(40):
        _, reward, info = _play(env, seed, rng, sensible=True)
        expected = 0.5 if info["no_winner"] else 2.0 if info["winner"] == 0 else -3.0
        assert reward == expected
        seen.add(reward)
    assert {2.0, -3.0} <= seen


def test_a_sensible_learner_beats_random_masked_actions() -> None:
    env = UnoEnv("classic", 2, "random")
    wins = [sum(_play(env, s, np.random.default_rng(s), sensible=k)[1] > 0 for s in range(100)) for k in (False, True)]
    assert wins[1] > wins[0] + 20  # the learner's actions are what the engine plays


def test_points_reward_is_the_round_score() -> None:
    env = UnoEnv("classic", 2, "random", reward="points")
    rng = np.random.default_rng(0)
    signs = set()
    for seed in range(20):
        _, reward, info = _play(env, seed, rng, sensible=True)
        assert (reward > 0) == (info["winner"] == 0) or reward == 0
        signs.add(np.sign(reward))
    assert {1.0, -1.0} <= signs


def test_an_illegal_action_is_refused_with_the_decision_and_the_legal_actions() -> None:
    env = UnoEnv("classic", 2, "random")
    obs, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction, match=r"not legal at decision 'play'; legal actions: .*60 \(draw\)"):
        env.step(illegal)
    with pytest.raises(TypeError, match="one whole number"):
        env.step(np.array([1, 2]))
    with pytest.raises(IllegalAction, match="not an action"):
        env.step(10_000)
    # the refused actions changed nothing: the legal action still plays
    obs2, *_ = env.step(E.DRAW)
    assert obs2["observation"].shape == obs["observation"].shape


def test_a_finished_round_refuses_another_step() -> None:
    env = UnoEnv("classic", 2, "random")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(E.DRAW)
    _play(env, 1, np.random.default_rng(0))
    with pytest.raises(RuntimeError, match="round is over"):
        env.step(E.DRAW)


def test_penalty_option_ends_the_round() -> None:
    env = UnoEnv("classic", 2, "random", illegal="penalty", penalty=-5.0)
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and reward == -5.0 and info["illegal"]


def test_sample_without_a_mask_is_legal() -> None:
    env = UnoEnv("party", 4, "random")
    obs, _ = env.reset(seed=0)
    for _ in range(200):
        a = env.action_space.sample()
        assert obs["action_mask"][a] == 1
        obs, _, done, _, _ = env.step(a)
        if done:
            obs, _ = env.reset()


class _Counting(RandomStrategy):
    """A user class: asked through Python."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def play(self, obs):  # type: ignore[no-untyped-def]
        self.calls += len(obs)
        return super().play(obs)


@pytest.mark.parametrize("opponents", ["greedy", "rules:attacker", "random,greedy,rules:holder"])
def test_built_in_and_rule_file_opponents_play(opponents: str) -> None:
    env = UnoEnv("party", 4, opponents.split(",") if "," in opponents else opponents)
    rewards = [_play(env, s, np.random.default_rng(s), sensible=True)[1] for s in range(10)]
    assert set(rewards) <= {1.0, 0.0, -1.0} and -1.0 in rewards


def test_a_user_strategy_object_is_asked() -> None:
    user = _Counting()
    env = UnoEnv("classic", 3, [user, "greedy"])
    _play(env, 0, np.random.default_rng(0))
    assert user.calls > 0
    assert isinstance(user, Strategy)
