"""Names are data, never code or paths: a name made into a file name stays in its folder, a name
sent to the terminal carries no escape code, a name in a page's script cannot end the script, and
the viewer refuses clearly what it cannot show."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from hostile_names import ESCAPE_NAME, LEAVING_NAME, SCRIPT_NAME, SCRIPT_NAMES
from rich.table import Table
from rich.text import Text
from typer.testing import CliRunner

from unosim.cli import app
from unosim.engine.config import RunConfig
from unosim.engine.trace import GameTrace, replay
from unosim.game import N_TYPES
from unosim.game.kernels import layout as L
from unosim.game.names import file_stem, printable, script_json
from unosim.reports.viewer import game_steps
from unosim.runs.progress import PrintableConsole

runner = CliRunner()

LEAVING = [LEAVING_NAME, "..", ".", "", "/", "/etc/passwd", "..\\..\\x", "a\x00b", "a\nb", ESCAPE_NAME, SCRIPT_NAME, "." * 300,
           "x" * 1000, "~", "-rf"]


@pytest.mark.parametrize("name", LEAVING)
def test_a_file_stem_never_leaves_its_folder(tmp_path: Path, name: str) -> None:
    stem = file_stem(name)
    folder = tmp_path / "report"
    path = (folder / f"{stem}.png").resolve()
    assert path.parent == folder.resolve() and stem and not stem.startswith(".") and len(stem) <= 120
    assert not any(c in stem for c in "/\\\0\n\x1b<>\"'")


def test_a_file_stem_keeps_an_ordinary_name() -> None:
    assert file_stem("card_value_heatmap_classic-house") == "card_value_heatmap_classic-house"
    assert file_stem("party+speed_play=true") == "party+speed_play=true"


def test_printable_shows_control_characters_as_escapes() -> None:
    shown = printable(ESCAPE_NAME + "\u202etab\tline\n")
    assert shown == "evil\\x1b]0;pwned\\x07\\x1b[2J\\x1b[31mred\\u202etab\tline\n"
    assert printable("plain name, ünïcode") == "plain name, ünïcode"


def test_the_console_sends_no_escape_code_of_a_name_but_keeps_its_own_styles() -> None:
    file = io.StringIO()
    console = PrintableConsole(file=file, force_terminal=True, color_system="standard", width=200)
    table = Table(title=f"win rate of {ESCAPE_NAME}")
    table.add_column("strategy")
    table.add_row(ESCAPE_NAME)
    console.print(table)
    console.print(f"[bold]{ESCAPE_NAME}[/]")
    console.print(Text("error: ", style="bold red") + Text(ESCAPE_NAME))
    out = file.getvalue()
    assert "\x1b]" not in out and "\x07" not in out and "\x1b[2J" not in out and "\x1b[31mred" not in out
    assert out.count("evil\\x1b]0;pwned\\x07\\x1b[2J\\x1b[31mred") == 2  # the table's title and cell, laid out escaped
    assert "error: evil\\x1b]0;pwned" in out  # rich text: escaped as it is written
    assert "\x1b[1m" in out  # rich's own bold


@pytest.mark.parametrize("value", [SCRIPT_NAME, *SCRIPT_NAMES, {"a": ["</script>", "\u2028", "&amp;"]}])
def test_json_in_a_script_cannot_end_it_and_reads_back_the_same(value: object) -> None:
    text = script_json(value)
    assert not set("<>&\u2028\u2029") & set(text)
    assert json.loads(text) == value


def test_the_cli_prints_names_without_their_escape_codes() -> None:
    spec = f"hostile_names:Labelled(text={ESCAPE_NAME!r})"
    result = runner.invoke(app, ["simulate", "--players", "2", "--games", "20", "--strategies", f"{spec},random",
                                 "--set", f"name={ESCAPE_NAME}"], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    assert "\x1b]0;pwned" not in result.output and "\x07" not in result.output and "\x1b[2J" not in result.output
    assert "evil\\x1b]0;pwned" in result.output


def test_a_report_with_a_leaving_rule_name_writes_inside_its_folder(tmp_path: Path) -> None:
    base = tmp_path / "a" / "b" / "c"
    run = base / "run"
    result = runner.invoke(app, ["simulate", "--players", "2", "--games", "400", "--strategies", "random", "--seed", "1",
                                 "--set", f"name={LEAVING_NAME}", "--out", str(run), "--quiet"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["report", str(run), "--card-values"])
    assert result.exit_code == 0, result.output
    written = sorted(p for p in tmp_path.rglob("*") if p.is_file() and "run" not in p.relative_to(tmp_path).parts)
    assert written == [], written  # nothing beside the run
    report = run / "report"
    assert any("OUTSIDE" in p.name for p in report.iterdir())  # the figures named after the rule set are in the report
    assert not list(tmp_path.parent.glob("*OUTSIDE*"))
    page = (report / "report.html").read_text()
    assert "a/../../../OUTSIDE" in page  # the name itself is shown, as text


def test_view_of_a_negative_game_says_games_start_at_zero(tmp_path: Path) -> None:
    result = runner.invoke(app, ["view", "--game", "-5", "--out", str(tmp_path / "g.html")], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert "'--game'" in result.output and "greater than or equal to 0" in result.output and "games = -4" not in result.output
    assert not (tmp_path / "g.html").exists()


def test_a_game_whose_cards_do_not_add_up_is_refused_clearly() -> None:
    config = RunConfig.build(rules="classic", players=3, strategies="random", seed=4, games=1)
    trace = replay(config, 0)
    events = np.array(trace.events, copy=True)
    plays = np.flatnonzero(events[:, 1] == L.EV_PLAY)
    first = plays[0]
    seat, card = int(events[first, 2]), int(events[first, 3])
    held = {int(c) for c in trace.opening[seat] if c >= 0}
    events[first, 3] = next(c for c in range(N_TYPES) if c not in held and c != card)  # a card the hand does not hold
    tampered = GameTrace(config, 0, events, trace.opening, trace.record)
    with pytest.raises(ValueError, match=r"game 0 cannot be shown: at event \d+ seat \d plays .*, which its hand does not hold"):
        game_steps(tampered)
