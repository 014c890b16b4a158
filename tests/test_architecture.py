"""The package's module graph: the layer packages stand in order and import only downward —
by an import statement or by a module path in a string (``"unosim.x.y:Class"``, as resolved at
run time); every module says what it exports (``__all__``), modules import only exported names
from each other, and no two modules import each other, directly or round a loop — not even
lazily inside a function or only for type checking."""

from __future__ import annotations

import ast
import re
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


_MODULE_PATH = re.compile(r"^(unosim(?:\.\w+)+)(?::\w+)?$")
"""A whole string naming a unosim module (``unosim.env.policy``) or a name in it (``unosim.env.policy:Class``)."""


def string_imports(module: str, tree: ast.AST) -> list[tuple[str, str, str | None]]:
    """(``module``, named module, None) for every string of ``tree`` that is a unosim module path: an
    import made at run time (``importlib.import_module``, a registry entry), which the import
    statements do not show."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            m = _MODULE_PATH.match(node.value.strip())
            if m and _module_of(m.group(1)) != "unosim":  # a module (or a name in one) of a layer package
                found.append((module, m.group(1), None))
    return found


def _string_imports() -> list[tuple[str, str, str | None]]:
    return [found for module, tree in TREES.items() for found in string_imports(module, tree)]


# The floors, from the ground up. A module may import its own floor and those below it.
LAYERS = (
    ("game", ("unosim.version", "unosim.game")),
    ("strategy", ("unosim.strategy", "unosim.strategies")),
    ("engine", ("unosim.engine",)),
    ("runs", ("unosim.runs", "unosim.env")),
    ("analysis", ("unosim.analysis",)),
    ("reports", ("unosim.reports",)),
    ("faces", ("unosim", "unosim.api", "unosim.cli", "unosim.play", "unosim.__main__")),
)


def layer(module: str) -> int:
    """The floor of a module: that of the longest layer prefix it falls under."""
    best, floor = -1, None
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, floor = len(prefix), i
    assert floor is not None, f"{module} stands on no floor: add its package to LAYERS"
    return floor


def _module_of(target: str) -> str:
    while target not in MODULES and "." in target:  # unosim.game.kernels.layout.X -> the module
        target = target.rsplit(".", 1)[0]
    return target


def upward_imports(imports: list[tuple[str, str, str | None]]) -> list[str]:
    """Every import of a higher floor by a lower one, as ``importer (floor) -> imported (floor)``."""
    found = []
    for module, target, _ in imports:
        target = _module_of(target)
        if layer(target) > layer(module):
            found.append(f"{module} (floor {LAYERS[layer(module)][0]}) imports {target} (floor {LAYERS[layer(target)][0]})")
    return sorted(set(found))


def test_top_level_holds_only_the_faces() -> None:
    own = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(own) <= 6, f"unosim/ holds {len(own)} modules beside its subpackages: {own}"
    for module in MODULES:
        layer(module)


def test_imports_only_go_down() -> None:
    offences = upward_imports(_imports() + _string_imports())
    assert not offences, "imports from a higher floor:\n" + "\n".join(offences)


def test_a_module_path_in_a_string_is_an_import() -> None:
    # a strategy module naming an environment's class by a string, resolved at run time: caught
    tree = ast.parse('POLICY = "unosim.env.policy:PolicyStrategy"\ndef f():\n    return "unosim.engine.driver"\n')
    found = string_imports("unosim.strategy.spec", tree)
    assert [target for _, target, _ in found] == ["unosim.env.policy", "unosim.engine.driver"]
    assert len(upward_imports(found)) == 2
    assert not string_imports("unosim.strategy.spec", ast.parse('x = "see unosim.env.policy"; y = "unosim"'))


def test_an_upward_import_is_caught() -> None:
    # the check itself can fail: a game module importing the engine, even inside a function
    tree = ast.parse("def f():\n    from ...engine import driver\n")
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom))
    target = _target("unosim.game.kernels.advance", node)
    assert target == "unosim.engine"
    assert upward_imports([("unosim.game.kernels.advance", "unosim.engine.driver", None)])


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
        target = _module_of(target)
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
