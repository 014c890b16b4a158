"""The README's and the docs' runnable code blocks run, on small sizes.

A block marked ``<!-- run -->`` on the line before its fence runs: ``sh`` blocks line by line
with ``unosim`` on the PATH, ``python`` blocks with this interpreter, each file's blocks in
order in one fresh directory (so a block may read what an earlier one wrote);
``<!-- run file=NAME -->`` writes the block to ``NAME`` there instead (a module a later block
imports). Sizes are shrunk before running (:data:`SHRINK`), so the blocks check that every
command, option, path and name they show exists, not how long it takes.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
MARK = re.compile(r"^<!-- run(?: file=(?P<file>\S+))? -->\n```(?P<lang>\w+)[^\n]*\n(?P<body>.*?)^```", re.M | re.S)
SHRINK = [
    (re.compile(r"--games \d+"), "--games 400"),
    (re.compile(r"\bgames=[\d_]+"), "games=400"),
    (re.compile(r"--budget \d+"), "--budget 9600 --popsize 4 --games-per-candidate 400 --evaluation-games 400"),
    (re.compile(r"(unosim study(?: --out \S+)?)(?!.*--games)"), r"\1 --games 60"),
]


def blocks(page: Path) -> list[tuple[str, str | None, str]]:
    """(language, file name or None, body) of every runnable block of ``page``."""
    return [(m["lang"], m["file"], m["body"]) for m in MARK.finditer(page.read_text())]


def shrink(text: str) -> str:
    for pattern, small in SHRINK:
        text = pattern.sub(small, text)
    return text


def test_the_readme_and_the_guide_have_runnable_blocks() -> None:
    assert len(blocks(ROOT / "README.md")) >= 10
    assert sum(len(blocks(p)) for p in PAGES) > len(blocks(ROOT / "README.md"))


def test_shrinking_keeps_the_commands() -> None:
    assert shrink("unosim simulate --games 200000 --out runs/a") == "unosim simulate --games 400 --out runs/a"
    assert shrink("unosim study --out runs/study") == "unosim study --out runs/study --games 60"
    assert shrink("f(games=100_000, seed=1)") == "f(games=400, seed=1)"


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p)], ids=lambda p: str(p.relative_to(ROOT)))
def test_runnable_blocks_run(page: Path, tmp_path: Path) -> None:
    for name in ("strategies", "experiments"):
        (tmp_path / name).symlink_to(ROOT / name)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(tmp_path)}
    for lang, file, body in blocks(page):
        if file is not None:
            (tmp_path / file).write_text(body)
            continue
        if lang == "python":
            commands = [[sys.executable, "-c", shrink(body)]]
        elif lang == "sh":
            joined = re.sub(r"\\\n\s*", " ", body)
            lines = [re.sub(r"\s+#.*$", "", line).strip() for line in joined.splitlines()]
            commands = [["bash", "-c", shrink(line)] for line in lines if line and not line.startswith("#")]
        else:
            raise AssertionError(f"{page.name}: a runnable block in {lang!r}; use sh or python")
        for command in commands:
            done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, f"{page.name}: {command[-1]!r} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
