"""Golden playthroughs: the narrated games stored in ``tests/golden/`` are played again unchanged.

Cases (``tests/golden/regen.py``): classic and classic-house at 4 players,
party at 2, 6 and 16 players, and a classic match with penalty scoring and
elimination (E-4), told round by round. A mismatch prints a unified diff of the
stored and the fresh text. After an intended change of play, regenerate every
file with ``python tests/golden/regen.py`` and review ``git diff tests/golden``.
"""

from __future__ import annotations

import difflib

import pytest
from golden.regen import CASES, GOLDEN_DIR, render

MAX_DIFF_LINES = 300


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden_playthrough(case) -> None:
    path = GOLDEN_DIR / f"{case.name}.txt"
    assert path.is_file(), f"{path} is missing; create it with: python tests/golden/regen.py"
    stored, fresh = path.read_text(), render(case)
    if stored != fresh:
        diff = list(difflib.unified_diff(stored.splitlines(), fresh.splitlines(), f"stored {path.name}", "played now", lineterm=""))
        more = len(diff) - MAX_DIFF_LINES
        shown = "\n".join(diff[:MAX_DIFF_LINES]) + (f"\n... {more} more diff lines" if more > 0 else "")
        pytest.fail(f"{case.name}: play differs from the golden file.\n{shown}\n"
                    "If the change of play is intended: python tests/golden/regen.py, then review git diff tests/golden.",
                    pytrace=False)


def test_golden_cases_cover_the_presets_and_an_elimination_match() -> None:
    assert {c.rules for c in CASES} == {"classic", "classic-house", "party"}
    assert {c.players for c in CASES if c.rules == "party"} >= {2, 6, 16}
    assert any(c.match and "elimination=true" in c.overrides and "scoring=penalty" in c.overrides for c in CASES)
    matches = [c for c in CASES if c.match]
    text = (GOLDEN_DIR / f"{matches[0].name}.txt").read_text()
    assert "== Round 1:" in text and "== Match over" in text  # more than one round was told
    seats = [line.split("seats in the match ")[1].split("]")[0] for line in text.splitlines() if line.startswith("== Round")]
    assert len(set(seats)) >= 2, "the match shows a player dropping out (E-4)"
