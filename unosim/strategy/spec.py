"""Strategy specifications: a registered name or entry point plus parameters.

A spec is written ``name`` or ``name(param=value, ...)``, e.g. ``greedy``,
``random(forget_uno_rate=0.1)`` or ``mypkg.mymod:MyStrategy(depth=2)``;
``tuned:PATH`` names a tuned-strategy file written by ``unosim tune``, ``policy:PATH`` a
learned policy file (the strategy ``policy(path=...)``, which the ``rl`` extra's package
declares in the registry's entry-point group).
Specs are resolved into strategy objects by `unosim.strategy.registry.make`
inside the process that plays, so nothing relies on import side effects.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

from ..game.errors import UnosimInputError

__all__ = ["POLICY", "StrategySpec", "parse_strategies", "split_top_level"]

POLICY = "policy"
"""The strategy name of ``policy:PATH`` specs (an installed strategy: `unosim.strategy.registry.installed`)."""

_SPEC = re.compile(r"^\s*(tuned:[^(),]+?|[A-Za-z_][\w.-]*(?::[A-Za-z_]\w*)?)\s*(?:\((.*)\))?\s*$")  # or tuned:PATH


@dataclass(frozen=True)
class StrategySpec:
    """A strategy name (or ``module:Class``) and its keyword parameters."""

    name: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def parse(cls, text: str) -> StrategySpec:
        """Parse ``name`` or ``name(k=v, ...)`` (values are Python literals); ``rules:PATH`` is ``rules(path='PATH')``."""
        if text.strip().startswith("rules:"):  # a rule-strategy file, or the name of a shipped one
            from .registry import check_known

            rule_file = {"path": text.strip()[len("rules:") :].strip()}
            check_known("rules", rule_file)
            return cls("rules", tuple(rule_file.items()))
        if text.strip().startswith("policy:"):  # a saved learned policy (the rl extra)
            from .registry import check_known

            policy_file = {"path": text.strip()[len("policy:") :].strip()}
            check_known(POLICY, policy_file)
            return cls(POLICY, tuple(policy_file.items()))
        m = _SPEC.match(text)
        if not m:
            raise UnosimInputError(
                f"strategy {text!r} is not a name or name(param=value, ...); e.g. greedy, "
                "random(forget_uno_rate=0.1) or mypkg.mod:MyStrategy."
            )
        params: dict[str, Any] = {}
        if m.group(2):
            try:
                call = ast.parse(f"f({m.group(2)})", mode="eval").body
                assert isinstance(call, ast.Call) and not call.args
                params = {str(kw.arg): ast.literal_eval(kw.value) for kw in call.keywords}
            except (SyntaxError, ValueError, AssertionError):
                raise UnosimInputError(
                    f"strategy {text!r}: parameters must be keyword=literal pairs, e.g. random(forget_uno_rate=0.1)."
                ) from None
        from .registry import check_known

        check_known(m.group(1), params)
        return cls(m.group(1), tuple(sorted(params.items())))

    def __str__(self) -> str:
        if self.name == POLICY and len(self.params) == 1 and self.params[0][0] == "path":
            return f"policy:{self.params[0][1]}"
        if not self.params:
            return self.name
        return f"{self.name}({', '.join(f'{k}={v!r}' for k, v in self.params)})"

    def to_dict(self) -> dict[str, Any]:
        """``{"name": ..., "params": {...}}``."""
        return {"name": self.name, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StrategySpec:
        """Inverse of [`to_dict`][unosim.strategy.StrategySpec.to_dict]."""
        return cls(data["name"], tuple(sorted(data.get("params", {}).items())))


def split_top_level(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def parse_strategies(value: str | list[Any] | tuple[Any, ...], players: int) -> tuple[StrategySpec, ...]:
    """One spec for every seat, or one per seat, from a string or a list."""
    items = split_top_level(value) if isinstance(value, str) else list(value)
    specs = [s if isinstance(s, StrategySpec) else StrategySpec.parse(str(s)) for s in items]
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise UnosimInputError(
            f"{len(specs)} strategies given for {players} players; give one strategy for every seat "
            f"(e.g. --strategies random) or exactly {players}, comma-separated."
        )
    for spec in dict.fromkeys(s for s in specs if s.name == POLICY):  # a policy plays one table size
        from .registry import make

        declared = make(spec.name, dict(spec.params)).policy.players
        if declared != players:
            raise UnosimInputError(
                f"strategy {spec} plays tables of {declared} players (its file's players), not {players}: give "
                f"--players {declared}, or a policy file made for {players} players."
            )
    return tuple(specs)
