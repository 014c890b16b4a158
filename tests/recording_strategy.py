"""A strategy that records where its module is imported and where it decides (``recording_strategy:Records``).

With ``UNOSIM_TEST_RECORD`` naming a file, each process appends ``<pid> imported <argv[0]>`` when it
imports this module and ``<pid> called <argv[0]>`` the first time it asks the strategy, for the
isolation tests. It plays as the base strategy.
"""

import os
import sys

from unosim.strategy.base import Strategy


def record(what):
    """Append ``<pid> <what> <argv[0]>`` to the file named by ``UNOSIM_TEST_RECORD`` (if set)."""
    path = os.environ.get("UNOSIM_TEST_RECORD")
    if path:
        with open(path, "a") as f:
            f.write(f"{os.getpid()} {what} {sys.argv[0] if sys.argv else ''}\n")


record("imported")
_CALLED = []


class Records(Strategy):
    """Plays as the base strategy; records the first call in each process."""

    def play(self, obs):
        if not _CALLED:
            _CALLED.append(True)
            record("called")
        return super().play(obs)
