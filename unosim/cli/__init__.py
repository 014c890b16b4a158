"""The ``unosim`` command line (Typer).

Commands: ``simulate`` (one run), ``run`` (an experiment file), ``replay`` (a narrated
game), ``view`` (a game as an HTML viewer), ``play`` (a game against the strategies),
``bench`` (games per second), ``tournament`` (seat-fair strategy tournaments),
``check`` (a strategy's conformance), ``try`` (a rule-strategy file against a field),
``study`` (the default study), ``report`` (plots and report of a dataset), ``compare``
(rule sets on the same deals), ``cardvalue-swap`` (card values by experiment) and
``tune`` (tune a strategy). `main` is the entry point.

A command parses its options, calls one function of `unosim.api` and prints. Bad input
(a [`UnosimInputError`][unosim.UnosimInputError], raised where input is validated, or an
``OSError``) is refused before any work with a one-paragraph message and exit code 2 (the same
code the option parser uses for a malformed option); any other exception is a bug, reported
with its traceback (exit code 1). Register a new command with `command`
and wrap it in `user_errors` to get the same behaviour; its options are the aliases of
`unosim.cli.options`. ``UNOSIM_DEBUG=1`` shows the traceback of a refusal too.
"""

from __future__ import annotations

# Each module registers its commands on app as it is imported: this order is the order of --help.
# isort: off
from . import simulation, games, benchmark, strategies, studies  # noqa: F401
# isort: on
from .base import EXIT_USAGE, PIPE_WIDTH, app, main, user_errors

__all__ = ["EXIT_USAGE", "PIPE_WIDTH", "app", "main", "user_errors"]
