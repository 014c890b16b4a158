"""The vector environment: lockstep games, auto-reset, per-game seeds, the same games as the single one."""

from __future__ import annotations

import numpy as np
import pytest

from unosim.env import encoding as E
from unosim.env.single import IllegalAction, UnoEnv
from unosim.env.vector import UnoVectorEnv


def _choose(obs: np.ndarray, mask: np.ndarray) -> int:
    """A deterministic function of the observation: play a drawn card, call UNO, else a card if any."""
    for a in (E.PLAY_DRAWN, E.CALL_UNO):
        if mask[a]:
            return a
    legal = np.flatnonzero(mask)
    cards = legal[legal < E.DRAW]
    pick = cards if len(cards) else legal
    return int(pick[int(obs.astype(np.int64) @ np.arange(len(obs))) % len(pick)])


def _vector_rounds(env: UnoVectorEnv, seed: int, rounds: int) -> dict[int, float]:
    obs, info = env.reset(seed=seed)
    games, out = info["game"].copy(), {}
    while len(out) < rounds:
        acts = np.array([_choose(obs["observation"][i], obs["action_mask"][i]) for i in range(env.num_envs)])
        obs, reward, term, trunc, info = env.step(acts)
        assert not trunc.any()
        for i in np.flatnonzero(term):
            out[int(games[i])] = float(reward[i])
        assert (reward[~term] == 0).all()
        games = info["game"].copy()
    return out


@pytest.mark.parametrize("rules, players", [("classic", 4), ("party", 3)])
def test_vector_games_are_the_single_environment_games(rules: str, players: int) -> None:
    vec = _vector_rounds(UnoVectorEnv(6, rules, players, "random"), 11, 24)
    env = UnoEnv(rules, players, "random")
    env.reset(seed=11)
    single = {}
    for g in range(max(vec) + 1):
        env._next = g  # deal game g of the run
        obs, _ = env.reset()
        done = False
        while not done:
            obs, reward, done, _, _ = env.step(_choose(obs["observation"], obs["action_mask"]))
        single[g] = float(reward)
    assert {g: single[g] for g in vec} == vec
    assert {1.0, -1.0} <= set(vec.values())


def test_batch_size_does_not_change_the_games() -> None:
    a = _vector_rounds(UnoVectorEnv(2, "classic", 2, "greedy"), 5, 16)
    b = _vector_rounds(UnoVectorEnv(7, "classic", 2, "greedy"), 5, 16)
    common = set(a) & set(b)
    assert len(common) >= 8
    assert all(a[g] == b[g] for g in common)


def test_waiting_games_have_one_legal_action() -> None:
    env = UnoVectorEnv(16, "party", 4, "random")
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    waited = 0
    for _ in range(300):
        masks = obs["action_mask"]
        waiting = masks[:, E.WAIT] == 1
        assert (masks[waiting].sum(axis=1) == 1).all()
        waited += int(waiting.sum())
        obs, *_ = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    assert waited > 0


def test_an_illegal_action_is_refused_before_any_game_moves() -> None:
    env = UnoVectorEnv(3, "classic", 2, "random")
    obs, info = env.reset(seed=1)
    acts = np.array([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
    bad = acts.copy()
    bad[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalAction, match=r"game 1 \(seat 0\).*legal actions"):
        env.step(bad)
    with pytest.raises(TypeError, match="one whole number per game"):
        env.step(acts[:2])
    again, *_ = env.step(acts)  # nothing moved: the legal actions still play
    assert again["observation"].shape == obs["observation"].shape


def test_a_finite_run_reports_each_game_once_then_idles() -> None:
    env = UnoVectorEnv(4, "classic", 2, "random", games=6)
    obs, info = env.reset(seed=2)
    games, ended_games = info["game"].copy(), []
    for _ in range(2000):
        obs, reward, term, _, info = env.step(np.array([_choose(o, m) for o, m in zip(obs["observation"], obs["action_mask"])]))
        ended_games += [int(games[i]) for i in np.flatnonzero(term)]
        games = info["game"].copy()
        if info["idle"].all():
            break
    assert sorted(ended_games) == list(range(6))
    assert (obs["action_mask"][:, E.WAIT] == 1).all()
