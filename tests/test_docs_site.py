"""The documentation site builds with ``mkdocs build --strict``: broken links, missing pages
and API references that do not resolve fail."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True, timeout=600, env={"NO_MKDOCS_2_WARNING": "1",
                                                                                        "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-4000:]
    api = tmp_path / "site" / "api"
    for page in ("unosim", "game", "strategy", "engine", "runs", "analysis", "reports"):
        html = (api / page / "index.html").read_text()
        assert "doc-heading" in html, f"the API page of {page} documents nothing"


def test_every_page_is_in_the_navigation() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text().replace("!!python", "python"))

    def pages(node: object) -> list[str]:
        if isinstance(node, str):
            return [node]
        if isinstance(node, dict):
            return [p for value in node.values() for p in pages(value)]
        if isinstance(node, list):
            return [p for item in node for p in pages(item)]
        return []

    listed = set(pages(config["nav"]))
    on_disk = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    assert on_disk == listed, f"not in the nav: {sorted(on_disk - listed)}; missing: {sorted(listed - on_disk)}"
