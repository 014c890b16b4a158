"""Strategy tuning: the tunable strategy, `unosim tune` / `unosim.tune`, `tuned:PATH`."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner
from unosim.strategies import tunable

import unosim
from unosim.analysis.tuning import make_settings
from unosim.cli import app
from unosim.game.cards import KIND_NAMES
from unosim.strategy import registry

TINY = {"rules": "classic", "players": 2, "against": "random", "popsize": 4, "games_per_candidate": 200,
        "evaluation_games": 400, "seed": 3}
"""A tiny tuning run: 4 candidates × 200 games per generation."""

BAD_START = {"colour_slack": 4.0, "colour_weight": -3.0, "calm_wild": 5.0, "calm_wild_draw_four": 5.0, "wild_keep": 15.0,
             "calm_number": -5.0, "next_number": 5.0}
"""A deliberately bad player: names the colour it holds least-or-not, plays away from its colours, spends wilds first."""


def test_parameter_vector_round_trip():
    params = tunable.to_params(np.full(len(tunable.NAMES), 0.5))
    assert tunable.to_vector(params) == pytest.approx(np.full(len(tunable.NAMES), 0.5))
    assert tunable.to_params(tunable.to_vector(tunable.DEFAULTS)) == tunable.DEFAULTS
    assert tunable.to_params(np.full(len(tunable.NAMES), 7.0))["threat"] == 5.0  # clipped to the range
    classic2 = tunable.relevant(unosim.RuleSet.preset("classic").replace(wd4_challenge=False), 2)
    assert "calm_wild" in classic2 and "near_wild" not in classic2 and "suspicion" not in classic2
    assert "point_size" not in classic2 and "jump_rate" not in classic2
    party6 = tunable.relevant(unosim.RuleSet.preset("party"), 6)  # all but the 2-player memory and the search
    assert party6 == [p.name for p in tunable.PARAMETERS if p.needs not in ("two_players", "lookahead")]
    assert set(tunable.relevant(unosim.RuleSet.preset("party"), 2)) - set(party6) >= {"lack_colour", "block_number"}


def test_the_parameter_table_and_the_constructor_agree():
    # PARAMETERS and TunableStrategy.__init__ declare the same parameters with the same defaults
    import inspect

    signature = inspect.signature(tunable.TunableStrategy.__init__).parameters
    own = [name for name in signature if name not in ("self", "forget_uno_rate", "catch_uno_rate")]
    assert sorted(own) == sorted(tunable.NAMES) and len(own) == len(tunable.NAMES)
    assert {name: signature[name].default for name in own} == tunable.DEFAULTS
    built = tunable.TunableStrategy()
    assert all(getattr(built, name) == default for name, default in tunable.DEFAULTS.items())


def test_tunable_rejects_out_of_range():
    with pytest.raises(ValueError, match="threat=9 is not allowed"):
        registry.make("tunable", {"threat": 9})


def test_tune_reproducible_and_resumable(tmp_path):
    budget = 3 * 4 * 200
    first = unosim.tune(budget=budget, **TINY)
    assert first.generations == 3 and first.games == budget
    assert first.params != first.start
    # the same seed again, interrupted after one generation and then continued: the same result
    out = tmp_path / "run"
    part = unosim.tune(budget=budget, out=out, max_generations=1, **TINY)
    assert part.generations == 1 and not part.evaluation and (out / "state.json").is_file()
    resumed = unosim.tune(budget=budget, out=out, **TINY)
    assert resumed.params == first.params
    assert resumed.history.equals(first.history)
    assert resumed.evaluation == first.evaluation
    # two worker processes play the same games: the same search and evaluation
    parallel = unosim.tune(budget=budget, jobs=2, **TINY)
    assert parallel.params == first.params and parallel.history.equals(first.history)
    assert parallel.evaluation == first.evaluation
    for name in ("tuned.json", "summary.md", "history.csv", "progress.png", "progress.svg"):
        assert (out / name).is_file()
    saved = json.loads((out / "tuned.json").read_text())
    assert saved["params"] == first.params and saved["evaluation"]["games"] == 400
    # the held-out deals are not the search's
    assert saved["evaluation"]["seed"] != make_settings(budget=budget, **TINY).search_seed
    # a run of other settings in the same directory is refused
    with pytest.raises(ValueError, match="other settings"):
        unosim.tune(budget=budget, out=out, **{**TINY, "seed": 4})
    # tuned:PATH plays, and labels the seat with the path
    df = unosim.simulate(rules="classic", players=2, games=50, strategies=f"tuned:{out / 'tuned.json'},random", seed=1)
    assert len(df) == 50
    strategy = registry.make(f"tuned:{out / 'tuned.json'}")
    assert strategy.get_params() == {**first.params, "forget_uno_rate": 0.0, "catch_uno_rate": 1.0}


def test_tune_improves_on_a_bad_start():
    """From a deliberately bad player, 6 generations of 6 candidates (10,800 games) find a better one:
    the paired held-out improvement (4,000 fresh games) is above 0 with 95 % confidence (seed 1)."""
    result = unosim.tune(rules="classic", players=2, against="random", budget=6 * 6 * 300, popsize=6,
                         games_per_candidate=300, evaluation_games=4000, start=BAD_START, seed=1)
    ev = result.evaluation
    assert ev["improvement_low"] > 0, ev
    assert ev["win_rate"] > ev["start_win_rate"]


def test_shipped_tuned_strategies_resolve():
    for name in ("tuned-classic-2", "tuned-party-6"):
        assert name in registry.REGISTRY
        strategy = registry.make(name)
        assert isinstance(strategy, tunable.TunableStrategy) and strategy.label == name
        data = tunable.load_tuned(registry.TUNED_DIR / f"{name.removeprefix('tuned-')}.json")
        assert {k: strategy.get_params()[k] for k in data["params"]} == data["params"]
    # the conformance suite runs over every registered name, tunable and tuned-* included
    # (tests/test_strategy_conformance.py)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--budget", "0"], "budget = 0"),
        (["--budget", "100"], "less than one generation"),
        (["--against", "nosuch"], "unknown strategy 'nosuch'"),
        (["--players", "17"], "17"),
        (["--popsize", "1"], "popsize = 1"),
        (["--set", "nosuch=1"], "nosuch"),
        (["--start", "missing.json"], "does not exist"),
        (["--jobs", "0"], "jobs = 0"),
        (["--sigma", "0"], "sigma = 0"),
    ],
)
def test_cli_refuses_bad_input(tmp_path, args, message):
    result = CliRunner().invoke(app, ["tune", "--out", str(tmp_path / "t"), *args])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert not (tmp_path / "t").exists()


def test_tuned_path_errors(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "unosim-tuned-strategy", "params": {"nosuch": 1.0}}))
    with pytest.raises(ValueError, match="unknown parameter 'nosuch'"):
        unosim.simulate(players=2, games=2, strategies=f"tuned:{bad}")
    with pytest.raises(ValueError, match="does not exist"):
        unosim.simulate(players=2, games=2, strategies=f"tuned:{tmp_path / 'none.json'}")


def test_cli_tune_writes_a_playable_strategy(tmp_path):
    out = tmp_path / "t"
    args = ["tune", "--players", "2", "--set", "wd4_challenge=false", "--budget", "800", "--popsize", "4",
            "--games-per-candidate", "200", "--evaluation-games", "200", "--seed", "5", "--out", str(out), "--quiet"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "held-out win rate" in result.output and f"tuned:{out / 'tuned.json'}" in " ".join(result.output.split())
    saved = json.loads((out / "tuned.json").read_text())
    assert saved["tuned"]["generations"] == 1 and saved["tuned"]["rules"]["wd4_challenge"] is False
    summary = (out / "summary.md").read_text()
    assert "wd4_challenge=False" in summary
    assert "## What this report rests on" in summary and "`classic` with `wd4_challenge=false`" in summary
    assert "players: 2" in summary and "seed: 5" in summary and "unosim version" in summary
    assert "allows only 1 generation of 4 candidates" in " ".join(result.output.split())
    again = CliRunner().invoke(app, args)  # a finished run: nothing left to search, same file
    assert again.exit_code == 0 and json.loads((out / "tuned.json").read_text()) == saved


def test_search_names_the_parameters_searched():
    """--only: only the named parameters move from the start (here the search at decision time's, which
    relevant() never searches); a bad name is refused before any game, as is --only with a rule file."""
    start = {"look_rollouts": 2.0, "look_depth": 4.0, "block_posterior": 1.0}
    result = unosim.tune(budget=2 * 4 * 100, search="look_action,look_colour_share", start=start,
                         **{**TINY, "games_per_candidate": 100, "evaluation_games": 100})
    moved = {k for k, v in result.params.items() if v != result.start[k]}
    assert moved and moved <= {"look_action", "look_colour_share"}
    assert result.start["look_rollouts"] == result.params["look_rollouts"] == 2.0
    with pytest.raises(ValueError, match="unknown parameter 'look_nothing'"):
        make_settings(search="look_action,look_nothing", **TINY)
    with pytest.raises(ValueError, match="tunable strategy only"):
        make_settings(search="threat", strategy="rules:holder", **TINY)


def test_uncovered_matches_diversity():
    """`coverage` counts what diversity's score counts: the colours and faces a card is the last held of."""
    from unosim.strategies.diversity import coverage_score
    from unosim.strategies.scoring import POINTS

    from unosim.game.cards import CARD_COLOUR, CARD_FACE, FACES_PER_COLOUR, N_COLOURED, N_COLOURS

    colour, face = CARD_COLOUR.astype(np.int64), CARD_FACE.astype(np.int64)
    rng = np.random.default_rng(7)
    hands = np.zeros((300, len(CARD_COLOUR)), np.int64)
    for hand in hands:
        np.add.at(hand, rng.integers(0, len(CARD_COLOUR), rng.integers(1, 12)), 1)
    lost = tunable.uncovered(hands)
    assert lost.max() == 2 and (lost[:, N_COLOURED:] == 0).all()
    for hand, row in zip(hands, lost, strict=True):
        per_colour = np.bincount(colour[:N_COLOURED], hand[:N_COLOURED], N_COLOURS).astype(np.int64)
        per_face = np.bincount(face[:N_COLOURED], hand[:N_COLOURED], FACES_PER_COLOUR).astype(np.int64)
        for t in np.flatnonzero(hand[:N_COLOURED]):
            assert coverage_score(t, hand[t], per_colour, per_face, colour, face, POINTS) == POINTS[t] - 100 * row[t]


class _Recorded(tunable.TunableStrategy):
    """tunable with every weight but ``coverage`` and ``jump_feed`` at 0, keeping what it was shown and chose."""

    name = "recorded"

    def __init__(self, **params):
        zero = {f"{sit}_{kind}": 0.0 for sit in tunable.SITUATIONS for kind in KIND_NAMES}
        super().__init__(**{**zero, "points_weight": 0.0, "colour_weight": 0.0, "wild_keep": 0.0, **params})
        self.seen = []

    def play(self, obs):
        cards = super().play(obs)
        self.seen.append((obs.hand.astype(np.int64), obs.legal.copy(), obs.discard.astype(np.int64), cards))
        return cards


def test_coverage_and_jump_feed_steer_the_play():
    """Over 80 party games at 4 players, every card played by ``tunable`` with only ``coverage`` = 1 and
    ``jump_feed`` = -0.25 has the best score computed here from the hand alone: -1 per colour and face it is
    the last held of, -0.25 per copy of a number card in the party deck not in the hand nor on the discard pile."""
    from unosim.game.cards import IS_NUMBER, N_COLOURED, load_deck

    deck = np.asarray(load_deck("party").counts, np.int64)
    from unosim.engine.config import RunConfig
    from unosim.engine.driver import Engine
    from unosim.strategy.spec import StrategySpec

    strategy = _Recorded(coverage=1.0, jump_feed=-0.25)
    config = RunConfig(rules=unosim.RuleSet.preset("party"), players=4, strategies=(StrategySpec("random"),) * 4,
                       seed=8, games=80)
    engine = Engine(config)
    engine.set_strategies([strategy, registry.make("random")], ["recorded", "random"], [0, 1, 1, 1])
    engine.play(0, 80)
    checked = 0
    for hand, legal, discard, cards in strategy.seen:
        for r in range(len(hand)):
            coloured = legal[r, :N_COLOURED] & (hand[r, :N_COLOURED] > 0)
            if not coloured.any():
                continue
            held = hand[r, :N_COLOURED].reshape(4, -1)
            score = np.zeros(N_COLOURED)
            for t in np.flatnonzero(coloured):
                c, f = divmod(t, held.shape[1])
                last = int(hand[r, t] == 1) * (int(held[c].sum() == 1) + int(held[:, f].sum() == 1))
                unseen = max(deck[t] - hand[r, t] - discard[r, t], 0) if IS_NUMBER[t] else 0
                score[t] = -1.0 * last - 0.25 * unseen
            assert cards[r] < N_COLOURED and coloured[cards[r]]
            assert score[cards[r]] == max(score[t] for t in np.flatnonzero(coloured))
            checked += 1
    assert checked > 500


class _Payload:
    """Unpickling this runs ``open(MARKER, "w")``: a planted file that must never be loaded."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def test_tune_state_is_json_and_a_planted_pickle_runs_nothing(tmp_path):
    import pickle

    out, marker = tmp_path / "run", tmp_path / "pwned"
    out.mkdir()
    (out / "state.pkl").write_bytes(pickle.dumps(_Payload(marker)))
    (out / "state.json.pkl").write_bytes(pickle.dumps(_Payload(marker)))
    part = unosim.tune(budget=2 * 4 * 200, out=out, max_generations=1, **TINY)
    assert part.generations == 1 and not marker.exists()
    state = json.loads((out / "state.json").read_text())
    assert state["generation"] == 1 and len(state["asked"][0]) == 4 and len(state["fitness"][0]) == 4
    # a state file that is not this run's JSON is refused (or replaced with --overwrite), never run
    (out / "state.json").write_bytes(pickle.dumps(_Payload(marker)))
    with pytest.raises(ValueError, match="unreadable state.json"):
        unosim.tune(budget=2 * 4 * 200, out=out, **TINY)
    (out / "state.json").write_text(json.dumps({**state, "fitness": [["x"] * 4]}))
    with pytest.raises(ValueError, match="unreadable state.json"):
        unosim.tune(budget=2 * 4 * 200, out=out, **TINY)
    assert not marker.exists()


def test_tune_refuses_edited_candidates(tmp_path):
    out = tmp_path / "run"
    unosim.tune(budget=2 * 4 * 200, out=out, max_generations=1, **TINY)
    state = json.loads((out / "state.json").read_text())
    state["asked"][0][0][0] = 0.123456789
    (out / "state.json").write_text(json.dumps(state))
    with pytest.raises(ValueError, match="other candidates than the ones stored"):
        unosim.tune(budget=2 * 4 * 200, out=out, **TINY)


def test_cli_tune_says_it_resumed(tmp_path):
    out = tmp_path / "run"
    args = ["tune", "--rules", "classic", "--players", "2", "--against", "random", "--popsize", "4",
            "--games-per-candidate", "200", "--evaluation-games", "400", "--budget", "800", "--seed", "3",
            "--out", str(out)]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "resuming" not in first.output
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.output
    said = " ".join(again.output.split())
    assert "resuming the tuning run" in said and "1 of 1 generations already done, evaluated" in said


def test_a_tuned_candidate_worse_than_its_start_is_named_so():
    from unosim.reports.tuning import worse_than_start

    worse = {"improvement": -0.02, "improvement_low": -0.03, "improvement_high": -0.01}
    assert "did worse than its start" in worse_than_start(worse) and "beyond the interval" in worse_than_start(worse)
    unclear = {"improvement": -0.01, "improvement_low": -0.03, "improvement_high": 0.01}
    assert "did worse" in worse_than_start(unclear) and "beyond" not in worse_than_start(unclear)
    assert worse_than_start({"improvement": 0.01, "improvement_low": -0.01, "improvement_high": 0.03}) == ""


def _default_sigint() -> None:
    """A child started from a background job inherits an ignored SIGINT; a terminal gives the default."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_during_the_evaluation_is_a_clean_interrupt(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "tune"
    # one generation of 400 games, then 800,000 held-out games: the Ctrl-C lands in the evaluation
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("unosim")), "tune", "--players", "2", "--against", "random", "--popsize", "4",
         "--games-per-candidate", "100", "--budget", "400", "--evaluation-games", "400000", "--jobs", "1", "--quiet",
         "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint,
        env={**os.environ, "NUMBA_NUM_THREADS": "1"},
    )
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and not (out / "state.json").is_file() and proc.poll() is None:
            time.sleep(0.2)
        assert (out / "state.json").is_file(), "the tuning generation did not finish"
        time.sleep(3)  # well into the evaluation, mostly inside compiled functions
        assert proc.poll() is None, "the evaluation ended before the Ctrl-C"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert "stopped by Ctrl-C" in err
    assert "SystemError" not in err and "CPUDispatcher" not in err and "Traceback" not in err and "raised" not in err
    assert not (out / "tuned.json").exists()


def test_the_held_out_figures_do_not_depend_on_the_evaluation_pieces() -> None:
    """Exact: every game depends only on its deal index (seed of TINY), so pieces of 7 deals or one piece agree."""
    from unosim.analysis.tuning import evaluate

    settings = make_settings(budget=10_000, **{**TINY, "evaluation_games": 60})
    params = {**settings.start, "threat": 4.0}
    whole = evaluate(settings, params, piece_deals=settings.evaluation_deals)
    assert evaluate(settings, params, piece_deals=7) == whole
    assert whole["deals"] == settings.evaluation_deals
    with pytest.raises(ValueError, match="piece_deals = 0"):
        evaluate(settings, params, piece_deals=0)
