"""Rule programs as int32 words for the compiled interpreter: :func:`encode_program`, which lives in
:mod:`unosim.strategy.rule_programs` (the search strategy's playouts encode programs too)."""

from __future__ import annotations

from ..strategy.rule_programs import encode_program

__all__ = ["encode_program"]
