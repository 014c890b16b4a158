"""The one error a user's input raises: :class:`UnosimInputError`.

It stands on the ground floor so that every layer can raise it where it validates what it was
given (a rule option, a player count, a strategy spec, a file). The command line prints its
message as one paragraph and exits with code 2; any other exception is a bug, shown with its
traceback.
"""

from __future__ import annotations

__all__ = ["UnosimInputError"]


class UnosimInputError(ValueError):
    """Bad input, refused before any work: the message names the value, what is allowed and what
    to change. A subclass of :class:`ValueError`, so ``except ValueError`` still catches it."""
