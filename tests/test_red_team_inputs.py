"""Hostile input files: policy, tuned, deck, experiment, rule and comparison files that are huge,
endless, deeply nested, of the wrong types or not numbers are each refused with one clear
paragraph (the file, the value, what is allowed) before any work starts."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from unosim.analysis.compare import load_spec
from unosim.cli import app
from unosim.env import encoding as E
from unosim.env.policy import LinearPolicy, PolicyFileError
from unosim.game import inputs
from unosim.game.cards import load_deck
from unosim.runs.experiment import load_experiment
from unosim.strategy.rule_language import RuleFileError, load_program
from unosim.strategy.spec import StrategySpec

CLASSIC_DECK = Path(inputs.__file__).with_name("decks") / "classic.toml"
DEEP_TOML = "a = " + "[" * 5000 + "]" * 5000 + "\n"  # tomllib alone: RecursionError
FIFTY_DEEP_TOML = "a = " + "[" * 50 + "]" * 50 + "\n"  # parses, but deeper than any unosim file


def _one_paragraph(message: str) -> None:
    assert "\n" not in message and "Traceback" not in message and len(message) < 600, message


# ---------------------------------------------------------------- policy files
def _policy(path: Path, players: object = 2, bias: object = None, weights: object = None) -> str:
    n = E.Spaces(2, 1).n_actions
    path.write_text(json.dumps({"format": "unosim-linear-policy", "players": players,
                                "weights": [] if weights is None else weights,
                                "bias": [0.0] * n if bias is None else bias}))
    return f"policy:{path}"


def test_a_good_policy_file_still_loads(tmp_path: Path) -> None:
    spec = StrategySpec.parse(_policy(tmp_path / "p.json"))
    assert str(spec) == f"policy:{tmp_path / 'p.json'}"


@pytest.mark.parametrize("players", [100_000_000, pytest.param(10**400, id="10**400"), 17, 1, "2", True, None, 2.0])
def test_a_policy_declaring_a_huge_or_odd_table_is_refused_before_any_allocation(tmp_path: Path, players: object) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"format": "unosim-linear-policy", "players": players, "weights": [], "bias": []}))
    assert path.stat().st_size < 600
    with pytest.raises(PolicyFileError, match=r"players = .* is not allowed; a policy plays a table of 2 to 16") as info:
        LinearPolicy.load(path)
    assert str(path) in str(info.value)
    _one_paragraph(str(info.value))


@pytest.mark.parametrize("bad", ["NaN", "-Infinity", "Infinity", "1e400"])
def test_a_policy_with_a_non_finite_weight_is_refused(tmp_path: Path, bad: str) -> None:
    n, size = E.Spaces(2, 1).n_actions, E.Spaces(2, 1).obs_size
    for key in ("bias", "weights"):
        path = tmp_path / f"{key}.json"
        bias = ["0"] * n
        weights = [["0"] * size for _ in range(n)]
        if key == "bias":
            bias[5] = bad
        else:
            weights[3][7] = bad
        path.write_text('{"format": "unosim-linear-policy", "players": 2, "bias": [' + ", ".join(bias) + '], '
                        '"weights": [' + ", ".join("[" + ", ".join(r) + "]" for r in weights) + "]}")
        where = re.escape("bias[5]" if key == "bias" else "weights[3, 7]")
        with pytest.raises(PolicyFileError, match=rf"{re.escape(str(path))}: {where} = .* is not a finite number"):
            StrategySpec.parse(f"policy:{path}")


@pytest.mark.parametrize("bias", [["x"] * 80, [None] * 80, [[1, 2]] * 79 + [[1]],
                                  pytest.param([10**400] * 80, id="10**400"), [True] * 80, "text"])
def test_a_policy_whose_numbers_are_not_numbers_is_refused(tmp_path: Path, bias: object) -> None:
    with pytest.raises(PolicyFileError, match="bias is not an array of numbers|a 2-player policy needs bias"):
        StrategySpec.parse(_policy(tmp_path / "p.json", bias=bias))


def test_a_missing_or_malformed_policy_file_is_a_problem_with_the_file_not_with_a_constructor(tmp_path: Path) -> None:
    cases = {
        tmp_path / "missing.json": "does not exist",
        tmp_path / "text.json": "is not JSON text",
        tmp_path / "list.json": "is not a policy file",
        tmp_path / "deep.json": "nests tables or arrays more than 32 levels deep",
        tmp_path: "cannot be read",
    }
    (tmp_path / "text.json").write_text("{not json")
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    for path, problem in cases.items():
        with pytest.raises(PolicyFileError) as info:
            StrategySpec.parse(f"policy:{path}")
        message = str(info.value)
        assert message.startswith(f"policy file {path}") or message.startswith(f"{path}"), message
        assert problem in message and "__init__" not in message and "constructor" not in message, message
        _one_paragraph(message)


def test_a_policy_on_a_device_or_a_pipe_is_refused_without_reading(tmp_path: Path) -> None:
    with pytest.raises(PolicyFileError, match=r"/dev/zero is not a regular file \(it is a character device\)"):
        StrategySpec.parse("policy:/dev/zero")  # read for ever before
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(PolicyFileError, match=r"is not a regular file \(it is a pipe\)"):
        StrategySpec.parse(f"policy:{fifo}")  # no writer: opening it waited for ever


def test_an_input_file_larger_than_the_cap_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as fh:
        fh.truncate(inputs.MAX_BYTES + 1)
    with pytest.raises(PolicyFileError, match="is larger than 16 MiB"):
        LinearPolicy.load(path)


def test_the_command_line_reports_a_bad_policy_file_in_one_paragraph(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["simulate", "--players", "2", "--games", "10", "--jobs", "1", "--quiet",
                                      "--strategies", f"policy:{tmp_path / 'none.json'},random"], env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert "does not exist" in result.output and "__init__" not in result.output and "Traceback" not in result.output


def test_a_policy_at_a_table_of_another_size_is_refused_before_any_game(tmp_path: Path) -> None:
    from unosim.engine.config import RunConfig

    spec = _policy(tmp_path / "p.json")  # a 2-player policy
    assert RunConfig.build(players=2, strategies=f"{spec},random").players == 2
    with pytest.raises(ValueError, match=r"plays tables of 2 players \(its file's players\), not 3: give --players 2"):
        RunConfig.build(players=3, strategies=f"{spec},random,random")


# ---------------------------------------------------------------- tuned files
@pytest.mark.parametrize("value", [None, [1.0], {"a": 1}, pytest.param(10**400, id="10**400"), "2.0", True, 99.0, -1e9])
def test_a_tuned_file_parameter_of_the_wrong_type_or_range_is_one_paragraph(tmp_path: Path, value: object) -> None:
    path = tmp_path / "tuned.json"
    path.write_text(json.dumps({"format": "unosim-tuned-strategy", "params": {"threat": value}}))
    with pytest.raises(ValueError, match=rf"tuned strategy file {path}: params.threat = .* is not allowed; threat is a "
                                         r"number from 0.5 to 5") as info:
        StrategySpec.parse(f"tuned:{path}")
    _one_paragraph(str(info.value))


def test_a_tuned_file_with_nan_or_too_deep_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tuned.json"
    path.write_text('{"format": "unosim-tuned-strategy", "params": {"threat": NaN}}')
    with pytest.raises(ValueError, match="params.threat = NaN is not allowed"):
        StrategySpec.parse(f"tuned:{path}")
    path.write_text('{"format": "unosim-tuned-strategy", "params": {"threat": ' + "[" * 50_000 + "]" * 50_000 + "}}")
    with pytest.raises(ValueError, match="nests tables or arrays more than 32 levels deep"):
        StrategySpec.parse(f"tuned:{path}")
    path.write_text(json.dumps({"format": "unosim-tuned-strategy", "params": {"threat": 1.5}}))
    assert StrategySpec.parse(f"tuned:{path}").name == f"tuned:{path}"


# ---------------------------------------------------------------- decks
def _deck(tmp_path: Path, text: str) -> str:
    path = tmp_path / "deck.toml"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('per_colour = 5\n[wild]\nwild = 4\n', r"per_colour = 5 is not a table; write \[per_colour\]"),
        ('wild = [1, 2]\n[per_colour]\n"1" = 2\n', r"wild = \[1, 2\] is not a table; write \[wild\]"),
        ('assumption = "no"\n[per_colour]\n"1" = 2\n', r"assumption = 'no' is not allowed; use true or false"),
        ('assumption = 0\n[per_colour]\n"1" = 2\n', r"assumption = 0 is not allowed; use true or false"),
        ('name = [1]\n[per_colour]\n"1" = 2\n', r"name = \[1\] is not allowed; use a quoted text"),
        ('description = 3\n[per_colour]\n"1" = 2\n', r"description = 3 is not allowed; use a quoted text"),
        (DEEP_TOML, "nests tables or arrays more than 32 levels deep"),
        (FIFTY_DEEP_TOML, "nests tables or arrays more than 32 levels deep"),
    ],
)
def test_a_deck_file_of_the_wrong_shape_is_one_paragraph(tmp_path: Path, text: str, problem: str) -> None:
    path = _deck(tmp_path, text)
    with pytest.raises(ValueError, match=problem) as info:
        load_deck(path)
    assert path in str(info.value)
    _one_paragraph(str(info.value))


def test_a_deck_with_assumption_true_is_still_read_as_true(tmp_path: Path) -> None:
    deck = load_deck(_deck(tmp_path, CLASSIC_DECK.read_text().replace("assumption = false", "assumption = true")))
    assert deck.assumption is True and load_deck("classic").assumption is False


def test_a_deck_on_a_device_is_refused_by_the_command_line() -> None:
    result = CliRunner().invoke(app, ["simulate", "--players", "2", "--games", "10", "--jobs", "1", "--quiet",
                                      "--deck", "/dev/zero"], env={"COLUMNS": "300"})
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output


# ---------------------------------------------------------------- experiment, rule and comparison files
@pytest.mark.parametrize("text", [DEEP_TOML, FIFTY_DEEP_TOML])
def test_a_deeply_nested_experiment_rule_or_comparison_file_is_one_paragraph(tmp_path: Path, text: str) -> None:
    path = tmp_path / "file.toml"
    path.write_text('seed = 1\ngames = 10\npresets = "classic"\nplayers = 2\n' + text.replace("a = ", "x = "))
    with pytest.raises(ValueError, match=f"the experiment file {path} nests tables or arrays more than 32"):
        load_experiment(path)
    path.write_text('name = "x"\n[play]\nprefer = ' + text[4:])
    with pytest.raises(RuleFileError, match=f"rule file {path} nests tables or arrays more than 32"):
        load_program(path)
    path.write_text("rules = " + text[4:])
    with pytest.raises(ValueError, match=f"the comparison file {path} nests tables or arrays more than 32"):
        load_spec(path)


def test_experiment_and_rule_files_on_a_device_are_refused() -> None:
    with pytest.raises(ValueError, match="experiment file /dev/zero is not a regular file"):
        load_experiment("/dev/zero")
    with pytest.raises(ValueError, match="comparison file /dev/zero is not a regular file"):
        load_spec("/dev/zero")
    with pytest.raises(RuleFileError, match="/dev/zero"):
        load_program("/dev/zero")


def test_an_experiment_override_that_is_not_a_toml_boolean_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "e.toml"
    path.write_text('seed = 1\ngames = 10\npresets = "classic"\nplayers = 2\nmatch = "no"\n'
                    '[overrides]\nwd4_challenge = "no"\n')
    with pytest.raises(ValueError) as info:
        load_experiment(path)
    assert 'match = "no" is not allowed; use true or false' in str(info.value)
    assert "wd4_challenge" in str(info.value) and "use true or false" in str(info.value)


# ---------------------------------------------------------------- names in plots
def test_a_dollar_in_a_name_is_text_in_tournament_and_tuning_plots() -> None:
    import io

    import pandas as pd

    from unosim.reports.tournament import tournament_figure
    from unosim.reports.tuning import progress_figure

    board = pd.DataFrame({"strategy": ["x$^$", "$\\bad$"], "win_rate": [0.6, 0.4], "win_rate_lo": [0.5, 0.3],
                          "win_rate_hi": [0.7, 0.5]})
    matrix = pd.DataFrame([[float("nan"), 0.6], [0.4, float("nan")]], index=board["strategy"], columns=board["strategy"])
    history = pd.DataFrame({"generation": [1, 2], **{f"{k}{s}": [0.5, 0.6] for k in ("best", "mean")
                                                      for s in ("", "_low", "_high")}})
    for fig in (tournament_figure(board, matrix, 0.5, "rules a$^$b"), progress_figure(history, "tuned $\\bad$ · 2 players")):
        fig.savefig(io.BytesIO(), format="png")  # raised ValueError (a TeX parse error) before
        assert any("$" in t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text")))


# ---------------------------------------------------------------- names written into reports, files and the terminal
HOSTILE_NAMES = ["a`b", "``x``", "`", "ends`", "evil\x1b[2Jname", "line\nbreak|cell", "[link=http://x]click[/link]"]


def _code_span_text(span: str) -> str:
    """The text a CommonMark code span shows: between its opening and closing fences (of one length),
    one padding space each side dropped."""
    fence = re.match("`+", span).group()
    assert span.endswith(fence) and len(span) > 2 * len(fence)
    inner = span[len(fence):-len(fence)]
    assert not re.search(f"(?<!`){fence}(?!`)", inner), f"{span!r}: a run of the fence's length closes it early"
    return inner[1:-1] if inner.startswith(" ") and inner.endswith(" ") and inner.strip() else inner


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_backtick_or_control_character_in_a_name_stays_inside_its_markdown_code_span(name: str) -> None:
    from unosim.game.names import code_span, text_line
    from unosim.reports.basis import describe_rules

    span = code_span(name)
    assert _code_span_text(span) == text_line(name)
    assert "\x1b" not in span and "\n" not in span
    line = describe_rules({"name": name})
    assert line.startswith(span + " (from preset") and "\x1b" not in line


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_hostile_strategy_name_is_one_cell_of_the_leaderboard_markdown(name: str) -> None:
    import pandas as pd

    from unosim.reports.tournament import leaderboard_markdown

    board = pd.DataFrame([{"rank": 1, "strategy": name, "win_rate": 0.5, "win_rate_lo": 0.4, "win_rate_hi": 0.6,
                           "points": 1.0, "points_pm": 0.1, "hand_points": 2.0, "hand_points_pm": 0.2, "rating": 0.0,
                           "rating_lo": -0.1, "rating_hi": 0.1, "seat_games": 10}])
    row = leaderboard_markdown(board).splitlines()[2]
    assert "\x1b" not in row and len(re.findall(r"(?<!\\)\|", row)) == 8, row  # seven cells, no more
    assert "`" not in row.replace("\\`", ""), row


def test_control_characters_of_names_are_escaped_in_differences_csv(tmp_path: Path) -> None:
    import pandas as pd

    from unosim.analysis.compare import Comparison

    evil = "party\x1b]0;owned\x07\r\nx"
    levels = pd.DataFrame({"players": [2], "variant": [evil], "metric": ["turns"], "mean": [1.0]})
    differences = pd.DataFrame({"players": [2], "variant": [evil], "metric": ["turns"], "diff": [0.5]})
    Comparison(levels, differences, {"variants": ["classic", evil]}).save(tmp_path)
    for name in ("differences.csv", "levels.csv"):
        text = (tmp_path / name).read_text()
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f]", text), repr(text)
        assert "party\\x1b]0;owned\\x07\\x0d\\x0ax" in text
    assert Comparison.read(tmp_path).differences["diff"].tolist() == [0.5]


def test_rich_markup_in_names_is_shown_as_text_in_terminal_tables() -> None:
    from types import SimpleNamespace

    import pandas as pd

    from unosim.cli.base import out_console
    from unosim.cli.strategies import _print_leaderboard

    name = "[link=http://x]click[/link][bold]loud"
    board = pd.DataFrame([{"rank": 1, "strategy": name, "win_rate": 0.5, "win_rate_lo": 0.4, "win_rate_hi": 0.6,
                           "points": 1.0, "points_pm": 0.1, "hand_points": 2.0, "hand_points_pm": 0.2, "rating": 0.0,
                           "rating_lo": -0.1, "rating_hi": 0.1, "seat_games": 10}])
    result = SimpleNamespace(match=False, title="[red]title", fair_share=0.5, leaderboard=board)
    with out_console.capture() as captured:
        _print_leaderboard(result)
    text = captured.get()
    assert name in text and "[red]title" in text, text


def test_a_tuned_file_that_is_a_pipe_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    result = CliRunner().invoke(app, ["simulate", "--players", "2", "--games", "10", "--jobs", "1", "--quiet",
                                      "--strategies", f"tuned:{fifo},random"], env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert "is not a regular file (it is a pipe)" in result.output and "does not exist" not in result.output
    _one_paragraph(" ".join(result.output.split()))


@pytest.mark.parametrize(("overrides", "message"), [
    ([1, 2], r"--set 1 is not OPTION=VALUE"),
    (5, r"overrides = 5; give OPTION=VALUE texts"),
    (["max_turns="], r"--set max_turns= gives option 'max_turns' no value"),
])  # fmt: skip
def test_environment_overrides_of_the_wrong_kind_are_one_clear_error(overrides: object, message: str) -> None:
    from unosim.env import UnoEnv
    from unosim.game.errors import UnosimInputError

    with pytest.raises(UnosimInputError, match=message) as info:
        UnoEnv(overrides=overrides)
    _one_paragraph(str(info.value))


def test_an_empty_set_value_is_refused_by_the_command_line() -> None:
    result = CliRunner().invoke(app, ["simulate", "--players", "2", "--games", "10", "--jobs", "1", "--quiet",
                                      "--set", "name="], env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert "--set name= gives option 'name' no value" in " ".join(result.output.split())


def test_a_rule_set_name_with_escape_codes_and_backticks_stays_text_in_report_md(tmp_path: Path) -> None:
    name = "evil`` x\x1b]0;pwned\x07\x1b[2J"
    run = tmp_path / "run"
    result = CliRunner().invoke(app, ["simulate", "--players", "2", "--games", "300", "--strategies", "random",
                                      "--seed", "1", "--set", f"name={name}", "--out", str(run), "--quiet"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(app, ["report", str(run)])
    assert result.exit_code == 0, result.output
    text = (run / "report" / "report.md").read_text()
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f]", text), repr(text)
    assert "```evil`` x\\x1b]0;pwned\\x07\\x1b[2J```" in text  # whole, in a span its backticks cannot close


@pytest.mark.parametrize("isolate", [False, True])
def test_a_strategy_module_that_raises_on_import_is_bad_input_not_a_bug(tmp_path: Path, isolate: bool) -> None:
    import subprocess
    import sys

    (tmp_path / "badmod.py").write_text('raise RuntimeError("boom at import")\n')
    unosim = str(Path(sys.executable).with_name("unosim"))
    done = subprocess.run([unosim, "simulate", "--players", "2", "--games", "10", "--strategies", "badmod:X,greedy",
                           "--jobs", "1", "--out", str(tmp_path / "out"), *(["--isolate"] if isolate else [])],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 2, done.stderr
    assert "importing the module 'badmod' raised RuntimeError: boom at import" in done.stderr
    assert "bug:" not in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()
