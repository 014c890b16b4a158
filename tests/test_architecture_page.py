"""docs/architecture.md says what the code has: one table per package listing its modules, what each
lends to the other packages and the package's face, all read from the code; and a table of the
places each kind of change touches, whose every path exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_architecture import MODULES, _exports, package_of, public_modules

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "architecture.md").read_text()
PACKAGES = sorted({package_of(m) for m in MODULES})
KINDS = ("a rule of the game", "a rule option", "a decision", "a strategy", "a record column", "a plot or a report section",
         "a CLI command", "an environment action")


def _cells(row: str) -> list[str]:
    return [c.strip() for c in re.split(r"(?<!\\)\|", row.strip())[1:-1]]


def _section(title: str) -> str:
    """The text of the page from the heading ``title`` to the next heading."""
    m = re.search(rf"^#+ {re.escape(title)}\n(.*?)(?=^#+ |\Z)", PAGE, flags=re.M | re.S)
    assert m, f"docs/architecture.md has no section {title!r}"
    return m.group(1)


def _ticked(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def test_every_package_has_a_table() -> None:
    shown = set(re.findall(r"^### `(unosim(?:\.\w+)?)`$", PAGE, flags=re.M))
    assert shown == set(PACKAGES), f"tables for {sorted(shown - set(PACKAGES))} but not {sorted(set(PACKAGES) - shown)}"


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_s_table_matches_its_code(package: str) -> None:
    text = _section(f"`{package}`")
    rows = {}
    for line in text.splitlines():
        cells = _cells(line) if line.startswith("| `") else []
        if cells:
            (module,) = _ticked(cells[0])
            rows[module] = cells[2]
    modules = {m[len(package) + 1:] if m.startswith(package + ".") else m for m in MODULES if package_of(m) == package and m != package}
    assert set(rows) == modules, f"{package}: the page lists {sorted(set(rows) - modules)} and not {sorted(modules - set(rows))}"
    lent = public_modules(package)
    for module, cell in rows.items():
        full = f"{package}.{module}"
        expected = "whole" if lent.get(full) == () else sorted(lent.get(full, ()))
        said = "whole" if cell == "whole" else sorted(_ticked(cell))
        assert said == expected, f"{full}: the page says it lends {said}, PUBLIC_MODULES says {expected}"
    face = re.search(r"^Face: (.*)$", text, flags=re.M)
    assert face, f"{package}: no 'Face:' line"
    assert set(_ticked(face.group(1))) == (_exports(package) or set()), f"{package}: the page's face is not its __all__"


def test_every_kind_of_change_has_its_places() -> None:
    rows = [_cells(line) for line in _section("Where a change goes").splitlines() if line.startswith("| ") and "---" not in line]
    kinds = {cells[0] for cells in rows[1:]}
    assert set(KINDS) <= kinds, f"missing: {sorted(set(KINDS) - kinds)}"
    missing = []
    for cells in rows[1:]:
        for token in _ticked(" ".join(cells[1:])):
            if "/" in token and " " not in token:
                missing += [] if (ROOT / token.rstrip("/")).exists() else [f"{cells[0]}: {token}"]
        assert any("/" in t for t in _ticked(cells[1])), f"{cells[0]!r} names no file to touch"
    assert not missing, "paths that do not exist:\n" + "\n".join(missing)
