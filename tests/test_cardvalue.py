"""Card value: the streaming clustered regression against statsmodels, planted effects on
synthetic games (recovery and interval coverage), and the placebo kind on real games."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm

import unosim
from unosim.analysis.cardvalue import Kinds, SeatChunk, card_values, fit_cell, value_table
from unosim.analysis.stats import ClusteredOLS, paired_difference

KINDS = Kinds.of(("skip", "wild"))  # synthetic chunks need only the names and the patterns


def synthetic_games(
    rng: np.random.Generator, games: int, players: int, slope: np.ndarray, first: np.ndarray | None = None,
    second: np.ndarray | None = None,
) -> SeatChunk:
    """Games with independent hands of 7 and one winner drawn with planted probabilities.

    A seat's win probability is ``1/P + seat effect + f(own hand) - mean over seats of f``
    with ``f(c) = slope·c + first·1[c>=1] + second·1[c>=2]``; with hands independent across
    seats, the regression of winning on the own hand has the slopes ``(1 - 1/P)`` times
    the planted ones (the holder's share of the zero-sum effect).
    """
    K = len(slope)
    n = games * players
    share = np.array([0.08, 0.04])[:K]
    counts = rng.multinomial(7, np.r_[share, 1 - share.sum()], size=n)[:, :K].astype(np.int8)
    f = counts @ slope
    if first is not None:
        f = f + (counts >= 1) @ first
    if second is not None:
        f = f + (counts >= 2) @ second
    f = f.reshape(games, players)
    seat_effect = np.linspace(0.03, -0.03, players)
    dealer = rng.integers(0, players, games)
    offset = (np.arange(players)[None, :] - dealer[:, None]) % players
    offset[offset == 0] = players
    p = 1 / players + seat_effect[offset - 1] + f - f.mean(axis=1, keepdims=True)
    assert (p > 0).all()
    winner = (rng.random(games)[:, None] > np.cumsum(p, axis=1)).sum(axis=1)
    won = np.arange(players)[None, :] == winner[:, None]
    return SeatChunk(KINDS.pattern_ids(counts).reshape(games, players), offset, won)


def in_chunks(chunk: SeatChunk, parts: int):
    bounds = np.linspace(0, len(chunk.pattern), parts + 1).astype(int)

    def chunks() -> Iterator[SeatChunk]:
        for a, b in zip(bounds[:-1], bounds[1:]):
            yield SeatChunk(chunk.pattern[a:b], chunk.offset[a:b], chunk.won[a:b])

    return chunks


def test_streamed_fit_equals_statsmodels_cluster_robust() -> None:
    rng = np.random.default_rng(11)
    P = 4
    data = synthetic_games(rng, 3000, P, np.array([0.02, -0.01]))
    counts = KINDS.patterns[data.pattern.ravel()].astype(float)
    offset, won = data.offset.ravel(), data.won.ravel().astype(float)
    game = np.repeat(np.arange(3000), P)
    seat = np.eye(P)[offset - 1]
    dummies = np.hstack([counts >= c for c in (1, 2, 3)]).astype(float)
    first = offset == 1
    for memory in (1 << 30, 0):  # chunks kept for the second pass, or read again
        fits = fit_cell(in_chunks(data, 5), KINDS, P, memory=memory)
        for model, Z in (("linear", counts), ("copies", dummies)):
            keep = Z.any(axis=0)
            ref = sm.OLS(won, np.hstack([Z[:, keep], seat])).fit(cov_type="cluster", cov_kwds={"groups": game})
            ours = fits[("all seats", model)]
            cols = np.r_[keep, np.ones(P, bool)]
            np.testing.assert_allclose(ours.coef[cols], ref.params, rtol=1e-9, atol=1e-12)
            np.testing.assert_allclose(ours.se[cols], ref.bse, rtol=1e-9)
            ref1 = sm.OLS(won[first], np.hstack([Z[first][:, keep], np.ones((first.sum(), 1))])).fit(
                cov_type="cluster", cov_kwds={"groups": game[first]})
            np.testing.assert_allclose(fits[("first player", model)].se[np.r_[keep, True]], ref1.bse, rtol=1e-9)


def test_planted_effects_are_recovered_within_their_intervals() -> None:
    """Planted first- and second-copy values, and planted slopes, are recovered within 4
    standard errors (a single fixed-seed draw; the nominal 95 % coverage is the next test)."""
    rng = np.random.default_rng(5)
    P = 4
    data = synthetic_games(rng, 100_000, P, np.zeros(2), first=np.array([0.04, 0.03]), second=np.array([-0.06, 0.03]))
    table = value_table(fit_cell(in_chunks(data, 4), KINDS, P), KINDS)
    row = table[(table["scope"] == "all seats")].set_index("kind")
    truth_first = 100 * (1 - 1 / P) * np.array([0.04, 0.03])
    truth_second = 100 * (1 - 1 / P) * np.array([-0.06, 0.03])
    for i, kind in enumerate(("skip", "wild")):
        for name, truth in (("first", truth_first[i]), ("second", truth_second[i])):
            est, low, high = row.loc[kind, [f"{name}_copy", f"{name}_low", f"{name}_high"]]
            assert abs(est - truth) <= 4 * (high - low) / 3.92, (kind, name, est, truth)
    assert row.loc["skip", "copies_differ"]  # +3 pp then -4.5 pp, standard errors about 0.5 pp
    slope = np.array([0.03, 0.0])
    linear = synthetic_games(rng, 100_000, P, slope)
    table = value_table(fit_cell(in_chunks(linear, 3), KINDS, P), KINDS).set_index(["scope", "kind"])
    for scope in ("all seats", "first player"):
        truth = 100 * (1 - 1 / P) * slope
        for i, kind in enumerate(("skip", "wild")):
            assert abs(table.loc[(scope, kind), "value"] - truth[i]) <= 4 * table.loc[(scope, kind), "se"]
        assert table.loc[(scope, "skip"), "low"] > 0  # the planted 2.25 pp is detected


def test_intervals_cover_at_the_nominal_rate() -> None:
    """200 synthetic replications: the 95 % interval of each planted slope covers the truth
    in 190 of 200 on average (binomial sd 3.1); accepted: 178 to 200 (4 sd)."""
    rng = np.random.default_rng(2026)
    P, slope = 5, np.array([0.02, -0.015])
    truth = 100 * (1 - 1 / P) * slope
    covered = np.zeros(2, int)
    for _ in range(200):
        data = synthetic_games(rng, 1500, P, slope)
        table = value_table(fit_cell(in_chunks(data, 2), KINDS, P), KINDS)
        rows = table[table["scope"] == "all seats"].set_index("kind")
        covered += [(rows.loc[k, "low"] <= t <= rows.loc[k, "high"]) for k, t in zip(("skip", "wild"), truth)]
    assert ((covered >= 178) & (covered <= 200)).all(), covered


def test_clustered_ols_refuses_misuse() -> None:
    fit = ClusteredOLS(["a"])
    with pytest.raises(ValueError, match="solve"):
        fit.add_meat(np.ones((2, 1)), np.ones(2), np.arange(2))
    with pytest.raises(ValueError, match="no data"):
        fit.solve()


def test_paired_difference_reports_variance_reduction() -> None:
    rng = np.random.default_rng(3)
    common = rng.normal(size=5000)
    a, b = common + rng.normal(scale=0.1, size=5000), common + 0.5 + rng.normal(scale=0.1, size=5000)
    paired = paired_difference(a, b)
    assert paired.low <= 0.5 <= paired.high
    assert paired.variance_reduction > 50  # var(a)+var(b) = 2.02 against var(b-a) = 0.02


@pytest.fixture(scope="module")
def placebo_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("placebo") / "run"
    unosim.simulate(rules="classic", players=4, games=200_000, seed=20261130, out=out, jobs=1)
    return out


def test_placebo_kind_is_worth_nothing_under_random(placebo_run: Path) -> None:
    """The 5s against the numbers 1-4 and 6-9 are exchangeable for a random player: the
    estimate is 0 within 4 standard errors, with an interval narrow enough to mean it."""
    table = card_values(placebo_run, placebo=True).set_index(["scope", "kind"])
    for scope in ("all seats", "first player"):
        five = table.loc[(scope, "five")]
        assert abs(five["value"]) <= 4 * five["se"], five
        assert five["high"] - five["low"] < (0.6 if scope == "all seats" else 1.2)
        assert abs(five["first_copy"]) <= 4 * (five["first_high"] - five["first_low"]) / 3.92
    kinds = set(table.loc["all seats"].index)
    assert kinds == {"skip", "reverse", "draw_two", "wild", "wild_draw_four", "five", "zero"}
    assert (table["games"] == 200_000).all()


def test_flags_are_adjusted_for_multiple_comparisons_with_holm() -> None:
    from statsmodels.stats.multitest import multipletests

    from unosim.analysis.cardvalue import adjusted
    from unosim.analysis.stats import adjust_p_values

    p = np.array([0.001, 0.02, 0.03, np.nan, 0.04])
    reject, adj = adjust_p_values(p)
    expected = multipletests(p[[0, 1, 2, 4]], alpha=0.05, method="holm")
    assert np.allclose(adj[[0, 1, 2, 4]], expected[1]) and np.isnan(adj[3])
    assert list(reject) == [True, False, False, False, False]  # raw p < 0.05 everywhere, one flag survives
    # twenty kinds each with p = 0.01 raw: every raw interval excludes 0, none survives the family
    values = pd.DataFrame({"value_p": [0.01] * 20, "copies_p": [1e-6] + [0.5] * 19})
    out = adjusted(values)
    assert not out["value_clear"].any() and out["value_p_adjusted"].min() == pytest.approx(0.2)
    assert out["copies_differ_adjusted"].tolist() == [True] + [False] * 19


def test_plain_wilds_reading_raises_the_second_wild_draw_four(tmp_path: Path) -> None:
    """Two Wild Draw Fours block each other under ``no_color_match_incl_wilds``; with only plain Wilds
    blocking, the step from one Wild Draw Four to two is worth more."""
    second = {}
    for when in ("no_color_match_incl_wilds", "no_color_match_incl_plain_wilds"):
        out = tmp_path / when
        unosim.simulate(rules="party", players=4, games=10_000, seed=11, out=out, overrides=[f"wd4_legal_when={when}"])
        values = card_values(out)
        second[when] = values[(values["scope"] == "all seats") & (values["kind"] == "wild_draw_four")].iloc[0]
    blocked, plain = second["no_color_match_incl_wilds"], second["no_color_match_incl_plain_wilds"]
    assert blocked["second_high"] < 0  # a second copy hurts when the two block each other
    assert plain["second_copy"] - blocked["second_copy"] > 10
    assert plain["second_low"] > blocked["second_high"]


@pytest.mark.parametrize("name", ["x$^$", "cost $5 or $6", "$\\bad$"])
def test_a_dollar_in_a_rule_name_is_text_in_the_card_value_plots(tmp_path: Path, name: str) -> None:
    from unosim.reports.dataset_report import write_report

    out = tmp_path / "run"
    unosim.simulate(rules="classic", players=2, games=3000, seed=4, overrides={"name": name}, out=out, jobs=1, quiet=True)
    files = write_report(out, tmp_path / "report", card_values=True)
    md = (tmp_path / "report" / "report.md").read_text()
    assert "## Card values" in md and "could not be estimated" not in md
    assert sum(f.name.startswith("card_value_heatmap_") and f.suffix == ".png" for f in files) == 2
