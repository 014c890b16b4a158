"""The game viewer in a real browser: headless Chromium steps through every move of a game of
each preset and the page's drawn table is checked against the referee's reading of the trace at every step.

Screenshots of the first and the last state are kept in the test's temporary directory
(pytest's ``tmp_path``, under ``pytest --basetemp DIR`` to keep them in a chosen place).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from browser import start_chromium
from referee import Referee
from typer.testing import CliRunner

import unosim
from unosim.cli import app
from unosim.engine.config import RunConfig
from unosim.engine.trace import replay
from unosim.game.cards import CARD_POINTS
from unosim.game.kernels import layout as L

runner = CliRunner()

READ_PAGE = """
const num = (id, key) => +document.getElementById(id).dataset[key];
const cards = sel => Array.from(document.querySelectorAll(sel)).map(s => +s.dataset.card);
const seats = Array.from(document.querySelectorAll('.seat'));
const step = +document.body.dataset.step;
return {
  step: step,
  event: window.unosimViewer.steps[step].event,
  hands: seats.map(el => Array.from(el.querySelectorAll('.hand svg')).map(s => +s.dataset.card)),
  counts: seats.map(el => +el.dataset.count),
  on_turn: seats.filter(el => el.classList.contains('on-turn')).map(el => +el.dataset.seat),
  winner: seats.filter(el => el.classList.contains('winner')).map(el => +el.dataset.seat),
  top: num('top', 'card'), colour: num('colour', 'colour'), draw: num('draw', 'n'), under: num('under', 'n'),
  dir: num('dir', 'dir'), mini: cards('#mini svg'), link: document.getElementById('link').dataset.link,
  turns: num('turns', 'n'), slider: +document.getElementById('slider').value,
  move: document.querySelector('#moves li.cur').textContent,
  moves: document.querySelectorAll('#moves li').length,
};
"""


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the module (installed first if missing)."""
    driver = start_chromium()
    yield driver
    driver.quit()


def write_run(tmp_path: Path, rules: str, players: int, overrides: list[str], strategies: str, seed: int) -> Path:
    out = tmp_path / "run"
    args = ["simulate", "--rules", rules, "--players", str(players), "--games", "3", "--seed", str(seed), "--out", str(out),
            "--strategies", strategies]
    for o in overrides:
        args += ["--set", o]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return out


def step_through(browser, tmp_path: Path, run: Path, game: int) -> dict:
    """Open the viewer of ``game`` of ``run``, step with the right-arrow key to the end, checking every
    step against the referee; return the record row of the game."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page = tmp_path / f"game-{game}.html"
    result = runner.invoke(app, ["view", "--run", str(run), "--game", str(game), "--out", str(page)])
    assert result.exit_code == 0, result.output
    config = RunConfig.from_dict(unosim.runs.files.read_metadata(run)["config"])
    row = unosim.load(run).set_index("game").loc[game]
    trace = replay(config, game)
    narration: dict[int, list[str]] = {}
    for i, line, _ in trace.narrate_events():
        narration.setdefault(i, []).append(line.strip())
    ref = Referee(config.rules, config.players, trace.opening)
    browser.get(page.as_uri())
    body = browser.find_element(By.TAG_NAME, "body")
    state = browser.execute_script(READ_PAGE)
    n_steps = state["moves"]
    applied = 0
    seen_kinds: Counter = Counter()
    for k in range(n_steps):
        if k:
            body.send_keys(Keys.ARROW_RIGHT)
            state = browser.execute_script(READ_PAGE)
        if k == 0:
            browser.save_screenshot(str(tmp_path / "first.png"))
        assert state["step"] == k and state["slider"] == k
        while applied <= state["event"]:
            ref.event(*(int(x) for x in trace.events[applied][1:]))
            applied += 1
        row_ev = trace.events[state["event"]]
        seen_kinds[int(row_ev[1]) + (100 if row_ev[1] == L.EV_PLAY and row_ev[5] else 0)] += 1
        where = f"step {k}, event {state['event']}"
        assert [Counter(h) for h in state["hands"]] == [+h for h in ref.hands], where
        assert state["counts"] == [h.total() for h in ref.hands], where
        turning = applied < len(trace.events) and trace.events[applied][1] == L.EV_REVERSE  # the page turns at that event
        assert (state["top"], state["colour"], state["dir"]) == (ref.top, ref.colour, -ref.dir if turning else ref.dir), where
        assert state["draw"] == ref.draw.total() and state["under"] == ref.under.total(), where
        assert Counter(state["mini"]) == +ref.mini, where
        assert state["link"] == (",".join(map(str, ref.link)) if ref.link else ""), where
        assert state["turns"] == ref.turns, where
        if k:
            assert state["move"].split("\n") == narration[state["event"]], where
    assert applied == len(trace.events), "the page stops before the last event"
    browser.save_screenshot(str(tmp_path / "last.png"))
    # the last state is the dataset's row
    hand_points = [sum(int(CARD_POINTS[c]) for c in hand) for hand in state["hands"]]
    assert hand_points == list(row["hand_points"])
    assert state["winner"] == [int(row["winner"])] and state["turns"] == row["turns"]
    assert state["on_turn"] == []
    body.send_keys(Keys.ARROW_RIGHT)  # past the end: it stays
    assert browser.execute_script(READ_PAGE)["step"] == n_steps - 1
    for shot in ("first.png", "last.png"):
        data = (tmp_path / shot).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000, shot
    return {"row": row, "trace": trace, "kinds": seen_kinds, "steps": n_steps}


def test_party_game_of_16_with_jump_ins_and_pile_ups(browser, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    run = write_run(tmp_path, "party", 16, ["speed_play=true"], "random", seed=1)
    got = step_through(browser, tmp_path, run, 0)
    row = got["row"]
    assert row["jump_ins"] > 0 and row["pileups"] > 0
    assert got["kinds"][100 + L.EV_PLAY] == row["jump_ins"]  # every jump-in was a step of its own
    assert got["kinds"][L.EV_PILE_TAKE] >= 1
    # jumps, the slider and the keys
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    assert browser.execute_script(READ_PAGE)["step"] == 0
    steps = browser.execute_script("return window.unosimViewer.steps")
    for kind, test in (("jump-in", lambda s: s["kind"] == "jump-in"), ("pile-up", lambda s: s["kind"] == "play" and s["top"] == 58)):
        browser.find_element(By.CSS_SELECTOR, f'button.jump[data-kind="{kind}"]').click()
        at = browser.execute_script(READ_PAGE)["step"]
        assert at == next(i for i, s in enumerate(steps) if test(s)), kind
        event = got["trace"].events[steps[at]["event"]]
        assert event[1] == L.EV_PLAY and (event[5] == 1 if kind == "jump-in" else event[3] == 58)
    before = browser.execute_script(READ_PAGE)["step"]
    body.send_keys(Keys.ARROW_LEFT)
    assert browser.execute_script(READ_PAGE)["step"] == before - 1
    browser.execute_script("const s = document.getElementById('slider'); s.value = 40; s.dispatchEvent(new Event('input'));")
    assert browser.execute_script(READ_PAGE)["step"] == 40
    body.send_keys(Keys.END)
    assert browser.execute_script(READ_PAGE)["step"] == got["steps"] - 1


@pytest.mark.parametrize("rules", ["classic", "classic-house"])
def test_classic_game_with_challenges(browser, tmp_path: Path, rules: str) -> None:
    from selenium.webdriver.common.by import By

    run = write_run(tmp_path, rules, 4, ["wd4_challenge=true"], "bluffer", seed=2)
    games = unosim.load(run)
    game = int(games.sort_values("challenges", ascending=False)["game"].iloc[0])
    got = step_through(browser, tmp_path, run, game)
    assert got["row"]["challenges"] > 0
    browser.find_element(By.CSS_SELECTOR, "#first").click()
    browser.find_element(By.CSS_SELECTOR, 'button.jump[data-kind="challenge"]').click()
    at = browser.execute_script(READ_PAGE)["event"]
    assert got["trace"].events[at][1] in (L.EV_CHALLENGE, L.EV_NO_CHALLENGE)
