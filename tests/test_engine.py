"""Engine-level behaviour: reproducibility, batch independence, replay, strategy errors."""

from __future__ import annotations

import re

import numpy as np
import pytest

from unosim.api import simulate
from unosim.engine.batch import Buffers
from unosim.engine.config import RunConfig
from unosim.engine.driver import LOCKSTEP_ROW_BYTES, Engine, StrategyError, play_tables
from unosim.engine.trace import replay
from unosim.game.kernels import layout as L
from unosim.strategy.registry import REGISTRY, installed

KNOWN = ", ".join(sorted({*REGISTRY, *installed()}))
"""Every registered strategy name, as error messages list them."""

CONFIG = RunConfig.build(rules="classic", players=4, strategies="random,greedy,random,greedy", seed=1, games=3000)


def test_same_seed_same_records_any_batch_size() -> None:
    base = play_tables(CONFIG, 0, 3000)[0]
    for batch in (1, 7, 333, 4096):
        other = RunConfig.build(rules="classic", players=4, strategies="random,greedy,random,greedy", seed=1, games=3000, batch_size=batch)
        assert play_tables(other, 0, 3000)[0].equals(base), batch


def test_a_game_depends_only_on_its_index() -> None:
    whole = play_tables(CONFIG, 0, 3000)[0]
    part = play_tables(CONFIG, 1234, 10)[0]
    assert part.equals(whole.slice(1234, 10))


def test_two_runs_of_one_engine_share_no_state() -> None:
    """A run owns its batch state; stepping two runs of one engine in turn gives each
    exactly the games it gives alone (Python-path strategies, so both wait on decisions)."""
    config = RunConfig.build(rules="party", players=4, strategies="random(draw_rate=0.1),greedy,random,greedy", seed=4)
    engine = Engine(config, batch_size=16, compiled=False)
    alone = [Engine(config, batch_size=16, compiled=False).play(first, 40) for first in (0, 500)]
    runs = [engine.start(0, 40), engine.start(500, 40)]
    going = [True, True]
    while any(going):
        going = [run.step() if more else False for run, more in zip(runs, going, strict=True)]
    for run, expected in zip(runs, alone, strict=True):
        played = run.finish()
        assert np.array_equal(played.rec, expected.rec) and np.array_equal(played.opening, expected.opening)
    assert runs[0].buffers is not runs[1].buffers


def test_other_seed_other_games() -> None:
    a = play_tables(CONFIG, 0, 500)[0].column("turns").to_numpy()
    b = play_tables(CONFIG.replace(seed=2), 0, 500)[0].column("turns").to_numpy()
    assert not np.array_equal(a, b)


def test_common_random_numbers_same_deal_under_other_rules() -> None:
    """The deal of game g is the same under any rule set or line-up (paired comparisons)."""
    other = RunConfig.build(rules="classic-house", players=4, strategies="greedy", seed=1, games=100)
    a = play_tables(CONFIG, 0, 100)[0].to_pydict()
    b = play_tables(other, 0, 100)[0].to_pydict()
    assert a["opening_hand"] == b["opening_hand"]
    assert a["dealer"] == b["dealer"]


def test_replay_reproduces_the_record() -> None:
    rows = play_tables(CONFIG, 0, 300)[0].to_pylist()
    for g in (0, 17, 299):
        trace = replay(CONFIG, g)
        for key in ("winner", "turns", "cards_drawn", "cards_played", "hand_points", "opening_hand"):
            assert trace.record[key] == rows[g][key], (g, key)
        text = "\n".join(trace.narrate())
        assert "wins" in text or "truncated" in text


def test_records_are_consistent() -> None:
    df = simulate(rules="classic", players=4, games=2000, seed=3)
    assert (df["cards_played"] == df[[c for c in df.columns if c.startswith("played_")]].sum(axis=1)).all()
    won = ~df["truncated"]
    assert (df.loc[won, "winner_offset"].between(1, 4)).all()
    assert np.array_equal(((df["winner"] - df["dealer"]) % 4).replace(0, 4)[won], df.loc[won, "winner_offset"])
    points = np.stack(df["hand_points"].to_numpy())
    assert (points[np.arange(len(df))[won], df.loc[won, "winner"].astype(int)] == 0).all()
    assert (df["winner_points"] == points.sum(axis=1)).all()
    assert all(len(h) == 4 and all(len(s) == 7 for s in h) for h in df["opening_hand"].head(50))


@pytest.mark.parametrize(
    ("strategy", "decision", "what"),
    [
        ("bad_strategies:PlaysEverything", "play", "may not be played"),
        ("bad_strategies:WrongShape", "play", "shape"),
        ("bad_strategies:BadColour", "choose_colour", "not 0..3"),
    ],
)
def test_illegal_or_ill_shaped_decisions_stop_the_run(strategy: str, decision: str, what: str) -> None:
    config = RunConfig.build(rules="classic", players=3, strategies=strategy, seed=0, games=200)
    with pytest.raises(StrategyError) as info:
        Engine(config).play(0, 200)
    message = str(info.value)
    assert strategy in message and repr(decision) in message and what in message
    if strategy != "bad_strategies:WrongShape":
        assert "in game " in message


def test_unknown_strategy_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match="known strategies: " + re.escape(KNOWN)):
        RunConfig.build(strategies="nosuch")


def test_strategy_parameters_are_described() -> None:
    engine = Engine(RunConfig.build(players=2, strategies="random(draw_rate=0.25)", games=10))
    desc = engine.strategies[0].describe()
    assert desc["params"]["draw_rate"] == 0.25 and desc["class"].endswith(":RandomStrategy")


def test_conservation_check_fires_on_a_corrupted_state() -> None:
    engine = Engine(RunConfig.build(players=4, games=50), batch_size=8, check=True, compiled=False)
    run = engine.start(0, 50)
    run.step()
    run.buffers.hands[3, 1, 5] += 1  # a card from nowhere
    with pytest.raises(AssertionError, match="card conservation"):
        while run.step():
            pass


def test_truncation_is_recorded() -> None:
    df = simulate(rules="classic", players=4, games=200, seed=0, overrides=["max_turns=20"])
    assert df["truncated"].any() and (df.loc[df["truncated"], "turns"] == 20).all()
    assert df.loc[df["truncated"], "winner"].isna().all()
    assert (df["turns"] <= 20).all()


def test_event_log_turns_match_record() -> None:
    played = Engine(CONFIG, trace=True).play(0, 50)
    ev = played.events
    for g in range(50):
        turns = np.count_nonzero((ev[:, 0] == g) & (ev[:, 1] == L.EV_TURN))
        assert turns == played.rec[g, L.R_TURNS]


def test_a_users_deck_file_is_played(tmp_path) -> None:
    deck = tmp_path / "no_wd4.toml"
    deck.write_text(
        'name = "no_wd4"\n[per_colour]\n"0" = 1\n"1" = 2\n"2" = 2\n"3" = 2\n"4" = 2\n"5" = 2\n"6" = 2\n"7" = 2\n"8" = 2\n"9" = 2\n'
        "skip = 2\nreverse = 2\ndraw_two = 2\n[wild]\nwild = 8\n"
    )
    df = simulate(rules="classic", players=4, games=500, seed=1, deck=str(deck))
    assert df["played_wild_draw_four"].sum() == 0 and df["played_wild"].sum() > 0
    with pytest.raises(ValueError, match="unknown kind 'joker'"):
        bad = tmp_path / "bad.toml"
        bad.write_text("[wild]\njoker = 2\n")
        simulate(rules="classic", players=4, games=10, deck=str(bad))


def test_advance_takes_the_batch_in_named_records() -> None:
    """The kernel's arrays travel in the records of ``kernels.state``: ``advance`` takes the five
    records, ``cfg``, three scalars and the two arguments that select its compiled copy, and every
    array of the batch is in exactly one record."""
    import inspect

    from unosim.game.kernels import state
    from unosim.game.kernels.advance import advance

    assert list(inspect.signature(advance.py_func).parameters) == [
        "games", "seats", "rows", "records", "work", "cfg", "first", "rkey", "parity", "house", "programs"]
    fields = [f for record in (state.Games, state.Seats, state.Rows, state.Records, state.Work) for f in record._fields]
    assert len(fields) == len(set(fields)) == len(state._NDIM)


@pytest.mark.parametrize("overrides, strategies",
                         [(None, "random"), (None, "rules:attacker,random,random,random"), ({"stacking": "mixed"}, "random")],
                         ids=["official", "programs", "house"])
def test_the_engine_compiles_advance_once_for_the_records_it_builds(overrides, strategies) -> None:
    """``Engine`` compiles ``advance`` through ``compile_advance`` (no game played), for the types
    ``advance_types`` declares; playing then finds that copy: the records a run builds (also after its
    buffers grow, and with tracing) have exactly those types, and no other copy is compiled."""
    from unosim.game.encoding import copy_flags
    from unosim.game.kernels.advance import advance
    from unosim.game.kernels.state import advance_types

    config = RunConfig.build(rules="party", players=4, games=40, seed=2, overrides=overrides, match=True, strategies=strategies)
    engine = Engine(config, batch_size=4, trace=True)
    rules_or_house = overrides is not None or strategies.startswith("rules:")
    flags = (L.HOUSE_OFF if overrides is None else L.HOUSE_ON, L.PROGRAMS_ON if rules_or_house else L.PROGRAMS_OFF)
    assert (engine.house, engine.programs) == copy_flags(engine.rules_cfg, engine.cfg[L.C_POLICY0 : L.C_POLICY0 + 2]) == flags
    assert engine.kernel_copy == ("house" if overrides else "programs" if rules_or_house else "")
    expected = advance_types(engine.house, engine.programs)
    assert expected in advance.signatures
    before = set(advance.signatures)
    run = engine.start(0, 40)
    while run.step():
        pass
    assert run.rec.shape[0] > 2 * 40  # the round buffers grew: the records were built again
    assert set(advance.signatures) == before
    assert run.records.rec is run.rec and run.work.deck is run.deck


def test_house_and_programs_select_a_copy() -> None:
    from unosim.game.kernels.state import advance_types

    with pytest.raises(ValueError, match="HOUSE_OFF or layout.HOUSE_ON"):
        advance_types(0, None)
    with pytest.raises(ValueError, match="PROGRAMS_OFF or layout.PROGRAMS_ON"):
        advance_types(None, 0)


@pytest.mark.parametrize(("rules", "players", "overrides", "compiled"), [
    ("classic", 4, [], True), ("classic", 3, [], False), ("party", 6, [], True), ("party", 5, [], False),
    ("classic", 4, ["stacking=mixed", "seven_zero=true", "speed_play=true", "jump_in_cards=numbers_and_actions"], False),
    ("classic", 3, ["scoring=winner_takes", "target_score=200"], True),
])
def test_an_engine_plays_each_range_as_a_fresh_engine_would(rules: str, players: int, overrides: list[str],
                                                           compiled: bool) -> None:
    # play() hands its buffers to the next play(): nothing of one run may reach the next
    config = RunConfig.build(rules=rules, players=players, games=200, seed=11, overrides=overrides,
                             strategies=",".join((["random", "greedy"] * players)[:players]))
    reused = Engine(config, batch_size=32, compiled=compiled)
    for first, n in [(0, 70), (70, 32), (102, 40), (142, 5), (147, 53)]:
        again, fresh = reused.play(first, n), Engine(config, batch_size=32, compiled=compiled).play(first, n)
        assert np.array_equal(again.rec, fresh.rec) and np.array_equal(again.opening, fresh.opening)
        assert np.array_equal(again.points, fresh.points)
        if again.match_scores is not None:
            assert np.array_equal(again.match_scores, fresh.match_scores)


def test_a_line_up_deciding_in_python_steps_a_larger_batch_within_the_row_budget() -> None:
    """The lockstep path doubles the default batch while its row buffers stay within the budget; a batch
    size that is set, a compiled line-up and a line-up of many strategies keep theirs."""
    config = RunConfig.build(rules="classic", players=4, strategies="random", seed=0)
    assert Engine(config).batch_size == config.effective_batch_size == 4096
    assert Engine(config, compiled=False).batch_size == 8192
    assert Buffers.row_bytes(8192, 4, 1) <= LOCKSTEP_ROW_BYTES
    set_size = RunConfig.build(rules="classic", players=4, strategies="random", seed=0, batch_size=512)
    assert Engine(set_size, compiled=False).batch_size == 512
    many = RunConfig.build(rules="classic", players=4, strategies="random,greedy,ranking,attacker", seed=0)
    assert Buffers.row_bytes(8192, 4, 4) > LOCKSTEP_ROW_BYTES
    assert Engine(many, compiled=False).batch_size == 4096


def test_follow_up_rows_lists_each_follow_ups_rows_in_row_order() -> None:
    """The rows each follow-up asks, found in one pass, are those whose answer asks it (one row at a time,
    ``follow_ups``), in row order."""
    from unosim.game.cards import N_TYPES, WILD_DRAWN_TOGETHER
    from unosim.game.kernels import follow_ups as F

    rng = np.random.default_rng(5)
    n = 500
    cards = rng.integers(-1, N_TYPES, n)
    cards[rng.random(n) < 0.1] = WILD_DRAWN_TOGETHER
    sheds = cards >= 0
    info = np.zeros((n, L.N_INFO), np.int32)
    info[:, L.I_HSIZE] = rng.integers(1, 4, n)
    for phase in (L.PH_TURN, L.PH_DRAWN, L.PH_PILEUP):
        for n_linkable in (np.zeros(0, np.int64), rng.integers(0, 4, n)):
            out, counts = np.empty((len(F.FOLLOW_UP_ORDER), n), np.int64), np.empty(len(F.FOLLOW_UP_ORDER), np.int64)
            F.follow_up_rows(np.int64(phase), cards, sheds, info, n_linkable, out, counts)
            linkable = n_linkable if len(n_linkable) else np.zeros(n, np.int64)
            bits = [F.follow_ups(phase, cards[r], sheds[r], int(info[r, L.I_HSIZE]), linkable[r]) for r in range(n)]
            for step in F.FOLLOW_UP_ORDER:
                expected = [r for r in range(n) if bits[r] >> step & 1]
                assert out[step, : counts[step]].tolist() == expected, (phase, step)
            assert counts.sum() > 0
