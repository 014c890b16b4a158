"""Declared strategy parameters: what values each keyword parameter allows.

A strategy declares its parameters once, in the class attribute
``parameter_constraints`` (merged along the class hierarchy), and
[`unosim.Strategy.check_params`][unosim.Strategy.check_params] checks every one of them after
the constructor has stored them (scikit-learn's ``_parameter_constraints``)::

    class WildSaver(Strategy):
        parameter_constraints = {"k": (int, 0, 108)}

A constraint is a `Constraint` or a shorthand: ``(int, low, high)`` (a
whole number in ``[low, high]``), ``(float, low, high)`` (a number in
``[low, high]``) or ``(bool,)`` (True or False).
"""

from __future__ import annotations

import inspect
import math
import numbers
from dataclasses import dataclass
from typing import Any

from ..game.errors import UnosimInputError

__all__ = ["as_constraint", "check", "Constraint", "DistinctNames", "Flag", "Interval", "ParameterError", "signature_params"]


class ParameterError(UnosimInputError):
    """A strategy parameter's value is not allowed (the message names strategy, parameter and what to use)."""


class Constraint:
    """What one parameter allows: `allows` a value, described by `describe`."""

    def allows(self, value: Any) -> bool:
        """True when ``value`` is allowed."""
        raise NotImplementedError

    def describe(self) -> str:
        """What to use instead, completing "use ...", e.g. ``"a whole number from 0 to 108"``."""
        raise NotImplementedError


@dataclass(frozen=True)
class Interval(Constraint):
    """A number (``whole``: a whole number) from ``low`` to ``high``, both included."""

    low: float
    high: float
    whole: bool = False

    def allows(self, value: Any) -> bool:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            return False
        if self.whole and not isinstance(value, numbers.Integral):
            return False
        number = float(value)
        return math.isfinite(number) and self.low <= number <= self.high

    def describe(self) -> str:
        kind = "a whole number" if self.whole else "a number"
        return f"{kind} from {self.low:g} to {self.high:g}"


@dataclass(frozen=True)
class Flag(Constraint):
    """True or False."""

    def allows(self, value: Any) -> bool:
        return isinstance(value, bool)

    def describe(self) -> str:
        return "True or False"


@dataclass(frozen=True)
class DistinctNames(Constraint):
    """A non-empty tuple (or list) of distinct names, each one of ``names``."""

    names: tuple[str, ...]

    def allows(self, value: Any) -> bool:
        if not isinstance(value, (tuple, list)) or not value:
            return False
        return all(isinstance(v, str) and v in self.names for v in value) and len(set(value)) == len(value)

    def describe(self) -> str:
        return f"a tuple of distinct names from: {', '.join(self.names)}"


def as_constraint(spec: Constraint | tuple[Any, ...]) -> Constraint:
    """A `Constraint` from itself or a shorthand (``(int, lo, hi)``, ``(float, lo, hi)``, ``(bool,)``)."""
    if isinstance(spec, Constraint):
        return spec
    if isinstance(spec, tuple) and spec[:1] == (bool,) and len(spec) == 1:
        return Flag()
    if isinstance(spec, tuple) and len(spec) == 3 and spec[0] in (int, float):
        return Interval(spec[1], spec[2], whole=spec[0] is int)
    raise TypeError(f"parameter constraint {spec!r} is not a Constraint, (int, low, high), (float, low, high) or (bool,)")


def check(label: str, values: dict[str, Any], constraints: dict[str, Constraint | tuple[Any, ...]]) -> None:
    """Raise `ParameterError` (a ``ValueError``) naming the first parameter of ``values`` its constraint refuses.

    Parameters
    ----------
    label : str
        The strategy's name, for the message.
    values : dict
        Parameter values by name.
    constraints : dict
        Constraint (or shorthand) by parameter name; every name must be in ``values``.
    """
    for key, spec in constraints.items():
        rule = as_constraint(spec)
        value = values[key]
        if not rule.allows(value):
            raise ParameterError(f"strategy {label!r}: {key}={value!r} is not allowed; use {rule.describe()}.")


def signature_params(cls: type) -> list[str]:
    """Keyword parameters of a class constructor (scikit-learn style)."""
    init = cls.__init__  # type: ignore[misc]  # the constructor itself (signature(cls) shows a metaclass __call__)
    sig = inspect.signature(init)
    return [p.name for p in sig.parameters.values() if p.kind is p.KEYWORD_ONLY]
