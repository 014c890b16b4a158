"""Every page unosim writes, opened in headless Chromium with hostile names in every field that
reaches it (the rule set's name, strategies' names, compared option values, the browser seat's
log): no script of a name runs, and the names are shown as text.

Each hostile name (``hostile_names.SCRIPT_NAMES``) sets ``window.pwned`` and the page title
when a page puts it into its HTML or its script unescaped.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from browser import start_chromium
from hostile_names import SCRIPT_NAME, SCRIPT_NAMES
from test_play import _as_in_a_terminal
from typer.testing import CliRunner

import unosim.game.cards
from unosim.cli import app

runner = CliRunner()
UNOSIM = str(Path(sys.executable).with_name("unosim"))
TESTS = str(Path(__file__).parent)


def labelled(text: str) -> str:
    """A strategy spec whose text is ``text`` (``hostile_names:Labelled``)."""
    return f"hostile_names:Labelled(text={text!r})"


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the module (installed first if missing)."""
    driver = start_chromium()
    yield driver
    driver.quit()


def assert_no_script_ran(browser, url: str, shown: str | None = None) -> str:
    """Open ``url``; no hostile name's script ran (``window.pwned`` unset, the title a page's own);
    ``shown``, if given, is in the page's text. Returns the page's text."""
    browser.get(url)
    time.sleep(0.5)  # image errors and focus events fire after the load
    state = browser.execute_script("return {pwned: window.pwned === undefined ? null : window.pwned, title: document.title,"
                                   " text: document.body.innerText}")
    assert state["pwned"] is None, f"a name's script ran in {url}: window.pwned = {state['pwned']}"
    assert not re.fullmatch(r"\d", state["title"]), state["title"]
    if shown is not None:
        assert shown in state["text"], f"{shown!r} is not shown as text in {url}"
    return state["text"]


def test_the_viewer_shows_hostile_rule_and_strategy_names_as_text(browser, tmp_path: Path) -> None:
    page = tmp_path / "game.html"
    strategies = ",".join(labelled(n) for n in SCRIPT_NAMES)
    result = runner.invoke(app, ["view", "--players", str(len(SCRIPT_NAMES)), "--strategies", strategies, "--set",
                                 f"name={SCRIPT_NAME}", "--out", str(page)])
    assert result.exit_code == 0, result.output
    text = assert_no_script_ran(browser, page.as_uri(), shown=SCRIPT_NAME)
    for name in SCRIPT_NAMES:
        assert name in text
    seat_view = tmp_path / "seat.html"
    result = runner.invoke(app, ["view", "--players", str(len(SCRIPT_NAMES)), "--strategies", strategies, "--set",
                                 f"name={SCRIPT_NAME}", "--seat", "2", "--out", str(seat_view)])
    assert result.exit_code == 0, result.output
    assert_no_script_ran(browser, seat_view.as_uri(), shown=SCRIPT_NAMES[0])
    browser.execute_script("window.unosimViewer.go(window.unosimViewer.steps.length - 1)")
    assert browser.execute_script("return window.pwned === undefined")


def test_a_report_with_hostile_rule_and_deck_names_runs_no_script(browser, tmp_path: Path) -> None:
    run = tmp_path / "run"
    deck = tmp_path / "<svg onload=window.pwned=8>.toml"  # a deck file's name is shown where the deck is
    deck.write_text((Path(unosim.game.cards.__file__).parent / "decks" / "classic.toml").read_text())
    result = runner.invoke(app, ["simulate", "--players", "2", "--games", "400", "--strategies", labelled(SCRIPT_NAMES[0]),
                                 "--set", f"name={SCRIPT_NAME}", "--deck", str(deck), "--out", str(run), "--quiet"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["report", str(run), "--card-values"])
    assert result.exit_code == 0, result.output
    page = run / "report" / "report.html"
    assert "<img alt" in page.read_text()  # its figures are there, named after the rule set
    assert_no_script_ran(browser, page.as_uri(), shown=SCRIPT_NAME)


def test_a_comparison_of_hostile_option_values_runs_no_script(browser, tmp_path: Path) -> None:
    out = tmp_path / "compare"
    values = ["</script><script>window.pwned=2</script>", "<svg/onload=window.pwned=8>"]  # a value has no space or comma
    result = runner.invoke(app, ["compare", "--rules", "classic", "--player-counts", "2", "--games", "20", "--option",
                                 f"name={','.join(values)}", "--out", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["report", str(out)])
    assert result.exit_code == 0, result.output
    assert_no_script_ran(browser, (out / "report" / "report.html").as_uri())


@pytest.mark.filterwarnings("ignore:Tight layout not applied:UserWarning")  # long names on a small figure
def test_a_tournament_of_hostile_strategy_names_runs_no_script(browser, tmp_path: Path) -> None:
    out = tmp_path / "tournament"
    strategies = ",".join(labelled(n) for n in SCRIPT_NAMES[:3])
    result = runner.invoke(app, ["tournament", "--strategies", strategies, "--rules", "classic", "--players", "3",
                                 "--games", "60", "--bootstrap", "20", "--out", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    pages = list(out.rglob("report.html"))
    assert pages
    for page in pages:
        text = assert_no_script_ran(browser, page.as_uri())
        assert any(name in text for name in SCRIPT_NAMES[:3])


def test_the_browser_seat_shows_hostile_names_as_text(browser, tmp_path: Path) -> None:
    out = tmp_path / "game"
    strategies = ",".join(["random", *(labelled(n) for n in SCRIPT_NAMES[:3])])
    server = subprocess.Popen(
        [UNOSIM, "play", "--browser", "--no-open", "--rules", "classic", "--players", "4", "--strategies", strategies,
         "--set", f"name={SCRIPT_NAME}", "--seed", "1", "--window", "0", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=_as_in_a_terminal,
        env={**os.environ, "PYTHONPATH": TESTS},
    )
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        address = re.search(r"(http://127\.0\.0\.1:\d+/\?token=[\w-]+)", first)
        assert address, first + server.stdout.read()
        assert_no_script_ran(browser, address.group(1), shown=SCRIPT_NAME)
        deadline = time.monotonic() + 60  # the log fills as the others play, with their names
        while time.monotonic() < deadline and "Labelled" not in browser.find_element("id", "log").text:
            time.sleep(0.1)
        log = browser.find_element("id", "log").text
        assert any(name in log for name in SCRIPT_NAMES[:3]), log
        assert browser.execute_script("return window.pwned === undefined")
        server.send_signal(signal.SIGINT)
        text, _ = server.communicate(timeout=120)
        assert server.returncode == 0, text
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert_no_script_ran(browser, (out / "game.html").as_uri(), shown=SCRIPT_NAME)
