"""Strategies written as priority-rule files (TOML), without Python: ``--strategies rules:PATH``.

:mod:`~unosim.rulebot.program` reads and checks a file (format: ``docs/rule_bots.md``);
:mod:`~unosim.rulebot.strategy` plays it (:class:`RuleStrategy`).
"""

from .program import RuleFileError, RuleProgram, load_program, parse_program, shipped_rule_files
from .strategy import RuleStrategy

__all__ = ["RuleFileError", "RuleProgram", "RuleStrategy", "load_program", "parse_program", "shipped_rule_files"]
