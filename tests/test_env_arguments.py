"""Every environment refuses, before any work, an argument that would corrupt its results.

The checks live once, in :class:`unosim.env.base.SeatedEnv`; each case here is a value that
used to be accepted (and played wrongly) or failed with an unrelated error.
"""

from __future__ import annotations

import numpy as np
import pytest

from unosim.env import UnoAECEnv, UnoEnv, UnoParallelEnv, UnoVectorEnv
from unosim.env import encoding as E
from unosim.env.base import SeatedEnv


def _make(cls: type, **kwargs: object) -> object:
    if cls is UnoVectorEnv:
        return UnoVectorEnv(2, **kwargs)
    if cls is UnoEnv:
        return UnoEnv(**kwargs)
    kwargs.pop("seat", None)
    return cls(**kwargs)


ALL = [UnoEnv, UnoVectorEnv, UnoAECEnv, UnoParallelEnv]


@pytest.mark.parametrize("cls", ALL)
@pytest.mark.parametrize("bad, match", [
    ({"players": "4"}, r"players = '4'; give a whole number from 2 to 16"),
    ({"players": 4.0}, r"players = 4.0"),
    ({"players": True}, r"players = True"),
    ({"players": 17}, r"players = 17"),
    ({"rules": None}, r"rules = None; give a preset name"),
    ({"rewards": (5.0,)}, r"rewards = \(5.0,\); give three finite numbers"),
    ({"rewards": (1.0, float("nan"), -1.0)}, r"give three finite numbers"),
    ({"rewards": (1.0, 0.0, "-1")}, r"give three finite numbers"),
    ({"reward": "score"}, r"reward = 'score'; use 'win' or 'points'"),
])
def test_a_bad_shared_argument_is_refused_with_what_to_change(cls: type, bad: dict, match: str) -> None:
    error = TypeError if "rules" in bad else ValueError
    with pytest.raises(error, match=match):
        _make(cls, **bad)


@pytest.mark.parametrize("cls", [UnoEnv, UnoVectorEnv])
@pytest.mark.parametrize("seat", ["1", 1.0, True, -1, 4])
def test_a_seat_that_is_not_a_seat_number_is_refused(cls: type, seat: object) -> None:
    with pytest.raises(ValueError, match=r"seat = .*; give a seat number from 0 to 3"):
        _make(cls, seat=seat)


@pytest.mark.parametrize("cls", [UnoEnv, UnoAECEnv, UnoParallelEnv])
def test_illegal_and_penalty_are_checked(cls: type) -> None:
    with pytest.raises(ValueError, match="illegal = 'skip'"):
        _make(cls, illegal="skip")
    with pytest.raises(ValueError, match="penalty = 'x'; give a finite number"):
        _make(cls, penalty="x")


@pytest.mark.parametrize("games", [0, 1, -3, 2.0, "5"])
def test_vector_games_must_give_every_slot_a_game(games: object) -> None:
    with pytest.raises(ValueError, match=r"games = .*; give a whole number from 3 or more"):
        UnoVectorEnv(3, games=games)


@pytest.mark.parametrize("num_envs", [0, -1, 2.5, "2"])
def test_vector_num_envs_is_a_positive_whole_number(num_envs: object) -> None:
    with pytest.raises(ValueError, match=r"num_envs = .*; give a whole number from 1 or more"):
        UnoVectorEnv(num_envs)


def test_a_finite_vector_run_plays_exactly_its_games() -> None:
    env = UnoVectorEnv(3, "classic", 2, games=3)
    obs, info = env.reset(seed=4)
    assert sorted(info["game"].tolist()) == [0, 1, 2]
    ended = 0
    for _ in range(5000):
        if info["idle"].all():
            break
        actions = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
        obs, _, term, _, info = env.step(actions)
        ended += int(term.sum())
        assert set(info["game"].tolist()) <= {-1, 0, 1, 2}
    assert info["idle"].all() and ended == 3


@pytest.mark.parametrize("cls", ALL)
def test_seeds_are_whole_numbers_of_any_integer_type(cls: type) -> None:
    env = _make(cls)
    for seed in (1.5, "3", -1, True):
        with pytest.raises(ValueError, match=r"seed = .*; give a whole number of 0 or more"):
            env.reset(seed=seed)
    env.reset(seed=np.int64(3))  # a NumPy integer is accepted by every class
    a = env.reset(seed=np.uint32(3))
    b = env.reset(seed=3)
    first = a[0] if cls is not UnoAECEnv else None
    if first is not None:
        obs_a = first["observation"] if cls is UnoEnv or cls is UnoVectorEnv else first["player_0"]["observation"]
        obs_b = b[0]["observation"] if cls is UnoEnv or cls is UnoVectorEnv else b[0]["player_0"]["observation"]
        assert np.array_equal(obs_a, obs_b)


def test_the_returned_mask_is_not_the_sampling_mask() -> None:
    env = UnoEnv("classic", 2, "random")
    obs, info = env.reset(seed=0)
    legal = env.action_space.legal.copy()
    obs["action_mask"][:] = 0
    info["action_mask"][:] = 0
    assert np.array_equal(env.action_space.legal, legal)
    assert obs["action_mask"][env.action_space.sample()] == 0  # sample() still draws a legal action of its own mask
    assert legal[env.action_space.sample()] == 1


def test_one_parameter_name_and_the_encoding_version_in_every_class() -> None:
    for cls in ALL:
        env = _make(cls, rewards=(2.0, 0.0, -2.0))
        assert isinstance(env, SeatedEnv)
        assert env.reward_values == (2.0, 0.0, -2.0)
        assert env.metadata["encoding_version"] == E.VERSION


def test_every_class_plays_the_overrides_it_is_given() -> None:
    for cls in ALL:
        env = _make(cls, players=16, overrides=["deck_copies=2", "max_turns=77"])
        assert env.game.config.rules.max_turns == 77 and env.game.players == 16
