"""The swap cross-check of card values: the as-dealt games are the ordinary run's games, the
swap changes exactly one card of one hand, the estimate finds a card of clear value, and the
CLI writes the report (and refuses a bad kind)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from typer.testing import CliRunner

from unosim.analysis.cardswap import SwapResult, play_deals, swap_values
from unosim.cli import app
from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine
from unosim.game.cards import CARD_KIND, KIND_NAMES
from unosim.game.kernels import layout as L
from unosim.reports.dataset_report import write_report


def test_as_dealt_is_the_ordinary_game_and_the_swap_changes_one_card() -> None:
    config = RunConfig.build(rules="classic", players=3, strategies="random", seed=5, games=600)
    ordinary = Engine(config).play(0, 600)
    engine = Engine(config, batch_size=600)
    choice = np.random.default_rng(0).random((600, 3))
    dealt, seat, _, _ = play_deals(engine, 0, 600, choice, None)
    assert np.array_equal(dealt.rec, ordinary.rec) and np.array_equal(dealt.opening, ordinary.opening)

    wd4 = KIND_NAMES.index("wild_draw_four")
    swapped, seat2, ok, before = play_deals(engine, 0, 600, choice, wd4)
    assert np.array_equal(seat, seat2) and ok.mean() > 0.95
    changed = dealt.opening != swapped.opening  # (games, seats, cards)
    rows = np.arange(600)
    assert not changed[~ok].any()
    assert (changed[ok].sum(axis=(1, 2)) == 1).all()  # one card of one hand
    assert changed[rows[ok], seat[ok]].any(axis=1).all()  # ... of the chosen seat
    g, p, h = np.nonzero(changed)
    assert (CARD_KIND[dealt.opening[g, p, h]] == 0).all() and (CARD_KIND[swapped.opening[g, p, h]] == wd4).all()
    held = (CARD_KIND[dealt.opening[rows, seat]] == wd4).any(axis=1)
    assert np.array_equal(before, ~held)
    # the same deals: where nothing was swapped the game is the same game
    assert np.array_equal(swapped.rec[~ok], dealt.rec[~ok])
    assert not np.array_equal(swapped.rec[ok, L.R_TURNS], dealt.rec[ok, L.R_TURNS])


def test_swap_values_find_the_wild_draw_four_and_the_report_shows_both(tmp_path: Path) -> None:
    # 2 players, 2,000 deals, seed 1: a Wild Draw Four is worth about +12 pp (regression on
    # 10 M games), the swap's standard error is about 1.1 pp, so its interval excludes 0 by far
    result = swap_values("classic", 2, games=2000, seed=1, kinds="skip,wild_draw_four")
    v = result.values.set_index("kind")
    assert list(v.index) == ["skip", "wild_draw_four"] and (v["games"] == 2000).all()
    assert (v["pairs"] <= 2000).all() and (v["pairs"] > 1900).all()
    assert ((v["swap_low"] < v["swap_value"]) & (v["swap_value"] < v["swap_high"])).all()
    assert v.loc["wild_draw_four", "swap_low"] > 4 and v.loc["wild_draw_four", "regression_low"] > 4
    assert (v["variance_reduction"] > 0.5).all() and np.isfinite(v["variance_reduction"]).all()
    assert ((v["first_copy_share"] > 0) & (v["first_copy_share"] <= 1)).all()
    result.save(tmp_path / "swap")
    assert SwapResult.read(tmp_path / "swap").values.shape == result.values.shape
    files = write_report(tmp_path / "swap")
    assert {f.name for f in files} >= {"card_value_swap.png", "card_value_swap.svg", "report.md", "report.html"}
    assert "swap experiment against regression" in (tmp_path / "swap" / "report" / "report.md").read_text()


def test_cli_refuses_an_unknown_kind_before_playing() -> None:
    res = CliRunner().invoke(app, ["cardvalue-swap", "--rules", "classic", "--kinds", "point_taken", "--games", "10"])
    assert res.exit_code == 2
    assert "point_taken" in res.output and "choose from: skip, reverse, draw_two, wild, wild_draw_four" in res.output


def test_swap_values_do_not_depend_on_jobs(tmp_path: Path) -> None:
    one = swap_values("classic", "2,3", games=300, seed=4, kinds="skip")
    two = swap_values("classic", "2,3", games=300, seed=4, kinds="skip", jobs=2)
    pd.testing.assert_frame_equal(one.values, two.values)
    res = CliRunner().invoke(app, ["cardvalue-swap", "--rules", "classic", "--player-counts", "2,3", "--kinds", "skip",
                                   "--games", "300", "--seed", "4", "--jobs", "2"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert f"{one.values['swap_value'].iloc[0]:+.2f}" in res.output
    refused = CliRunner().invoke(app, ["cardvalue-swap", "--games", "10", "--jobs", "0"])
    assert refused.exit_code == 2 and "jobs = 0" in refused.output
