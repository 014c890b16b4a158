"""``unosim play --browser`` in headless Chromium: the page is clicked through a whole party game
(jump-ins offered), a key that is not a legal move is answered with the legal ones, and the game
written agrees with its replay under the referee."""

from __future__ import annotations

import http.client
import json
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from browser import start_chromium
from test_play import _as_in_a_terminal, check_written
from unosim.strategies.person import decode

from unosim.runs.files import read_metadata

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
                request = urllib.request.Request(f"{url}answer?token={token}", data=json.dumps({"id": qid, "key": "zz"}).encode(),
                                                 method="POST")
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


def _start(out: Path, *extra: str) -> tuple[subprocess.Popen[str], int, str]:
    """``unosim play --browser`` of a 3-player classic game; returns the process, its port and its token."""
    server = subprocess.Popen(
        [UNOSIM, "play", "--browser", "--no-open", "--rules", "classic", "--players", "3", "--strategies", "greedy",
         "--seed", "2", "--window", "0", "--out", str(out), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=_as_in_a_terminal,
    )
    assert server.stdout is not None
    first = server.stdout.readline()
    address = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([\w-]+)", first)
    assert address, first
    return server, int(address.group(1)), address.group(2)


@contextmanager
def _served(out: Path) -> Iterator[tuple[subprocess.Popen[str], int, str]]:
    """`_start`, then the server killed and its pipe closed whatever the test does."""
    server, port, token = _start(out)
    try:
        yield server, port, token
    finally:
        server.kill()
        server.wait()
        assert server.stdout is not None
        server.stdout.close()


def _request(port: int, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
             timeout: float = 10) -> tuple[int, bytes]:
    """One HTTP request with exactly the headers given (``Host`` too, when given); the status and the body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = dict(headers or {})
    try:
        conn.putrequest(method, path, skip_host="Host" in headers, skip_accept_encoding=True)
        for k, v in headers.items():
            conn.putheader(k, v)
        conn.endheaders(body)
        reply = conn.getresponse()
        return reply.status, reply.read()
    finally:
        conn.close()


def _answer_first(port: int, token: str) -> bool:
    """Answer the open question with its first option; False when none is open."""
    status, body = _request(port, "GET", f"/state?token={token}")
    assert status == 200
    question = json.loads(body)["question"]
    if question is None:
        return False
    data = json.dumps({"id": question["id"], "key": question["options"][0]["key"]}).encode()
    status, _ = _request(port, "POST", f"/answer?token={token}", data, {"Content-Length": str(len(data)),
                                                                         "Content-Type": "application/json"})
    return status == 200


def test_the_server_answers_only_requests_with_its_token_from_its_own_page(tmp_path: Path) -> None:
    with _served(tmp_path / "game") as (server, port, token):
        here = f"127.0.0.1:{port}"
        assert _request(port, "GET", "/")[0] == 403  # no token
        assert _request(port, "GET", "/state?token=wrong")[0] == 403
        assert _request(port, "GET", f"/state?token={token}", headers={"Host": f"rebound.example:{port}"})[0] == 403
        data = b'{"id": 1, "key": "d"}'
        hostile = {"Origin": "http://evil.example", "Content-Length": str(len(data))}
        status, body = _request(port, "POST", f"/answer?token={token}", data, hostile)
        assert status == 403 and b"another site" in body
        status, page = _request(port, "GET", f"/?token={token}", headers={"Host": here})
        assert status == 200 and b"<title>" in page
        assert _request(port, "GET", f"/state?token={token}", headers={"Origin": f"http://{here}"})[0] == 200


def test_bodies_that_are_too_long_negative_or_nested_are_refused_at_once(tmp_path: Path) -> None:
    with _served(tmp_path / "game") as (server, port, token):
        answer = f"/answer?token={token}"
        started = time.monotonic()
        status, body = _request(port, "POST", answer, b"{}", {"Content-Length": "-5"}, timeout=5)
        assert status == 411 and b"Content-Length" in body
        assert _request(port, "POST", answer, None, {"Content-Length": str(10**12)}, timeout=5)[0] == 413
        assert _request(port, "POST", answer, None, {"Content-Length": "lots"}, timeout=5)[0] == 411
        nested = b"[" * 2000 + b"]" * 2000
        status, body = _request(port, "POST", answer, nested, {"Content-Length": str(len(nested))}, timeout=5)
        assert status == 400 and b"send JSON" in body
        for wrong in (b'{"id": true, "key": "d"}', b'{"id": 1, "key": 5}', b"[1, 2]", b"not json"):
            assert _request(port, "POST", answer, wrong, {"Content-Length": str(len(wrong))}, timeout=5)[0] == 400
        assert time.monotonic() - started < 20
        status, body = _request(port, "GET", f"/state?token={token}")  # the server still serves the game
        assert status == 200 and "log" in json.loads(body)
        assert server.poll() is None


def test_a_question_takes_one_answer_and_a_second_is_refused(tmp_path: Path) -> None:
    with _served(tmp_path / "game") as (server, port, token):
        deadline, question = time.monotonic() + 60, None
        while question is None and time.monotonic() < deadline:
            question = json.loads(_request(port, "GET", f"/state?token={token}")[1])["question"]
            time.sleep(0.05)
        assert question is not None
        data = json.dumps({"id": question["id"], "key": question["options"][0]["key"]}).encode()
        sent = [_request(port, "POST", f"/answer?token={token}", data, {"Content-Length": str(len(data))})[0] for _ in range(2)]
        assert sent == [200, 409]  # the second would otherwise be taken as the answer to the next question
        assert server.poll() is None


@pytest.mark.parametrize(("signum", "how"), [(signal.SIGINT, "Ctrl-C"), (signal.SIGHUP, "the terminal closed")])
def test_ctrl_c_or_a_closed_terminal_after_some_moves_keeps_the_game(tmp_path: Path, signum: int, how: str) -> None:
    out = tmp_path / "game"
    server, port, token = _start(out)
    answered = 0
    deadline = time.monotonic() + 120
    while answered < 3 and time.monotonic() < deadline:
        if _answer_first(port, token):
            answered += 1
        else:
            time.sleep(0.05)
    assert answered == 3
    server.send_signal(signum)
    text, _ = server.communicate(timeout=120)
    assert server.returncode == 0, text
    left = re.search(r"You left after (\d+) decisions \(([^)]*)\)", text)
    assert left and left.group(2) == how and "Traceback" not in text, text
    config, row = check_written(out)
    answers = decode(dict(config.strategies[0].params)["answers"])
    assert len(answers) == int(left.group(1)) >= 3


def test_a_port_out_of_range_is_refused_before_any_work(tmp_path: Path) -> None:
    done = subprocess.run([UNOSIM, "play", "--browser", "--no-open", "--port", "99999", "--out", str(tmp_path / "game")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert "--port 99999 is not a port" in done.stderr and "65535" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "game").exists()
