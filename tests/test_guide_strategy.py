"""The strategies guide's "Your own strategy in a few lines" runs as written: its code saved as
``mymodule.py``, played from the command line in that directory, and checked."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import unosim
from unosim.runs import files
from unosim.strategy import registry

README = Path(__file__).resolve().parents[1] / "docs" / "guide" / "strategies.md"


def section(title: str, end: str) -> str:
    text = README.read_text()
    start = text.index(f"## {title}\n")
    return text[start : text.index(end, start)]


def mymodule_source() -> str:
    """Every python block of the section, in order: the file the README tells the reader to write."""
    blocks = re.findall(r"```python\n(.*?)```", section("Your own strategy in a few lines", "## Built-in strategies"), re.S)
    assert len(blocks) == 2
    return "\n\n".join(blocks)


@pytest.fixture
def mymodule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "mymodule.py").write_text(mymodule_source())
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "mymodule", raising=False)
    return tmp_path


def test_the_example_is_about_twenty_lines() -> None:
    first = re.search(r"```python\n(.*?)```", section("Your own strategy in a few lines", "## Built-in"), re.S).group(1)
    assert 15 <= len([line for line in first.splitlines() if line.strip()]) <= 25


def test_the_guide_strategy_plays_from_the_command_line(mymodule: Path) -> None:
    unosim_exe = Path(sys.executable).with_name("unosim")
    out = mymodule / "run"
    proc = subprocess.run(
        [str(unosim_exe), "simulate", "--strategies", "mymodule:MyStrategy(keep=5),greedy,mymodule:GreedyChallenger,greedy",
         "--rules", "party", "--games", "300", "--jobs", "1", "--quiet", "--out", str(out)],
        cwd=mymodule, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    meta = files.read_metadata(out)
    mine = meta["strategy_params"]["mymodule:MyStrategy(keep=5)"]
    assert mine == {
        "name": "mine", "class": "mymodule:MyStrategy", "params": {"keep": 5, "forget_uno_rate": 0.0, "catch_uno_rate": 1.0},
    }  # fmt: skip
    assert meta["strategy_params"]["greedy"]["params"] == {"forget_uno_rate": 0.0, "catch_uno_rate": 1.0}
    assert len(unosim.load(out)) == 300


def test_the_guide_strategies_pass_the_conformance_suite(mymodule: Path) -> None:
    for name in ("mymodule:MyStrategy(keep=5)", "mymodule:GreedyChallenger"):
        report = unosim.check(name, games=6)
        assert report.ok, report.message()
    with pytest.raises(ValueError, match=r"strategy 'mine': keep=-2 is not allowed; use a whole number from 0 to 108\."):
        unosim.check("mymodule:MyStrategy(keep=-2)")


def test_the_guide_table_lists_every_builtin_strategy() -> None:
    table = section("Built-in strategies", "## Without Python")
    names = re.findall(r"^\| `([\w-]+)` \|", table, re.M)
    assert names == list(registry.REGISTRY)
