"""Shared test set-up.

Hypothesis profiles: on CI (the ``CI`` environment variable set) the property
tests are derandomised — the same examples on every run, so a red CI run is
reproduced by running the same commit — and a failure prints the
``@reproduce_failure`` blob. Locally the ``dev`` profile draws new examples on
every run (and also prints the blob). Choose one explicitly with
``pytest --hypothesis-profile=ci``.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
