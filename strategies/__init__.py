"""Strategies shipped with unosim (registered in `unosim.strategy.registry`), installed as ``unosim.strategies``.

Beside the modules: the shipped rule-strategy files (`RULES_DIR`, ``rules:NAME``) and the
tuned strategies (`TUNED_DIR`, ``tuned-*``), found here whether unosim runs from a
checkout or from an installed wheel.
"""

from pathlib import Path

__all__ = ["RULES_DIR", "TUNED_DIR"]

# The modules of this package that other packages may import beside the face (__all__), and the
# names each lends them; () lends the module only, imported whole as a namespace.
# tests/test_architecture.py refuses any other import from outside the package.
PUBLIC_MODULES: dict[str, tuple[str, ...]] = {
    "unosim.strategies.person": ("PersonStrategy", "encode"),
    "unosim.strategies.tunable": (),
}

RULES_DIR = Path(__file__).resolve().parent / "rules"
"""The shipped rule-strategy files (``rules:NAME`` plays ``RULES_DIR / NAME.toml``)."""
TUNED_DIR = Path(__file__).resolve().parent / "tuned"
"""The shipped tuned strategies (``tuned-NAME`` plays ``TUNED_DIR / NAME.json``)."""
