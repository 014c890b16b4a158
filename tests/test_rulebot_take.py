"""Mini-pile take rules (``card = "take"`` in ``[[pile.rule]]``): dealt positions on both
interpreters, the public ``may_take`` field, and the narrated replay naming the rule."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from unosim.strategies.greedy import GreedyStrategy

from unosim.engine.config import RunConfig
from unosim.engine.position import Position, play_from
from unosim.engine.trace import replay
from unosim.strategy import RuleStrategy
from unosim.strategy.observation import Observation

PARTY = {"speed_play": False}  # no jump-ins (P-1): the script answers only the decisions below
TAKE_WHEN_SHORT = "[[pile.rule]]\ncard = 'take'\nhand_max = 2\n[[pile.rule]]\ncard = 'wilds'\n"
"""Take the mini pile when holding 2 cards or fewer (and taking is allowed); else add a wild, else the best card."""


@pytest.fixture
def taker(tmp_path: Path) -> RuleStrategy:
    bot = tmp_path / "taker.toml"
    bot.write_text(TAKE_WHEN_SHORT)
    return RuleStrategy(path=str(bot))


def _position() -> Position:
    """Seat 0 plays a Wild Pile Up; a green 4 starts the pile in front of seat 1 (the rule strategy),
    who holds a green 7 it could add and 2 cards in all."""
    return Position(hands=[["wild pile up", "blue 5"], ["green 7", "red 2"], ["green 5"]], top="red 3", draw=["green 4"])


@pytest.mark.parametrize("compiled", [True, False])
def test_take_rule_takes_the_pile_when_refusing_is_allowed(taker: RuleStrategy, compiled: bool) -> None:
    """pileup_may_refuse: seat 1 takes the pile although it could add; seat 2 then plays green 5 and wins."""
    after = play_from(_position(), rules="party", overrides={**PARTY, "pileup_may_refuse": True}, seats={1: taker},
                      compiled=compiled, script=[("play", "wild pile up"), ("play", "green 5")])
    assert after.hands[1] == {"green 4": 1, "green 7": 1, "red 2": 1}
    assert after.party["pileups"] == 1 and after.party["pileup_cards"] == 1 and after.winner == 2


@pytest.mark.parametrize("compiled", [True, False])
def test_take_rule_is_skipped_when_a_card_must_be_added(taker: RuleStrategy, compiled: bool) -> None:
    """Refusing not allowed (the default): the take rule is skipped, no wild is held, so the best card
    by points is added (green 7); seat 2 adds its green 5, empties its hand and wins."""
    after = play_from(_position(), rules="party", overrides=PARTY, seats={1: taker}, compiled=compiled,
                      script=[("play", "wild pile up"), ("add", "green 5")])
    assert after.hands[1] == {"red 2": 1}
    assert after.party["pileup_cards"] == 0 and after.winner == 2


class _Recorder(GreedyStrategy):
    """Greedy, keeping every mini-pile observation it is shown."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[Observation] = []

    def add_to_pile(self, obs: Observation) -> np.ndarray:
        self.seen.append(obs)
        return super().add_to_pile(obs)


@pytest.mark.parametrize("refuse", [False, True])
def test_may_take_is_public_table_info(refuse: bool) -> None:
    """``obs.may_take``: in the pileup phase, nothing may be added or the option allows refusing."""
    recorder = _Recorder()
    pos = Position(hands=[["wild pile up", "green 9"], ["green 7", "red 2"], ["red 5", "blue 1"]], top="red 3", draw=["green 4"])
    play_from(pos, rules="party", overrides={**PARTY, "pileup_may_refuse": refuse}, seats={1: recorder, 2: recorder},
              script=[("play", "wild pile up"), ("play", "green 9")])
    first, second = recorder.seen  # seat 1 could add (green 7), then seat 2 could not
    assert (first.phase, int(first.n_legal[0]), bool(first.may_take[0])) == ("pileup", 1, refuse)
    assert (int(second.n_legal[0]), bool(second.may_take[0])) == (0, True)


def test_replay_names_the_take_rule(tmp_path: Path) -> None:
    """The narrated replay gives the rule behind a mini-pile decision, and says "takes" (not "cannot add")
    when refusing is allowed."""
    bot = tmp_path / "taker.toml"
    bot.write_text("[[pile.rule]]\ncard = 'take'\nname = 'never add'\n")
    config = RunConfig.build(rules="party", players=2, seed=1, strategies=f"rules:{bot},random", games=40,
                             overrides=["pileup_may_refuse=true"])
    for game in range(40):
        lines = [line for line in replay(config, game).narrate() if "mini pile" in line and line.startswith("  seat 0")]
        if lines:
            break
    assert lines, "no mini pile reached seat 0 in 40 games"
    assert all(" takes the mini pile: " in line and line.endswith(" — rule 1 (never add).") for line in lines), lines
