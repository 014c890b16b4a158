"""The PettingZoo parallel environment: the API test, simultaneous decisions, waiting agents, refused actions."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from env_tables import RULES, overrides_of, rules_of
from pettingzoo.test import parallel_api_test
from pettingzoo.utils.conversions import aec_to_parallel_wrapper

from unosim.env import encoding as E
from unosim.env.multi import UnoAECEnv
from unosim.env.parallel import UnoParallelEnv
from unosim.env.single import IllegalAction


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("players", [2, 4, 16])
def test_parallel_api_test_passes(rules: str, players: int) -> None:
    env = UnoParallelEnv(rules_of(rules), players, overrides=overrides_of(players))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the API test warns on a missing or extra agent key
        parallel_api_test(env, num_cycles=2000)
    assert env.possible_agents == [f"player_{s}" for s in range(players)]


def _round(env: UnoParallelEnv, seed: int, rng: np.random.Generator) -> tuple[list[dict[str, str]], dict[str, float]]:
    observations, infos = env.reset(seed=seed)
    asked, totals = [], dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        asked.append({a: infos[a]["decision"] for a in env.agents if infos[a]["decision"] != "wait"})
        actions = {a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in env.agents}
        observations, rewards, terms, truncs, infos = env.step(actions)
        for a, r in rewards.items():
            totals[a] += r
    return asked, totals


def test_the_seats_asked_together_act_in_one_step() -> None:
    env = UnoParallelEnv("party", 4)
    rng = np.random.default_rng(0)
    together: set[str] = set()
    for seed in range(10):
        asked, totals = _round(env, seed, rng)
        assert all(asked_now for asked_now in asked)  # some agent acts in every step
        together |= {kind for step in asked if len(step) > 1 for kind in step.values()}
        assert sorted(totals.values()) in ([-1.0, -1.0, -1.0, 1.0], [0.0] * 4)
    assert {"vote", "catch"} <= together


def test_waiting_agents_may_wait_skip_or_send_none() -> None:
    env = UnoParallelEnv("classic", 3)
    observations, infos = env.reset(seed=5)
    waiting = [a for a in env.agents if infos[a]["decision"] == "wait"]
    acting = [a for a in env.agents if infos[a]["decision"] != "wait"]
    assert len(waiting) == 2 and len(acting) == 1
    for a in waiting:
        assert np.flatnonzero(observations[a]["action_mask"]).tolist() == [E.WAIT]
        assert observations[a]["observation"][env.game.spaces.blocks["kind"].start + E.KINDS["wait"]] == 1
    with pytest.raises(IllegalAction, match=rf"{waiting[0]}: action 60 \(draw\) is not legal at decision 'wait'"):
        env.step({acting[0]: E.DRAW, waiting[0]: E.DRAW})
    with pytest.raises(TypeError, match="not None"):
        env.step({waiting[0]: E.WAIT})
    env.step({acting[0]: E.DRAW, waiting[0]: E.WAIT, waiting[1]: None})  # still playable after the refusals


def test_the_parallel_round_is_the_aec_round() -> None:
    """Answered with the same actions, the parallel and the AEC environments play the same round."""
    for rules, players in (("classic", 2), ("party", 4)):
        par, aec = UnoParallelEnv(rules, players), UnoAECEnv(rules, players)
        for seed in range(4):
            rng = np.random.default_rng(seed)
            observations, _ = par.reset(seed=seed)
            aec.reset(seed=seed)
            while par.agents:
                actions = {a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in par.agents}
                for a in par.asked():  # the AEC environment asks them one after the other, in seat order
                    assert aec.agent_selection == a
                    assert np.array_equal(aec.observe(a)["observation"], observations[a]["observation"])
                    aec.step(actions[a])
                observations, rewards, *_ = par.step(actions)
            assert not [a for a in aec.agents if not aec.terminations[a]]
            a_out, p_out = aec.game.outcome, par.game.outcome
            assert a_out.winner == p_out.winner and np.array_equal(a_out.hand_points, p_out.hand_points)
            assert {a: aec._cumulative_rewards[a] for a in par.possible_agents} == rewards


def test_penalty_ends_the_round_for_the_offenders() -> None:
    env = UnoParallelEnv("classic", 3, illegal="penalty", penalty=-4.0)
    observations, infos = env.reset(seed=2)
    acting = next(a for a in env.agents if infos[a]["decision"] != "wait")
    illegal = int(np.flatnonzero(observations[acting]["action_mask"] == 0)[0])
    _, rewards, terms, _, infos = env.step({acting: illegal})
    assert all(terms.values()) and env.agents == []
    assert rewards[acting] == -4.0 and sum(rewards.values()) == -4.0 and infos[acting]["illegal"]
    with pytest.raises(RuntimeError, match="reset"):
        env.step({})


def test_aec_to_parallel_cannot_convert_the_aec_environment() -> None:
    """PettingZoo's converter steps every agent once per cycle: the AEC environment does not say it may."""
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel_wrapper(UnoAECEnv("classic", 2))
    aec = UnoAECEnv("classic", 3)
    aec.metadata = {**aec.metadata, "is_parallelizable": True}  # forced: it stops at the first agent out of cycle order
    par = aec_to_parallel_wrapper(aec)
    for seed in range(50):  # a deal that player_1 or player_2 opens
        par.reset(seed=seed)
        if aec.agent_selection != "player_0":
            break
    with pytest.raises(AssertionError, match="expected agent player_0 got agent player_[12].*step in a cycle"):
        par.step(dict.fromkeys(par.agents, E.DRAW))
