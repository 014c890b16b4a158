"""Seat-fair tournaments: the design, common random numbers, determinism, the report files,
refused input, planted strengths, the rating fit and the deal-clustered intervals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from typer.testing import CliRunner

from unosim.analysis.tournament import (
    Z95,
    TournamentResult,
    analyse,
    bradley_terry,
    cluster_ratio,
    is_tournament,
    load_tournament,
    make_design,
    run_tournament,
)
from unosim.cli import app
from unosim.engine.config import RunConfig
from unosim.engine.driver import play_tables
from unosim.engine.records import seats as seat_rows
from unosim.runs import files, reading

runner = CliRunner()


@pytest.fixture(scope="module", autouse=True)
def warm_engine() -> None:
    """Compile (or load from cache) the engine in this process first."""
    play_tables(RunConfig.build(players=2, games=1), 0, 2)


def flat(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------------ the design
DESIGNS = [  # (strategies, players, max_tables, kind, pairs exactly balanced)
    (2, 6, 120, "repeat", True),
    (4, 6, 120, "repeat", True),
    (6, 6, 120, "single", True),
    (8, 6, 120, "all-combinations", True),
    (3, 2, 120, "all-combinations", True),
    (7, 3, 5, "cyclic", True),  # {0, 1, 3} is a perfect difference set mod 7
    (13, 4, 5, "cyclic", True),  # {0, 1, 3, 9} mod 13
    (10, 6, 120, "cyclic", False),
]


@pytest.mark.parametrize(("n", "players", "max_tables", "kind", "exact"), DESIGNS)
def test_design_is_seat_fair_and_pairs_balanced(n: int, players: int, max_tables: int, kind: str, exact: bool) -> None:
    design = make_design([f"s{i}" for i in range(n)], players, max_tables=max_tables)
    assert design.kind == kind
    seats = design.seat_counts()
    assert seats.min() == seats.max() > 0  # every strategy at every seat equally often
    meet = design.pair_meetings()
    assert len(set(np.diagonal(meet))) == 1  # every strategy at equally many tables
    off = meet[~np.eye(n, dtype=bool)]
    assert off.min() >= 1
    if exact:
        assert off.min() == off.max()
    else:
        assert off.max() - off.min() <= 1
    for table in design.tables:
        assert len(table) == players
    lineups = [lineup for _, _, lineup in design.cells()]
    assert len(set(lineups)) == len(lineups)  # no seating is played twice (it would replay identical games)


def test_fewer_strategies_than_seats_repeat_in_order() -> None:
    alternating = make_design(["a", "b"], 6)
    assert alternating.tables == ((0, 1, 0, 1, 0, 1),)
    assert [lineup for _, _, lineup in alternating.cells()] == [(0, 1, 0, 1, 0, 1), (1, 0, 1, 0, 1, 0)]
    shifted = make_design(["a", "b", "c", "d"], 6).tables
    assert shifted == ((0, 1, 2, 3, 0, 1), (1, 2, 3, 0, 1, 2), (2, 3, 0, 1, 2, 3), (3, 0, 1, 2, 3, 0))


# ------------------------------------------------------------------ common random numbers
@pytest.fixture(scope="module")
def small() -> TournamentResult:
    """Classic rules, 3 players, 3 strategies: one table, three rotations, in memory."""
    return run_tournament(rules="classic", players=3, strategies="random,greedy,random(draw_rate=0.5)", games=600, seed=5)


def test_each_deal_is_replayed_under_every_rotation(small: TournamentResult) -> None:
    rows = small.to_pandas()
    assert len(rows) == small.games == 3 * small.deals == 600
    assert sorted(rows["cell"].unique()) == [0, 1, 2]
    for _, same_deal in rows.groupby("game"):
        assert len(same_deal) == 3
        assert same_deal["dealer"].nunique() == 1  # the same deal: the same dealer ...
        hands = [tuple(map(tuple, h)) for h in same_deal["opening_hand"]]
        assert len(set(hands)) == 1  # ... and the same opening hand at every seat
        lineups = {tuple(s) for s in same_deal["strategies"]}
        assert len(lineups) == 3  # under three different seatings
    # per deal, every strategy holds every seat offset from the dealer exactly once
    counts = seat_rows(rows).groupby(["game", "strategy", "offset"]).size()
    assert counts.min() == counts.max() == 1
    assert len(counts) == small.deals * 3 * 3


def test_deals_do_not_depend_on_the_line_up() -> None:
    """The same seed and game index deal the same cards whoever sits down."""
    a = play_tables(RunConfig.build(rules="party", players=4, strategies="random", seed=9, games=50), 0, 50)[0]
    b = play_tables(RunConfig.build(rules="party", players=4, strategies="greedy,random,greedy,random", seed=9, games=50), 0, 50)[0]
    assert a.column("opening_hand").to_pylist() == b.column("opening_hand").to_pylist()
    assert a.column("dealer").to_pylist() == b.column("dealer").to_pylist()


# ------------------------------------------------------------------ determinism, files, report
def test_same_seed_same_numbers_for_any_jobs(tmp_path: Path) -> None:
    args = dict(rules="classic", players=4, strategies="random,greedy", games=4000, seed=3, bootstrap=50)
    one = run_tournament(**args, jobs=1, out=tmp_path / "one", chunk_size=250)
    two = run_tournament(**args, jobs=2, out=tmp_path / "two", chunk_size=400)
    again = run_tournament(**args)
    pd.testing.assert_frame_equal(one.leaderboard, two.leaderboard)
    pd.testing.assert_frame_equal(one.leaderboard, again.leaderboard)
    pd.testing.assert_frame_equal(one.head_to_head, two.head_to_head)
    keep = ["cell", "game", "winner", "turns", "hand_points"]
    pd.testing.assert_frame_equal(one.to_pandas()[keep], two.to_pandas()[keep])
    other = run_tournament(**{**args, "seed": 4})
    assert not one.leaderboard["win_rate"].equals(other.leaderboard["win_rate"])


def test_a_larger_run_extends_the_dataset_and_a_smaller_one_is_refused(tmp_path: Path) -> None:
    args = dict(rules="classic", players=2, strategies="random,greedy", seed=6, bootstrap=20, out=tmp_path / "t",
                chunk_size=100)
    first = run_tournament(**args, games=400)
    bigger = run_tournament(**args, games=800)
    assert (first.deals, bigger.deals) == (200, 400)
    rows = reading.load(tmp_path / "t")
    assert len(rows) == 800 and rows.groupby("cell")["game"].max().tolist() == [399, 399]
    fresh = run_tournament(**{**args, "out": None}, games=800)
    pd.testing.assert_frame_equal(bigger.leaderboard, fresh.leaderboard)
    with pytest.raises(ValueError, match="holds this tournament with more games"):
        run_tournament(**args, games=400)


REPORT_FILES = [
    "leaderboard.md", "leaderboard.csv", "head_to_head.csv", "leaderboard.png", "leaderboard.svg",
    "head_to_head.png", "head_to_head.svg", "report.md",
]


def test_cli_writes_dataset_and_report_and_report_redraws_them(tmp_path: Path) -> None:
    out = tmp_path / "t"
    result = runner.invoke(app, ["tournament", "--rules", "classic", "--players", "2", "--strategies",
                                 "random,greedy,random(draw_rate=0.3)", "--games", "600", "--seed", "1",
                                 "--bootstrap", "20", "--jobs", "1", "--out", str(out)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert "Leaderboard" in text and "greedy" in text and "random(draw_rate=0.3)" in text and "95 % CI" in text
    assert is_tournament(out)
    meta = files.read_metadata(out)
    assert meta["tournament"]["design"]["kind"] == "all-combinations"
    rows = reading.load(out)
    assert {"cell", "table", "rotation", "game", "strategies"} <= set(rows.columns)
    assert len(rows) == meta["tournament"]["games"] >= 600
    report = out / "report"
    for name in REPORT_FILES:
        assert (report / name).stat().st_size > 0, name
    board = pd.read_csv(report / "leaderboard.csv")
    assert list(board.columns[:4]) == ["rank", "strategy", "seat_games", "wins"]
    md = (report / "report.md").read_text()
    assert md.index("## Findings") < md.index("## What this report rests on") < md.index("## Leaderboard")
    leader = board.iloc[0]
    assert f"`{leader['strategy']}` leads the 3 strategies: it wins {100 * leader['win_rate']:.1f}" in md
    assert "`classic`, as shipped" in md and "deck copies: 1" in md and "seed: 1" in md
    assert "table 0: random, greedy" in md.replace("random(draw_rate=0.3)", "rdr")
    assert "<li>rules: <code>classic</code>, as shipped</li>" in (report / "report.html").read_text()
    page = (report / "report.html").read_text()
    assert "<th>win rate [95 % CI]</th>" in page and "<th>strategy \\ opponent</th>" in page
    h2h = page.split("Head-to-head: row strategy", 1)[1].split("</table>", 1)[0]
    assert h2h.count("<tr") == 1 + 3  # header and one row per strategy, not one per ordered pair
    first = {name: (report / name).read_text() for name in ("leaderboard.csv", "head_to_head.csv", "leaderboard.md")}
    for path in report.iterdir():
        path.unlink()
    redrawn = runner.invoke(app, ["report", str(out)])
    assert redrawn.exit_code == 0, redrawn.output
    for name in REPORT_FILES:
        assert (report / name).is_file(), name
    assert {name: (report / name).read_text() for name in first} == first


BAD_TOURNAMENT = [
    (["--strategies", "random"], "at least 2 different strategies"),
    (["--strategies", "random,random"], "'random' is listed twice"),
    (["--strategies", "random,nosuch,alsonot"], "unknown strategies 'nosuch', 'alsonot'"),
    (["--strategies", "random,greedy", "--players", "17"], "players = 17"),
    (["--strategies", "random,greedy", "--players", "1"], "players = 1"),
    (["--strategies", "random,greedy", "--precision", "0"], "precision = 0.0"),
    (["--strategies", "random,greedy", "--precision", "-0.01"], "precision = -0.01"),
    (["--strategies", "random,greedy", "--max-games", "100000"], "--max-games only applies with --precision"),
    (["--strategies", "random,greedy", "--precision", "0.01", "--games", "5000", "--max-games", "10"], "max_games = 10"),
    (["--strategies", "random,greedy", "--games", "0"], "games = 0"),
    (["--strategies", "random,greedy", "--bootstrap", "3"], "bootstrap = 3"),
    (["--strategies", "random,greedy", "--jobs", "0"], "jobs = 0"),
    (["--strategies", "random(draw_rate=2),greedy"], "draw_rate=2"),
]


@pytest.mark.parametrize(("args", "message"), BAD_TOURNAMENT, ids=[" ".join(a) for a, _ in BAD_TOURNAMENT])
def test_bad_tournament_input_exits_2_before_any_work(tmp_path: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["tournament", *args, "--out", str(tmp_path / "t")])
    assert result.exit_code == 2, result.output
    assert message in flat(result.output)
    assert "Traceback" not in result.output
    assert not (tmp_path / "t").exists()


def test_bench_names_every_missing_strategy() -> None:
    result = runner.invoke(app, ["bench", "--tournament", "--strategies", "random,greedy,notyet,alsonot", "--seconds", "0.1"])
    assert result.exit_code == 2
    assert "unknown strategies 'notyet', 'alsonot'" in flat(result.output)


# ------------------------------------------------------------------ precision mode and matches
def test_precision_mode_plays_until_every_interval_is_narrow(tmp_path: Path) -> None:
    rounds: list[tuple[int, float]] = []
    result = run_tournament(rules="classic", players=2, strategies="random,greedy", games=400, seed=2,
                            precision=0.03, chunk_size=100, bootstrap=20, out=tmp_path / "p",
                            on_round=lambda games, widest: rounds.append((games, widest)))
    assert result.widest <= 0.03
    assert rounds and all(w > 0.03 for _, w in rounds) and result.games > rounds[-1][0]
    assert len(reading.load(tmp_path / "p")) == result.games
    pd.testing.assert_frame_equal(load_tournament(tmp_path / "p").leaderboard, result.leaderboard)
    capped = run_tournament(rules="classic", players=2, strategies="random,greedy", games=400, seed=2,
                            precision=0.001, max_games=1000, chunk_size=100, bootstrap=20)
    assert capped.games == 1000 and capped.widest > 0.001


def test_match_tournament() -> None:
    result = run_tournament(rules="classic", players=2, strategies="random,greedy", games=60, seed=1, match=True,
                            bootstrap=20)
    rows = result.to_pandas()
    assert len(rows) == 60 and "match_winner" in rows.columns
    board = result.leaderboard.set_index("strategy")
    assert board["win_rate"].sum() == pytest.approx(1.0)  # one match winner per match, two seats
    assert (board["points"] > 100).all()  # final match totals (the winner reaches 500)


# ------------------------------------------------------------------ planted strengths
def test_planted_strengths_are_recovered_in_order() -> None:
    """Drawing instead of playing a playable card (draw_rate) is a handicap: a higher rate must
    rank lower, by win rate and by rating, with non-overlapping 95 % intervals (seed 11;
    classic rules, 4 players, one table in 4 rotations, 4,000 games). In a pilot at 8,000 games
    the win rates were 0.47, 0.29, 0.16, 0.08 with half-widths about 0.01, and the ratings
    0.82, 0.32, -0.24, -0.90 with half-widths about 0.04: the gaps are many interval widths."""
    names = ["random", "random(draw_rate=0.1)", "random(draw_rate=0.2)", "random(draw_rate=0.3)"]
    result = run_tournament(rules="classic", players=4, strategies=names, games=4_000, seed=11, bootstrap=100)
    board = result.leaderboard
    assert list(board["strategy"]) == names
    assert list(board.sort_values("win_rate", ascending=False)["strategy"]) == names
    assert (board["win_rate_lo"].to_numpy()[:-1] > board["win_rate_hi"].to_numpy()[1:]).all()
    assert (board["rating_lo"].to_numpy()[:-1] > board["rating_hi"].to_numpy()[1:]).all()
    beat = result.head_to_head_matrix()
    assert beat.loc["random", "random(draw_rate=0.3)"] > 0.5


def synthetic_tournament(theta: np.ndarray, players: int, deals: int, seed: int):
    """Rows of a tournament whose winners follow a Luce model with log-strengths ``theta``."""
    design = make_design([f"s{i}" for i in range(len(theta))], players)
    lineups = design.lineups()
    rng = np.random.default_rng(seed)
    cell = np.repeat(np.arange(len(lineups)), deals)
    game = np.tile(np.arange(deals), len(lineups))
    weight = np.exp(theta[lineups[cell]])
    chance = weight / weight.sum(axis=1, keepdims=True)
    winner = (rng.random(len(cell))[:, None] > np.cumsum(chance, axis=1)).sum(axis=1)
    offsets = pa.array(np.arange(0, players * len(cell) + 1, players, dtype=np.int32))
    table = pa.table({
        "cell": cell, "game": game, "winner": pa.array(winner.astype(np.int8)),
        "winner_points": np.full(len(cell), 50, np.int32),
        "hand_points": pa.ListArray.from_arrays(offsets, pa.array(np.zeros(players * len(cell), np.int16))),
    })
    return design, table


def test_rating_fit_recovers_known_strengths() -> None:
    """Luce strengths planted at (0.6, 0.3, 0, -0.3, -0.6), 5 strategies at 3-seat tables
    (all 10 combinations, 3 rotations), 10,000 deals (seed 4): every rating within 4 bootstrap
    standard errors (and 0.03) of the truth, every 95 % interval ordered."""
    theta = np.array([0.6, 0.3, 0.0, -0.3, -0.6])
    design, table = synthetic_tournament(theta, 3, 10_000, seed=4)
    board, pairs, ratings = analyse(design, table, None, deals=10_000, match=False, seed=0, bootstrap=100)
    error = ratings["rating"].to_numpy() - theta
    assert (np.abs(error) < np.maximum(4 * ratings["rating_se"].to_numpy(), 1e-9)).all()
    assert (np.abs(error) < 0.03).all()
    assert list(board["strategy"]) == [f"s{i}" for i in range(5)]
    # Luce: A's share of the pair's wins when both sit at a table is exp(a) / (exp(a) + exp(b))
    row = pairs[(pairs["strategy"] == "s0") & (pairs["opponent"] == "s4")].iloc[0]
    assert row["beat_lo"] < np.exp(0.6) / (np.exp(0.6) + np.exp(-0.6)) < row["beat_hi"]
    assert board["points"].to_numpy() == pytest.approx(50 * board["win_rate"].to_numpy())


def test_bradley_terry_on_a_known_comparison_matrix() -> None:
    strength = np.array([2.0, 1.0, 0.5])
    p = strength[:, None] / (strength[:, None] + strength[None, :])
    comparisons = 1e6 * p * (1 - np.eye(3))
    fitted = bradley_terry(comparisons)
    assert fitted == pytest.approx(np.log(strength) - np.log(strength).mean(), abs=1e-3)


# ------------------------------------------------------------------ clustered intervals
def test_cluster_interval_covers_where_the_naive_one_does_not() -> None:
    """Deals of 6 seat-games sharing a deal effect (win chance ~ Beta(1, 4), intra-deal
    correlation 1/6): over 400 synthetic tournaments of 300 deals (seed 8), the clustered
    95 % interval covers the true mean 0.2 in 92–98 % of them; the naive binomial one, which
    treats the 1,800 seat-games as independent, in under 90 %."""
    rng = np.random.default_rng(8)
    covered = naive_covered = 0
    for _ in range(400):
        chance = rng.beta(1, 4, size=300)
        y = rng.binomial(6, chance).astype(float)
        m = np.full(300, 6.0)
        rate, se = cluster_ratio(y, m)
        naive = np.sqrt(rate * (1 - rate) / m.sum())
        covered += abs(rate - 0.2) <= Z95 * se
        naive_covered += abs(rate - 0.2) <= Z95 * naive
    assert 0.92 <= covered / 400 <= 0.98
    assert naive_covered / 400 < 0.90


def test_cluster_variance_sees_negative_dependence() -> None:
    """One winner among the 4 seat-games of every deal: the share of wins is exactly 1/4, so the
    clustered standard error is 0, where the naive one is not."""
    y = np.ones(500)
    m = np.full(500, 4.0)
    rate, se = cluster_ratio(y, m)
    assert rate == 0.25 and se == 0.0
    assert np.sqrt(rate * (1 - rate) / m.sum()) > 0.009


def test_cluster_ratio_matches_the_clustered_ols_formula() -> None:
    """Unequal cluster sizes: the CR1 sandwich of OLS on a constant, written out."""
    rng = np.random.default_rng(1)
    sizes = rng.integers(1, 7, size=50)
    values = [rng.random(s) for s in sizes]
    y = np.array([v.sum() for v in values])
    rate, se = cluster_ratio(y, sizes.astype(float))
    flat_values = np.concatenate(values)
    resid = [v - flat_values.mean() for v in values]
    G = len(sizes)
    expected = np.sqrt(G / (G - 1) * sum(r.sum() ** 2 for r in resid)) / len(flat_values)
    assert rate == pytest.approx(flat_values.mean())
    assert se == pytest.approx(expected)


def test_python_api_returns_tables_and_a_figure(tmp_path: Path, small: TournamentResult) -> None:
    import unosim
    from unosim.reports import plot_tournament

    fig = plot_tournament(small)
    assert len(fig.axes) >= 2  # leaderboard, heatmap (and its colour bar)
    assert small.head_to_head_matrix().shape == (3, 3)
    result = unosim.tournament(rules="classic", players=2, strategies="random,greedy", games=200, seed=1,
                               bootstrap=20, out=tmp_path / "api")
    assert list(result.leaderboard["strategy"]) == list(result.ratings.sort_values("rating", ascending=False)["strategy"])
    assert (tmp_path / "api" / "report" / "leaderboard.svg").is_file()


def test_a_rule_file_is_labelled_by_its_own_name(tmp_path: Path) -> None:
    from unosim.analysis.tournament.run import display_labels
    from unosim.strategy.rule_language import SHIPPED_DIR

    shipped = (SHIPPED_DIR / "attacker.toml").read_text()
    bot = tmp_path / "attack.toml"
    bot.write_text(shipped.replace('name = "attacker"', 'name = "my-attack"', 1))
    result = run_tournament(rules="classic", players=2, strategies=f"rules:{bot},random", games=40, seed=1, bootstrap=10)
    assert "my-attack" in set(result.leaderboard["strategy"])
    assert set(result.head_to_head["strategy"]) == {"my-attack", "random"}
    assert result.head_to_head_matrix().loc["my-attack", "random"] == pytest.approx(
        result.head_to_head.set_index(["strategy", "opponent"]).loc[("my-attack", "random"), "beat"])
    # a name another strategy has keeps the spec
    same = display_labels((f"rules(path={str(bot)!r})", "my-attack"))
    assert same[f"rules(path={str(bot)!r})"] == f"rules(path={str(bot)!r})"
