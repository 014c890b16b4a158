"""The vector environment: lockstep games, auto-reset, per-game seeds, the same games as the single one."""

from __future__ import annotations

import numpy as np
import pytest

from unosim.env import encoding as E
from unosim.env import kernels as K
from unosim.env.kernels import random_actions
from unosim.env.single import IllegalAction, UnoEnv
from unosim.env.vector import UnoVectorEnv
from unosim.game.kernels import layout as L
from unosim.strategy import registry
from unosim.strategy.base import Strategy


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


@pytest.mark.parametrize("rules, players, overrides", [("classic", 4, ["stacking=mixed", "seven_zero=true"]),
                                                      ("party", 4, ["stacking=mixed", "seven_zero=true"])])
def test_vector_games_with_house_rules_score_as_the_single_environment_games(rules: str, players: int,
                                                                             overrides: list[str]) -> None:
    """Stacked cards' and swaps' follow-ups kept aside while the other games play on: each game's match
    points are those of the same game played alone."""
    vec = _vector_rounds(UnoVectorEnv(9, rules, players, "random", overrides=overrides, reward="points"), 4, 30)
    env = UnoEnv(rules, players, "random", overrides=overrides, reward="points")
    env.reset(seed=4)
    for g in sorted(vec):
        env._next = g
        obs, _ = env.reset()
        done = False
        while not done:
            obs, reward, done, _, _ = env.step(_choose(obs["observation"], obs["action_mask"]))
        assert float(reward) == vec[g], f"game {g}"
    assert len(set(vec.values())) > 10


def test_batch_size_does_not_change_the_games() -> None:
    a = _vector_rounds(UnoVectorEnv(2, "classic", 2, "greedy"), 5, 16)
    b = _vector_rounds(UnoVectorEnv(7, "classic", 2, "greedy"), 5, 16)
    common = set(a) & set(b)
    assert len(common) >= 8
    assert all(a[g] == b[g] for g in common)


def test_waiting_games_have_one_legal_action_and_keep_their_observation() -> None:
    """A game waiting while another answers a jump-in's UNO call (party rules: the engine cannot run)
    keeps the observation and mask a full encoding writes (the step rewrites only the games that had a step)."""
    env = UnoVectorEnv(16, "party", 4, "random")
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    waited = kept = 0
    for _ in range(300):
        masks = obs["action_mask"]
        waiting = masks[:, E.WAIT] == 1
        assert (masks[waiting].sum(axis=1) == 1).all()
        waited += int(waiting.sum())
        obs, *_ = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        kept += not env.lanes.played
        shown, mask, fresh = obs["observation"].copy(), obs["action_mask"].copy(), np.zeros_like(obs["observation"])
        env.lanes.call(K.M_ENCODE, fresh)
        assert np.array_equal(fresh, shown) and np.array_equal(env.lanes.mask, mask)
    assert waited > 0 and kept > 0


def test_a_follow_up_does_not_hold_back_the_other_games() -> None:
    """While some games answer a follow-up (a wild's colour, the UNO call), the engine plays the others
    on to their next decisions: at classic rules against compiled opponents a game is asked ``wait``
    only while the others catch the learner's forgotten UNO call (their rows, answered in the step)."""
    env = UnoVectorEnv(32, "classic", 4, "random")
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    follow_ups = played_with_follow_ups = 0
    for _ in range(400):
        masks = obs["action_mask"]
        waiting = np.flatnonzero(masks[:, E.WAIT])
        assert (env.game.run.buffers.slot[waiting, L.F_PHASE] == L.PH_CATCH).all()
        kinds = {env.lanes.kind_name(i) for i in range(env.num_envs)}
        asked = bool(kinds & {"colour", "uno"})
        follow_ups += asked
        obs, *_ = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        played_with_follow_ups += asked and env.lanes.played
    assert follow_ups > 50 and played_with_follow_ups == follow_ups


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


def test_the_stand_in_learner_draws_uniformly_among_the_legal_actions() -> None:
    mask = np.zeros((3, 8), np.int8)
    mask[0, [1, 4, 6]] = 1
    mask[1, 7] = 1
    out = np.empty(30_000, np.int64)
    random_actions(np.repeat(mask[:1], len(out), axis=0), np.random.default_rng(3).random(len(out)), out)
    share = np.bincount(out, minlength=8) / len(out)  # seed 3, 30,000 draws: each of the three within 0.01 of 1/3
    assert np.flatnonzero(share).tolist() == [1, 4, 6]
    assert np.allclose(share[[1, 4, 6]], 1 / 3, atol=0.01)
    random_actions(mask, np.array([0.99, 0.5, 0.5]), out[:3])
    assert out[:3].tolist() == [6, 7, -1]


def test_the_stand_in_learner_picks_the_same_action_from_masks_of_any_width() -> None:
    rng = np.random.default_rng(7)  # seed 7: 400 masks of 1-9 rows, 0-29 actions, non-zero bytes of any value
    for _ in range(400):
        rows, width = int(rng.integers(1, 10)), int(rng.integers(0, 30))
        mask = ((rng.random((rows, width)) < rng.random()) * rng.integers(1, 100, (rows, width))).astype(np.int8)
        uniforms, out = rng.random(rows), np.empty(rows, np.int64)
        random_actions(mask, uniforms, out)
        want = [int(np.flatnonzero(row)[int(u * np.count_nonzero(row))]) if row.any() else -1 for row, u in zip(mask, uniforms)]
        assert out.tolist() == want
    wide = np.zeros((4, 16), np.int8)
    wide[:, 1::3] = 1
    random_actions(wide[:, ::2], np.array([0.0, 0.3, 0.6, 0.99]), out[:4])  # a strided mask: read as its copy
    assert out[:4].tolist() == [2, 2, 5, 5]  # columns 4 and 10 of the eight read


def test_a_step_hands_out_read_only_views_written_in_place() -> None:
    env = UnoVectorEnv(4, "classic", 2, "random")
    obs, info = env.reset(seed=3)
    with pytest.raises(ValueError, match="read-only"):
        obs["observation"][0, 0] = 1
    acts = np.array([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
    after, reward, term, trunc, info = env.step(acts)
    assert np.shares_memory(after["observation"], obs["observation"])
    assert not any(a.flags.writeable for a in (after["observation"], after["action_mask"], reward, term, trunc, info["game"]))


def _forgetful(obs: np.ndarray, mask: np.ndarray) -> int:
    """Forget to call UNO whenever asked, else as `_choose`."""
    return E.FORGET_UNO if mask[E.FORGET_UNO] else _choose(obs, mask)


def test_U1_declared_catches_are_answered_in_the_compiled_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """U-1: the opponents catch a learner that forgets to call UNO; declared (``always_catches_uno``),
    their catches are answered in the compiled step, unasked; switched off, asked in Python; the same games."""
    asked = []
    catch = Strategy.catch_uno
    monkeypatch.setattr(Strategy, "catch_uno", lambda self, obs: asked.append(len(obs)) or catch(self, obs))
    random = registry.resolve("random")
    rewards = {}
    for label, strategy in (("declared", random()), ("asked", type("Asked", (random,), {"always_catches_uno": False})())):
        env = UnoVectorEnv(8, "classic", 4, strategy)
        obs, info = env.reset(seed=6)
        games, out = info["game"].copy(), {}
        while len(out) < 40:
            obs, reward, term, _, info = env.step(np.array([_forgetful(o, m) for o, m in zip(obs["observation"], obs["action_mask"])]))
            out.update({int(games[i]): float(reward[i]) for i in np.flatnonzero(term)})
            games = info["game"].copy()
        rewards[label] = out
        asked.append(label)
    common = set(rewards["declared"]) & set(rewards["asked"])
    assert len(common) >= 30 and all(rewards["declared"][g] == rewards["asked"][g] for g in common)
    assert asked[0] == "declared" and sum(asked[asked.index("declared") + 1 : -1]) > 0


def _no_catch(obs) -> np.ndarray:
    return np.zeros(len(obs), bool)


def _overrides_catch_on_the_instance() -> Strategy:
    strategy = registry.resolve("random")()
    strategy.catch_uno = _no_catch  # an instance attribute: the class's catch_uno is untouched
    return strategy


def _declares_over_a_lower_rate() -> Strategy:
    return type("Liar", (registry.resolve("random"),), {"always_catches_uno": True})(catch_uno_rate=0.0)


def _overrides_the_property_on_the_instance_class() -> Strategy:
    return type("Sure", (registry.resolve("random"),), {"always_catches_uno": property(lambda self: True)})(catch_uno_rate=0.5)


def _overrides_catch_in_a_subclass() -> Strategy:
    return type("Picky", (registry.resolve("random"),), {"catch_uno": lambda self, obs: _no_catch(obs)})()


@pytest.mark.parametrize("make", [_overrides_catch_on_the_instance, _declares_over_a_lower_rate,
                                  _overrides_the_property_on_the_instance_class, _overrides_catch_in_a_subclass],
                         ids=lambda f: f.__name__.strip("_"))
def test_U1_a_catch_answered_unasked_is_the_engines_answer(make) -> None:
    """U-1: whatever a strategy declares or overrides, the catches the vector environment answers in
    its compiled step are those the engine plays (the single environment asks the engine's decision
    call), game by game, against a learner that always forgets to call UNO."""
    vec, single = _forgetful_rewards(UnoVectorEnv(6, "classic", 4, make()), UnoEnv("classic", 4, make()))
    assert single == vec


def test_U1_lowering_the_catch_rate_after_the_environment_is_built_is_played_as_asked() -> None:
    """A strategy whose ``catch_uno_rate`` changes once the environments hold it plays the same games
    in the vector environment as in the single one."""
    strategy = registry.resolve("random")()
    vec_env, env = UnoVectorEnv(6, "classic", 4, strategy), UnoEnv("classic", 4, strategy)
    strategy.catch_uno_rate = 0.0
    vec, single = _forgetful_rewards(vec_env, env)
    assert single == vec


def _forgetful_rewards(vec_env: UnoVectorEnv, env: UnoEnv, rounds: int = 30) -> tuple[dict[int, float], dict[int, float]]:
    """Play at least ``rounds`` rounds of ``vec_env`` with a learner that always forgets UNO and replay
    each in ``env``: the reward of each round (by game number) in both."""
    vec = _vector_rewards(vec_env, rounds)
    return vec, _single_rewards(env, sorted(vec))


def _vector_rewards(env: UnoVectorEnv, rounds: int = 30) -> dict[int, float]:
    """The rewards (by game number) of at least ``rounds`` rounds of ``env`` with a learner that always forgets UNO."""
    obs, info = env.reset(seed=6)
    games, out = info["game"].copy(), {}
    while len(out) < rounds:
        obs, reward, term, _, info = env.step(np.array([_forgetful(o, m) for o, m in zip(obs["observation"], obs["action_mask"])]))
        out.update({int(games[i]): float(reward[i]) for i in np.flatnonzero(term)})
        games = info["game"].copy()
    return out


def _colour_step(env: UnoVectorEnv, seed: int) -> tuple[dict, int]:
    """Play legal actions until some game's step is the colour of a wild: the observation and that game."""
    obs, _ = env.reset(seed=seed)
    colours = slice(K.A_COLOUR0, K.A_COLOUR0 + 4)
    while not obs["action_mask"][:, colours].any():
        obs, *_ = env.step(np.array([_choose(o, m) for o, m in zip(obs["observation"], obs["action_mask"])]))
    return obs, int(np.flatnonzero(obs["action_mask"][:, colours].any(axis=1))[0])


@pytest.mark.parametrize("reach", ["setflags", "base"])
def test_a_mask_written_through_its_view_lets_no_illegal_action_through(reach: str) -> None:
    """The mask a step hands out is the learner's copy: marking an action legal in it (the view made
    writable again, or its base written) does not make the engine play it (here the colour of a wild
    answered with the wait action, colour 13)."""
    env = UnoVectorEnv(8, "classic", 4, "random")
    obs, i = _colour_step(env, 4)
    mask = obs["action_mask"]
    if reach == "setflags":
        mask.setflags(write=True)
    else:
        mask = mask.base
    mask[i, K.A_WAIT] = 1
    acts = np.array([_choose(o, m) for o, m in zip(obs["observation"], obs["action_mask"])])
    acts[i] = K.A_WAIT
    with pytest.raises(IllegalAction, match=rf"game {i} \(seat 0\)"):
        env.step(acts)


@pytest.mark.parametrize("name", ["game", "idle"])
def test_info_arrays_written_through_their_base_change_no_game(name: str) -> None:
    """The game index and idle flag of each slot a step hands out are the learner's copies: writing
    them through their base (no game in any slot, every slot idle) changes neither the rewards nor the
    games that follow."""

    def steps(tamper: bool) -> list[tuple[list[float], list[bool], list[int]]]:
        env = UnoVectorEnv(4, "classic", 2, "random")
        obs, info = env.reset(seed=9)
        out = []
        for _ in range(150):
            if tamper:
                info[name].base[:] = -1 if name == "game" else True
            acts = np.array([_choose(o, m) for o, m in zip(obs["observation"], obs["action_mask"])])
            obs, reward, term, _, info = env.step(acts)
            out.append((reward.tolist(), term.tolist(), info["game"].tolist()))
        return out

    honest = steps(False)
    assert any(any(term) for _, term, _ in honest)
    assert steps(True) == honest


class _CatchesOnlyAtFirst(registry.resolve("random")):
    """Catches while its rate is 1, and lowers its own rate to 0 once it has played a turn."""

    def play(self, obs):
        self.catch_uno_rate = 0.0
        return super().play(obs)



def _single_rewards(env: UnoEnv, games: list[int]) -> dict[int, float]:
    """The rewards of rounds ``games`` of ``env`` with a learner that always forgets UNO."""
    env.reset(seed=6)
    out = {}
    for g in games:
        env._next = g
        o, _ = env.reset()
        done = False
        while not done:
            o, reward, done, _, _ = env.step(_forgetful(o["observation"], o["action_mask"]))
        out[g] = float(reward)
    return out


def test_U1_a_strategy_that_lowers_its_own_catch_rate_is_asked_from_then_on() -> None:
    """A declaration holds while it is true: once the strategy has set its ``catch_uno_rate`` below 1
    (itself, while playing), its catches are asked, in the engine and in the vector environment alike,
    and both play the games of a strategy that is always asked."""
    asked = type("Asked", (_CatchesOnlyAtFirst,), {"always_catches_uno": property(lambda self: False)})
    vec = _vector_rewards(UnoVectorEnv(6, "classic", 4, _CatchesOnlyAtFirst()))
    truth = _single_rewards(UnoEnv("classic", 4, asked()), sorted(vec))
    assert _single_rewards(UnoEnv("classic", 4, _CatchesOnlyAtFirst()), sorted(vec)) == truth
    assert vec == truth
