"""Declared shortcuts (:mod:`unosim.engine.fast_paths`) skip a question, never change a game.

A strategy declaring ``never_challenges``, ``plays_legal_drawn_card`` or
``never_forgets_uno`` is not asked that question; the engine answers it as the
method would. Each test plays the same games with the declaration switched
off in a subclass (so the question is asked through Python) and compares
records, and counts the questions asked. Rule W-2 (challenges) and T-3 (a
drawn card may be played at once) are the decisions concerned; with
``forced_draw_uniforms``, a turn with nothing playable (T-1, W-2), whose only
answer is to draw (T-3).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from unosim.engine.config import RunConfig
from unosim.engine.decisions import Decisions
from unosim.engine.driver import Engine
from unosim.engine.fast_paths import always_catch_mask, asks_challenge, asks_play_drawn, forced_draw_uniforms, no_challenge_mask
from unosim.game.kernels import layout as L
from unosim.strategy import registry
from unosim.strategy.base import Strategy

RANDOM = registry.resolve("random")
GREEDY = registry.resolve("greedy")
ASK = Decisions._ask


def _asked(parent: type, shortcut: str) -> type:
    """A subclass of ``parent`` that switches ``shortcut`` off (false, or ``None`` for
    ``forced_draw_uniforms``) and overrides no decision."""
    off = None if shortcut == "forced_draw_uniforms" else False
    return type(f"Asked_{shortcut}", (parent,), {shortcut: property(lambda self: off)})


def _play(strategy: Strategy, monkeypatch: pytest.MonkeyPatch, games: int = 300) -> tuple[np.ndarray, Counter]:
    """Records of ``games`` classic 4-player games of ``strategy`` at every seat, asked through
    Python, and how often each decision method was called (``"nothing to play"``: the turn rows
    asked that had no legal card and no bluff)."""
    asked: Counter = Counter()

    def counting(self, k, decision, rows, *args):
        asked[decision] += 1
        if decision == "play":
            asked["nothing to play"] += int(np.count_nonzero((rows.n_legal == 0) & ~rows.bluffable))
        return ASK(self, k, decision, rows, *args)

    monkeypatch.setattr(Decisions, "_ask", counting)
    config = RunConfig.build(rules="classic", players=4, strategies="random", seed=17)
    engine = Engine(config, compiled=False, batch_size=64)
    engine.set_strategies([strategy], ["s"], [0, 0, 0, 0])
    return engine.play(0, games).rec, asked


@pytest.mark.parametrize("parent", [Strategy, RANDOM], ids=lambda c: c.__name__)
@pytest.mark.parametrize("shortcut, decision", [("never_challenges", "challenge"), ("plays_legal_drawn_card", "play_drawn"),
                                                ("never_forgets_uno", "forget_uno")])
def test_a_declared_shortcut_plays_the_games_of_asking(parent: type, shortcut: str, decision: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    fast, asked_fast = _play(parent(), monkeypatch)
    slow, asked_slow = _play(_asked(parent, shortcut)(), monkeypatch)
    assert np.array_equal(fast, slow)
    assert asked_fast[decision] == 0 < asked_slow[decision]


def test_W2_no_challenge_rows_for_a_declared_strategy() -> None:
    """W-2: a Wild Draw Four played against a strategy that declares ``never_challenges`` is
    drawn without a challenge row; with the declaration off, every one is a challenge row."""
    config = RunConfig.build(rules="classic", players=4, strategies="random", seed=2)
    rows = {}
    for label, strategy in (("declared", RANDOM()), ("asked", _asked(RANDOM, "never_challenges")())):
        engine = Engine(config, compiled=False, batch_size=32)
        engine.set_strategies([strategy], ["s"], [0, 0, 0, 0])
        run, n = engine.start(0, 100), 0
        while run.advance():
            n += int(run.buffers.group_count[L.PH_CHALLENGE])
            run.decide()
        rows[label] = (n, int(run.finish().rec[:, L.R_CHALLENGES].sum()))
    assert rows["declared"][0] == 0 and rows["asked"][0] > 0
    assert rows["declared"][1] == rows["asked"][1] == 0  # nobody challenged either way


def test_a_shortcut_holds_only_for_the_parameters_and_methods_it_summarises() -> None:
    assert not asks_challenge(RANDOM()) and asks_challenge(RANDOM(challenge_rate=0.5))
    assert not asks_play_drawn(RANDOM()) and asks_play_drawn(RANDOM(keep_rate=0.1))
    overriding = type("Challenger", (RANDOM,), {"challenge": lambda self, obs: np.ones(len(obs), bool)})
    assert asks_challenge(overriding())
    assert no_challenge_mask([RANDOM(), overriding(), Strategy()]) == 0b101


ERRATIC = {"draw_rate": 0.2, "keep_rate": 0.3, "bluff_rate": 0.3, "challenge_rate": 0.5, "forget_uno_rate": 0.3}


@pytest.mark.parametrize("make", [Strategy, RANDOM, GREEDY, lambda: RANDOM(**ERRATIC)], ids=["base", "random", "greedy", "erratic"])
def test_T1_a_turn_with_nothing_to_play_is_drawn_unasked(make, monkeypatch: pytest.MonkeyPatch) -> None:
    """T-1, W-2, T-3: with ``forced_draw_uniforms`` declared, no turn row with nothing playable (no
    legal card, no bluff) reaches ``play``; the games are those of asking it (the erratic ``random``
    draws three uniforms there, the others one)."""
    strategy = make()
    fast, asked_fast = _play(strategy, monkeypatch)
    slow, asked_slow = _play(_asked(type(strategy), "forced_draw_uniforms")(**strategy.get_params()), monkeypatch)
    assert np.array_equal(fast, slow)
    assert asked_fast["nothing to play"] == 0 < asked_slow["nothing to play"]
    assert 0 < asked_fast["play"] < asked_slow["play"]


def test_the_declared_count_of_uniforms_is_what_keeps_the_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine advances the row's random stream by the declared number: a strategy declaring
    0 while its ``play`` draws 1 plays other games than the honest declaration."""
    wrong = type("Wrong", (Strategy,), {"forced_draw_uniforms": property(lambda self: 0)})
    honest, _ = _play(Strategy(), monkeypatch)
    dishonest, _ = _play(wrong(), monkeypatch)
    assert not np.array_equal(honest, dishonest)


def test_forced_draw_declaration_is_trusted_only_with_its_play_and_checked() -> None:
    assert forced_draw_uniforms(Strategy()) == forced_draw_uniforms(GREEDY()) == forced_draw_uniforms(RANDOM()) == 1
    assert forced_draw_uniforms(RANDOM(draw_rate=0.1)) == 2 and forced_draw_uniforms(RANDOM(**ERRATIC)) == 3
    overriding = type("Player", (GREEDY,), {"play": lambda self, obs: np.full(len(obs), -1)})
    assert forced_draw_uniforms(overriding()) is None
    bad = type("Bad", (Strategy,), {"forced_draw_uniforms": property(lambda self: -1)})
    config = RunConfig.build(rules="classic", players=4, strategies="random", seed=1)
    engine = Engine(config, compiled=False, batch_size=8)
    with pytest.raises(ValueError, match=r"strategy 'Bad': forced_draw_uniforms = -1 is not allowed"):
        engine.set_strategies([bad()], ["bad"], [0, 0, 0, 0])
    for value in (True, 1.5):
        odd = type("Odd", (Strategy,), {"forced_draw_uniforms": property(lambda self, v=value: v)})
        with pytest.raises(ValueError, match=rf"strategy 'Odd': forced_draw_uniforms = {value!r} is not allowed"):
            forced_draw_uniforms(odd())
    assert forced_draw_uniforms(type("Numpy", (Strategy,), {"forced_draw_uniforms": property(lambda self: np.int64(2))})()) == 2


def test_U1_always_catches_uno_is_trusted_only_with_the_declaring_catch_uno() -> None:
    """U-1: ``always_catches_uno`` (catch at rate 1) holds for the class whose ``catch_uno`` it
    summarises; a lower rate, or a subclass overriding ``catch_uno``, is asked."""
    picky = type("Picky", (RANDOM,), {"catch_uno": lambda self, obs: np.zeros(len(obs), bool)})
    assert always_catch_mask([RANDOM(), picky(), RANDOM(catch_uno_rate=0.5), GREEDY()]) == 0b1001
