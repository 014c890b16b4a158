"""The package's module graph (issue 11): every module says what it exports (``__all__``),
modules import only exported names from each other, and no two modules import each other,
directly or round a loop, not even lazily inside a function or only for type checking."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import unosim.strategies

import unosim

PACKAGE = Path(unosim.__file__).parent
STRATEGIES = Path(unosim.strategies.__file__).parent  # the top-level folder strategies/, installed as unosim.strategies


def _modules() -> dict[str, Path]:
    found = {}
    for root, prefix in ((PACKAGE, ("unosim",)), (STRATEGIES, ("unosim", "strategies"))):
        for path in sorted(root.rglob("*.py")):
            parts = prefix + path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()
TREES = {name: ast.parse(path.read_text()) for name, path in MODULES.items()}


def _target(module: str, node: ast.ImportFrom) -> str | None:
    if not node.level:
        return node.module
    base = module.split(".")
    if MODULES[module].name != "__init__.py":
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _exports(module: str) -> set[str] | None:
    for node in TREES[module].body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets) and node.value is not None:
            return set(ast.literal_eval(node.value))
    return None


def _imports() -> list[tuple[str, str, str | None]]:
    """(importing module, imported module, name or None) for every import of a unosim module, anywhere in the file."""
    found = []
    for module, tree in TREES.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                target = _target(module, node)
                if not target or target.split(".")[0] != "unosim":
                    continue
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    found.append((module, sub, None) if sub in MODULES else (module, target, alias.name))
            elif isinstance(node, ast.Import):
                found += [(module, a.name, None) for a in node.names if a.name.split(".")[0] == "unosim"]
    return found


@pytest.mark.parametrize("module", sorted(m for m in MODULES if not m.endswith("__main__")))
def test_every_module_declares_its_exports(module: str) -> None:
    exports = _exports(module)
    assert exports is not None, f"{module} has no __all__"
    tree = TREES[module]
    for name in exports:
        assert any(name in ast.unparse(node) for node in tree.body if not isinstance(node, ast.Expr)), (
            f"{module}.__all__ names {name!r}, which the module does not define or import"
        )


def test_modules_import_only_exported_names() -> None:
    offences = []
    for module, target, name in _imports():
        if name is None or target not in MODULES:
            continue
        exports = _exports(target)
        if exports is not None and name not in exports:
            offences.append(f"{module} imports {name} from {target}, which does not export it")
    assert not offences, "\n".join(offences)


def test_no_import_cycles() -> None:
    graph: dict[str, set[str]] = {}
    for module, target, _ in _imports():
        while target not in MODULES:  # unosim.kernels.layout.X -> the module
            target = target.rsplit(".", 1)[0]
        if target != module:
            graph.setdefault(module, set()).add(target)
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for module in sorted(MODULES):
        if module not in state:
            visit(module)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)
