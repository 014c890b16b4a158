"""The shipped notebooks run top to bottom in a fresh Jupyter kernel (started here)."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path: Path, tmp_path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors
    assert any(o.output_type == "display_data" and "image/png" in o.get("data", {}) for c in nb.cells for o in c.get("outputs", []))
    assert not cells_without_their_image(nb), f"{path.name}: plotting cells with no image: {cells_without_their_image(nb)}"


PLOTS = re.compile(r"\bplt\.|\.plot\(|subplots\(|plot_tournament\(|_heatmap\(|_lines\(|game_length\w*\(|seat_advantage\w*\(|Figure\(")


def cells_without_their_image(nb: nbformat.NotebookNode) -> list[int]:
    """Indices of the code cells that draw (or print a figure's repr) but show no PNG."""
    missing = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        outputs = cell.get("outputs", [])
        image = any("image/png" in o.get("data", {}) for o in outputs)
        figure_text = any("<Figure size" in str(o.get("data", {}).get("text/plain", "")) for o in outputs)
        if (PLOTS.search(cell.source) or figure_text) and not image:
            missing.append(i)
    return missing


def test_there_is_a_notebook() -> None:
    assert NOTEBOOKS
