"""Learned policies as strategies: the policy file, ``policy:PATH`` specs, games through the engine."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from unosim.engine.config import RunConfig
from unosim.engine.driver import play_tables
from unosim.env import encoding as E
from unosim.env.policy import LinearPolicy, PolicyStrategy
from unosim.game.cards import N_TYPES
from unosim.strategy.spec import POLICY, StrategySpec


def _prior(players: int) -> LinearPolicy:
    """Bias only: play a card (highest type first), play a drawn card, call UNO."""
    spaces = E.Spaces(players, 1)
    bias = np.zeros(spaces.n_actions)
    bias[:N_TYPES] = 1.0 + np.arange(N_TYPES) / N_TYPES
    bias[[E.PLAY_DRAWN, E.CALL_UNO, E.ACCEPT]] = 1.0
    return LinearPolicy(players, np.zeros((0, 0)), bias)


def test_a_policy_file_round_trips_and_a_wrong_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    _prior(2).save(path)
    back = LinearPolicy.load(path)
    assert np.array_equal(back.bias, _prior(2).bias) and back.players == 2
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "unosim-linear-policy", "players": 3, "weights": [], "bias": [1, 2]}')
    with pytest.raises(ValueError, match=r"3-player policy needs bias \[86\]"):
        LinearPolicy.load(bad)
    with pytest.raises(ValueError, match="not a policy file"):
        (tmp_path / "other.json").write_text("{}")
        LinearPolicy.load(tmp_path / "other.json")


def test_act_takes_the_best_legal_action() -> None:
    pol = LinearPolicy(2, np.zeros((0, 0)), np.arange(E.Spaces(2, 1).n_actions, dtype=float))
    mask = np.zeros((2, pol.bias.shape[0]), np.int8)
    mask[0, [3, 9]] = 1
    mask[1, [E.DRAW]] = 1
    assert pol.act(np.zeros((2, 5)), mask).tolist() == [9, E.DRAW]


def test_policy_spec_plays_through_the_engine(tmp_path: Path) -> None:
    path = tmp_path / "prior.json"
    _prior(2).save(path)
    spec = StrategySpec.parse(f"policy:{path}")
    assert spec.name == POLICY and dict(spec.params) == {"path": str(path)}
    config = RunConfig.build(rules="classic", players=2, strategies=[f"policy:{path}", "random"], seed=3, games=600)
    winners = play_tables(config, 0, 600)[0].column("winner").to_numpy()
    assert 0.45 < float(np.mean(winners == 0)) < 0.9  # a sensible policy: it wins about as often as random or more


def test_party_decisions_are_answered(tmp_path: Path) -> None:
    path = tmp_path / "prior4.json"
    _prior(4).save(path)
    config = RunConfig.build(rules="party", players=4, strategies=[f"policy:{path}", "random", "greedy", "random"], seed=1, games=200)
    table = play_tables(config, 0, 200)[0]
    assert table.num_rows == 200
    assert PolicyStrategy(path=str(path)).policy.players == 4


def test_a_policy_for_another_table_size_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "prior.json"
    _prior(2).save(path)
    with pytest.raises(ValueError, match="plays tables of 2 players .its file's players., not 3"):  # before any game
        RunConfig.build(rules="classic", players=3, strategies=[f"policy:{path}", "random", "random"], games=10)


SHIPPED = Path(__file__).resolve().parent.parent / "experiments" / "policy_classic_2.json"


def test_the_shipped_policy_beats_random_by_ten_points() -> None:
    """The trained example policy against ``random`` at 2-player classic, seat-fair: its win rate's lower 95 % bound
    stands at least 10 points above the upper bound of random's (docs/environments.md gives the 100,000-game figure)."""
    import unosim

    board = unosim.tournament(rules="classic", players=2, strategies=f"policy:{SHIPPED},random", games=6_000, seed=1).leaderboard
    rows = board.set_index("strategy")
    policy, random = rows.loc[f"policy:{SHIPPED}"], rows.loc["random"]
    assert policy["rank"] == 1
    assert policy["win_rate_lo"] - random["win_rate_hi"] >= 0.10


def test_the_policy_strategy_is_an_installed_strategy() -> None:
    # the strategy layer learns of it from the package's entry points, as of any installed strategy
    from unosim.env.policy import PolicyStrategy
    from unosim.strategy.registry import REGISTRY, installed, resolve

    assert "policy" not in REGISTRY and installed()["policy"] == "unosim.env.policy:PolicyStrategy"
    assert resolve("policy") is PolicyStrategy
