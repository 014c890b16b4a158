"""Strategy registry: short names to ``module:Class`` entry points.

Strategies are resolved by entry-point string in the process that plays (a
joblib or Dask worker starts fresh), never by import side effect. A name not
in :data:`REGISTRY` is taken as an entry point ``package.module:Class``.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

REGISTRY: dict[str, str] = {
    "random": "strategies.random_strategy:RandomStrategy",
    "greedy": "strategies.greedy:GreedyStrategy",
    "diversity": "strategies.diversity:DiversityStrategy",
    "ranking": "strategies.ranking:RankingStrategy",
    "wild-saver": "strategies.wild_saver:WildSaverStrategy",
    "colour-keeper": "strategies.colour_keeper:ColourKeeperStrategy",
    "attacker": "strategies.attacker:AttackerStrategy",
    "bluffer": "strategies.bluffer:BlufferStrategy",
    "rules": "unosim.rulebot.strategy:RuleStrategy",  # issue 13: rules(path=...), written rules:PATH
}
"""Registered strategy names and their entry points."""


def resolve(name: str) -> type:
    """Return the strategy class for a registered name or ``module:Class``."""
    from .strategy import Strategy

    target = REGISTRY.get(name, name)
    if ":" not in target:
        raise ValueError(
            f"unknown strategy {name!r}; known strategies: {', '.join(sorted(REGISTRY))}, "
            "or give an entry point 'package.module:Class'."
        )
    module_name, _, cls_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
        cls = getattr(module, cls_name)
    except (ImportError, AttributeError) as exc:
        raise ValueError(
            f"strategy {name!r}: cannot load {target!r} ({exc}); known strategies: "
            f"{', '.join(sorted(REGISTRY))}, or an importable 'package.module:Class'."
        ) from None
    if not (isinstance(cls, type) and issubclass(cls, Strategy)):
        raise ValueError(f"strategy {name!r}: {target!r} is not a subclass of unosim.Strategy.")
    return cls


def check_known(name: str, params: dict[str, Any]) -> None:
    """Refuse an unknown strategy, an unknown parameter or a bad value before any work starts."""
    cls = resolve(name)
    allowed = cls.param_names()
    unknown = set(params) - set(allowed)
    if unknown:
        raise ValueError(
            f"strategy {name!r} has no parameter {sorted(unknown)[0]!r}; its parameters are: "
            f"{', '.join(allowed) or '(none)'}."
        )
    make(name, params)  # refuses a bad value now, not in a worker


def make(name: str, params: dict[str, Any] | None = None) -> Any:
    """Instantiate a strategy from its name or entry point and parameters."""
    from .parameters import ParameterError

    cls = resolve(name)
    try:
        return cls(**(params or {}))
    except ParameterError:
        raise  # already names the strategy, the parameter and what to use
    except (TypeError, ValueError) as exc:
        raise ValueError(f"strategy {name!r} rejected its parameters {params}: {exc}") from None


def signature_params(cls: type) -> list[str]:
    """Keyword parameters of a class constructor (scikit-learn style)."""
    sig = inspect.signature(cls.__init__)
    return [p.name for p in sig.parameters.values() if p.kind is p.KEYWORD_ONLY]
