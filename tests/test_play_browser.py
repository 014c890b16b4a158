"""``unosim play --browser`` in headless Chromium: the page is clicked through a whole party game
(jump-ins offered), a key that is not a legal move is answered with the legal ones, and the game
written agrees with its replay under the referee."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from browser import start_chromium
from test_play import check_written
from unosim.strategies.person import decode

from unosim.runs.dataset import read_metadata

UNOSIM = str(Path(sys.executable).with_name("unosim"))


def test_a_party_game_clicked_through_in_the_page(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    out = tmp_path / "game"
    server = subprocess.Popen(
        [UNOSIM, "play", "--browser", "--no-open", "--rules", "party", "--players", "6", "--set", "speed_play=true",
         "--strategies", "random", "--seed", "3", "--window", "0", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    driver = None
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        address = re.search(r"(http://127\.0\.0\.1:\d+/)\?token=([\w-]+)", first)
        assert address, first
        url, token = address.groups()
        driver = start_chromium()
        driver.get(f"{url}?token={token}")
        answered, refused, deadline = 0, False, time.monotonic() + 240
        while time.monotonic() < deadline:
            state = driver.execute_script("return document.body.dataset.state")
            if state == "finished":
                break
            if state != "question":
                time.sleep(0.05)
                continue
            qid = int(driver.execute_script("return document.body.dataset.qid"))
            if not refused:  # a key that is not a legal move: 400 and the legal keys
                request = urllib.request.Request(f"{url}answer?token={token}", data=json.dumps({"id": qid, "key": "zz"}).encode(), method="POST")
                try:
                    urllib.request.urlopen(request)
                    raise AssertionError("an illegal key was accepted")
                except urllib.error.HTTPError as exc:
                    body = json.loads(exc.read())
                    assert exc.code == 400 and body["legal"] and "is not a legal move" in body["error"]
                refused = True
            buttons = driver.find_elements(By.CSS_SELECTOR, "#options button")
            if not buttons:
                time.sleep(0.05)
                continue
            buttons[0].click()
            answered += 1
            # wait until the page has taken the answer (a new question, waiting, or the end)
            taken = "return document.body.dataset.state !== 'question' || +document.body.dataset.qid !== arguments[0]"
            for _ in range(200):
                if driver.execute_script(taken, qid):
                    break
                time.sleep(0.02)
        assert driver.execute_script("return document.body.dataset.state") == "finished", "the game did not end in time"
        summary = driver.find_element(By.ID, "summary").text
        assert "Winner: " in summary and "turns" in summary
        driver.save_screenshot(str(tmp_path / "play-last.png"))
        assert (tmp_path / "play-last.png").read_bytes()[:4] == b"\x89PNG"
        assert server.wait(timeout=60) == 0
    finally:
        if driver is not None:
            driver.quit()
        if server.poll() is None:
            server.kill()
            server.wait()
        if server.stdout is not None:
            server.stdout.close()
    config, row = check_written(out)
    answers = decode(dict(config.strategies[0].params)["answers"])
    assert answered >= 1 and len([a for a in answers if a[0] != "play" or a[1] != -1]) >= answered - 1
    assert read_metadata(out)["kind"] == "run" and (out / "game.html").stat().st_size > 10_000
    assert any(d == "jump_in" for d, _ in answers)  # a jump-in was offered and answered in the page
