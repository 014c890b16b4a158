"""Tuning a rule file's numeric thresholds: `unosim tune --strategy rules:FILE`, tuned.toml."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import unosim
from unosim.analysis.thresholds import find_thresholds, matters, repair, substitute
from unosim.cli import app
from unosim.strategy import load_program, parse_program

SMALL = """\
# a small file: two thresholds
name = "small"

[[play.rule]]          # attack a player about to win
card = ["draw_two", "skip"]
next_hand_max = 1

[[play.rule]]          # hold the wilds
card = "coloured"
hand_min = 3   # three or more
"""

EVERY_KIND = """\
[[play.rule]]
card = "coloured"
non_wild_min = 2
hand_max = 30          # beyond the searched range: widened to include it

[[pile.rule]]
card = "take"
players_min = 3

[challenge]
opponent_hand_min = 6

[jump_in]
weight = 0.5

[uno]
catch_rate = 0.5       # not searched
"""

TINY = {"players": 2, "against": "random", "popsize": 4, "games_per_candidate": 200, "evaluation_games": 400, "seed": 3}
"""A tiny tuning run: 4 candidates × 200 games per generation."""


def test_thresholds_found_with_ranges_and_substituted_in_place():
    found = {t.name: t for t in find_thresholds(EVERY_KIND)}
    assert list(found) == ["play.rule[1].non_wild_min", "play.rule[1].hand_max", "pile.rule[1].players_min",
                           "challenge.opponent_hand_min", "jump_in.weight"]
    assert (found["play.rule[1].non_wild_min"].low, found["play.rule[1].non_wild_min"].high) == (0, 20)
    assert (found["play.rule[1].hand_max"].low, found["play.rule[1].hand_max"].high) == (1, 30)
    assert (found["pile.rule[1].players_min"].low, found["pile.rule[1].players_min"].high) == (2, 16)
    assert not found["jump_in.weight"].integer and (found["jump_in.weight"].low, found["jump_in.weight"].high) == (0, 1)
    t = found["challenge.opponent_hand_min"]
    assert t.value(0.52) == 10 and t.value(-1.0) == 0 and t.value(2.0) == 20 and t.coordinate(t.value(0.25)) == 0.25
    thresholds = list(found.values())
    # a minimum above its maximum is lowered to it, and non_wild_min to hand_max
    assert repair(thresholds, [25, 7, 3, 6, 0.5]) == [7, 7, 3, 6, 0.5]
    text = substitute(EVERY_KIND, thresholds, [1, 5, 4, 9, 0.125])
    assert "hand_max = 5          # beyond the searched range" in text and "catch_rate = 0.5       # not" in text
    program = parse_program(text)
    assert program.challenge is not None and program.challenge.low[5] == 9
    assert program.jump_weight == 0.125 and program.catch_uno_rate == 0.5
    assert find_thresholds(SMALL)[1].line == 10
    # what the rule set lets matter: no mini piles, jump-ins or challenges in classic without them
    classic = unosim.RuleSet.preset("classic").replace(wd4_challenge=False)
    assert [t.name for t in thresholds if matters(t, classic)] == ["play.rule[1].non_wild_min", "play.rule[1].hand_max"]
    assert all(matters(t, unosim.RuleSet.preset("party").replace(speed_play=True)) for t in thresholds)
    assert find_thresholds("[challenge]\nenabled = false\nopponent_hand_min = 4\n") == []


def test_tune_rule_file_reproducible_resumable_and_playable(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL)
    budget = 3 * 4 * 200
    first = unosim.tune(budget=budget, strategy=f"rules:{path}", **TINY)
    assert first.generations == 3 and first.games == budget
    assert first.start == {"play.rule[1].next_hand_max": 1, "play.rule[2].hand_min": 3}
    assert set(first.params) == set(first.start) and all(isinstance(v, int) for v in first.params.values())
    with pytest.raises(ValueError, match="a tuned rule file plays from a file"):
        _ = first.spec  # no output directory: nothing to play
    # interrupted after one generation, then continued: the same result as the uninterrupted run
    out = tmp_path / "run"
    part = unosim.tune(budget=budget, strategy=f"rules:{path}", out=out, max_generations=1, **TINY)
    assert part.generations == 1 and not part.evaluation
    resumed = unosim.tune(budget=budget, strategy=f"rules:{path}", out=out, **TINY)
    assert resumed.params == first.params and resumed.history.equals(first.history)
    assert resumed.evaluation == first.evaluation
    for name in ("tuned.toml", "summary.md", "history.csv", "progress.png", "progress.svg"):
        assert (out / name).is_file()
    assert not (out / "tuned.json").exists()
    # tuned.toml: a header comment, then the file with the tuned numbers, comments kept; within the ranges
    tuned = (out / "tuned.toml").read_text()
    ev = first.evaluation
    assert f"Held-out win rate {ev['win_rate']:.4f} [{ev['low']:.4f}, {ev['high']:.4f}]" in tuned
    assert tuned.endswith(first.rule_text()) and "hand_min = " in tuned and "# three or more" in tuned
    program = load_program(out / "tuned.toml")
    assert 0 <= program.play[0].conditions.high[2] == first.params["play.rule[1].next_hand_max"] <= 20
    assert 0 <= program.play[1].conditions.low[0] == first.params["play.rule[2].hand_min"] <= 20
    assert resumed.spec == f"rules:{out / 'tuned.toml'}"
    df = unosim.simulate(rules="classic", players=2, games=50, strategies=f"{resumed.spec},random", seed=1)
    assert len(df) == 50
    # an edited file is other settings for the run in `out`
    path.write_text(SMALL.replace("hand_min = 3", "hand_min = 4"))
    with pytest.raises(ValueError, match="other settings"):
        unosim.tune(budget=budget, strategy=f"rules:{path}", out=out, **TINY)


def test_api_refusals(tmp_path):
    plain = tmp_path / "plain.toml"
    plain.write_text('[[play.rule]]\ncard = "coloured"\n\n[uno]\ncatch_rate = 0.5\n')
    with pytest.raises(ValueError, match="writes no numeric threshold to tune"):
        unosim.tune(budget=800, strategy=f"rules:{plain}", **TINY)
    jump = tmp_path / "jump.toml"
    jump.write_text("[jump_in]\nweight = 0.5\n")
    with pytest.raises(ValueError, match=r"it writes jump_in.weight, which cannot change a game under these rules"):
        unosim.tune(budget=800, strategy=f"rules:{jump}", **TINY)
    inline = tmp_path / "inline.toml"
    inline.write_text('[play]\nrule = [{card = "coloured", hand_min = 3}]\n')
    with pytest.raises(ValueError, match=r"play.rule\[1\].hand_min = 3 cannot be tuned where it is written"):
        unosim.tune(budget=800, strategy=f"rules:{inline}", **TINY)
    with pytest.raises(ValueError, match="applies to the tunable strategy only"):
        unosim.tune(budget=800, strategy="rules:holder", start={"threat": 3.0}, **TINY)
    with pytest.raises(ValueError, match="'greedy' cannot be tuned"):
        unosim.tune(budget=800, strategy="greedy", **TINY)


@pytest.mark.parametrize(
    ("strategy", "message"),
    [
        ("greedy", "strategy = 'greedy' cannot be tuned; give tunable"),
        ("rules:greedy", "writes no numeric threshold to tune"),
        ("rules:nosuch.toml", "neither a readable file nor a shipped rule strategy"),
    ],
)
def test_cli_refusals(tmp_path, strategy, message):
    result = CliRunner().invoke(app, ["tune", "--strategy", strategy, "--out", str(tmp_path / "t")])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert not (tmp_path / "t").exists()


def test_cli_tunes_a_shipped_rule_file(tmp_path):
    out = tmp_path / "t"
    args = ["tune", "--strategy", "rules:holder", "--players", "2", "--budget", "800", "--popsize", "4",
            "--games-per-candidate", "200", "--evaluation-games", "200", "--seed", "5", "--out", str(out), "--quiet"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert f"rules:{out / 'tuned.toml'}" in " ".join(result.output.split())
    program = load_program(out / "tuned.toml")
    assert program.name == "holder" and len(program.play) == 3
    summary = (out / "summary.md").read_text()
    assert "rule file `holder`" in summary and "`challenge.opponent_hand_min` | 6 |" in summary
