"""Tracing any run: a slot pauses when the event log is nearly full, so compiled strategies that
play whole matches inside one kernel call no longer overflow it; play does not change."""

from __future__ import annotations

import numpy as np
import pytest
from referee import check_played_matches

from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine
from unosim.engine.fast_paths import compiled_policy


@pytest.mark.parametrize("batch_size", [3, 16])
def test_traced_party_matches_with_compiled_strategies_pass_the_referee(batch_size: int) -> None:
    config = RunConfig.build(rules="party", players=6, games=40, seed=11, match=True, strategies="random",
                             batch_size=batch_size)
    engine = Engine(config, trace=True, check=True)
    assert all(compiled_policy(s) for s in engine.strategies)
    run = engine.start(0, config.games)
    calls = 0
    while run.step():
        calls += 1
    played = run.finish()
    assert calls < 20  # compiled strategies: whole rounds are played inside one kernel call
    assert len(played.events) > 2 * run.ev.shape[0]  # more events than the log holds: slots paused
    assert check_played_matches(config.rules, 6, played) == len(played.rec)
    plain = Engine(config).play(0, config.games)
    assert np.array_equal(plain.rec, played.rec) and np.array_equal(plain.match_scores, played.match_scores)
