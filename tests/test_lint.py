"""Lint and types: ruff and mypy, configured in ``pyproject.toml``, are clean.

They run here, inside the README's test command, so that ``.ci/run`` checks them too.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_is_clean() -> None:
    proc = _run("ruff", "check", "--no-cache", "--output-format", "concise", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_is_clean_on_the_package() -> None:
    """The public API (``unosim`` and the built-in strategies, as set in ``[tool.mypy]``) type-checks."""
    proc = _run("mypy", "--no-incremental")
    assert proc.returncode == 0, proc.stdout + proc.stderr
