"""The one error a user's input raises: [`UnosimInputError`][unosim.UnosimInputError].

It stands on the ground floor so that every layer can raise it where it validates what it was
given (a rule option, a player count, a strategy spec, a file). The command line prints its
message as one paragraph and exits with code 2; any other exception is a bug, shown with its
traceback.
"""

from __future__ import annotations

__all__ = ["UnosimInputError", "caused_by"]


class UnosimInputError(ValueError):
    """Bad input, refused before any work: the message names the value, what is allowed and what
    to change. A subclass of `ValueError`, so ``except ValueError`` still catches it."""


def caused_by(exc: BaseException, kinds: tuple[type[BaseException], ...]) -> BaseException | None:
    """The exception of ``kinds`` that ``exc`` is or was raised because of (its cause or context, at
    any depth), else ``None``: the engine reports what a strategy raised inside an error of its own,
    and numba a Ctrl-C inside a compiled function as a ``SystemError`` caused by the interrupt."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, kinds):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None
