"""A seat at the table in the browser: the engine behind a small local server.

The moves of the other seats depend on the person's, so they cannot be computed
ahead into a static page: `serve_game` plays the game in a thread with the
engine every run uses, and a local HTTP server (``127.0.0.1`` only, the standard
library's) lets a page ask what is going on and send the person's answers:

===============  ============================================================
``GET /``        the page (``templates/play.html.j2``: cards as inline SVG)
``GET /state``   JSON: what happened so far (others' hidden cards left out),
                 the table, the person's hand, the pending question with its
                 legal options, and at the end the summary
``POST /answer`` ``{"id": question id, "key": option key}``; a key that is not
                 a legal option is answered 400 with the legal keys
``GET /view``    once the game is over: its viewer (`unosim.reports.viewer`)
===============  ============================================================

Every request must carry ``?token=TOKEN``, the random token of the address
`serve_game` announces, name ``127.0.0.1:PORT`` or ``localhost:PORT`` as its
``Host`` and, if it has an ``Origin``, come from that address: another web page
(or a name rebound to this machine) gets 403. An answer's body is at most
`MAX_BODY` bytes of JSON.

The game is written as a run exactly as the terminal game is
(`unosim.play.terminal.play_and_write`); stopping the server (Ctrl-C, or the
terminal closing) ends the game and keeps what was played.
"""

from __future__ import annotations

import hmac
import json
import queue
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import numpy as np

from ..engine.config import RunConfig
from ..game.cards import CARD_NAMES, COLOUR_NAMES, WILD_DRAW_FOUR
from ..game.errors import UnosimInputError
from ..game.kernels import layout as L
from ..game.names import script_json
from .terminal import LEFT_BY, Hangup, PlayResult, on_hangup, play_and_write, public_lines, summary

__all__ = ["MAX_BODY", "BrowserSeat", "Left", "check_port", "choices", "serve_game"]

_KEYS = "123456789abcefhilmnoqrsuvwxyz"


class Left(Exception):
    """The server stopped before the game ended."""


def choices(decision: str, obs: Any, r: int, config: RunConfig, seat: int) -> tuple[str, list[dict[str, Any]], Any]:
    """The question a decision puts to a person.

    Returns
    -------
    prompt : str
    options : list of dict
        ``key``, ``label``, ``value`` (the answer), ``card`` (a card type, or -1).
    default : object or None
        The answer when an out-of-turn chance passes unanswered (None: the question waits).
    """
    def card_options(cards: list[int]) -> list[dict[str, Any]]:
        return [{"key": k, "label": CARD_NAMES[c] + (" (as a bluff)" if c == WILD_DRAW_FOUR and not obs.legal[r, c] else ""),
                 "value": c, "card": c} for k, c in zip(_KEYS, cards)]

    def yes_no(yes: tuple[str, str, Any], no: tuple[str, str, Any]) -> list[dict[str, Any]]:
        return [{"key": k, "label": label, "value": v, "card": -1} for k, label, v in (yes, no)]

    if decision == "play":
        cards = [int(c) for c in np.flatnonzero(obs.legal[r])]
        if bool(obs.bluffable[r]) and WILD_DRAW_FOUR not in cards:
            cards.append(WILD_DRAW_FOUR)
        return "Your move", card_options(cards) + [{"key": "d", "label": "draw a card", "value": -1, "card": -1}], None
    if decision == "play_drawn":
        card = int(obs.drawn[r])
        return f"You drew {CARD_NAMES[card]}", yes_no(("p", "play it", True), ("k", "keep it", False)), None
    if decision == "choose_colour":
        return "Choose the colour", [{"key": n[0], "label": n, "value": c, "card": -1} for c, n in enumerate(COLOUR_NAMES)], None
    if decision == "challenge":
        return (f"Seat {int(obs.target[r])} played a Wild Draw Four on you",
                yes_no(("c", "challenge", True), ("a", "accept", False)), None)
    if decision == "catch_uno":
        return f"Seat {int(obs.target[r])} forgot to call UNO!", yes_no(("c", "catch", True), ("n", "let go", False)), False
    if decision == "jump_in":
        card = int(obs.top[r])
        return f"Jump in with your {CARD_NAMES[card]}?", yes_no(("j", "jump in", 1.0), ("n", "pass", 0.0)), 0.0
    if decision == "point_at":
        seats = [p for p in range(config.players) if p != seat and bool(obs.alive[r, p])]
        return "Point Taken: point at a seat", [{"key": str(p), "label": f"seat {p}", "value": p, "card": -1} for p in seats], None
    if decision == "choose_link":
        allowed = [p for p in range(config.players) if bool(obs.link_choices[r, p])]
        pairs = [(a, b) for i, a in enumerate(allowed) for b in allowed[i + 1:]]
        return "Link two seats", [{"key": f"{a} {b}", "label": f"seats {a} and {b}", "value": (a, b), "card": -1} for a, b in pairs], None
    if decision == "add_to_pile":
        cards = [int(c) for c in np.flatnonzero(obs.legal[r])]
        extra = [{"key": "t", "label": "take the mini pile", "value": -1, "card": -1}] if bool(obs.may_take[r]) or not cards else []
        return "Add to the mini pile", card_options(cards) + extra, None
    if decision == "stack":  # H-1
        cards = [int(c) for c in np.flatnonzero(obs.legal[r])]
        take = {"key": "t", "label": f"take the {int(obs.penalty[r])} cards", "value": -1, "card": -1}
        return f"A penalty of {int(obs.penalty[r])} cards comes to you: stack on it?", card_options(cards) + [take], None
    if decision == "swap_with":  # H-2
        seats = [p for p in range(config.players) if p != seat and bool(obs.alive[r, p])]
        return "Your 7: swap hands with a seat", [{"key": str(p), "label": f"seat {p}", "value": p, "card": -1} for p in seats], None
    raise UnosimInputError(f"decision {decision!r} is not one a person is asked")


class BrowserSeat:
    """The callback of a person's seat played in a page: a question at a time, answered through `answer`."""

    def __init__(self, config: RunConfig, seat: int, window: float) -> None:
        self.config, self.seat, self.window = config, seat, window
        self.run: Any = None
        self.lock = threading.Lock()
        self.answers: queue.Queue[Any] = queue.Queue()
        self.question: dict[str, Any] | None = None
        self.asked = 0
        self.closed = False
        self.log: list[str] = []
        self.shown = 0
        self.result: PlayResult | None = None
        self.summary = ""

    def __call__(self, decision: str, obs: Any, r: int) -> Any:
        prompt, options, default = choices(decision, obs, r, self.config, self.seat)
        if decision == "play" and len(options) == 1:
            return -1  # nothing to play: draw
        with self.lock:
            self.asked += 1
            asked = self.asked
            self.question = {"id": asked, "decision": decision, "prompt": prompt, "options": options,
                             "window": self.window if default is not None else 0}
        try:
            while True:  # an answer sent before the page left still counts
                try:
                    got = self.answers.get(timeout=self.window if default is not None and self.window else 0.2)
                except queue.Empty:
                    if self.closed:
                        raise Left() from None
                    if default is not None and self.window:
                        return default
                    continue
                if got is Left:
                    raise Left()
                qid, value = got
                if qid == asked:
                    return value
                # an answer to an earlier question that arrived as its window closed: not this one's
        finally:
            with self.lock:
                self.question = None

    def answer(self, qid: Any, key: Any) -> tuple[int, dict[str, Any]]:
        """Answer question ``qid`` with option ``key``; returns an HTTP status and a JSON body."""
        with self.lock:
            q = self.question
            if q is None or qid != q["id"]:
                return 409, {"error": "that question is no longer open", "open": q["id"] if q else None}
            for option in q["options"]:
                if option["key"] == key:
                    self.answers.put((qid, option["value"]))
                    self.question = None  # answered: a second answer to it is refused, not kept for the next
                    return 200, {"ok": True}
            return 400, {"error": f"{key!r} is not a legal move here", "legal": [o["key"] for o in q["options"]]}

    def state(self) -> dict[str, Any]:
        """What the page shows: log, table, own hand, the open question, the summary."""
        with self.lock:
            lines, self.shown = public_lines(self.config, self.seat, self.run, self.shown)
            self.log += lines
            q = self.question
            out: dict[str, Any] = {"log": self.log, "question": q, "finished": self.result is not None, "summary": self.summary}
        if self.run is not None:
            b = self.run.buffers
            f = b.slot[0]
            hand = b.hands[0, self.seat]
            out["table"] = {"top": int(f[L.F_TOP]), "colour": int(f[L.F_COLOUR]), "dir": int(f[L.F_DIR]), "draw": int(f[L.F_DRAW_N]),
                            "mini": int(f[L.F_MINI_N]), "turn": int(f[L.F_TURN]), "sizes": [int(n) for n in b.hsize[0]],
                            "link": [int(f[L.F_LINK_A]), int(f[L.F_LINK_B])]}
            out["hand"] = [c for c in range(len(hand)) for _ in range(int(hand[c]))]
        return out


MAX_BODY = 4096
"""The largest answer body (bytes) the server reads; an answer is a few dozen."""

_ANSWER_FORM = "send JSON: {\"id\": question id (a whole number), \"key\": option key (text)}"


def check_port(port: Any) -> int:
    """``port`` if it is a TCP port number (0 to 65535; 0: any free one), else a ValueError saying so."""
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise UnosimInputError(f"--port {port!r} is not a port: give a whole number from 1 to 65535, or 0 for any free port.")
    return port


def _handler(seat: BrowserSeat, page: str, viewer: dict[str, str], token: str) -> type[BaseHTTPRequestHandler]:
    """The request handler: the page, its state and answers, for requests that carry ``token``.

    A request is answered only when its ``Host`` is this machine's address (a page on another
    name that resolves here is refused: DNS rebinding), its ``Origin``, if any, is this server,
    and its URL holds ``?token=TOKEN`` (the address printed for the person): 403 otherwise.
    """
    class Handler(BaseHTTPRequestHandler):
        timeout = 30  # seconds a connection may stay silent (a body shorter than announced)

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def send(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("X-Frame-Options", "DENY")
            self.send_header("Referrer-Policy", "no-referrer")
            self.end_headers()
            self.wfile.write(body)

        def send_json(self, status: int, reply: dict[str, Any]) -> None:
            self.send(status, json.dumps(reply).encode(), "application/json")

        def route(self) -> str | None:
            """The path of an allowed request; None after answering 403."""
            address: Any = self.server.server_address  # (host, port) of an IPv4 server
            port = address[1]
            here = {f"127.0.0.1:{port}", f"localhost:{port}"}
            url = urlsplit(self.path)
            given = parse_qs(url.query).get("token", [""])[0]
            origin = self.headers.get("Origin")
            if self.headers.get("Host") not in here:
                why = "the Host is not this server's address"
            elif origin is not None and origin not in {f"http://{h}" for h in here}:
                why = "the request comes from another site"
            elif not hmac.compare_digest(given.encode(), token.encode()):
                why = "the address lacks this game's token: open the address unosim printed"
            else:
                return url.path
            self.send_json(403, {"error": why})
            return None

        def do_GET(self) -> None:
            path = self.route()
            if path is None:
                return
            if path == "/":
                self.send(200, page.encode(), "text/html; charset=utf-8")
            elif path == "/state":
                self.send_json(200, seat.state())
            elif path == "/view" and "html" in viewer:
                self.send(200, viewer["html"].encode(), "text/html; charset=utf-8")
            else:
                self.send(404, b"not found", "text/plain")

        def do_POST(self) -> None:
            path = self.route()
            if path is None:
                return
            if path != "/answer":
                self.send(404, b"not found", "text/plain")
                return
            length = self.headers.get("Content-Length", "")
            if not length.isdigit():  # missing, negative or not a number
                self.send_json(411, {"error": f"Content-Length {length!r}: give the body's length in bytes"})
                return
            if int(length) > MAX_BODY:
                self.send_json(413, {"error": f"a body of {length} bytes; an answer is at most {MAX_BODY}"})
                self.close_connection = True
                return
            try:
                body = json.loads(self.rfile.read(int(length)) or b"{}")
            except (ValueError, RecursionError):
                self.send_json(400, {"error": _ANSWER_FORM})
                return
            qid, key = (body.get("id"), body.get("key")) if isinstance(body, dict) else (None, None)
            if isinstance(qid, bool) or not isinstance(qid, int) or not isinstance(key, str):
                self.send_json(400, {"error": _ANSWER_FORM})
                return
            self.send_json(*seat.answer(qid, key))

    return Handler


def serve_game(config: RunConfig, seat: int, out: str | Path, *, port: int = 0, window: float = 10.0, announce: Any = print,
               open_browser: bool = False, linger: float = 5.0) -> PlayResult | None:
    """Serve one game with a person at ``seat`` on ``http://127.0.0.1:PORT/?token=TOKEN`` until it ends; write it into ``out``.

    The address announced holds a random token; requests without it, from another site or
    for another host name are refused (403). Ctrl-C, or the terminal closing (SIGHUP,
    SIGTERM), ends the game: it is played to its end by the seat's defaults and written
    before this returns.

    Parameters
    ----------
    config : RunConfig
        The game.
    seat : int
        The person's seat.
    out : str or Path
        The run directory to write.
    port : int
        The local port (0: any free one).
    window : float
        Seconds an out-of-turn chance stays open (0: until answered).
    announce : callable
        Called with each message for the person (the address first).
    open_browser : bool
        Open the page in the default browser.
    linger : float
        Seconds the server stays up after the game so the page can show the summary and the viewer.

    Returns
    -------
    PlayResult or None
        None when the game could not be written.
    """
    from ..reports.viewer import page_template, write_viewer
    from ..runs.files import read_metadata

    check_port(port)
    person = BrowserSeat(config, seat, window)
    viewer: dict[str, str] = {}
    token = secrets.token_urlsafe(24)
    page = page_template("play.html.j2").render(
        title=f"unosim · {config.rules.name} · {config.players} players · seat {seat}", seat=int(seat), players=config.players,
        card_names=script_json(list(CARD_NAMES)), colour_names=script_json(list(COLOUR_NAMES)))
    server = ThreadingHTTPServer(("127.0.0.1", port), _handler(person, page, viewer, token))
    address = f"http://127.0.0.1:{server.server_address[1]}/?token={token}"
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def attach(live: RunConfig, game: Any) -> BrowserSeat:
        person.config, person.run = live, game
        return person

    failure: list[BaseException] = []
    done = threading.Event()  # set once the game is written (or failed): a join interrupted by Ctrl-C cannot tell

    def play() -> None:
        try:
            result = play_and_write(config, seat, out, attach, (Left,))
            meta = read_metadata(out)
            html_path = write_viewer(RunConfig.from_dict(meta["config"]), 0, Path(out) / "game.html", row=result.row)
            with person.lock:
                viewer["html"] = html_path.read_text(encoding="utf-8")
                person.summary = summary(result, seat, config) + (" (you left early)" if result.interrupted else "")
                person.result = result
        except BaseException as exc:  # reported by the main thread
            failure.append(exc)
        finally:
            done.set()

    def hangup(signum: int) -> None:
        raise Hangup(signum)

    game_thread = threading.Thread(target=play, daemon=True)
    ended = ""
    with on_hangup(hangup):
        game_thread.start()
        announce(f"open {address} to play (Ctrl-C ends the game)")
        if open_browser:
            import webbrowser

            webbrowser.open(address)
        try:
            while not done.wait(0.2):
                pass
        except KeyboardInterrupt as exc:  # Ctrl-C, or the terminal closed: the seat's defaults finish the game
            ended = LEFT_BY["hangup" if isinstance(exc, Hangup) else "interrupt"]
            person.closed = True
            person.answers.put(Left)
            if not isinstance(exc, Hangup):
                announce("Writing the game played so far ...")
            while not done.is_set():
                try:
                    done.wait(0.2)
                except KeyboardInterrupt:  # the game is being written: wait for it
                    pass
    if failure:
        server.shutdown()
        raise failure[0]
    if person.result is not None:
        result = person.result
        try:
            if ended:
                announce(f"You left after {result.answers} decisions ({ended}); the rest of the game is played by the seat's defaults.")
            announce(summary(result, seat, config))
            announce(f"The game is written to {out}; its viewer is {Path(out) / 'game.html'}")
        except OSError:  # the terminal is gone: the game is written all the same
            pass
        if not ended:
            time.sleep(linger)
    server.shutdown()
    return person.result
