"""The product speaks of the software only: no tracked file tells how or when it was built
(issue numbers, clock times, hours of the day, work sessions, notes kept outside the
repository, patch markers, commit hashes given as history)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORDS = re.compile(
    r"\b[Ii]ssue #?\d+|(?<![.\w])UTC\b|\b(?:slow|fast|quiet) hour|\bsitting\b(?! there)|\bwork session|"
    r"\b(?:DESIGN|STYLE|RULES)\.md\b|\.\./shared|#\s*-{2,}\s*end of\b|\bfirst try\b|throw-away prototype"
)
HASH = re.compile(r"(?<![\w/.#-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,12}(?![\w/.-])")
"""A short commit hash in prose (README, docs, changelog, notebooks' text)."""
PROSE = (".md",)
SKIP = ("tests/golden/", "tests/data/", "tests/test_product_words.py")


def _tracked() -> list[Path]:
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return [ROOT / n for n in names if not n.startswith(SKIP) and (ROOT / n).is_file()]


def _text(path: Path) -> str | None:
    try:
        text = path.read_text()
    except UnicodeDecodeError:
        return None
    if path.suffix == ".ipynb":
        nb = json.loads(text)
        return "\n".join("".join(c["source"]) for c in nb["cells"])
    return text


def offences(path: Path, text: str) -> list[str]:
    found = []
    prose = path.suffix in PROSE or path.suffix == ".ipynb"
    for number, line in enumerate(text.splitlines(), 1):
        if WORDS.search(line) or (prose and HASH.search(line)):
            found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    return found


def test_no_tracked_file_tells_how_it_was_built() -> None:
    found = [o for path in _tracked() if (text := _text(path)) is not None for o in offences(path, text)]
    assert not found, "\n".join(found)


def test_the_check_catches_what_it_should() -> None:
    here = ROOT / "README.md"
    assert offences(here, "measured on commit 74d1899 in a slow hour (20:26 UTC), issue 9's first try")
    assert offences(here, "see DESIGN.md")
    assert not offences(here, "the digest of the sources, b0b00548bb552b7d, and `datetime.UTC`")
