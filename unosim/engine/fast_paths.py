"""Which fast paths the engine may take for a strategy, decided on the engine side.

A fast path answers a decision without asking the strategy's Python method:
a compiled in-kernel transcription of a shipped strategy
(`unosim.game.kernels.policy`), playing a legal drawn card without asking, or
skipping the UNO-call or the challenge question, or drawing for a strategy on a turn with
nothing to play. It must never change what is played, so it is
taken only when the methods it stands for are exactly the ones it was written
from. A user's subclass that overrides one decision is therefore always asked
through Python, whatever flags it inherits.

- **Compiled transcriptions** are declared by the strategy class itself
  (`Strategy.compiled`, a name, so that strategies never import kernels),
  with the parameter values the transcription covers
  ([`Strategy.compiled_covers`][unosim.Strategy.compiled_covers]). Only the declaring class is trusted: a
  subclass, even one that overrides nothing, takes the Python path, and a
  renamed class keeps its declaration. The engine names no strategy.
- **Built-ins restated as rule files** (`Strategy.restated_by`): ``ranking``,
  ``wild-saver``, ``colour-keeper``, ``diversity`` and ``attacker`` at their
  default parameters are played by the compiled rule interpreter running their
  shipped rule file (``strategies/rules/``), which decides every decision as
  the built-in does, drawing the same uniforms
  (``tests/test_compiled_policies.py`` plays both paths and compares the records).
- **Declared shortcuts** ([`Strategy.plays_legal_drawn_card`][unosim.Strategy.plays_legal_drawn_card],
  [`Strategy.never_forgets_uno`][unosim.Strategy.never_forgets_uno], [`Strategy.never_challenges`][unosim.Strategy.never_challenges],
  [`Strategy.forced_draw_uniforms`][unosim.Strategy.forced_draw_uniforms], and for the learning environments
  [`Strategy.always_catches_uno`][unosim.Strategy.always_catches_uno]) are trusted only when the decision
  methods they summarise resolve to the class that declared the shortcut (or
  one of its bases): a subclass overriding ``play_drawn``, ``forget_uno``,
  ``challenge``, ``play`` or ``catch_uno`` loses the shortcut it inherited.
- **A decision method set on an object** (``strategy.play = ...``) is that object's own: it loses
  its class's compiled transcription and the shortcuts that method summarises, as a subclass would.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..game.errors import UnosimInputError
from ..game.kernels.policy import POLICY_GREEDY, POLICY_NONE, POLICY_RANDOM, POLICY_RULES
from ..strategy.base import Strategy
from ..strategy.parameters import Interval, ParameterError

if TYPE_CHECKING:
    from ..strategy.rule_language import RuleProgram

__all__ = [
    "DECISIONS", "POLICIES", "always_catch_mask", "asks_catch_uno", "asks_challenge", "asks_forget_uno", "asks_play_drawn",
    "auto_drawn_mask", "compiled_policy", "declared_policy", "forced_draw_uniforms", "no_challenge_mask", "plays_drawn_unasked",
    "rule_program",
]

DECISIONS = (
    "play", "play_drawn", "choose_colour", "challenge", "forget_uno", "catch_uno",
    "point_at", "choose_link", "add_to_pile", "jump_in", "stack", "swap_with",
)
"""Every decision method the engine may call."""


POLICIES = {"random": POLICY_RANDOM, "greedy": POLICY_GREEDY, "rules": POLICY_RULES}
"""The transcriptions a strategy class may declare (`Strategy.compiled`), by name -> policy id
in ``kernels/policy.py``."""


def declared_policy(cls: type[Strategy]) -> str | None:
    """The transcription ``cls`` itself declares (``None`` when it declares none: an inherited
    declaration does not count)."""
    name = vars(cls).get("compiled")
    if name is not None and name not in POLICIES:
        raise UnosimInputError(
            f"strategy class {cls.__qualname__} declares compiled = {name!r}; use one of {sorted(POLICIES)} or None."
        )
    return name


def _set_on_instance(strat: Strategy, *names: str) -> bool:
    """Whether one of ``names`` is set on the object itself (its own decision method, or declaration),
    not taken from its class: no fast path of the class stands in for it."""
    own = getattr(strat, "__dict__", None) or {}
    return any(name in own for name in names)


def compiled_policy(strat: Strategy) -> int:
    """The compiled policy that plays exactly like ``strat``, or 0 (ask its Python methods; also when
    a decision method is set on the object itself)."""
    name = declared_policy(type(strat))
    if name is None or _set_on_instance(strat, *DECISIONS) or not strat.compiled_covers():
        return POLICY_NONE
    return POLICIES[name]


def rule_program(strat: Strategy) -> RuleProgram:
    """The rule program the compiled interpreter runs for ``strat`` (whose policy is ``POLICY_RULES``):
    the shipped file restating a built-in (`Strategy.restated_by`), or a rule strategy's own."""
    from ..strategy.rule_language import load_program

    name = vars(type(strat)).get("restated_by")
    return load_program(name) if name is not None else strat.program  # type: ignore[attr-defined]


def _trusted(strat: Strategy, shortcut: str, method: str) -> bool:
    """True when ``method`` resolves to the class declaring ``shortcut`` or one of its bases (a
    subclass overriding ``method`` loses the shortcut it inherited, and so does an object on which
    ``method`` or ``shortcut`` is set)."""
    if _set_on_instance(strat, method, shortcut):
        return False
    cls = type(strat)
    owner = next(k for k in cls.__mro__ if shortcut in vars(k))
    return getattr(cls, method) is getattr(owner, method)


def _declares(strat: Strategy, shortcut: str, method: str) -> bool:
    """True when ``strat`` declares ``shortcut`` and may be trusted to (`_trusted`)."""
    return _trusted(strat, shortcut, method) and bool(getattr(strat, shortcut))


_UNIFORM_COUNT = Interval(0, math.inf, whole=True)
"""What [`Strategy.forced_draw_uniforms`][unosim.Strategy.forced_draw_uniforms] may declare, besides ``None``."""


def forced_draw_uniforms(strat: Strategy) -> int | None:
    """The uniforms ``play`` draws on a turn with nothing to play before answering DRAW, when a trusted
    shortcut ([`Strategy.forced_draw_uniforms`][unosim.Strategy.forced_draw_uniforms]) says so; ``None``: the engine must ask ``play``."""
    if not _trusted(strat, "forced_draw_uniforms", "play"):
        return None
    value = strat.forced_draw_uniforms
    if value is not None and not _UNIFORM_COUNT.allows(value):
        raise ParameterError(
            f"strategy {strat.label!r}: forced_draw_uniforms = {value!r} is not allowed; declare the whole number "
            "(0 or more) of uniforms play draws per row on a turn with nothing to play, or None to be asked."
        )
    return None if value is None else int(value)


def _mask(strategies: list[Strategy], test: Callable[[Strategy], bool]) -> int:
    """Bit k set where ``test(strategies[k])``."""
    return sum(1 << k for k, strat in enumerate(strategies) if test(strat))


def asks_forget_uno(strat: Strategy) -> bool:
    """Whether the engine must ask ``forget_uno`` (not when a trusted shortcut says it never forgets)."""
    return not _declares(strat, "never_forgets_uno", "forget_uno")


def asks_play_drawn(strat: Strategy) -> bool:
    """Whether the engine must ask ``play_drawn`` (not when a trusted shortcut says it plays a legal drawn card)."""
    return not _declares(strat, "plays_legal_drawn_card", "play_drawn")


def plays_drawn_unasked(strat: Strategy) -> bool:
    """Whether a legal drawn card may be played without asking ``play_drawn`` and ``forget_uno``."""
    return not asks_play_drawn(strat) and not asks_forget_uno(strat)


def asks_challenge(strat: Strategy) -> bool:
    """Whether the engine must ask ``challenge`` (not when a trusted shortcut says it never challenges)."""
    return not _declares(strat, "never_challenges", "challenge")


def asks_catch_uno(strat: Strategy) -> bool:
    """Whether the engine must ask ``catch_uno`` (not when a trusted shortcut says it always catches)."""
    return not _declares(strat, "always_catches_uno", "catch_uno")


def always_catch_mask(strategies: list[Strategy]) -> int:
    """Bit k set when strategy k's ``catch_uno`` is answered yes without asking it (a trusted
    [`Strategy.always_catches_uno`][unosim.Strategy.always_catches_uno]), by the engine's decision
    call and the learning environments' compiled step alike."""
    return _mask(strategies, lambda strat: not asks_catch_uno(strat))


def no_challenge_mask(strategies: list[Strategy]) -> int:
    """Bit k set when strategy k is not asked whether to challenge (see `asks_challenge`)."""
    return _mask(strategies, lambda strat: not asks_challenge(strat))


def auto_drawn_mask(strategies: list[Strategy]) -> int:
    """Bit k set when strategy k's legal drawn cards are played without asking (see `plays_drawn_unasked`)."""
    return _mask(strategies, plays_drawn_unasked)
