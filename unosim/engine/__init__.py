"""The engine: plays a run's games in lockstep batches and turns them into records.

`unosim.engine.driver` holds [`Engine`][unosim.engine.Engine] — it compiles the line-up, steps the kernels
of `unosim.game.kernels` and asks the seats' strategies for their decisions
(`unosim.engine.decisions`, `unosim.engine.fast_paths` for the strategies that play
inside the kernels, rule files among them through `unosim.strategy.rule_programs`). A run's configuration is
[`RunConfig`][unosim.engine.RunConfig] (`unosim.engine.config`); the batch state is
`unosim.engine.batch`; `unosim.engine.records` turns finished games into Arrow
tables; `unosim.engine.trace` and `unosim.engine.position` replay a game and play on
from a set position; `unosim.engine.kernel_cache` compiles the kernels once per machine;
`unosim.engine.conformance` checks a user's strategy against the API's contract;
`unosim.engine.isolation` plays a user's strategy from a process of its own, which
`unosim.engine.sandbox` starts and ends.

May import: [`unosim.game`][unosim.game] and [`unosim.strategy`][unosim.strategy] — never runs, analysis or reports.
"""

from .config import RunConfig
from .conformance import check
from .decisions import StrategyError
from .driver import Engine, compile_kernels, play_tables

__all__ = ["Engine", "RunConfig", "StrategyError", "check", "compile_kernels", "play_tables"]

# The modules of this package that other packages may import beside the face (__all__), and the
# names each lends them; () lends the module only, imported whole as a namespace.
# tests/test_architecture.py refuses any other import from outside the package.
PUBLIC_MODULES: dict[str, tuple[str, ...]] = {
    "unosim.engine.config": ("MAX_GAMES", "whole_number"),
    "unosim.engine.driver": (),
    "unosim.engine.fast_paths": ("always_catch_mask", "compiled_policy"),
    "unosim.engine.isolation": (),
    "unosim.engine.kernel_cache": (),
    "unosim.engine.records": ("opening_hand_bytes", "opening_hand_lists", "records_table"),
    "unosim.engine.sandbox": (),
    "unosim.engine.trace": ("GameTrace", "replay"),
}
