"""Strategy registry: short names to ``module:Class`` entry points.

Strategies are resolved by entry-point string in the process that plays (a
joblib or Dask worker starts fresh), never by import side effect. The names are
those of `REGISTRY` and those installed packages declare in the entry-point
group `ENTRY_POINT_GROUP` (unosim's own ``policy``, the learned policies of
``unosim.env``, is one: this layer never names a higher one). A name not known
either way is taken as an entry point ``package.module:Class``.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.metadata
import importlib.util
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from .. import strategies
from ..game.errors import UnosimInputError

if TYPE_CHECKING:
    from .base import Strategy

__all__ = [
    "ENTRY_POINT_GROUP", "REGISTRY", "TUNED_DIR", "installed", "target_of",
    "TUNED_PREFIX", "check_known", "did_you_mean", "is_user_code", "make", "resolve",
    "is_isolating", "user_code_isolated",
]

REGISTRY: dict[str, str] = {
    "random": "unosim.strategies.random_strategy:RandomStrategy",
    "greedy": "unosim.strategies.greedy:GreedyStrategy",
    "diversity": "unosim.strategies.diversity:DiversityStrategy",
    "ranking": "unosim.strategies.ranking:RankingStrategy",
    "wild-saver": "unosim.strategies.wild_saver:WildSaverStrategy",
    "colour-keeper": "unosim.strategies.colour_keeper:ColourKeeperStrategy",
    "attacker": "unosim.strategies.attacker:AttackerStrategy",
    "bluffer": "unosim.strategies.bluffer:BlufferStrategy",
    "tunable": "unosim.strategies.tunable:TunableStrategy",
    "search": "unosim.strategies.search:SearchStrategy",
    "rules": "unosim.strategy.rule_strategy:RuleStrategy",  # rules(path=...), written rules:PATH
}
"""Registered strategy names and their entry points."""

# ---- tuned strategies: `tuned:PATH` plays a file written by `unosim tune`; the shipped
# `tuned-*` names are such files in strategies/tuned/ (a class per file: unosim.strategies.tunable.tuned_class).
TUNED_PREFIX = "tuned:"
TUNED_DIR = strategies.TUNED_DIR
REGISTRY.update({f"tuned-{p.stem}": f"{TUNED_PREFIX}{p}" for p in sorted(TUNED_DIR.glob("*.json"))})


ENTRY_POINT_GROUP = "unosim.strategies"
"""The entry-point group in which installed packages declare strategies (``name = "module:Class"``)."""


@functools.cache
def installed() -> dict[str, str]:
    """The strategies installed packages declare (`ENTRY_POINT_GROUP`): name -> ``module:Class``
    (read once per process; a name of `REGISTRY` wins)."""
    return {ep.name: ep.value for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP) if ep.name not in REGISTRY}


def target_of(name: str) -> str:
    """The entry point of strategy ``name``: registered, installed, or ``name`` itself."""
    return REGISTRY.get(name) or installed().get(name, name)


def _known() -> list[str]:
    return sorted({*REGISTRY, *installed()})


def _tuned(name: str, target: str) -> type | None:
    """The class of a tuned-strategy file, when ``target`` is ``tuned:PATH``."""
    if not target.startswith(TUNED_PREFIX):
        return None
    from unosim.strategies.tunable import tuned_class

    return tuned_class(name, target[len(TUNED_PREFIX):])


def resolve(name: str) -> type[Strategy]:
    """Return the strategy class for a registered name or ``module:Class``."""
    from .base import Strategy

    target = target_of(name)
    tuned = _tuned(name, target)
    if tuned is not None:
        return tuned
    if ":" not in target:
        raise UnosimInputError(
            f"unknown strategy {name!r}; known strategies: {', '.join(_known())}, "
            "or give an entry point 'package.module:Class'." + did_you_mean(name, _known())
        )
    module_name, _, cls_name = target.partition(":")
    if module_name.split(".")[0] == "strategies" and importlib.util.find_spec(f"unosim.{module_name}") is not None:
        raise UnosimInputError(
            f"strategy {name!r}: the built-in strategies live in the package unosim.strategies now; use "
            f"'unosim.{target}', or its registered name ({', '.join(sorted(REGISTRY))})."
        )
    try:
        module = importlib.import_module(module_name)
        cls = getattr(module, cls_name)
    except (ImportError, AttributeError) as exc:
        raise UnosimInputError(
            f"strategy {name!r}: cannot load {target!r} ({exc}); known strategies: "
            f"{', '.join(_known())}, or an importable 'package.module:Class'."
        ) from None
    except Exception as exc:  # noqa: BLE001 - a user's module: any failure while importing it is bad input
        raise UnosimInputError(
            f"strategy {name!r}: importing the module {module_name!r} raised {type(exc).__name__}: {exc}; fix the "
            "module (the error is raised by its own code as it is imported) or choose another strategy."
        ) from None
    if not (isinstance(cls, type) and issubclass(cls, Strategy)):
        raise UnosimInputError(f"strategy {name!r}: {target!r} is not a subclass of unosim.Strategy.")
    return cls


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`` Did you mean 'x'?`` naming the known names closest to ``name`` (difflib), or ``""``."""
    import difflib

    close = difflib.get_close_matches(name, list(known), n=2, cutoff=0.6)
    return f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


def is_user_code(name: str) -> bool:
    """Whether strategy ``name`` is a user's class (an entry point outside unosim), as opposed to a
    built-in, a rule file, a tuned file or a policy file, which unosim's own code plays."""
    if name.startswith(("rules:", "policy:")):  # spec texts of rule and policy files
        return False
    target = target_of(name)
    if target.startswith(TUNED_PREFIX) or ":" not in target:
        return False
    module = target.partition(":")[0]
    return module.split(".")[0] != "unosim"


_ELSEWHERE = [0]
"""While non-zero, user code is made in processes of its own (`user_code_isolated`)."""


def is_isolating() -> bool:
    """Whether this is inside `user_code_isolated`."""
    return _ELSEWHERE[0] > 0


@contextlib.contextmanager
def user_code_isolated(enabled: bool = True) -> Iterator[None]:
    """Within this block user code (`is_user_code`) is never imported in this process:
    `check_known` leaves it to the process that plays it (``--isolate``), where a bad
    strategy is refused when the run describes its strategies, before any game. ``enabled=False``:
    the block changes nothing (a run that does not isolate)."""
    if not enabled:
        yield
        return
    _ELSEWHERE[0] += 1
    try:
        yield
    finally:
        _ELSEWHERE[0] -= 1


def check_known(name: str, params: dict[str, Any]) -> None:
    """Refuse an unknown strategy, an unknown parameter or a bad value before any work starts."""
    if is_isolating() and is_user_code(name):
        return
    cls = resolve(name)
    allowed = cls.param_names()
    unknown = set(params) - set(allowed)
    if unknown:
        raise UnosimInputError(
            f"strategy {name!r} has no parameter {sorted(unknown)[0]!r}; its parameters are: "
            f"{', '.join(allowed) or '(none)'}." + did_you_mean(sorted(unknown)[0], allowed)
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
        raise UnosimInputError(f"strategy {name!r} rejected its parameters {params}: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - a user's constructor: any failure is reported as bad input
        raise UnosimInputError(
            f"strategy {name!r} could not be made: its constructor raised {type(exc).__name__}: {exc}; fix the "
            "strategy's __init__ or choose another strategy."
        ) from None
