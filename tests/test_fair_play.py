"""Fast paths never replace a user's code, and a strategy cannot cheat.

- A subclass of a shipped strategy that overrides one decision is asked that
  decision: its games differ from the parent's, and the compiled and Python
  paths still agree (the compiled transcription is keyed by the exact class,
  declared shortcuts are trusted only while the methods they summarise are
  the declaring class's; :mod:`unosim.engine.fast_paths`).
- Observations are read-only copies holding no reference to the engine's
  state; answers are checked against the engine's own copy of the legal moves.
- A strategy that raises stops the run with one paragraph naming the
  strategy, the decision, the game and seat, and its own traceback frames.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from unosim.engine.batch import Buffers
from unosim.engine.config import RunConfig
from unosim.engine.decisions import Rows
from unosim.engine.driver import Engine, StrategyError
from unosim.engine.fast_paths import DECISIONS, compiled_policy, declared_policy
from unosim.game.kernels import layout as L
from unosim.strategy import registry
from unosim.strategy.base import Strategy
from unosim.strategy.observation import FIELDS
from unosim.strategy.primitives import CARD_SCORE_POINTS, argmax_ties, sample_best

# ------------------------------------------------------------------ overrides
# One replacement per decision: legal, and different from what any built-in does.


def _lowest_points(self, obs):
    return sample_best(obs.hand, obs.legal, -CARD_SCORE_POINTS, obs.random())


def _never_play_drawn(self, obs):
    return np.zeros(len(obs), bool)


def _always_red(self, obs, cards):
    return np.zeros(len(obs), np.int64)


def _always_challenge(self, obs):
    return np.ones(len(obs), bool)


def _always_forget(self, obs):
    return np.ones(len(obs), bool)


def _never_catch(self, obs):
    return np.zeros(len(obs), bool)


def _point_at_most_cards(self, obs):
    others = obs.alive.copy()
    others[np.arange(len(obs)), obs.seat] = False
    return argmax_ties(obs.hand_sizes.astype(np.float64), obs.random(), others)


def _link_lowest_seats(self, obs):
    choices = obs.link_choices
    order = np.argsort(~choices, axis=1, kind="stable")  # allowed seats first, in seat order
    return order[:, :2]


def _never_jump_in(self, obs):
    return np.zeros(len(obs))


def _always_take(self, obs, options):
    return np.full(len(obs), -1)


def _swap_with_most_cards(self, obs):
    others = obs.alive.copy()
    others[np.arange(len(obs)), obs.seat] = False
    return argmax_ties(obs.hand_sizes.astype(np.float64), obs.random(), others)


OVERRIDES = {
    "play": _lowest_points,
    "play_drawn": _never_play_drawn,
    "choose_colour": _always_red,
    "challenge": _always_challenge,
    "forget_uno": _always_forget,
    "catch_uno": _never_catch,
    "point_at": _point_at_most_cards,
    "choose_link": _link_lowest_seats,
    "add_to_pile": _lowest_points,
    "jump_in": _never_jump_in,
    "stack": _always_take,
    "swap_with": _swap_with_most_cards,
}
HOUSE_DECISIONS = {"stack": ["stacking=mixed"], "swap_with": ["seven_zero=true"]}
"""The house-rule decisions (H-1, H-2) and the option that asks them."""
PARTY_DECISIONS = {"point_at", "choose_link", "add_to_pile", "jump_in"}


def test_every_decision_and_every_fast_path_class_is_covered() -> None:
    assert set(OVERRIDES) == set(DECISIONS)
    compiled = {registry.resolve(name).name for name in registry.REGISTRY if declared_policy(registry.resolve(name))}
    assert compiled == {"random", "greedy", "ranking", "wild-saver", "colour-keeper", "diversity", "attacker", "rules"}
    assert len(_fast_path_classes()) == 1 + len(compiled)


def test_the_engine_names_no_strategy() -> None:
    # fast paths are declared by the classes (Strategy.compiled); the engine's source names none of them
    import unosim.engine

    engine_dir = Path(unosim.engine.__file__).parent
    names = [registry.resolve(name).__name__ for name in registry.REGISTRY] + ["RuleStrategy", "unosim.strategies"]
    for path in engine_dir.glob("*.py"):
        text = path.read_text()
        assert not [n for n in names if n in text], f"{path.name} names a strategy: {[n for n in names if n in text]}"


@pytest.mark.parametrize("name", ["random", "greedy", "ranking"])
def test_a_renamed_class_keeps_and_a_subclass_loses_its_compiled_path(name: str) -> None:
    cls = registry.resolve(name)
    assert compiled_policy(cls()) != 0
    policy, names = compiled_policy(cls()), (cls.__name__, cls.__qualname__, cls.__module__)
    try:  # the same class under another name, in another module: the declaration travels with it
        cls.__name__ = cls.__qualname__ = "Renamed"
        cls.__module__ = "elsewhere"
        assert compiled_policy(cls()) == policy
    finally:
        cls.__name__, cls.__qualname__, cls.__module__ = names
    assert compiled_policy(type("Sub", (cls,), {})()) == 0  # inherits the declaration: asked through Python
    declared = type("SubDeclared", (cls,), {"compiled": cls.compiled})  # declares it itself: trusted
    assert compiled_policy(declared()) == compiled_policy(cls())


def test_an_unknown_transcription_is_refused() -> None:
    bad = type("Bad", (Strategy,), {"compiled": "minimax"})
    with pytest.raises(ValueError, match="declares compiled = 'minimax'; use one of"):
        compiled_policy(bad())


def _table(parent: type, decision: str) -> tuple[RunConfig, list[Strategy], list[Strategy]]:
    """A 4-player table of ``parent`` (and at seat 1 a forgetful ``random`` that never catches, for
    ``catch_uno``, which is asked only after a forgotten call), and the same table with ``parent`` replaced by a subclass
    overriding ``decision``."""
    sub = type(f"{parent.__name__}Overrides_{decision}", (parent,), {decision: OVERRIDES[decision]})
    rules = "party" if decision in PARTY_DECISIONS else "classic"
    overrides = ["speed_play=true"] if decision == "jump_in" else None
    if decision == "forget_uno":  # every call forgotten and caught: rounds run long, so stop them at 300 turns
        overrides = ["max_turns=300"]
    overrides = HOUSE_DECISIONS.get(decision, overrides)
    config = RunConfig.build(rules=rules, players=4, strategies="random", seed=5, overrides=overrides)
    forgetful = registry.make("random", {"forget_uno_rate": 1.0, "catch_uno_rate": 0.0})
    if decision == "catch_uno":
        return config, [parent(), forgetful], [sub(), forgetful]
    return config, [parent()], [sub()]


def _play(config: RunConfig, strategies: list[Strategy], *, compiled: bool, games: int = 200):
    engine = Engine(config, compiled=compiled)
    lineup = [0, 1, 0, 0] if len(strategies) == 2 else [0] * 4
    engine.set_strategies(strategies, [type(s).__name__ for s in strategies], lineup)
    return engine.play(0, games)


def _fast_path_classes() -> list[type]:
    """The base class (its declared shortcuts) and every shipped strategy with a compiled transcription."""
    return [Strategy] + [registry.resolve(name) for name in sorted(registry.REGISTRY)
                         if declared_policy(registry.resolve(name)) is not None]


@pytest.mark.parametrize("decision", DECISIONS)
@pytest.mark.parametrize("parent", _fast_path_classes(), ids=lambda c: c.__name__)
def test_an_overridden_decision_is_asked_and_changes_the_games(parent: type, decision: str) -> None:
    config, base, changed = _table(parent, decision)
    before = _play(config, base, compiled=True)
    after = _play(config, changed, compiled=True)
    assert not np.array_equal(before.rec, after.rec), f"overriding {decision} of {parent.__name__} changed nothing"
    assert compiled_policy(changed[0]) == 0  # a subclass is never played by its parent's transcription
    assert np.array_equal(after.rec, _play(config, changed, compiled=False).rec)


@pytest.mark.parametrize("decision", DECISIONS)
@pytest.mark.parametrize("parent", [Strategy, registry.resolve("random"), registry.resolve("greedy")], ids=lambda c: c.__name__)
def test_a_decision_set_on_an_instance_is_asked_as_a_subclass_s_is(parent: type, decision: str) -> None:
    """A decision method set on one object (not its class) is that object's decision: no compiled
    transcription or declared shortcut of its class stands in for it, so it plays the games of a
    subclass overriding the method."""
    config, _, changed = _table(parent, decision)
    instance = parent()
    setattr(instance, decision, types.MethodType(OVERRIDES[decision], instance))
    on_instance = [instance, *changed[1:]]
    assert compiled_policy(instance) == 0
    assert np.array_equal(_play(config, on_instance, compiled=True).rec, _play(config, changed, compiled=True).rec)


def test_a_subclass_that_never_jumps_in_makes_no_jump_in() -> None:
    parent = registry.resolve("random")
    config, base, changed = _table(parent, "jump_in")
    assert _play(config, base, compiled=True).rec[:, L.R_JUMP_INS].sum() > 0
    assert _play(config, changed, compiled=True).rec[:, L.R_JUMP_INS].sum() == 0


def test_a_subclass_overriding_nothing_plays_the_same_games_through_python() -> None:
    random_cls = registry.resolve("random")
    same = type("PlainSubclass", (random_cls,), {})
    config = RunConfig.build(rules="party", players=4, strategies="random", seed=3)
    engine = Engine(config)
    assert compiled_policy(engine.strategies[0]) != 0 and compiled_policy(same()) == 0
    assert np.array_equal(_play(config, [random_cls()], compiled=True).rec, _play(config, [same()], compiled=True).rec)


# ------------------------------------------------------------------ fair play
class Spy(Strategy):
    """Keeps every observation it is given, and a subset of each, without reading them; reads a
    complete copy of each during the call (what the observation showed at decision time)."""

    seen: list = []
    subsets: list = []
    at_decision: list = []

    def play(self, obs):
        Spy.seen.append(obs)
        Spy.subsets.append(obs.subset(np.arange(len(obs)) % 2 == 0))
        Spy.at_decision.append({name: getattr(obs.copy(), name).copy() for name in FIELDS})
        return super().play(obs)


def _spied_run():
    """30 steps of party games, 4 seats of :class:`Spy`, the strategies asked through Python."""
    Spy.seen, Spy.subsets, Spy.at_decision = [], [], []
    config = RunConfig.build(rules="party", players=4, strategies="random", seed=1)
    engine = Engine(config, compiled=False)
    engine.set_strategies([Spy()], ["spy"], [0, 0, 0, 0])
    run = engine.start(0, 50)
    for _ in range(30):
        run.step()
    return run


def test_observation_arrays_are_read_only_copies_with_no_path_to_the_engine() -> None:
    run = _spied_run()
    engine_arrays = [v for v in vars(run.buffers).values() if isinstance(v, np.ndarray)]
    hidden = (run.buffers.hands, run.buffers.piles, run.buffers.slot, run.buffers.keys)  # game keys give the deal
    for obs in (Spy.seen[-1], Spy.subsets[-1]):
        arrays = [getattr(obs, name) for name in FIELDS]
        assert len(arrays) == 10 and all(isinstance(a, np.ndarray) for a in arrays)
        for a in arrays:
            assert not a.flags.writeable
            assert a.base is None or not isinstance(a.base, np.ndarray) or a.base.base is None and a.base.size == a.size
            assert not any(np.shares_memory(a, e) for e in engine_arrays)
        reachable = gc.get_referents(obs) + gc.get_referents(obs._values) + gc.get_referents(obs._streams)
        assert not any(isinstance(v, np.ndarray) and np.shares_memory(v, run.buffers.keys) for v in reachable)
        assert not any(isinstance(v, (Buffers, Engine, Rows)) for v in reachable)
        assert not any(any(v is h for h in hidden) for v in reachable)
        with pytest.raises(ValueError, match="read-only"):
            obs.legal[:] = True


def test_a_kept_observation_shows_the_table_at_its_decision() -> None:
    """Fields read only after the engine has moved on still hold what the decision saw: the engine
    copies every field a strategy keeps (even unread, even of a subset) before its rows change."""
    _spied_run()
    assert len(Spy.seen) >= 20
    for obs, sub, expected in zip(Spy.seen, Spy.subsets, Spy.at_decision):
        half = np.arange(len(obs)) % 2 == 0
        for name in FIELDS:
            assert np.array_equal(getattr(obs, name), expected[name]), name
            assert np.array_equal(getattr(sub, name), expected[name][half]), name
    u = Spy.seen[-1].random()  # a kept observation still draws from its rows' streams
    assert u.shape == (len(Spy.seen[-1]),) and ((0 <= u) & (u < 1)).all()


class RewritesLegal(Strategy):
    """Makes its copy of ``legal`` writable, marks every held card legal, plays the first."""

    def play(self, obs):
        legal = obs.legal
        legal.flags.writeable = True
        legal[:] = obs.hand > 0
        return np.argmax(legal, axis=1)


class WritesLegal(Strategy):
    """Writes into ``obs.legal`` as it is."""

    def play(self, obs):
        obs.legal[:] = obs.hand > 0
        return np.argmax(obs.legal, axis=1)


def test_answers_are_checked_against_the_engines_own_legal_moves() -> None:
    config = RunConfig.build(rules="classic", players=3, strategies="random", seed=0)
    engine = Engine(config)
    engine.set_strategies([RewritesLegal()], ["rewrites-legal"], [0, 0, 0])
    with pytest.raises(StrategyError, match=r"'rewrites-legal' returned an illegal decision for 'play' in game \d+ .* may not be played"):
        engine.play(0, 200)
    engine.set_strategies([WritesLegal()], ["writes-legal"], [0, 0, 0])
    with pytest.raises(StrategyError, match=r"'writes-legal' raised ValueError in 'play'.*read-only"):
        engine.play(0, 200)


class Raises(Strategy):
    """Fails on game 7's first turn decision only (a bug in a user's code)."""

    def play(self, obs):
        return self._helper(obs)

    def _helper(self, obs):
        if (obs.game == 7).any():
            raise ZeroDivisionError("a bug in the user's code")
        return super().play(obs)


def test_a_strategy_that_raises_is_named_with_its_own_frames() -> None:
    config = RunConfig.build(rules="classic", players=3, strategies="random", seed=0)
    engine = Engine(config)
    engine.set_strategies([Raises()], ["mymodule:Raises"], [0, 0, 0])
    with pytest.raises(StrategyError) as info:
        engine.play(0, 50)
    message = str(info.value)
    assert message.startswith("strategy 'mymodule:Raises' raised ZeroDivisionError in 'play' in game 7 (seat ")
    assert "a bug in the user's code" in message
    assert "in _helper" in message and "in play" in message and "test_fair_play.py" in message
    assert "engine.py" not in message and "advance" not in message


def test_a_raising_strategy_in_a_worker_prints_one_paragraph_and_its_frames(tmp_path) -> None:
    """Through the command line and two loky workers: no joblib or engine frames."""
    tests = Path(__file__).resolve().parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tests), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run(
        [sys.executable, "-m", "unosim", "simulate", "--players", "3", "--games", "400", "--jobs", "2", "--chunk-size", "200",
         "--strategies", "bad_strategies:RaisesOnGame70", "--out", str(tmp_path / "out")],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    message = proc.stderr[proc.stderr.index("error: "):]  # after the progress bar's last frame
    assert message.startswith("error: strategy 'bad_strategies:RaisesOnGame70' raised KeyError in 'play' in game 70 (seat ")
    assert "bad_strategies.py" in message and "in _pick" in message
    for noise in ("joblib", "loky", "engine.py", "runner.py", "execution.py", "Traceback (most recent call last)"):
        assert noise not in proc.stderr
