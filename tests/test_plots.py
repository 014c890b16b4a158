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


def _values(rules: str, kinds: list[str], shift: float) -> pd.DataFrame:
    rows = [{"rules": rules, "scope": "all seats", "kind": k, "players": p, "value": shift + i + p,
             "low": shift + i + p - 1, "high": shift + i + p + 1} for i, k in enumerate(kinds) for p in (3, 6)]
    return pd.DataFrame(rows)


def test_a_card_kind_has_one_colour_in_every_plot() -> None:
    from matplotlib.colors import to_hex

    from unosim.reports.palette import kind_colour

    classic = plots.card_value_lines(_values("classic", ["skip", "wild", "wild_draw_four"], 0), axes())
    party = plots.card_value_lines(_values("party", ["point_taken", "wild_draw_four", "wild"], 1), axes())
    colours = [{line.get_label(): to_hex(line.get_color()) for line in ax.get_lines() if not line.get_label().startswith("_")}
               for ax in (classic, party)]
    assert colours[0]["wild draw four"] == colours[1]["wild draw four"] == kind_colour("wild_draw_four")
    assert colours[0]["wild"] == colours[1]["wild"] != colours[1]["point taken"]
    assert len(set(colours[1].values())) == 3


def test_a_rule_set_has_one_colour_in_every_plot(df: pd.DataFrame) -> None:
    from matplotlib.colors import to_hex

    from unosim.reports.palette import rules_colour

    band = plots.game_length_band(df[df["rules"] == "party"], axes())
    both = plots.game_length(df, axes())
    assert to_hex(band.get_lines()[0].get_color()) == rules_colour("party")
    assert to_hex(both.containers[1].lines[0].get_color()) == rules_colour("party")
    assert rules_colour("my-house") == rules_colour("my-house") != rules_colour("party")


def test_side_by_side_heatmaps_share_one_colour_scale(df: pd.DataFrame) -> None:
    spread = plots.seat_advantage_spread(df)
    limits = {plots.seat_advantage_heatmap(df, axes(), rules=r, spread=spread).images[0].get_clim() for r in ("classic", "party")}
    assert limits == {(1 - spread, 1 + spread)}
    values = pd.concat([_values("classic", ["skip"], 0), _values("party", ["wild"], 5)])
    spread = plots.card_value_spread(values)
    assert spread == 11
    clims = {plots.card_value_heatmap(values, axes(), rules=r, spread=spread).images[0].get_clim() for r in ("classic", "party")}
    assert clims == {(-11, 11)}


def test_heatmap_hatches_cells_whose_interval_holds_the_fair_share() -> None:
    even = [{"players": 2, "winner_offset": 1 + g % 2} for g in range(200)]
    lopsided = [{"players": 3, "winner_offset": 1} for _ in range(200)]
    frame = pd.DataFrame(even + lopsided)
    ax = plots.seat_advantage_heatmap(frame, axes())
    hatched = {(round(p.get_x() + 0.5), round(p.get_y() + 0.5)) for p in ax.patches if p.get_hatch()}
    assert hatched == {(0, 1), (0, 2)}  # both seats of the even 2-player table; none of the 3-player one


def test_comparison_with_one_player_count_has_a_categorical_axis() -> None:
    diffs = pd.DataFrame([{"metric": "turns", "variant": v, "baseline": "party", "players": 16, "diff": d,
                           "low": d - 1, "high": d + 1} for v, d in (("party a=1", 2.0), ("party a=2", -1.0))])
    ax = plots.comparison_differences(diffs, "turns", axes())
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a=1", "a=2"]  # what each changes in "party"
    assert list(ax.get_xticks()) == [0, 1] and "16 players" in ax.get_xlabel() and "against party" in ax.get_title()


def test_comparison_of_many_variants_draws_those_changing_one_option() -> None:
    """Of 31 variants (every combination of five on/off options against all off), the five that
    change one option are drawn, named by it; the title says 5 of 31."""
    import itertools

    names = [f"o{k}" for k in range(5)]
    base = "classic " + " ".join(f"{n}=false" for n in names)
    rows = []
    for values in itertools.product([False, True], repeat=5):
        if any(values):
            variant = "classic " + " ".join(f"{n}={str(v).lower()}" for n, v in zip(names, values))
            rows += [{"metric": "turns", "variant": variant, "baseline": base, "players": p, "diff": 1.0, "low": 0.0,
                      "high": 2.0} for p in (2, 3, 4)]
    ax = plots.comparison_differences(pd.DataFrame(rows), "turns", axes())
    assert sorted(t.get_text() for t in ax.get_legend().get_texts()) == [f"{n}=true" for n in names]
    assert "5 of 31 variants" in ax.get_title()


def test_tune_progress_has_integer_generation_ticks() -> None:
    from unosim.reports.tuning import progress_plot

    history = pd.DataFrame({"generation": [1, 2], **{k: [0.3, 0.4] for k in
                            ("best", "best_low", "best_high", "mean", "mean_low", "mean_high")}})
    ax = progress_plot(history, axes())
    ax.figure.canvas.draw()
    ticks = ax.get_xticks()
    assert len(ticks) >= 2 and all(float(t).is_integer() for t in ticks)


def test_tune_progress_shows_the_held_out_result() -> None:
    from unosim.reports.tuning import progress_plot

    history = pd.DataFrame({"generation": [1, 2, 3], **{k: [0.3, 0.4, 0.45] for k in
                            ("best", "best_low", "best_high", "mean", "mean_low", "mean_high")}})
    ev = {"win_rate": 0.36, "low": 0.35, "high": 0.37, "start_win_rate": 0.34, "start_low": 0.33, "start_high": 0.35}
    ax = progress_plot(history, axes(), evaluation=ev)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "held out: tuned" in labels and "held out: start" in labels
    points = {c.get_label(): c.lines[0].get_ydata()[0] for c in ax.containers}
    assert points["held out: tuned"] == 0.36 and points["held out: start"] == 0.34


def test_many_kinds_are_drawn_as_small_multiples() -> None:
    from matplotlib.colors import to_hex

    from unosim.reports.palette import kind_colour

    kinds = ["skip", "reverse", "draw_two", "point_taken", "wild", "wild_draw_four", "wild_pile_up"]
    fig = plots.card_value_panels(_values("party", kinds, 0), Figure(), rules="party")
    shown = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in shown] == [k.replace("_", " ") for k in kinds]
    assert all(len(ax.get_lines()) == 2 for ax in shown)  # its own line and the zero line: no overlap
    assert to_hex(shown[5].get_lines()[0].get_color()) == kind_colour("wild_draw_four")
    assert len(kinds) >= plots.SMALL_MULTIPLES_FROM
