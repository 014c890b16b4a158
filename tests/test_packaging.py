"""Packaging: the top-level folder ``strategies/`` installs inside the package as
``unosim.strategies``; the old top-level name is refused with a message saying what to use."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

import unosim
from unosim.strategy.registry import REGISTRY, resolve

ROOT = Path(__file__).resolve().parents[1]
SETUP = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_the_package_list_names_every_package_of_the_tree() -> None:
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "unosim").rglob("__init__.py")}
    found |= {"unosim." + ".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "strategies").rglob("__init__.py")}
    assert set(SETUP["packages"]) == found
    assert SETUP["package-dir"] == {"unosim.strategies": "strategies"}


def test_builtin_strategies_import_from_the_unosim_namespace() -> None:
    import unosim.strategies.greedy as greedy

    assert Path(greedy.__file__).parent == ROOT / "strategies"
    assert all(target.startswith(("unosim.strategies.", "unosim.strategy.", "tuned:")) for target in REGISTRY.values())
    assert resolve("greedy") is greedy.GreedyStrategy


def test_the_old_top_level_name_is_refused_with_what_to_use() -> None:
    with pytest.raises(ValueError, match=r"live in the package unosim.strategies now; use 'unosim.strategies.greedy:GreedyStrategy'"):
        resolve("strategies.greedy:GreedyStrategy")


def test_a_wheel_holds_the_strategies_inside_unosim(tmp_path: Path) -> None:
    """A plain (not editable) install gets unosim/strategies/*.py, the tuned strategies' files,
    the rule files and the default study."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(tmp_path)],
                   check=True, capture_output=True, timeout=300)
    (wheel,) = tmp_path.glob("unosim-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "unosim/strategies/greedy.py" in names and "unosim/strategies/__init__.py" in names
    assert not any(n.startswith("strategies/") for n in names)
    for data in ("unosim/game/decks/classic.toml", "unosim/runs/studies/default.toml", "unosim/game/kernels/compile_plan.json"):
        assert data in names
    assert any(n.startswith("unosim/strategies/tuned/") for n in names)
    assert "unosim/strategies/rules/holder.toml" in names
    assert unosim.__version__ in wheel.name
    # installed plainly (a copy, no link to this checkout), the shipped files are found in the package
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=300)
    probe = (
        "import unosim, pathlib; from unosim.strategy.registry import make; from unosim.strategy.rule_strategy import RuleStrategy;"
        "from unosim.strategy.rule_language import resolve_path; RuleStrategy(path='holder');"
        "print(pathlib.Path(unosim.__file__).parent); print(make('tuned-classic-2', {}).name); print(resolve_path('holder'))"
    )
    site = [p for p in sys.path if p.endswith("site-packages")]
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, cwd=tmp_path,
                          env={"PYTHONPATH": ":".join([str(target), *site]), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    where, tuned, rules = proc.stdout.split("\n")[:3]
    assert Path(where) == target / "unosim" and tuned == "tuned-classic-2" and rules.startswith(str(target))
