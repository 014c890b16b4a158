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
    assert "wild_drawn_together" in md  # party kinds
    page = (report / "report.html").read_text()
    assert page.count("data:image/png;base64,") == len(list(report.glob("*.png")))
    assert "<table" in page
    # the report opens with what it rests on: strategies, deck copies, games, seed, version, and the policy
    basis = md.split("## What this report rests on", 1)[1].split("\n## ", 1)[0]
    assert "every seat random" in basis and "Deck copies:" in basis and "seed" in basis
    assert f"unosim {unosim.__version__}" in basis and md.index("What this report rests on") < md.index("## Game length")
    assert "Every seat played random" in md


def test_the_basis_names_changed_options_and_seats(tmp_path: Path) -> None:
    out = tmp_path / "r"
    unosim.simulate(rules="classic", players=3, games=300, strategies="random,greedy,random", seed=4,
                    overrides=["wd4_challenge=false"], out=out)
    unosim.report(out)
    md = (out / "report" / "report.md").read_text()
    assert "classic with wd4_challenge=False" in md and "seat 1: greedy" in md and "seed 4" in md


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
