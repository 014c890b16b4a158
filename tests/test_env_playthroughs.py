"""The environments' playthroughs (``tests/playthroughs/``) are what the environments play today.

Each file is one round of a preset (house rules included) in the AEC and the single-seat
environment, written by ``experiments/env_playthroughs.py``: the observation's non-zero
entries, the mask, the action and the reward at every step. A change of encoding or behaviour
fails here with the diff; when it is deliberate, run the script again.
"""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("env_playthroughs", ROOT / "experiments" / "env_playthroughs.py")
assert spec is not None and spec.loader is not None
script = importlib.util.module_from_spec(spec)
spec.loader.exec_module(script)
TABLES = script.tables()


@pytest.mark.parametrize("name", sorted(TABLES))
def test_the_playthrough_is_played_again(name: str) -> None:
    path = script.OUT / f"{name}.txt"
    want = path.read_text()
    got = script.playthrough(name)
    diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True), str(path), "played now", n=1))
    assert got == want, f"the environments play differently; if that is deliberate, run experiments/env_playthroughs.py\n{diff[:4000]}"


def test_the_playthroughs_show_every_decision_kind() -> None:
    text = "".join((script.OUT / f"{name}.txt").read_text() for name in TABLES)
    for kind in ("play", "drawn", "colour", "challenge", "catch", "pileup", "vote", "jumpin", "stack", "swap", "link", "uno"):
        assert f" {kind} |" in text, kind
