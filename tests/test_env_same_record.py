"""An environment seat answered as a strategy would answer gives the strategy's game record.

A saved linear policy plays as the strategy ``policy:PATH`` in the engine
(:class:`~unosim.env.policy.PolicyStrategy`, which encodes each decision from the strategy's
observation) and, with the same weights, picks the actions of a learning seat in
:class:`~unosim.env.single.UnoEnv` from the environment's observation and mask. Game ``g`` of a
seed is the same deal in both, so each game the environment plays must have exactly the row
:func:`unosim.simulate` records for the strategy: the same winner, turns, cards played and drawn,
challenges, jump-ins, hand points and opening hands. This is what makes a policy trained in the
environment the policy that plays in ``simulate`` and ``tournament``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import unosim
from unosim.engine.batch import Played
from unosim.engine.config import RunConfig
from unosim.engine.records import records_table
from unosim.env import encoding as E
from unosim.env.policy import LinearPolicy
from unosim.env.single import UnoEnv
from unosim.game.rules import RuleSet

SHIPPED = Path(__file__).resolve().parent.parent / "experiments" / "policy_classic_2.json"


def _random_policy(players: int, seed: int) -> LinearPolicy:
    """Random weights, but none on the mini pile's size (a strategy is not shown it: PolicyStrategy sees 0)."""
    spaces = E.Spaces(players, 1)
    rng = np.random.default_rng(seed)
    weights = rng.normal(size=(spaces.n_actions, spaces.obs_size))
    weights[:, spaces.blocks["mini_size"]] = 0.0
    return LinearPolicy(players, weights, rng.normal(size=spaces.n_actions))


def _env_rows(policy: LinearPolicy, rules: str | RuleSet, players: int, others: list[str], seed: int, games: int,
              strategies: list[str]) -> pd.DataFrame:
    """The record rows of the games the environment plays with the policy's actions at seat 0."""
    env = UnoEnv(rules, players, others, seat=0)
    rec, points, opening, index = [], [], [], []
    obs, _ = env.reset(seed=seed)
    while env.game.game < games:
        done = False
        while not done:
            action = int(policy.act(obs["observation"][None, :], obs["action_mask"][None, :])[0])
            obs, _, done, _, _ = env.step(action)
        run = env.game.run
        assert run is not None
        rec.append(run.rec[0].copy())
        points.append(run.points[0].copy())
        opening.append(run.opening[0].copy())
        index.append(env.game.game)
        obs, _ = env.reset()
    config = RunConfig.build(rules=rules, players=players, strategies=strategies, seed=seed, games=games)
    rows = []
    for g, r, p, o in zip(index, rec, points, opening):
        rows.append(records_table(config, Played(g, r[None], p[None], o[None])).to_pandas())
    return pd.concat(rows, ignore_index=True)


def _plain(value: object) -> object:
    """A cell as plain Python values (lists of lists), whatever the frame's dtype."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return None if isinstance(value, float) and np.isnan(value) else value  # no winner: missing, NaN in pandas


def _same_rows(env: pd.DataFrame, engine: pd.DataFrame) -> None:
    """Every row of ``env`` is the row of ``engine`` of the same game, column by column."""
    assert list(env.columns) == list(engine.columns)
    by_game = engine.set_index("game", drop=False)
    for _, row in env.iterrows():
        want = by_game.loc[row["game"]]
        for column in env.columns:
            assert _plain(row[column]) == _plain(want[column]), f"game {row['game']}: {column}"


@pytest.mark.parametrize("rules, players, others, games", [
    ("classic", 2, ["random"], 60),
    ("classic", 4, ["random", "greedy", "random"], 30),
    ("party", 3, ["random", "greedy"], 30),
    ("party", 5, ["greedy", "random", "random", "greedy"], 20),
])
def test_env_games_have_the_strategy_records(tmp_path: Path, rules: str, players: int, others: list[str], games: int) -> None:
    policy = _random_policy(players, seed=players)
    path = tmp_path / "policy.json"
    policy.save(path)
    strategies = [f"policy:{path}", *others]
    engine = unosim.simulate(rules, players, games, strategies, seed=11)
    env = _env_rows(policy, rules, players, others, 11, games, strategies)
    assert len(env) >= games - 2  # a game over before the learner's first decision is not an episode
    _same_rows(env, engine)


def house(stacking: str) -> RuleSet:
    """Classic with every house rule on: ``stacking``, the 7-0 swaps, action jump-ins, no going out on an action card."""
    return RuleSet.preset("classic").with_overrides([f"stacking={stacking}", "seven_zero=true", "speed_play=true",
                                                     "jump_in_cards=numbers_and_actions", "go_out_on_action=false"])


@pytest.mark.parametrize("stacking, players, others", [
    ("same_face", 2, ["random"]),
    ("mixed", 3, ["random", "greedy"]),
    ("plus4_on_plus2", 4, ["greedy", "random", "random"]),
])
def test_env_games_with_every_house_rule_have_the_strategy_records(tmp_path: Path, stacking: str, players: int,
                                                                   others: list[str]) -> None:
    policy = _random_policy(players, seed=players + 20)
    path = tmp_path / "policy.json"
    policy.save(path)
    strategies = [f"policy:{path}", *others]
    rules = house(stacking)
    engine = unosim.simulate(rules, players, 30, strategies, seed=13)
    env = _env_rows(policy, rules, players, others, 13, 30, strategies)
    assert len(env) >= 28
    _same_rows(env, engine)
    assert env["stacks"].sum() > 0 and env["seven_swaps"].sum() > 0  # the house decisions were played


def test_the_shipped_policy_plays_the_same_games_in_the_environment() -> None:
    policy = LinearPolicy.load(SHIPPED)
    strategies = [f"policy:{SHIPPED}", "random"]
    engine = unosim.simulate("classic", 2, 100, strategies, seed=5)
    env = _env_rows(policy, "classic", 2, ["random"], 5, 100, strategies)
    _same_rows(env, engine)
    assert (env["winner"] == 0).mean() > 0.5
