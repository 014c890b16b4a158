"""The package's module graph: the layer packages stand in order and import only downward —
by an import statement or by a module path in a string (``"unosim.x.y:Class"``, as resolved at
run time); every module says what it exports (``__all__``), modules import only exported names
from each other, and no two modules import each other, directly or round a loop — not even
lazily inside a function or only for type checking.

Between packages the faces hold: a module imports from another package only what that package
lends — the names of its face (the ``__all__`` of its ``__init__``) and the names its
``PUBLIC_MODULES`` declare — and never a private (``_name``) name or module."""

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


def package_of(module: str) -> str:
    """The package a module belongs to: ``unosim.<name>`` inside a subpackage, ``unosim`` for the top-level modules."""
    parts = module.split(".")
    if len(parts) > 1 and f"unosim.{parts[1]}" in MODULES and MODULES[f"unosim.{parts[1]}"].name == "__init__.py":
        return f"unosim.{parts[1]}"
    return "unosim"


def public_modules(package: str) -> dict[str, tuple[str, ...]]:
    """The ``PUBLIC_MODULES`` a package's ``__init__`` declares (none: an empty dict)."""
    for node in TREES[package].body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == "PUBLIC_MODULES" for t in targets) and node.value is not None:
            return {module: tuple(names) for module, names in ast.literal_eval(node.value).items()}
    return {}


def face_sources(package: str) -> set[tuple[str, str]]:
    """(defining module, name) of every name a package's face re-exports: importing the name from the
    module that defines it is importing it from the face."""
    exports = _exports(package) or set()
    found = set()
    for node in TREES[package].body:
        if isinstance(node, ast.ImportFrom):
            target = _target(package, node)
            found |= {(target, a.name) for a in node.names if (a.asname or a.name) in exports and target}
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def foreign_imports(imports: list[tuple[str, str, str | None]]) -> list[str]:
    """Every import of something another package does not lend: a private name or module, a name
    outside its face and its ``PUBLIC_MODULES``, or a module it lends only by some of its names (a
    module lent whole, ``()``, lends every name it exports)."""
    found = []
    for module, target, name in imports:
        target = _module_of(target)
        package = package_of(target)
        if package == package_of(module):
            continue
        lent = public_modules(package)
        where = f"{module} imports {target}" + (f".{name}" if name else "")
        if any(_private(part) for part in target.split(".")) or (name is not None and _private(name)):
            found.append(f"{where}: a private name of {package}")
        elif target == package:
            continue  # the face: the names of its __all__ (test_modules_import_only_exported_names)
        elif name is None and lent.get(target) != ():
            found.append(f"{where}: {package} does not lend the module whole (PUBLIC_MODULES: {target!r}: ())")
        elif name is not None and (target, name) not in face_sources(package) and name not in lent.get(target, ()) and (
                lent.get(target) != () or name not in (_exports(target) or ())):
            found.append(f"{where}: neither in the face of {package} nor lent by its PUBLIC_MODULES")
    return sorted(set(found))


def private_reaches(module: str, tree: ast.AST) -> list[str]:
    """Every ``x._name`` in ``module`` where ``x`` is a module or a name imported from another package."""
    foreign = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = _target(module, node)
            if target and target.split(".")[0] == "unosim" and package_of(_module_of(target)) != package_of(module):
                foreign |= {a.asname or a.name for a in node.names}
    return sorted({f"{module}:{node.lineno} reaches into {ast.unparse(node)}" for node in ast.walk(tree)
                   if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in foreign
                   and _private(node.attr)})


def test_no_reach_into_another_package_s_private_names() -> None:
    offences = [found for module, tree in TREES.items() for found in private_reaches(module, tree)]
    assert not offences, "\n".join(offences)
    planted = ast.parse("from ..game.kernels import layout as L\nx = L._private\n")
    assert private_reaches("unosim.engine.driver", planted)


def test_packages_import_only_what_others_lend() -> None:
    offences = foreign_imports(_imports())
    assert not offences, "imports of what another package does not lend:\n" + "\n".join(offences)


def test_public_modules_name_real_modules_and_exports() -> None:
    for package in {package_of(m) for m in MODULES}:
        for module, names in public_modules(package).items():
            assert module in MODULES and package_of(module) == package, f"{package}.PUBLIC_MODULES names {module}, not one of its modules"
            missing = set(names) - (_exports(module) or set())
            assert not missing, f"{package}.PUBLIC_MODULES lends {sorted(missing)} of {module}, which does not export them"


def lent_names(package: str) -> set[str]:
    """The names other packages may import from ``package``: its face, the names its public modules
    lend and each module lent whole, which counts once (a namespace: ``L.F_TOP``) unless another
    package imports names from it one by one, each of which counts then."""
    names = set(_exports(package) or ())
    lent = public_modules(package)
    for module, lends in lent.items():
        names |= set(lends) if lends else {module.rsplit(".", 1)[1]}
    for module, target, name in _imports():
        if name and lent.get(target) == () and package_of(target) == package != package_of(module):
            names.add(name)
    return names


def test_the_game_lends_few_names() -> None:
    lent = lent_names("unosim.game")
    assert len(lent) <= 60, f"unosim.game lends {len(lent)} names to the other packages: {sorted(lent)}"


@pytest.mark.parametrize("module, target, name", [
    ("unosim.engine.isolation", "unosim.strategy.observation", "_stream_uniforms"),  # a private name
    ("unosim.reports.plots", "unosim.analysis.cardvalue", "COLUMNS"),  # a name its package does not lend
    ("unosim.engine.decisions", "unosim.game.kernels.finish", None),  # a module its package does not lend
    ("unosim.runs.planning", "unosim.game.rules", None),  # a module lent only by some of its names
])
def test_a_foreign_import_is_caught(module: str, target: str, name: str | None) -> None:
    assert foreign_imports([(module, target, name)])


def test_what_a_package_lends_passes() -> None:
    assert not foreign_imports([
        ("unosim.engine.driver", "unosim.game.kernels.layout", None),  # a module lent whole
        ("unosim.engine.driver", "unosim.game.kernels.advance", "advance"),  # a name a public module lends
        ("unosim.runs.planning", "unosim.game.rules", "RuleSet"),  # a name of the face, from its module
        ("unosim.analysis.bench", "unosim.version", "__version__"),  # a dunder is no private name
    ])
