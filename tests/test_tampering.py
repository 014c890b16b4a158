"""Strategies that attack the engine are stopped with an error naming them, or change nothing.

The attacks are in ``cheating_strategies.py``. In process, verification (on in check mode, in
``unosim check`` and in tournaments) stops every attack that changes the game; the conformance
suite's watch also reports the ones that only read. Isolated (``--isolate``), none reaches the
engine: the games are those of the honest strategy.
"""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import cheating_strategies as cheats
import numpy as np
import pytest
from unosim.strategies.random_strategy import RandomStrategy

import unosim
from unosim.engine.batch import Buffers
from unosim.engine.config import RunConfig
from unosim.engine.decisions import Decisions
from unosim.engine.driver import Engine, StrategyError, TamperingError
from unosim.runs.files import read_metadata
from unosim.strategy.base import Strategy

TESTS = Path(__file__).parent


def _engine(cheat: Strategy, *, verify: bool, rules: str = "classic", players: int = 2, isolate_spec: str | None = None) -> Engine:
    """The cheat at seat 1 (asked after the honest ``random`` at seat 0 in every step)."""
    spec = isolate_spec or "random"
    config = RunConfig.build(rules=rules, players=players, strategies=f"random,{spec}" + ",random" * (players - 2), seed=7)
    engine = Engine(config, compiled=False, verify=verify, isolate=isolate_spec is not None)
    if isolate_spec is None:
        lineup = [0, 1] + [0] * (players - 2)
        engine.set_strategies([RandomStrategy(), cheat], ["honest", "cheat"], lineup)
    return engine


def _honest_records(rules: str = "classic", players: int = 2, games: int = 40) -> np.ndarray:
    return _engine(Strategy(), verify=False, rules=rules, players=players).play(0, games).rec[:games]


@pytest.fixture(autouse=True)
def _restore_random_play():
    kept = RandomStrategy.play
    yield
    RandomStrategy.play = kept


_WRITE = r"strategy 'cheat' raised ValueError in 'play' in game \d+ \(seat 1\): .*read-only"
STOPPED = [
    ("MovesCardsThroughFrames", _WRITE),
    ("MovesCardsThroughGc", _WRITE),
    ("RewritesAnswers", _WRITE),
    ("ReplacesOpponent", r"strategy 'cheat' changed the strategies while deciding 'play'"),
    ("PatchesOpponentClass", r"strategy 'cheat' changed the strategies while deciding 'play'"),
    ("ChangesRules", r"strategy 'cheat' changed the rules while deciding 'play'"),
]


@pytest.mark.parametrize("check", [False, True], ids=["verify", "check"])
@pytest.mark.parametrize(("attack", "message"), STOPPED)
def test_attack_is_stopped_naming_the_strategy_and_the_decision(attack: str, message: str, check: bool) -> None:
    engine = _engine(getattr(cheats, attack)(), verify=True)
    if check:
        engine = Engine(engine.config, compiled=False, check=True)
        engine.set_strategies([RandomStrategy(), getattr(cheats, attack)()], ["honest", "cheat"], [0, 1])
    with pytest.raises(TamperingError, match=message):
        engine.play(0, 40)


class _UnlocksAndWrites(Strategy):
    """Makes the hands writable again and moves a card: found when the call returns."""

    def play(self, obs):
        b = cheats._from_frames(Buffers)
        b.hands.setflags(write=True)
        b.hands[:, 1] += 1
        return super().play(obs)


class _UnlocksWritesAndLocks(Strategy):
    """Makes the hands writable, moves a card and makes them read-only again: only checksums find it."""

    def play(self, obs):
        b = cheats._from_frames(Buffers)
        b.hands.setflags(write=True)
        b.hands[:, 1] += 1
        b.hands.setflags(write=False)
        return super().play(obs)


class _UnlocksRecords(Strategy):
    """Makes the run's records writable again (they stay read-only for the whole step)."""

    def play(self, obs):
        from unosim.engine.driver import Run

        cheats._from_frames(Run).rec.setflags(write=True)
        return super().play(obs)


@pytest.mark.parametrize(("cheat", "what"), [(_UnlocksAndWrites, "the hands"), (_UnlocksRecords, "the records")])
def test_making_the_state_writable_again_is_found(cheat: type, what: str) -> None:
    with pytest.raises(TamperingError, match=f"strategy 'cheat' made writable {what} while deciding 'play'"):
        _engine(cheat(), verify=True).play(0, 40)


def test_check_mode_checksums_find_a_write_hidden_behind_the_flags() -> None:
    engine = Engine(_engine(Strategy(), verify=False).config, compiled=False, check=True)
    engine.set_strategies([RandomStrategy(), _UnlocksWritesAndLocks()], ["honest", "cheat"], [0, 1])
    with pytest.raises(TamperingError, match="strategy 'cheat' changed the hands"):
        engine.play(0, 40)


@pytest.mark.parametrize(("attack", "message"), [s for s in STOPPED if s[1] == _WRITE])
def test_without_verification_a_write_is_stopped_too(attack: str, message: str) -> None:
    """In every mode the engine's arrays are read-only while a strategy is called."""
    with pytest.raises(TamperingError, match=message):
        _engine(getattr(cheats, attack)(), verify=False).play(0, 40)


def test_without_verification_making_the_state_writable_again_is_found() -> None:
    with pytest.raises(TamperingError, match="strategy 'cheat' made writable the hands while deciding 'play'"):
        _engine(_UnlocksAndWrites(), verify=False).play(0, 40)


def test_without_verification_a_write_hidden_behind_the_flags_changes_the_games() -> None:
    """The attacks are real: code written to defeat the read-only flags changes who wins unless the run
    is verified with checksums (so the checks above matter)."""
    honest = _honest_records()
    cheat = _engine(_UnlocksWritesAndLocks(), verify=False).play(0, 40).rec[:40]
    assert not np.array_equal(honest, cheat)


def test_changing_the_rules_shown_changes_no_game_even_unverified() -> None:
    assert np.array_equal(_honest_records(), _engine(cheats.ChangesRules(), verify=False).play(0, 40).rec[:40])


def test_the_observation_leads_nowhere_into_the_engine() -> None:
    """Everything reachable from a kept observation (depth-first over gc referents) is a copy."""
    cheats.KeepsObservation.kept.clear()
    _engine(cheats.KeepsObservation(), verify=False, rules="party", players=4).play(0, 20)
    assert cheats.KeepsObservation.kept
    engine_types = (Buffers, Decisions, Engine)
    seen: set[int] = set()
    stack: list[object] = list(cheats.KeepsObservation.kept[:50])
    while stack:
        o = stack.pop()
        if id(o) in seen or isinstance(o, type):
            continue
        seen.add(id(o))
        assert not isinstance(o, engine_types), f"an observation reaches {type(o).__name__}"
        if isinstance(o, np.ndarray):
            assert o.base is None or not isinstance(o.base, np.ndarray) or o.base.flags.owndata, "a view of engine memory"
            continue
        stack.extend(r for r in gc.get_referents(o) if not isinstance(r, (str, bytes, int, float)))
    cheats.KeepsObservation.kept.clear()


@pytest.mark.parametrize("attack", ["ReadsHandsThroughFrames", "ReadsDrawPileThroughGc", "MovesCardsThroughFrames"])
def test_unosim_check_reports_reaching_beyond_the_observation(attack: str) -> None:
    report = unosim.check(f"cheating_strategies:{attack}", games=4)
    assert not report.ok
    failure = report.failures[0]
    assert failure.check == "fair play"
    assert "reached beyond its observation" in failure.message and "cheating_strategies.py" in failure.message


def test_unosim_check_passes_an_honest_strategy_on_fair_play() -> None:
    report = unosim.check("greedy", games=4)
    assert report.ok and report.passed["fair play"] == report.tables


def test_a_tournament_stops_a_cheat() -> None:
    with pytest.raises(TamperingError, match="strategy 'cheating_strategies:MovesCardsThroughGc'"):
        unosim.tournament("classic", 2, ["cheating_strategies:MovesCardsThroughGc", "random"], games=64, seed=1)


@pytest.mark.parametrize("attack", [name for name, _ in STOPPED] + ["ReadsHandsThroughFrames", "ReadsDrawPileThroughGc"])
def test_isolated_attacks_reach_nothing_and_change_no_game(attack: str) -> None:
    """Isolated, the cheat's process holds no engine: every game is the honest base strategy's."""
    games = 30
    honest = _honest_records(games=games)
    engine = _engine(Strategy(), verify=True, isolate_spec=f"cheating_strategies:{attack}")
    assert np.array_equal(engine.play(0, games).rec[:games], honest)


def test_isolated_strategy_plays_the_games_it_plays_in_process() -> None:
    spec = "cheating_strategies:KeepsObservation"
    config = RunConfig.build(rules="party", players=4, strategies=f"{spec},random,greedy,{spec}", seed=3)
    inside = Engine(config, compiled=False).play(0, 60)
    outside = Engine(config, compiled=False, isolate=True).play(0, 60)
    assert np.array_equal(inside.rec[:60], outside.rec[:60])


def test_cli_isolate_simulates_the_same_dataset_and_says_so(tmp_path: Path) -> None:
    def run(out: Path, *extra: str) -> None:
        subprocess.run(
            [sys.executable, "-m", "unosim", "simulate", "--games", "200", "--players", "3", "--seed", "5", "--quiet",
             "--strategies", "cheating_strategies:MovesCardsThroughGc,random,greedy", "--out", str(out), *extra],
            check=True, cwd=TESTS, capture_output=True, text=True,
        )  # fmt: skip

    run(tmp_path / "a", "--isolate")
    meta = read_metadata(tmp_path / "a")
    assert meta["execution"]["isolated"] == ["cheating_strategies:MovesCardsThroughGc"]
    honest = unosim.simulate(games=200, players=3, seed=5, strategies="unosim.strategy.base:Strategy,random,greedy")
    isolated = unosim.load(tmp_path / "a")
    assert isolated["winner"].tolist() == honest["winner"].tolist()


def test_isolated_tournament_ranks_as_in_process_and_its_report_says_so() -> None:
    from unosim.reports.tournament import basis_markdown

    spec = "cheating_strategies:KeepsObservation"
    inside = unosim.tournament("classic", 2, [spec, "random"], games=80, seed=2, bootstrap=20)
    outside = unosim.tournament("classic", 2, [spec, "random"], games=80, seed=2, bootstrap=20, isolate=True)
    assert outside.isolated == (spec,) and inside.isolated == () and inside.user_code == (spec,)
    assert outside.leaderboard["win_rate"].tolist() == inside.leaderboard["win_rate"].tolist()
    assert "isolated in a process of its own" in basis_markdown(outside)
    assert "verified after every step (not isolated)" in basis_markdown(inside)


def test_isolated_tune_field_gives_the_same_tuning() -> None:
    tiny = {"rules": "classic", "players": 2, "against": "cheating_strategies:KeepsObservation", "popsize": 4,
            "games_per_candidate": 100, "evaluation_games": 200, "seed": 3, "budget": 2 * 4 * 100}  # fmt: skip
    assert unosim.tune(**tiny, isolate=True).params == unosim.tune(**tiny).params


def test_a_bad_isolated_strategy_is_refused_before_any_game(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="has no parameter 'nope'"):
        unosim.simulate(games=10, players=2, strategies="cheating_strategies:KeepsObservation(nope=1),random", isolate=True)


def _engine_locals(function: str = "_ask_all") -> dict:
    """The locals of the engine's frame running ``function`` (``_ask_all``: the one that asks a step's
    groups, its working answers among them)."""
    frame = sys._getframe(1)
    while frame.f_code.co_name != function:
        frame = frame.f_back
    return frame.f_locals


class _RewritesItsCheckedCard(Strategy):
    """Once its card is checked, rewrites it (from the colour question) to a card type it does not hold."""

    def choose_colour(self, obs, cards):
        asking = _engine_locals("_follow_ups")  # the group's working answers, the rows asked their colour
        asking["dec"][asking["rows"], 0] = np.argmin(obs.hand, axis=1)
        return super().choose_colour(obs, cards)


class _UnlocksOtherAnswers(Strategy):
    """Makes the checked answers of the groups asked before it writable and turns their cards into draws."""

    def play(self, obs):
        for _, _, dec, _ in _engine_locals()["answers"]:
            dec.setflags(write=True)
            dec[:, 0] = -1
        return super().play(obs)


@pytest.mark.parametrize("verify", [False, True], ids=["plain", "verify"])
def test_a_checked_answer_cannot_be_rewritten_by_the_follow_up_question(verify: bool) -> None:
    """The working copy of a group's answers is read-only while the group's strategy is asked its
    follow-ups: a card written into it after the check would be played unchecked."""
    with pytest.raises(TamperingError, match=r"strategy 'cheat' raised ValueError in 'choose_colour'.*read-only"):
        _engine(_RewritesItsCheckedCard(), verify=verify).play(0, 40)


@pytest.mark.parametrize("verify", [False, True], ids=["plain", "verify"])
def test_making_other_answers_writable_again_is_found(verify: bool) -> None:
    with pytest.raises(TamperingError, match="strategy 'cheat' made writable other answers while deciding 'play'"):
        _engine(_UnlocksOtherAnswers(), verify=verify).play(0, 40)


class _PointsItsStreamsPastTheirCounters(Strategy):
    """Points its observation's random streams one row past the counters they draw from, then draws:
    the compiled draw would write outside the counters' memory."""

    def play(self, obs):
        at = obs._streams._at
        at.setflags(write=True)
        at[:] = obs._streams._counters.shape[0]
        obs.random()
        return super().play(obs)


@pytest.mark.parametrize("verify", [False, True], ids=["plain", "verify"])
def test_a_stream_pointed_outside_its_counters_is_refused(verify: bool) -> None:
    with pytest.raises(StrategyError, match=r"strategy 'cheat' raised IndexError in 'play'.*outside"):
        _engine(_PointsItsStreamsPastTheirCounters(), verify=verify).play(0, 4)
