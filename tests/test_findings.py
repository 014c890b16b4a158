"""Every report opens with findings: sentences whose numbers come from the data (recomputed here
from the dataset, each within its rounding), whose words follow the data (planted data), and
that a designer sees on the first screen of the HTML report next to the first plot.

The study here is the default one at 300 games per cell (seed 20261129, 13,500 games).
The browser test keeps its screenshot of the first screen in the test's temporary directory
(pytest's ``tmp_path``; ``pytest --basetemp DIR`` keeps it in a chosen place).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from browser import start_chromium
from typer.testing import CliRunner

import unosim
from unosim.analysis.findings import comparison_findings, dataset_findings
from unosim.analysis.stats import z_value
from unosim.cli import app
from unosim.reports.findings import sentences

NUMBER = r"([+−-]?[\d,]+(?:\.\d+)?)"
ESTIMATE = NUMBER + r"(?: turns| pp)? \[" + NUMBER + ", " + NUMBER + r"\]"


def _float(text: str) -> float:
    return float(text.replace("−", "-").replace(",", ""))


def _close(shown: str, value: float) -> bool:
    """Whether ``shown`` is ``value`` rounded to the decimals it shows."""
    decimals = len(shown.split(".")[1]) if "." in shown else 0
    return abs(_float(shown) - value) <= 0.5 * 10 ** -decimals + 1e-9


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("study") / "study"
    res = CliRunner().invoke(app, ["study", "--games", "300", "--out", str(out), "--jobs", "1", "--quiet"])
    assert res.exit_code == 0, res.output
    return out


def _section(md: str, title: str) -> str:
    return md.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def _cells(study: Path) -> pd.DataFrame:
    df = unosim.load(study, columns=["rules", "players", "turns", "winner_offset"])
    df["rules"] = df["rules"].astype(str)
    df["first"] = (df["winner_offset"] == 1).astype(float)
    g = df.groupby(["rules", "players"])
    cells = g["turns"].agg(["mean", "std", "count"])
    cells["se"] = cells["std"] / np.sqrt(cells["count"])
    share = g["first"].mean()
    players = cells.index.get_level_values("players").to_numpy(float)
    cells["edge"] = 100 * (share.to_numpy() - 1 / players)
    cells["edge_se"] = 100 * np.sqrt(share.to_numpy() * (1 - share.to_numpy()) / cells["count"].to_numpy())
    return cells


def test_study_findings_come_first_and_their_numbers_are_the_datasets(study: Path) -> None:
    md = (study / "report" / "report.md").read_text()
    assert md.index("## Findings") < md.index("## What this report rests on") < md.index("## Game length and seat advantage")
    found = [line[2:] for line in _section(md, "Findings").splitlines() if line.startswith("- ")]
    assert 3 <= len(found) <= 6
    cells = _cells(study)
    z = z_value()

    growth = found[0]
    per_rules = re.findall(ESTIMATE + r" in `([\w-]+)`", growth)
    assert {r[3] for r in per_rules} == {"classic", "classic-house", "party"}
    for value, low, high, rules in per_rules:
        a, b = cells.loc[(rules, 2)], cells.loc[(rules, 16)]
        slope = (b["mean"] - a["mean"]) / 14
        half = z * np.hypot(a["se"], b["se"]) / 14
        assert _close(value, slope) and _close(low, slope - half) and _close(high, slope + half), growth
    assert growth.startswith("From 2 to 16 players, ") and "([figure](game_length.png))" in growth

    shortest = found[1]
    m = re.search(r"shortest in `([\w-]+)` at (\d+) players: " + ESTIMATE, shortest)
    assert m, shortest
    rules, players = m.group(1), int(m.group(2))
    assert (rules, players) == cells["mean"].idxmin()
    cell = cells.loc[(rules, players)]
    assert _close(m.group(3), cell["mean"]) and _close(m.group(4), cell["mean"] - z * cell["se"])

    first = found[2]
    pairs = re.findall(ESTIMATE + r" at 2 players to " + ESTIMATE + r" at 16 in `([\w-]+)`", first)
    assert len(pairs) == 3, first
    for *numbers, rules in pairs:
        for (value, low, high), players in ((numbers[:3], 2), (numbers[3:], 16)):
            c = cells.loc[(rules, players)]
            assert _close(value, c["edge"]) and _close(low, c["edge"] - z * c["edge_se"]), first
            assert _close(high, c["edge"] + z * c["edge_se"]), first
    for link in re.findall(r"\]\(([\w.-]+\.png)\)", _section(md, "Findings")):
        assert (study / "report" / link).is_file(), link


def test_study_basis_is_at_most_ten_lines_and_its_cells_are_in_a_folded_appendix(study: Path) -> None:
    md = (study / "report" / "report.md").read_text()
    basis = [line for line in _section(md, "What this report rests on").splitlines() if line.strip()]
    assert len(basis) <= 10, basis
    assert "- deck copies: one deck; two at 16 players for classic and classic-house" in basis
    assert "- games: 13,500 (300 per cell, 45 cells)" in basis
    appendix = _section(md, "Appendix: every cell")
    assert appendix.count("\n| ") == 1 + 45  # the header and one row per cell, seeds and all
    page = (study / "report" / "report.html").read_text()
    folded = page.split("<h2 id='appendix-every-cell'>", 1)[1]
    assert folded.startswith("Appendix: every cell</h2><details><summary>") and "<th>seed</th>" in folded
    assert "<nav class='toc'>" in page and "<a href='#findings'>Findings</a>" in page
    assert "<td>13,500</td>" not in page and "<td>300</td>" in page  # counts for reading, seeds as they are
    assert page.count("<figcaption>") == page.count("<figure ")


def test_the_first_screen_shows_the_findings_and_the_first_plot(study: Path, tmp_path: Path) -> None:
    """Headless Chromium at 1280 × 900: the findings' sentences and the first figure are wholly in view."""
    browser = start_chromium(1280, 900)
    try:
        browser.get((study / "report" / "report.html").as_uri())
        seen = browser.execute_script("""
            const box = el => el.getBoundingClientRect();
            const items = Array.from(document.querySelectorAll('.findings li'));
            const img = document.querySelector('.findings figure img');
            return {items: items.length, last: box(items[items.length - 1]).bottom, img: box(img).bottom,
                    top: box(img).top, width: img.naturalWidth, alt: img.alt, height: window.innerHeight};""")
        shot = tmp_path / "report_first_screen.png"
        browser.save_screenshot(str(shot))
    finally:
        browser.quit()
    assert seen["items"] >= 3 and seen["alt"] == "game_length" and seen["width"] > 0
    assert seen["last"] <= seen["height"] and seen["img"] <= seen["height"], seen
    from PIL import Image

    with Image.open(shot) as image:
        colours = image.convert("RGB").resize((64, 45)).getcolors(64 * 45)
    assert image.size[0] >= 1200 and colours is not None and len(colours) > 20  # drawn, not a blank page


def _games(turns: dict[tuple[str, int], float], first: dict[tuple[str, int], float], n: int = 4000) -> pd.DataFrame:
    """Planted games: per (rules, players) a game length around ``turns`` and a first-player win share."""
    rng = np.random.default_rng(5)
    frames = []
    for (rules, players), mean in turns.items():
        won = rng.random(n) < first[(rules, players)]
        offsets = np.where(won, 1, rng.integers(2, players + 1, n) if players > 2 else 2)
        frames.append(pd.DataFrame({"rules": rules, "players": players, "turns": rng.normal(mean, 10, n),
                                    "winner_offset": offsets}))
    return pd.concat(frames, ignore_index=True)


def test_planted_data_change_the_words() -> None:
    keys = [("classic", 2), ("classic", 8), ("party", 2), ("party", 8)]
    fair = {k: 1 / k[1] for k in keys}
    longer = sentences(dataset_findings(_games(dict(zip(keys, [30, 60, 40, 70])), fair)))
    assert re.match(r"From 2 to 8 players, every added player makes a game longer by \+(4\.9|5\.0)", longer[0])
    assert "shortest in `classic` at 2 players" in longer[1] and "clearly shorter than the next" in longer[1]
    assert "it does not clearly change in `classic` and `party`" in longer[2]
    assert "at 8 players it is not clearly different from a fair share in `classic` and `party`" in longer[2]

    edge = {**fair, ("classic", 2): 0.75, ("party", 2): 0.75}
    mixed = sentences(dataset_findings(_games(dict(zip(keys, [60, 30, 40, 40])), edge)))
    assert re.match(r"From 2 to 8 players, each added player changes game length by −(4\.9|5\.0)", mixed[0])
    assert "it clearly shrinks in `classic`" in mixed[0] and "it does not clearly change in `party`" in mixed[0]
    assert "shortest in `classic` at 8 players" in mixed[1]
    assert "it clearly shrinks in `classic` and `party`" in mixed[2] and "+25" in mixed[2]

    close = sentences(dataset_findings(_games({("classic", 4): 50, ("party", 4): 50.05}, {("classic", 4): 0.25,
                                                                                            ("party", 4): 0.25})))
    assert "not clearly shorter than" in close[0] and "not clearly different from a fair share" in close[1]


def _differences(turns: dict[tuple[str, int], float], se: float) -> pd.DataFrame:
    rows = []
    for (variant, players), d in turns.items():
        for metric, diff in (("turns", d), ("first_player_edge", 0.0)):
            rows.append({"players": players, "variant": variant, "baseline": "the official game", "metric": metric,
                         "diff": diff, "se": se, "low": diff - 1.96 * se, "high": diff + 1.96 * se})
    return pd.DataFrame(rows)


def test_planted_comparisons_name_the_rule_that_moves_game_length_most() -> None:
    clear = sentences(comparison_findings(_differences(
        {("stacking", 2): 4.0, ("seven-zero", 2): -1.0, ("stacking", 10): 2.0, ("seven-zero", 10): -9.0}, 0.3)))
    assert clear[0].startswith("At 2 players, `stacking` moves game length most: +4.0")
    assert "clearly more than the next, `seven-zero`" in clear[0]
    assert clear[1].startswith("At 10 players, `seven-zero` moves game length most: −9.0")
    assert clear[2].startswith("No variant clearly changes the first player's edge")
    vague = sentences(comparison_findings(_differences(
        {("stacking", 2): 0.3, ("seven-zero", 2): 0.2, ("stacking", 10): 0.1, ("seven-zero", 10): 0.0}, 0.3)))
    assert "`stacking` moves game length most" in vague[0] and "even that is not a clear change" in vague[0]


def test_named_variants_are_compared_and_the_house_rules_file_lists_them(tmp_path: Path) -> None:
    from unosim.analysis.compare import load_spec

    spec = load_spec(Path(__file__).parents[1] / "experiments" / "house_rules.toml")
    variants = {v.label: dict(v.options) for v in spec["variants"]}
    assert list(variants)[0] == "the official game" and variants["the official game"] == {}
    assert variants["jump-in with action cards"] == {"speed_play": "true", "jump_in_cards": "numbers_and_actions"}
    assert {"seven-zero", "jump-in", "no going out on an action card", "stacking (mixed)"} <= set(variants)
    assert "options" not in spec or not spec["options"]

    res = CliRunner().invoke(app, ["compare", "--rules", "classic", "--games", "300", "--seed", "4",
                                   "--jobs", "1", "--out", str(tmp_path / "cmp"),
                                   "--variant", "the official game:", "--variant", "seven-zero: seven_zero=true",
                                   "--variant", "jump-in with action cards: speed_play=true, jump_in_cards=numbers_and_actions"])
    assert res.exit_code == 0, res.output
    md = (tmp_path / "cmp" / "report" / "report.md").read_text()
    found = _section(md, "Findings")
    diffs = pd.read_csv(tmp_path / "cmp" / "differences.csv")
    turns = diffs[diffs["metric"] == "turns"]
    assert set(turns["players"]) == {4}  # the default table
    most = turns.loc[turns["diff"].abs().idxmax()]
    assert f"At 4 players, `{most['variant']}` moves game length most: " in found
    basis = _section(md, "What this report rests on")
    assert "jump-in with action cards: `classic` with `speed_play=true`, `jump_in_cards=numbers_and_actions`" in basis


def test_a_variant_that_is_not_name_and_options_is_refused() -> None:
    res = CliRunner().invoke(app, ["compare", "--variant", "stacking=mixed", "--variant", "b:", "--games", "10"])
    assert res.exit_code == 2 and "NAME: OPTION=VALUE" in res.output, res.output
    res = CliRunner().invoke(app, ["compare", "--variant", "a:", "--variant", "a: seven_zero=true", "--games", "10"])
    assert res.exit_code == 2 and "given twice" in res.output, res.output


def test_a_single_run_opens_with_its_game_length_and_first_player(tmp_path: Path) -> None:
    out = tmp_path / "run"
    df = unosim.simulate(rules="classic", players=4, games=2000, seed=8, out=out)
    unosim.report(out)
    found = _section((out / "report" / "report.md").read_text(), "Findings")
    m = re.search(r"A game of `classic` at 4 players lasts " + ESTIMATE + r" on average \(\[table\]\(#summary\)\)", found)
    assert m, found
    turns = df["turns"].to_numpy(float)
    half = z_value() * turns.std(ddof=1) / np.sqrt(len(turns))
    assert _close(m.group(1), turns.mean()) and _close(m.group(2), turns.mean() - half) and _close(m.group(3), turns.mean() + half)
    assert "The first player's edge (win rate above a fair 1/P) at 4 players is " in found and "Of the 4 seats, " in found
    page = (out / "report" / "report.html").read_text()
    assert "<a href=\"#summary\">table</a>" in page and "<h3 id='summary'>Summary</h3>" in page
    assert "([figure](seat_advantage.png))" in found and (out / "report" / "seat_advantage.png").is_file()


def test_planted_swap_values_name_the_kind_worth_most() -> None:
    from unosim.analysis.findings import swap_findings

    def rows(players: int, values: dict[str, float], half: float) -> list[dict]:
        return [{"players": players, "kind": k, "swap_value": v, "swap_low": v - half, "swap_high": v + half}
                for k, v in values.items()]

    values = pd.DataFrame(rows(2, {"skip": 2.0, "wild_draw_four": 9.0}, 1.0) + rows(8, {"skip": 1.0, "wild": 0.5}, 2.0))
    two, eight = sentences(swap_findings(values))
    assert two.startswith("By the swap experiment, the card kind worth most at 2 players is wild draw four: +9.0")
    assert "clearly ahead of skip" in two and "not clearly" not in two
    assert "though not clearly ahead of wild" in eight and "not clearly worth more than the number card" in eight


def test_the_house_rules_report_names_the_rule_that_moves_game_length_most(tmp_path: Path) -> None:
    """experiments/house_rules.toml at 200 games, 2 and 10 players (seed of the file)."""
    out = tmp_path / "house"
    spec = Path(__file__).parents[1] / "experiments" / "house_rules.toml"
    from unosim.analysis.compare import load_spec

    settings = load_spec(spec)
    assert settings["players"] == "2-10"
    unosim.compare(settings["rules"], "2,10", variants=settings["variants"], games=200, seed=settings["seed"],
                   skill=settings["skill"], out=out)
    unosim.report(out)
    found = _section((out / "report" / "report.md").read_text(), "Findings")
    diffs = pd.read_csv(out / "differences.csv")
    assert diffs["baseline"].eq("the official game").all() and diffs["variant"].nunique() == 7
    for players in (2, 10):
        turns = diffs[(diffs["metric"] == "turns") & (diffs["players"] == players)]
        most = turns.loc[turns["diff"].abs().idxmax()]
        m = re.search(rf"At {players} players, `([^`]+)` moves game length most: " + ESTIMATE, found)
        assert m and m.group(1) == most["variant"], found
        assert _close(m.group(2), most["diff"]) and _close(m.group(3), most["low"]) and _close(m.group(4), most["high"])
