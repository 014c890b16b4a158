"""The plot functions of :mod:`unosim.reports.plots` draw what the data say.

A small hand-made table (two rule sets, 2 and 3 players) with known means lets
each plot's lines and error bars be checked against numbers computed here.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from unosim.reports import plots


@pytest.fixture
def df() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    rows = []
    for rules, base in (("classic", 30), ("party", 50)):
        for players in (2, 3):
            for game in range(40):
                winner_offset = 1 + game % players
                truncated = game == 39 and rules == "party"
                rows.append({"rules": rules, "players": players, "turns": base + players * 5 + int(rng.integers(-5, 6)),
                             "cards_played": 20 + players, "cards_drawn": 10 + 2 * players,
                             "winner_offset": None if truncated else winner_offset, "truncated": truncated})
    frame = pd.DataFrame(rows)
    frame["winner_offset"] = frame["winner_offset"].astype("Int8")
    return frame


def axes():
    return Figure().subplots()


def test_mean_ci_is_the_normal_interval() -> None:
    values = pd.Series([1.0, 2.0, 3.0, 4.0])
    mean, half = plots.mean_ci(values)
    assert mean == 2.5
    assert half == pytest.approx(1.959964 * np.std([1, 2, 3, 4], ddof=1) / 2)
    assert np.isnan(plots.mean_ci(pd.Series([5.0]))[1])


def test_game_length_one_line_per_rule_set(df: pd.DataFrame) -> None:
    ax = plots.game_length(df, axes())
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["classic", "party"]
    assert len(ax.containers) == 2
    for bars, rules in zip(ax.containers, ["classic", "party"]):
        line = bars.lines[0]  # the data line of the error bar plot
        expected = df[df["rules"] == rules].groupby("players")["turns"].mean()
        assert list(line.get_xdata()) == [2, 3]
        assert np.allclose(line.get_ydata().astype(float), expected.to_numpy())


def test_seat_advantage_is_win_rate_times_players(df: pd.DataFrame) -> None:
    ax = plots.seat_advantage(df, axes(), rules="party")
    assert len(ax.containers) == 2  # one per player count
    two = ax.containers[0].lines[0]
    games = df[(df["rules"] == "party") & (df["players"] == 2) & ~df["truncated"]]
    rate = [(games["winner_offset"] == k).mean() * 2 for k in (1, 2)]
    assert list(two.get_xdata()) == [1, 2] and np.allclose(two.get_ydata().astype(float), rate)
    assert ax.get_title() == "Seat advantage — party"


def test_cards_per_game_played_and_drawn(df: pd.DataFrame) -> None:
    ax = plots.cards_per_game(df, axes())
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["classic: played", "classic: drawn", "party: played", "party: drawn"]
    assert np.allclose(ax.get_lines()[0].get_ydata(), [22, 23]) and np.allclose(ax.get_lines()[1].get_ydata(), [14, 16])


def test_plots_draw_on_a_new_figure_without_an_axis(df: pd.DataFrame) -> None:
    import matplotlib.pyplot as plt

    try:
        assert plots.game_length(df.drop(columns="rules")).get_legend().get_texts()[0].get_text() == "all"
    finally:
        plt.close("all")


def test_summary_table(df: pd.DataFrame) -> None:
    table = plots.summary_table(df)
    assert list(table[["rules", "players"]].itertuples(index=False, name=None)) == [
        ("classic", 2), ("classic", 3), ("party", 2), ("party", 3)]
    party3 = table.iloc[3]
    games = df[(df["rules"] == "party") & (df["players"] == 3)]
    assert party3["games"] == 40
    assert party3["mean turns"] == round(games["turns"].mean(), 2)
    assert party3["truncated %"] == 2.5
    assert party3["first player wins × P"] == round((games["winner_offset"] == 1).mean() * 3, 3)


def test_percentiles_of_integers_are_numpys() -> None:
    rng = np.random.default_rng(0)
    q = [0, 5, 25, 50, 75, 95, 100]
    for n in (1, 2, 7, 1001):
        values = rng.integers(0, 300, n).astype(np.int32)
        assert np.allclose(plots.percentiles(values, q), np.percentile(values, q))
    assert np.allclose(plots.percentiles(np.array([0.5, 2.5]), [50]), [1.5])  # floats: numpy itself
