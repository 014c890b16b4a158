"""Isolation: a user's strategy plays from a process of its own (``--isolate``).

In-process verification (:mod:`unosim.engine.integrity`) makes tampering evident; isolation makes
it impossible. An isolated strategy is built and asked in a child process started for it
(``python -m unosim.engine.isolation``), which receives only the observations of its decisions
and sends back only its answers and the random-stream counters it advanced: nothing of the
engine — hands, piles, other strategies, the run — is in that process's memory, so frames, the
garbage collector or monkeypatching reach nothing that matters.

The engine holds an :class:`Isolated` stand-in, a :class:`~unosim.strategy.base.Strategy` whose
every decision is a round trip to the child, and whose declared shortcuts (e.g. "never forgets
UNO") are those the child's strategy declares, so the engine asks exactly the decisions it would
ask the strategy itself and the games are identical. Only user code is isolated
(:func:`~unosim.strategy.registry.is_user_code`): the built-in strategies, rule files, tuned files
and policy files play in the engine as always, compiled where they can be.

Protocol (pickle frames over the child's standard input and output; the child's own prints go to
standard error): the parent sends ``("make", name, params)``, ``("ask", decision, observation
parts, args)`` or ``("stop",)``; the child answers ``("ok", value)`` or ``("raised", type name,
message, traceback text)``. One child serves one strategy spec for the life of the process that
started it, and makes a fresh strategy object for every engine, as an in-process engine does.
"""

from __future__ import annotations

import atexit
import os
import pickle
import subprocess
import sys
import threading
import traceback
from typing import IO, Any, BinaryIO

import numpy as np

from ..game.errors import UnosimInputError
from ..strategy.base import Strategy
from ..strategy.observation import Observation, SeatStreams
from .fast_paths import DECISIONS, asks_challenge, asks_forget_uno, asks_play_drawn, forced_draw_uniforms

__all__ = ["Isolated", "IsolationError", "RemoteError", "isolated", "serve"]


class IsolationError(RuntimeError):
    """The child process of an isolated strategy could not be started or ended unexpectedly."""


class _Child:
    """One child process serving one strategy spec."""

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        self.name, self.params = name, params
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p or os.getcwd() for p in sys.path))  # the parent's imports
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "unosim.engine.isolation"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
            )  # fmt: skip
        except OSError as exc:
            raise IsolationError(f"could not start a process for strategy {name!r}: {exc}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.out: IO[bytes] = self.proc.stdin
        self.inp: IO[bytes] = self.proc.stdout
        self.lock = threading.Lock()

    def call(self, *message: Any) -> Any:
        """Send ``message``, return the child's answer (raising what it raised)."""
        with self.lock:
            try:
                pickle.dump(message, self.out, protocol=pickle.HIGHEST_PROTOCOL)
                self.out.flush()
                reply = pickle.load(self.inp)
            except (EOFError, OSError, pickle.UnpicklingError):
                code = self.proc.poll()
                raise IsolationError(
                    f"the process of isolated strategy {self.name!r} ended (exit code {code}) while asked {message[0]!r}; "
                    "a strategy must return its decisions, not end its process."
                ) from None
        if reply[0] == "raised":
            _, kind, text, frames = reply
            raise RemoteError(kind, text, frames)
        return reply[1]

    def stop(self) -> None:
        """End the child (it exits on the stop message or on end of input)."""
        try:
            pickle.dump(("stop",), self.out)
            self.out.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


_INPUT_ERRORS = ("ValueError", "UnosimInputError", "ParameterError", "RuleFileError")
"""The errors of a strategy's construction in its process that are bad input (a spec, a parameter)."""


class RemoteError(Exception):
    """What an isolated strategy raised, with its own traceback (from its process)."""

    def __init__(self, kind: str, text: str, frames: str) -> None:
        super().__init__(f"{text} [{kind} in the isolated process]\n{frames}".rstrip())
        self.kind = kind


_CHILDREN: dict[tuple[str, bytes], _Child] = {}
_LOCK = threading.Lock()


def _child(name: str, params: dict[str, Any]) -> _Child:
    """The child serving (``name``, ``params``) in this process, started on first use."""
    key = (name, pickle.dumps(sorted(params.items())))
    with _LOCK:
        child = _CHILDREN.get(key)
        if child is None or child.proc.poll() is not None:
            child = _CHILDREN[key] = _Child(name, params)
    return child


@atexit.register
def _stop_children() -> None:
    for child in list(_CHILDREN.values()):
        child.stop()
    _CHILDREN.clear()


class Isolated(Strategy):
    """The engine's stand-in for a strategy playing in its own process (see the module doc).

    Made by :func:`isolated`; its decisions are answered by the child, its description
    (``label``, ``get_params``, ``describe``) is the child strategy's.
    """

    name = "isolated"

    def __init__(self) -> None:
        super().__init__()
        self._child: _Child | None = None
        self._info: dict[str, Any] = {}

    @property
    def label(self) -> str:
        return str(self._info.get("label", "isolated"))

    def get_params(self) -> dict[str, Any]:
        return dict(self._info.get("params", {}))

    def describe(self) -> dict[str, Any]:
        return dict(self._info.get("describe", {}))

    def compiled_covers(self) -> bool:
        return False

    def __repr__(self) -> str:
        return str(self._info.get("repr", "Isolated()"))

    def __reduce__(self) -> Any:
        return isolated, (self._child.name, self._child.params) if self._child else ("", {})

    def _ask(self, decision: str, obs: Observation, *args: Any) -> Any:
        assert self._child is not None
        streams = obs._streams
        parts = (obs.phase_id, obs.players, obs.rules, obs._values, streams._keys, streams._counters, streams._at)
        value, counters = self._child.call("ask", decision, parts, args)
        streams._counters[...] = counters  # the draws the strategy made, given back as the engine gives them back
        return value


def _forward(decision: str) -> Any:
    def method(self: Isolated, obs: Observation, *args: Any) -> Any:
        return self._ask(decision, obs, *args)

    method.__name__ = decision
    method.__doc__ = f"Answered by the isolated strategy's ``{decision}``."
    return method


for _decision in DECISIONS:
    setattr(Isolated, _decision, _forward(_decision))

_SHORTCUTS = ("never_forgets_uno", "plays_legal_drawn_card", "never_challenges", "forced_draw_uniforms")


def isolated(name: str, params: dict[str, Any]) -> Strategy:
    """A fresh strategy ``name(**params)`` playing from its own process, as the engine's stand-in.

    Raises
    ------
    ValueError
        When the strategy cannot be made (unknown, a bad parameter, a constructor that raises), with
        the child's message.
    IsolationError
        When its process cannot be started.
    """
    child = _child(name, params)
    try:
        info = child.call("make", name, params)
    except RemoteError as exc:
        if exc.kind in _INPUT_ERRORS:
            raise UnosimInputError(str(exc).split(f" [{exc.kind} in the isolated process]")[0]) from None
        raise
    cls = type(f"Isolated[{info['label']}]", (Isolated,), dict(info["shortcuts"]))
    proxy = cls()
    proxy._child, proxy._info = child, info
    return proxy


# ------------------------------------------------------------------ child side
def _describe(strategy: Strategy) -> dict[str, Any]:
    """What the engine needs to know of the child's strategy, without holding it."""
    shortcuts = {
        "never_forgets_uno": not asks_forget_uno(strategy),
        "plays_legal_drawn_card": not asks_play_drawn(strategy),
        "never_challenges": not asks_challenge(strategy),
        "forced_draw_uniforms": forced_draw_uniforms(strategy),
    }
    return {
        "label": strategy.label, "params": strategy.get_params(), "describe": strategy.describe(), "repr": repr(strategy),
        "shortcuts": shortcuts,
    }  # fmt: skip


def serve(inp: BinaryIO, out: BinaryIO) -> None:
    """The child's loop: make the strategy, answer its decisions, until ``stop`` or end of input."""
    from ..strategy import registry

    strategy: Strategy | None = None
    while True:
        try:
            message = pickle.load(inp)
        except EOFError:
            return
        if message[0] == "stop":
            return
        try:
            if message[0] == "make":
                registry.check_known(message[1], message[2])  # the messages of an in-process check
                strategy = registry.make(message[1], message[2])
                reply: tuple[Any, ...] = ("ok", _describe(strategy))
            else:
                _, decision, (phase, players, rules, values, keys, counters, at), args = message
                assert strategy is not None
                obs = Observation(phase, players, rules, dict(values), SeatStreams(keys, counters, at))
                value = getattr(strategy, decision)(obs, *args)
                reply = ("ok", (np.asarray(value) if not isinstance(value, np.ndarray) else value, counters))
        except BaseException as exc:  # noqa: BLE001 - everything the strategy raises goes back to the engine
            frames = "".join(traceback.format_tb(exc.__traceback__)[1:])
            reply = ("raised", type(exc).__name__, str(exc), frames)
        pickle.dump(reply, out, protocol=pickle.HIGHEST_PROTOCOL)
        out.flush()


def _main() -> None:
    """Entry of the child process: the protocol on the original standard output, prints to standard error."""
    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(sys.stdin.buffer, protocol)


if __name__ == "__main__":
    _main()
