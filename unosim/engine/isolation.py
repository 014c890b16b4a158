"""Isolation: a user's strategy plays from a process of its own (``--isolate``).

In-process verification (`unosim.engine.integrity`) makes tampering evident; isolation makes
it impossible. An isolated strategy is imported, built and asked only in a child process started
for it (``python -m unosim.engine.isolation``), which receives only the observations of its
decisions and sends back only its answers and the random-stream counters it advanced: nothing of
the engine — hands, piles, other strategies, the run — is in that process's memory, so frames, the
garbage collector or monkeypatching reach nothing that matters. The user's module is never
imported in the engine's processes (the one that starts the run, its joblib or Dask workers): the
kernels' compile step plays a `StandIn` in its place.

The engine holds an `Isolated` stand-in, a [`Strategy`][unosim.Strategy] whose
every decision is a round trip to the child. None of the child's declared shortcuts (e.g. "never
forgets UNO") or compiled transcriptions is trusted: the engine asks the child every decision it
would ask a strategy that declares none, and a strategy whose declarations are true plays the same
games as in process. Only user code is isolated (`is_user_code`):
the built-in strategies, rule files, tuned files and policy files play in the engine as always,
compiled where they can be.

Protocol
--------
Plain data both ways, never pickle: each message is a frame of two little-endian ``uint32`` (the
header's length, then the body's), a JSON header (UTF-8) and a body holding the raw bytes of the
arrays the header declares (``"arrays": [[name, dtype, shape], ...]``, in that order, C order,
little-endian; dtypes booleans, integers and floats only). A frame is checked before use: its
lengths against `MAX_HEADER` and `MAX_BODY`, the header is a JSON object, every dtype
is one of `DTYPES`, every shape a short list of whole numbers, and the arrays fill the body
exactly; the arrays are then read with `numpy.frombuffer`. The engine also checks what the
arrays hold: the counters have the shape and dtype it sent and only advance; an answer is numbers,
checked by the engine as any strategy's answer is (shape, range, legality).

The engine sends ``{"op": "make", "name", "params"}``, ``{"op": "ask", "decision", "phase",
"players", "rules"?, "args"}`` with the observation's arrays, or ``{"op": "stop"}``; the child
answers ``{"ok": true, ...}`` (the strategy's description, or ``"value"`` with the arrays
``value`` and ``counters``) or ``{"ok": false, "kind", "text", "frames"}`` (what the strategy
raised, as text). The child's own prints go to standard error. One child serves one strategy spec
for the life of the process that started it, and makes a fresh strategy object for every engine,
as an in-process engine does.
"""

from __future__ import annotations

import atexit
import dataclasses
import importlib
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import threading
import traceback
from pathlib import Path
from typing import IO, Any, BinaryIO

import numpy as np
from numpy.typing import NDArray

from ..game.errors import UnosimInputError
from ..game.rules import RuleSet
from ..strategy import registry
from ..strategy.base import Strategy
from ..strategy.observation import FIELDS, Observation, SeatStreams, stream_arrays
from . import sandbox
from .fast_paths import DECISIONS

__all__ = [
    "DTYPES", "MAX_BODY", "MAX_HEADER", "STAND_IN", "Isolated", "IsolationError", "ProtocolError", "RemoteError", "StandIn",
    "isolated",
    "read_frame", "serve", "stop_children", "write_frame",
]

DTYPES = frozenset({"|b1", "|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8", "<f4", "<f8"})
"""The array dtypes a frame may declare (numpy's ``dtype.str``): booleans, integers, floats."""
MAX_HEADER = 1 << 20
"""Bytes a frame's JSON header may take."""
MAX_BODY = 1 << 28
"""Bytes a frame's arrays may take."""
_MAX_DIMS = 4
_MAX_TEXT = 20_000
"""Characters kept of a text the child sends (an error message, its traceback, a label)."""
_PREFIX = struct.Struct("<II")


class IsolationError(RuntimeError):
    """The child process of an isolated strategy could not be started or ended unexpectedly."""


class ProtocolError(ValueError):
    """A frame that breaks the protocol (see the module doc): refused before anything in it is used."""


# ------------------------------------------------------------------ frames
def write_frame(out: IO[bytes], header: dict[str, Any], arrays: dict[str, NDArray[Any]] | None = None) -> None:
    """Send ``header`` (JSON) and ``arrays`` (raw bytes, declared in the header) as one frame."""
    parts: list[bytes] = []
    layout = []
    for name, a in (arrays or {}).items():
        a = np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<") if a.dtype.byteorder == ">" else a.dtype)
        if a.dtype.str not in DTYPES:
            raise ProtocolError(f"array {name!r} of dtype {a.dtype} cannot be sent; send booleans, integers or floats.")
        layout.append([name, a.dtype.str, list(a.shape)])
        parts.append(a.tobytes())
    text = json.dumps({**header, "arrays": layout}, allow_nan=True).encode()
    body = b"".join(parts)
    out.write(_PREFIX.pack(len(text), len(body)) + text + body)
    out.flush()


def _read_exactly(inp: IO[bytes], n: int) -> bytes:
    chunks, left = [], n
    while left:
        chunk = inp.read(left)
        if not chunk:
            raise EOFError(f"the stream ended {left} bytes before the end of a frame")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _shape(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > _MAX_DIMS:
        raise ProtocolError(f"an array's shape must be a list of at most {_MAX_DIMS} whole numbers, not {value!r:.80}.")
    if not all(type(d) is int and 0 <= d <= MAX_BODY for d in value):
        raise ProtocolError(f"an array's shape holds something other than whole numbers from 0 to {MAX_BODY}: {value!r:.80}.")
    return tuple(value)


def read_frame(inp: IO[bytes], max_body: int = MAX_BODY) -> tuple[dict[str, Any], dict[str, NDArray[Any]]]:
    """Read one frame: its header (a dict) and its arrays (read-only, by name), checked (module doc).

    Raises
    ------
    EOFError
        At the end of the stream (also in the middle of a frame).
    ProtocolError
        For a frame that breaks the protocol.
    """
    size, body_size = _PREFIX.unpack(_read_exactly(inp, _PREFIX.size))
    if size > MAX_HEADER or body_size > max_body:
        raise ProtocolError(f"a frame declares a header of {size} and arrays of {body_size} bytes; at most {MAX_HEADER} "
                            f"and {max_body} are read.")
    try:
        header = json.loads(_read_exactly(inp, size).decode())
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ProtocolError(f"a frame's header is not JSON text ({type(exc).__name__}).") from None
    if not isinstance(header, dict) or not isinstance(header.get("arrays"), list):
        raise ProtocolError("a frame's header is not a JSON object with a list of arrays.")
    body = _read_exactly(inp, body_size)
    arrays: dict[str, NDArray[Any]] = {}
    offset = 0
    for entry in header.pop("arrays"):
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str) and entry[1] in DTYPES):
            raise ProtocolError(f"a frame declares an array as {entry!r:.80}; give [name, dtype, shape] with a dtype of "
                                f"{sorted(DTYPES)}.")
        name, dtype, shape = entry[0], np.dtype(entry[1]), _shape(entry[2])
        count = math.prod(shape)
        if offset + count * dtype.itemsize > body_size or name in arrays:
            raise ProtocolError(f"array {name!r:.80} does not fit in the frame's {body_size} bytes, or is declared twice.")
        arrays[name] = np.frombuffer(body, dtype, count, offset).reshape(shape)
        offset += count * dtype.itemsize
    if offset != body_size:
        raise ProtocolError(f"a frame's arrays take {offset} of its {body_size} bytes.")
    return header, arrays


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ProtocolError(f"the isolated process sent {what} that is not text.")
    return value[:_MAX_TEXT]


def _plain(value: Any) -> Any:
    """``value`` as JSON data: tuples as lists, NumPy scalars as numbers; else ``TypeError``."""
    return json.loads(json.dumps(value, default=_number))


def _number(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"{type(value).__name__} {value!r:.80} is not plain data (numbers, text, booleans, lists, dicts)")


# ------------------------------------------------------------------ engine side
class _Child:
    """One child process serving one strategy spec."""

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        self.name, self.params = name, params
        user, cache = sandbox.unprivileged_user(), _kernel_cache()
        self.private = sandbox.private_directory(user, cache)
        try:
            paths = sandbox.module_paths(registry.target_of(name).partition(":")[0], self.private, user, cache)
            env = sandbox.child_environment(self.private, os.getpid(), user)
            sandbox.make_undumpable()  # a child of this user cannot open this process's memory
            self.proc = subprocess.Popen(
                [sys.executable, "-I", "-B", "-c", _BOOTSTRAP, str(Path(__file__).parents[2]), json.dumps(paths)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=self.private, start_new_session=True,
                close_fds=True,
            )  # fmt: skip
        except OSError as exc:
            shutil.rmtree(self.private, ignore_errors=True)
            raise IsolationError(f"could not start a process for strategy {name!r}: {exc}") from None
        except BaseException:
            shutil.rmtree(self.private, ignore_errors=True)
            raise
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.out: IO[bytes] = self.proc.stdin
        self.inp: IO[bytes] = self.proc.stdout
        self.lock = threading.Lock()
        self.rules: RuleSet | None = None  # the rule set the child holds

    def call(self, header: dict[str, Any], arrays: dict[str, NDArray[Any]] | None = None,
             max_body: int = MAX_BODY) -> tuple[dict[str, Any], dict[str, NDArray[Any]]]:
        """Send a message, return the child's answer (raising what it raised, as `RemoteError`)."""
        with self.lock:
            try:
                write_frame(self.out, header, arrays)
                reply, got = read_frame(self.inp, max_body)
            except (EOFError, OSError):
                code = self.proc.poll()
                raise IsolationError(
                    f"the process of isolated strategy {self.name!r} ended (exit code {code}) while asked "
                    f"{header.get('decision', header['op'])!r}; a strategy must return its decisions, not end its process."
                ) from None
            except ProtocolError as exc:
                self.proc.kill()
                raise IsolationError(f"the process of isolated strategy {self.name!r} broke the protocol: {exc}") from None
        if reply.get("ok") is not True:
            raise RemoteError(_text(reply.get("kind"), "an error"), _text(reply.get("text"), "an error"),
                              _text(reply.get("frames"), "an error"))
        return reply, got

    def stop(self) -> None:
        """End the child (it exits on the stop message or on end of input; killed after a grace time),
        then every process left in its process group, and remove its private directory."""
        try:
            try:
                write_frame(self.out, {"op": "stop"})
            except (OSError, ValueError):  # it ended already
                pass
            _close(self.out)
            try:
                self.proc.wait(timeout=_STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        finally:
            sandbox.end_group(self.proc.pid)
            _close(self.inp)
            shutil.rmtree(self.private, ignore_errors=True)


def _close(stream: IO[bytes]) -> None:
    """Close a pipe to or from a child, which may have ended (a write still buffered is then dropped; the
    pipe is closed all the same)."""
    try:
        stream.close()
    except OSError:
        pass


_INPUT_ERRORS = ("ValueError", "UnosimInputError", "ParameterError", "RuleFileError")
"""The errors of a strategy's construction in its process that are bad input (a spec, a parameter)."""


class RemoteError(Exception):
    """What an isolated strategy raised, with its own traceback (from its process, as text)."""

    def __init__(self, kind: str, text: str, frames: str) -> None:
        super().__init__(f"{text} [{kind} in the isolated process]\n{frames}".rstrip())
        self.kind = kind


_CHILDREN: dict[tuple[str, str], _Child] = {}
_LOCK = threading.Lock()


def _child(name: str, params: dict[str, Any]) -> _Child:
    """The child serving (``name``, ``params``) in this process, started on first use."""
    key = (name, json.dumps(params, sort_keys=True))
    with _LOCK:
        child = _CHILDREN.get(key)
        if child is not None and child.proc.poll() is not None:
            child.stop()  # ended: what it left (its group, its private directory) goes too
            child = None
        if child is None:
            child = _CHILDREN[key] = _Child(name, params)
    return child


@atexit.register
def stop_children() -> None:
    """End every isolated strategy's process this process started, and the processes they left (their
    process groups): at the end of every chunk, before its file is written, and of every run."""
    with _LOCK:
        children = list(_CHILDREN.values())
        _CHILDREN.clear()
    for child in children:
        child.stop()


def _kernel_cache() -> Path | None:
    """The engine's kernel cache, when the kernels are imported (kept off the child's ``sys.path``)."""
    kernel_cache = sys.modules.get("unosim.engine.kernel_cache")
    return Path(kernel_cache.cache_dir()) if kernel_cache is not None else None


_STOP_SECONDS = 5
_BOOTSTRAP = ("import sys, runpy; sys.path.append(sys.argv.pop(1)); "
              "runpy.run_module('unosim.engine.isolation', run_name='__main__', alter_sys=True)")
"""The child's first code (``python -I -B -c``): the engine's package directory last on the path (an
uninstalled checkout still runs), then this module as ``__main__``."""


class Isolated(Strategy):
    """The engine's stand-in for a strategy playing in its own process (see the module doc).

    Made by `isolated`; its decisions are answered by the child, its description
    (``label``, ``get_params``, ``describe``) is the child strategy's, sent as plain data. It
    declares no shortcut the engine could take (every decision is asked) and no compiled
    transcription.
    """

    name = "isolated"
    never_forgets_uno = False  # no shortcut: the engine asks every decision
    never_challenges = False
    always_catches_uno = False
    plays_legal_drawn_card = False
    forced_draw_uniforms = None

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
        child = self._child
        assert child is not None
        values, keys, sent, at = stream_arrays(obs)
        arrays = {name: values[name] for name in FIELDS}
        arrays.update(keys=keys, counters=sent, at=at)
        arrays.update((f"arg{i}", np.asarray(a)) for i, a in enumerate(args))
        header: dict[str, Any] = {"op": "ask", "decision": decision, "phase": obs.phase_id, "players": obs.players,
                                  "args": len(args)}
        if child.rules is not obs.rules:  # sent once per rule set (the engine's copy shown to this strategy)
            child.rules = obs.rules
            header["rules"] = obs.rules.to_dict()
        n_rows = len(obs)
        reply, got = child.call(header, arrays, max_body=64 * (n_rows + 1) * 8 + sent.nbytes)
        counters = got.get("counters")
        if counters is None or counters.dtype != sent.dtype or counters.shape != sent.shape or (counters < sent).any():
            raise ProtocolError(f"the isolated process sent back stream counters that are not the {sent.shape} "
                                f"{sent.dtype} counters it was sent, advanced.")
        sent[...] = counters  # the draws the strategy made, given back as the engine gives them back
        if reply.get("value") == "none":
            return None
        if reply.get("value") == "array" and "value" in got:
            return got["value"]
        raise TypeError(f"the answer has dtype {_text(reply.get('dtype'), 'a dtype')}; return numbers (booleans, "
                        "integers or floats)")


def _forward(decision: str) -> Any:
    def method(self: Isolated, obs: Observation, *args: Any) -> Any:
        return self._ask(decision, obs, *args)

    method.__name__ = decision
    method.__doc__ = f"Answered by the isolated strategy's ``{decision}``."
    return method


for _decision in DECISIONS:
    setattr(Isolated, _decision, _forward(_decision))


class StandIn(Isolated):
    """What the kernels' compile step plays in place of an isolated strategy, in the engine's process:
    asked every decision as an `Isolated` strategy is, it answers them with
    [`Strategy`][unosim.Strategy]'s defaults, here. The user's module is not imported."""

    name = "stand-in"

    @property
    def label(self) -> str:
        return self.name

    def _ask(self, decision: str, obs: Observation, *args: Any) -> Any:
        return getattr(Strategy, decision)(self, obs, *args)


STAND_IN = f"{__name__}:StandIn"
"""The entry point of `StandIn`."""


def _info(info: Any) -> dict[str, Any]:
    """The child's description of its strategy, checked: plain data of the expected kinds."""
    if not isinstance(info, dict):
        raise ProtocolError("the isolated process described its strategy with something other than a JSON object.")
    params, describe = info.get("params"), info.get("describe")
    if not isinstance(params, dict) or not isinstance(describe, dict):
        raise ProtocolError("the isolated process sent parameters or a description that is not a JSON object.")
    return {"label": _text(info.get("label"), "a label"), "repr": _text(info.get("repr"), "a repr"),
            "params": params, "describe": describe}


def isolated(name: str, params: dict[str, Any]) -> Strategy:
    """A fresh strategy ``name(**params)`` playing from its own process, as the engine's stand-in.

    Raises
    ------
    ValueError
        When the strategy cannot be made (unknown, a bad parameter, a constructor that raises), with
        the child's message, or when ``params`` are not plain data (numbers, text, booleans, lists).
    IsolationError
        When its process cannot be started.
    """
    try:
        plain = _plain(params)
    except TypeError as exc:
        raise UnosimInputError(f"strategy {name!r}: an isolated strategy takes parameters of plain data only; {exc}.") from None
    child = _child(name, plain)
    try:
        reply, _ = child.call({"op": "make", "name": name, "params": plain}, max_body=0)
    except RemoteError as exc:
        if exc.kind in _INPUT_ERRORS:
            raise UnosimInputError(str(exc).split(f" [{exc.kind} in the isolated process]")[0]) from None
        raise
    except ProtocolError as exc:
        raise IsolationError(f"the process of isolated strategy {name!r} broke the protocol: {exc}") from None
    proxy = Isolated()
    try:
        proxy._child, proxy._info = child, _info(reply.get("info"))
    except ProtocolError as exc:
        raise IsolationError(f"the process of isolated strategy {name!r} broke the protocol: {exc}") from None
    return proxy


# ------------------------------------------------------------------ child side
def _describe(strategy: Strategy) -> dict[str, Any]:
    """What the engine needs to know of the child's strategy, as plain data."""
    return _plain({"label": strategy.label, "params": strategy.get_params(), "describe": strategy.describe(),
                   "repr": repr(strategy)})


def _rules(data: dict[str, Any]) -> RuleSet:
    """The rule set the engine sent (as [`RuleSet.to_dict`][unosim.RuleSet.to_dict]), rebuilt as the engine holds it: without
    checking it again (a deck file is read only if the strategy asks for it)."""
    rules = object.__new__(RuleSet)
    for f in dataclasses.fields(RuleSet):
        object.__setattr__(rules, f.name, data[f.name])
    return rules


def _answer(value: Any, counters: NDArray[Any]) -> tuple[dict[str, Any], dict[str, NDArray[Any]]]:
    if value is None:
        return {"ok": True, "value": "none"}, {"counters": counters}
    arr = np.asarray(value)
    if arr.dtype.newbyteorder("<").str not in DTYPES:
        return {"ok": True, "value": "unsent", "dtype": str(arr.dtype)}, {"counters": counters}
    return {"ok": True, "value": "array"}, {"value": arr, "counters": counters}


def serve(inp: BinaryIO, out: BinaryIO) -> None:
    """The child's loop: make the strategy, answer its decisions, until ``stop`` or end of input."""
    strategy: Strategy | None = None
    rules: RuleSet | None = None
    while True:
        try:
            message, arrays = read_frame(inp)
        except EOFError:
            return
        if message.get("op") == "stop":
            return
        reply: dict[str, Any]
        sent: dict[str, NDArray[Any]] = {}
        try:
            if message["op"] == "make":
                registry.check_known(message["name"], message["params"])  # the messages of an in-process check
                strategy = registry.make(message["name"], message["params"])
                reply = {"ok": True, "info": _describe(strategy)}
            else:
                assert strategy is not None
                if "rules" in message:
                    rules = _rules(message["rules"])
                counters = arrays["counters"].copy()
                values = {name: arrays[name] for name in FIELDS}
                obs = Observation(message["phase"], message["players"], rules, values,  # type: ignore[arg-type]
                                  SeatStreams(arrays["keys"].copy(), counters, arrays["at"].copy()))
                args = [arrays[f"arg{i}"].copy() for i in range(message["args"])]
                reply, sent = _answer(getattr(strategy, message["decision"])(obs, *args), counters)
        except BaseException as exc:  # noqa: BLE001 - everything the strategy raises goes back to the engine
            frames = "".join(traceback.format_tb(exc.__traceback__)[1:])
            reply, sent = {"ok": False, "kind": type(exc).__name__, "text": str(exc), "frames": frames}, {}
        write_frame(out, reply, sent)


_PRELOAD = ("abc", "bisect", "collections", "contextlib", "copy", "dataclasses", "datetime", "decimal", "enum",
            "fractions", "functools", "heapq", "itertools", "json", "math", "operator", "pathlib", "random", "re",
            "statistics", "string", "textwrap", "time", "typing", "warnings")
"""Standard modules the child imports before it gives up root, for a strategy to import after."""


def _main() -> None:
    """Entry of the child process: give up root (when the engine is root) and the engine's death, add the
    strategy module's paths, then the protocol on the original standard output, prints to standard error."""
    settings = sandbox.settings()
    user = settings.get("user")
    if user is not None:
        for name in _PRELOAD:  # the interpreter's own library may be where the unprivileged user cannot read
            try:
                importlib.import_module(name)
            except ImportError:
                pass
        sandbox.give_up_root((int(user[0]), int(user[1])))
    sandbox.die_with_parent(int(settings.get("parent", os.getppid())))
    paths = [str(p) for p in json.loads(sys.argv[1])] if len(sys.argv) > 1 else []
    sys.path[:] = [*paths, *(p for p in sys.path if p not in paths)]
    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(sys.stdin.buffer, protocol)


if __name__ == "__main__":
    _main()
