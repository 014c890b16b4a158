"""`unosim report` recognises what a dataset holds and writes PNG, SVG, report.md and a
self-contained report.html; Arrow-backed loading keeps the list columns usable."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest
from typer.testing import CliRunner

import unosim
from unosim.cli import app
from unosim.engine.records import seats

SMALL = Path(__file__).parent / "data" / "card_value_small.toml"


@pytest.fixture(scope="module")
def small_study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cv") / "cv"
    unosim.run_experiment(SMALL, out, jobs=1, quiet=True)
    return out


def test_report_of_a_card_value_study(small_study: Path) -> None:
    res = CliRunner().invoke(app, ["report", str(small_study)])
    assert res.exit_code == 0, res.output
    report = small_study / "report"
    for name in ("game_length", "seat_advantage_heatmap_party", "card_value_heatmap_party_all_seats",
                 "card_value_lines_classic_first_player", "game_length_distribution_classic"):
        assert (report / f"{name}.png").stat().st_size > 0 and (report / f"{name}.svg").is_file()
    md = (report / "report.md").read_text()
    assert "## Card values" in md and "first copy / second copy" in md
    assert "Holm's step-down method (statsmodels `multipletests`)" in md
    assert "wild_drawn_together" in md  # party kinds
    page = (report / "report.html").read_text()
    assert page.count("data:image/png;base64,") == len(list(report.glob("*.png")))
    assert "<table" in page


def test_card_values_of_the_small_study(small_study: Path) -> None:
    values = unosim.card_values(small_study)
    assert set(values["rules"]) == {"classic", "party"} and set(values["players"]) == {3, 6}
    party = values[values["rules"] == "party"]
    assert {"point_taken", "wild_pile_up", "wild_drawn_together"} <= set(party["kind"])
    assert "point_taken" not in set(values[values["rules"] == "classic"]["kind"])
    assert ((values["low"] <= values["value"]) & (values["value"] <= values["high"])).all()


def test_load_is_arrow_backed_and_seats_explodes_it(small_study: Path) -> None:
    df = unosim.load(small_study)
    assert isinstance(df["opening_hand"].dtype, pd.ArrowDtype)
    assert isinstance(df["strategies"].dtype, pd.ArrowDtype)
    assert df["turns"].dtype == "int32"
    hand = df["opening_hand"].iloc[0]
    assert len(hand) == df["players"].iloc[0] and all(len(h) == 7 for h in hand)
    per_seat = seats(df.head(100))
    assert len(per_seat) == int(df["players"].head(100).sum())
    assert per_seat.groupby("game")["won"].sum().le(1).all()
    assert pa.array(df["hand_points"]).type == pa.list_(pa.int16())


def test_report_of_a_single_run_without_card_values_for_mixed_lineups(tmp_path: Path) -> None:
    out = tmp_path / "run"
    unosim.simulate(rules="classic", players=4, games=2000, strategies="random,greedy,random,greedy", seed=1, out=out)
    files = unosim.report(out)
    names = {f.name for f in files}
    assert "seat_advantage.png" in names and "report.html" in names
    assert "Card values" not in (out / "report" / "report.md").read_text()


def test_single_run_gets_card_values_on_request(tmp_path: Path) -> None:
    out = tmp_path / "run"
    unosim.simulate(rules="classic", players=3, games=3000, seed=2, out=out)
    unosim.report(out)
    md = (out / "report" / "report.md").read_text()
    assert "## Card values" not in md and "--card-values" in md
    res = CliRunner().invoke(app, ["report", str(out), "--card-values"])
    assert res.exit_code == 0, res.output
    assert "## Card values" in (out / "report" / "report.md").read_text()


def test_study_report_opens_with_strategies_deck_copies_and_version(small_study: Path) -> None:
    unosim.report(small_study)
    md = (small_study / "report" / "report.md").read_text()
    opening = md.split("## What this report rests on", 1)[1].split("\n## ", 1)[0]
    assert "random at every seat" in opening
    assert "deck copies: one deck in every cell" in opening
    assert f"unosim version: {unosim.__version__}" in opening and "seed: 7" in opening
    assert "`classic`, as shipped" in opening and "`party`, as shipped" in opening
    appendix = md.split("## Appendix: every cell", 1)[1]
    assert "### Cells" in appendix and "| players | deck copies | strategies |" in appendix
    assert md.index("## Findings") < md.index("## What this report rests on") < md.index("## Game length and seat advantage")
    assert "Policy: random at every seat" in md
    page = (small_study / "report" / "report.html").read_text()
    assert "<li>strategies: random at every seat</li>" in page


def test_changed_option_appears_in_the_report_header(tmp_path: Path) -> None:
    out = tmp_path / "run"
    unosim.simulate(rules="classic", players=3, games=300, strategies="random,greedy,random", seed=3, out=out,
                    overrides=["uno_penalty=4"])
    unosim.report(out)
    opening = (out / "report" / "report.md").read_text().split("## Game length", 1)[0]
    assert "`classic` with `uno_penalty=4`" in opening
    assert "seat 0: random, seat 1: greedy, seat 2: random" in opening
    assert "games: 300" in opening and "seed: 3" in opening


def test_described_rules_name_the_closest_preset_for_a_custom_name() -> None:
    from unosim.reports.basis import changed_options, describe_rules

    rules = unosim.RuleSet.preset("party").replace(name="attack", uno_penalty=3)
    assert changed_options(rules) == ("party", {"uno_penalty": 3})
    assert describe_rules(rules) == "`attack` (from preset `party`) with `uno_penalty=3`"


def test_card_value_report_draws_both_copies_and_explains_each_flag(tmp_path: Path) -> None:
    out = tmp_path / "party"
    unosim.simulate(rules="party", players=4, games=10_000, seed=11, out=out)
    unosim.report(out, card_values=True)
    report = out / "report"
    assert (report / "card_value_copies_party.png").stat().st_size > 0
    md = (report / "report.md").read_text()
    why = md.split("why the flagged kinds' copies differ", 1)[1]
    row = next(line for line in why.splitlines() if line.startswith("| wild_draw_four"))
    assert "W-2: `wd4_legal_when=no_color_match_incl_wilds`" in row
    assert "two Wild Draw Fours block each other" in row and "no_color_match_incl_plain_wilds" in row


def test_copies_panels_one_per_kind_with_flags() -> None:
    from matplotlib.figure import Figure

    from unosim.reports import plots

    rows = [{"rules": "party", "scope": "all seats", "kind": k, "players": p, "first_copy": 5.0, "first_low": 4.0,
             "first_high": 6.0, "second_copy": s, "second_low": s - 1, "second_high": s + 1,
             "copies_differ_adjusted": s < 0} for k, s in (("wild", 5.0), ("wild_draw_four", -14.0)) for p in (3, 6)]
    fig = plots.card_value_copies(pd.DataFrame(rows), Figure(), rules="party")
    titles = [ax.get_title() for ax in fig.axes if ax.get_visible()]
    assert titles == ["wild", "wild draw four ⚑"]
    second = fig.axes[1].containers[1].lines[0]
    assert list(second.get_ydata()) == [-14.0, -14.0]


def test_a_card_kind_has_one_colour_in_every_figure_of_the_study(small_study: Path) -> None:
    from matplotlib.colors import to_hex

    from unosim.reports.dataset_report import sections_of

    seen: dict[str, set[str]] = {}
    figures = [fig for section in sections_of(small_study) for name, fig in section.figures
               if name.startswith(("card_value_lines", "card_value_copies"))]
    assert len(figures) == 6  # lines (two scopes) and copies, for each rule set
    for fig in figures:
        for ax in fig.axes:
            for line in ax.get_lines():
                label = line.get_label()
                kind = label if not label.startswith("_") and "copy" not in label else ax.get_title().rstrip(" ⚑")
                if kind and line.get_linestyle() != ":" and to_hex(line.get_color()) != "#808080":
                    seen.setdefault(kind.replace("_", " "), set()).add(to_hex(line.get_color()))
    assert {"wild draw four", "wild", "skip", "point taken"} <= set(seen)
    assert all(len(colours) == 1 for colours in seen.values()), seen


def test_rules_from_older_metadata_are_still_described() -> None:
    from unosim.reports.basis import describe_rules

    stored = {**unosim.RuleSet.preset("classic").to_dict(), "uno_penalty": 4, "an_old_option": True}
    stored.pop("max_turns")
    assert describe_rules(stored) == "`classic` with `uno_penalty=4`, `an_old_option=true`"
