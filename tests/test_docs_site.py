"""The documentation site builds with ``mkdocs build --strict``: broken links, missing pages
and API references that do not resolve fail. The API reference documents the packages' faces
only, and docstrings refer to names by cross-references, never by Sphinx roles."""

from __future__ import annotations

import ast
import re
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


ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj):`")


def test_references_are_cross_references_not_sphinx_roles() -> None:
    sources = [*(ROOT / "unosim").rglob("*.py"), *(ROOT / "strategies").rglob("*.py"), *(ROOT / "docs").rglob("*.md"), ROOT / "README.md"]
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sources
             for n, line in enumerate(path.read_text().splitlines(), 1) if ROLE.search(line)]
    assert not found, "write [`name`][unosim.x.name] (a link) or `name` (code), not a Sphinx role:\n" + "\n".join(found)


def test_the_api_reference_documents_the_faces_only() -> None:
    faces = {name for name, path in _modules().items() if path.name == "__init__.py"}
    for page in sorted((ROOT / "docs" / "api").glob("*.md")):
        for target in re.findall(r"^::: ([\w.]+)", page.read_text(), flags=re.M):
            owner = target.rsplit(".", 1)[0]
            assert target in faces or (owner in faces and target.rsplit(".", 1)[1] in _exports(owner)), (
                f"{page.name} documents {target}, which is neither a package's face nor a name of one")


def _modules() -> dict[str, Path]:
    found = {}
    for root, prefix in ((ROOT / "unosim", ("unosim",)), (ROOT / "strategies", ("unosim", "strategies"))):
        for path in root.rglob("*.py"):
            parts = prefix + path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _exports(module: str) -> set[str]:
    for node in ast.parse(_modules()[module].read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return set(ast.literal_eval(node.value))
    return set()
