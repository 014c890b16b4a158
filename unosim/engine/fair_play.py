"""What ``unosim check`` watches while a strategy decides: reaching past its observation.

A Python strategy runs in the engine's process, so nothing stops it from calling
``sys._getframe`` or ``gc.get_objects`` and finding the engine's arrays; verification
(`unosim.engine.integrity`) catches what it *changes*. `Watch` catches the reaching
itself, in the conformance suite: around every strategy call it listens to CPython's audit
events (`sys.addaudithook`) for the ways out of an observation —

``sys._getframe``, ``sys._current_frames``
    the caller's frames (the engine's locals);
``gc.get_objects``, ``gc.get_referrers``, ``gc.get_referents``
    every object of the process, the engine's included;
``object.__getattr__`` of ``tb_frame``, ``f_back``, ``gi_frame``, ``cr_frame``, ``ag_frame``
    frames reached through a traceback or a generator —

and reports the first one made by the strategy's own code (not by the standard library, an
installed package or unosim, which use frames for their own ends: ``logging``, ``warnings``,
``enum``). An audit hook cannot be removed once added, so one hook is installed per process, the
first time a `Watch` is used, and costs nothing but a flag test while no call is watched.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from types import FrameType
from typing import Any

__all__ = ["REACHING_EVENTS", "Watch"]

REACHING_EVENTS = frozenset({"sys._getframe", "sys._current_frames", "gc.get_objects", "gc.get_referrers", "gc.get_referents"})
"""Audit events by which code reaches objects it was not given."""

_FRAME_ATTRIBUTES = frozenset({"tb_frame", "f_back", "gi_frame", "cr_frame", "ag_frame"})
"""Attributes whose reading (audit event ``object.__getattr__``) hands over a frame."""

_TRUSTED = tuple(
    os.path.normcase(os.path.realpath(p)) + os.sep
    for p in {
        sysconfig.get_paths()["stdlib"],
        sysconfig.get_paths()["platstdlib"],
        sysconfig.get_paths()["purelib"],
        sysconfig.get_paths()["platlib"],
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    }
)
"""Code here is not the strategy's: the standard library, installed packages, unosim itself."""

_state: dict[str, Any] = {"watching": None, "installed": False, "inside": False}


def _users_frame() -> str | None:
    """Where the audited call was made, when that is code outside `_TRUSTED` (else ``None``)."""
    frame: FrameType | None = sys._getframe(2)  # 0: here, 1: the hook
    while frame is not None:
        name = frame.f_code.co_filename
        if not name.startswith("<"):
            path = os.path.normcase(os.path.realpath(name))
            return None if path.startswith(_TRUSTED) else f"{name}:{frame.f_lineno}"
        frame = frame.f_back
    return None


def _hook(event: str, args: tuple[Any, ...]) -> None:
    watch = _state["watching"]
    if watch is None or watch.found is not None or _state["inside"]:
        return
    if event in REACHING_EVENTS:
        what = f"called {event}"
    elif event == "object.__getattr__" and len(args) > 1 and args[1] in _FRAME_ATTRIBUTES:
        what = f"read a frame through .{args[1]}"
    else:
        return
    _state["inside"] = True  # the frame lookup below raises audit events of its own
    try:
        where = _users_frame()
    finally:
        _state["inside"] = False
    if where is not None:
        watch.found = f"reached beyond its observation (it {what}, at {where})"


class Watch:
    """Watches strategy calls for reaching past the observation (see the module doc).

    The engine calls `enter` before and `leave` after each strategy call
    (`unosim.engine.decisions.Decisions` ``watch``).
    """

    def __init__(self) -> None:
        self.found: str | None = None
        if not _state["installed"]:
            sys.addaudithook(_hook)
            _state["installed"] = True

    def enter(self, obs: Any) -> None:
        """A strategy call starts."""
        self.found = None
        _state["watching"] = self

    def leave(self, obs: Any) -> str | None:
        """The call has ended: what the strategy did wrong (a phrase), or ``None``."""
        _state["watching"] = None
        return self.found
