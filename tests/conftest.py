"""Shared test set-up.

Hypothesis profiles: on CI (the ``CI`` environment variable set) the property
tests are derandomised — the same examples on every run, so a red CI run is
reproduced by running the same commit — and a failure prints the
``@reproduce_failure`` blob. Locally the ``dev`` profile draws new examples on
every run (and also prints the blob). Choose one explicitly with
``pytest --hypothesis-profile=ci``.

The suite runs on every core (pytest-xdist, ``-n auto --dist loadfile`` in
``pyproject.toml``: one module's tests share a worker, so module fixtures run once);
``-n 0`` runs it in one process.
"""

from __future__ import annotations

import os

from hypothesis import settings

# pytest-xdist workers start with COLUMNS=80 and LINES=24 set, which rich consoles created at import
# (unosim.cli) would keep as a fixed width; CLI tests choose their width through CliRunner's env.
os.environ.pop("COLUMNS", None)
os.environ.pop("LINES", None)

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
