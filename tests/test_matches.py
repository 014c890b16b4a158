"""Multi-round matches: E-3 (winner takes), E-4 (penalty), S-4 (dealer moves left), E-5
(a truncated round scores nothing); determinism, agreement with the reference, datasets."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from reference_engine import PRESETS, play_match
from test_agreement import _compare

import unosim
from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine, StrategyError, play_tables
from unosim.engine.position import Position, play_from
from unosim.game.kernels import layout as L
from unosim.runs import files
from unosim.runs.runner import run


def play(rules: str, players: int = 4, games: int = 200, seed: int = 3, overrides: list[str] | None = None,
         batch_size: int | None = None, first: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    config = RunConfig.build(rules=rules, players=players, games=games, seed=seed, match=True,
                             overrides=overrides or [], batch_size=batch_size)
    matches, rounds = play_tables(config, first, games)
    return matches.to_pandas(), rounds.to_pandas()


def check_match_rules(matches: pd.DataFrame, rounds: pd.DataFrame, *, penalty: bool, target: int) -> None:
    """Replay the totals from the round records and check every match against E-3/E-4/E-5."""
    assert (rounds.groupby("game").size().to_numpy() == matches["rounds"].to_numpy()).all()
    for m, group in rounds.groupby("game"):
        row = matches.loc[matches["game"] == m].iloc[0]
        P = int(row["players"])
        totals = np.zeros(P, int)
        assert group["round"].tolist() == list(range(len(group)))
        for rnd in group.itertuples():
            assert (totals < target).all(), "the match went on after a total reached the target"
            if rnd.truncated:  # E-5: nothing scored
                pass
            elif penalty:  # E-4: every seat adds its own hand
                totals += np.asarray(rnd.hand_points, int)
            else:  # E-3: the round winner scores the points left in the other hands
                totals[int(rnd.winner)] += rnd.winner_points
        assert totals.tolist() == list(row["scores"])
        assert row["truncated_rounds"] == group["truncated"].sum()
        assert (totals >= target).any() or len(group) == 10_000
        best = totals.min() if penalty else totals.max()
        assert totals[row["match_winner"]] == best
        offset = (row["match_winner"] - row["first_dealer"]) % P or P
        assert row["match_winner_offset"] == offset


def test_E_3_winner_takes_the_points_left_in_the_other_hands() -> None:
    matches, rounds = play("classic", overrides=["target_score=200"])
    check_match_rules(matches, rounds, penalty=False, target=200)
    assert matches["rounds"].max() > 1
    winners = rounds[~rounds["truncated"]]
    assert (winners["winner_points"] > 0).all()


def test_E_4_penalty_adds_each_hand_and_the_lowest_total_wins() -> None:
    matches, rounds = play("classic-house", overrides=["target_score=100"])
    check_match_rules(matches, rounds, penalty=True, target=100)
    assert matches["rounds"].max() > 1


def test_party_matches_follow_E_3() -> None:
    matches, rounds = play("party", players=5, games=60, overrides=["target_score=150"])
    check_match_rules(matches, rounds, penalty=False, target=150)


def test_S_4_dealer_moves_left_each_round() -> None:
    for overrides in ([], ["dealer=2"]):
        matches, rounds = play("classic-house", games=100, overrides=["target_score=100", *overrides])
        for m, group in rounds.groupby("game"):
            first = matches.loc[matches["game"] == m, "first_dealer"].iloc[0]
            assert group["dealer"].tolist() == [(first + r) % 4 for r in range(len(group))]
        if overrides:
            assert (matches["first_dealer"] == 2).all()
        else:
            assert matches["first_dealer"].nunique() == 4


def test_E_5_a_truncated_round_scores_nothing() -> None:
    matches, rounds = play("classic", players=2, games=60, overrides=["target_score=100", "max_turns=25"])
    assert rounds["truncated"].any() and (~rounds["truncated"]).any()
    assert (matches["truncated_rounds"] > 0).any()
    check_match_rules(matches, rounds, penalty=False, target=100)


def test_a_match_stops_after_10000_rounds() -> None:
    matches, rounds = play("classic-house", games=2, overrides=["max_turns=1"])
    assert matches["rounds"].tolist() == [10_000, 10_000]
    assert matches["truncated_rounds"].tolist() == [10_000, 10_000]
    assert all(list(s) == [0, 0, 0, 0] for s in matches["scores"])
    assert rounds["truncated"].all() and len(rounds) == 20_000


def test_elimination_needs_penalty_scoring() -> None:
    with pytest.raises(ValueError, match=r"elimination=True is not allowed; elimination needs penalty scoring.*scoring=penalty"):
        RunConfig.build(rules="classic", games=1, match=True, overrides=["elimination=true"])


# ---- E-4 elimination -----------------------------------------------------------------------------


def check_elimination_rules(matches: pd.DataFrame, rounds: pd.DataFrame, *, target: int) -> dict[str, int]:
    """Replay every elimination match from its round records (E-4, S-4, E-5) and check it; return
    how often each ending happened."""
    seen = {"eliminated": 0, "last_one_left": 0, "all_reached_together": 0, "max_rounds": 0}
    assert (rounds.groupby("game").size().to_numpy() == matches["rounds"].to_numpy()).all()
    for m, group in rounds.groupby("game"):
        row = matches.loc[matches["game"] == m].iloc[0]
        P = int(row["players"])
        totals = np.zeros(P, int)
        alive = set(range(P))
        dealer = None
        winner = None
        for rnd in group.itertuples():
            assert winner is None, "a round was played after the match was decided"
            if dealer is not None:  # S-4: the next seat to the left still in the match
                dealer = next((dealer + k) % P for k in range(1, P + 1) if (dealer + k) % P in alive)
                assert rnd.dealer == dealer
            dealer = int(rnd.dealer)
            assert dealer in alive and len(alive) >= 2
            points = np.asarray(rnd.hand_points, int)
            for p in range(P):
                if p not in alive:  # eliminated: dealt nothing, no points, never wins
                    assert points[p] == 0 and len(rnd.opening_hand[p]) == 0
                else:
                    assert len(rnd.opening_hand[p]) > 0
            if not rnd.truncated:
                assert int(rnd.winner) in alive
                totals += points
            reached = {p for p in alive if totals[p] >= target}
            if len(alive) - len(reached) == 1:
                winner = (alive - reached).pop()
                seen["last_one_left"] += 1
            elif reached == alive:
                lowest = min(totals[p] for p in alive)
                assert totals[row["match_winner"]] == lowest and row["match_winner"] in alive
                winner = int(row["match_winner"])
                seen["all_reached_together"] += 1
            elif reached:
                alive -= reached
                seen["eliminated"] += len(reached)
            if winner is None and rnd.round + 1 == 10_000:
                winner = int(row["match_winner"])
                assert winner in alive and totals[winner] == min(totals[p] for p in alive)
                seen["max_rounds"] += 1
        assert winner is not None and row["match_winner"] == winner
        assert totals.tolist() == list(row["scores"])
        assert row["truncated_rounds"] == group["truncated"].sum()
    return seen


def test_E_4_elimination_seats_reaching_the_target_drop_out_until_one_remains() -> None:
    over = ["target_score=150", "elimination=true"]
    for players in (3, 4, 6):
        matches, rounds = play("classic-house", players=players, games=300, overrides=over)
        seen = check_elimination_rules(matches, rounds, target=150)
        assert seen["eliminated"] > 0 and seen["last_one_left"] > 0
        # the round winner adds 0 and a truncated round scores nothing, so all remaining seats can never
        # reach the target in the same round: that branch of E-4 (lowest total among them) stays unused
        assert seen["all_reached_together"] == 0
        assert (matches["rounds"] > 1).mean() > 0.9


def test_E_4_elimination_with_a_fixed_first_dealer_and_truncated_rounds() -> None:
    over = ["target_score=120", "elimination=true", "dealer=3", "max_turns=40"]
    matches, rounds = play("classic-house", players=5, games=200, overrides=over)
    assert rounds["truncated"].any() and (matches["first_dealer"] == 3).all()
    seen = check_elimination_rules(matches, rounds, target=120)
    assert seen["eliminated"] > 0


def test_E_4_elimination_stops_after_10000_rounds() -> None:
    matches, rounds = play("classic-house", games=2, overrides=["max_turns=1", "elimination=true"])
    assert matches["rounds"].tolist() == [10_000, 10_000]
    check_elimination_rules(matches, rounds, target=500)


def test_E_4_elimination_matches_play_without_losing_a_card() -> None:
    """Card conservation after every step, in many matches where seats drop out often."""
    for players in (4, 6):
        config = RunConfig.build(rules="classic-house", players=players, games=2000, seed=17, match=True,
                                 overrides=["target_score=150", "elimination=true"])
        played = Engine(config, check=True).play(0, 2000)
        assert (played.match_winner >= 0).all()
        from unosim.engine.records import matches_table, rounds_table

        matches, rounds = matches_table(config, played).to_pandas(), rounds_table(config, played).to_pandas()
        seen = check_elimination_rules(matches, rounds, target=150)
        assert seen["eliminated"] > 1000


def test_E_4_elimination_compiled_and_python_paths_play_identical_matches() -> None:
    """Party rules with penalty scoring: votes, links and (wrong) jump-ins with eliminated seats."""
    for lineup in (["random"] * 5, ["random", "greedy"] * 2 + ["greedy"]):
        config = RunConfig.build(rules="party", players=5, strategies=lineup, seed=23, match=True, games=400,
                                 overrides=["scoring=penalty", "elimination=true", "target_score=150",
                                            "speed_play_error_rate=0.05", "relink_must_differ=true"])
        fast = Engine(config, compiled=True, check=True).play(0, 400)
        slow = Engine(config, compiled=False).play(0, 400)
        for name in ("rec", "points", "opening", "match_scores", "match_winner"):
            assert np.array_equal(getattr(fast, name), getattr(slow, name)), name
        # eliminated seats hold no card in later rounds, and party cards were played around them
        from unosim.engine.records import matches_table, rounds_table

        seen = check_elimination_rules(matches_table(config, fast).to_pandas(), rounds_table(config, fast).to_pandas(), target=150)
        assert seen["eliminated"] > 50
        assert fast.rec[:, L.R_POINT_TAKEN_DRAWS].sum() > 0 and fast.rec[:, L.R_JUMP_INS].sum() > 0
        assert fast.rec[:, L.R_WRONG_JUMP_INS].sum() > 0


def test_E_4_elimination_agrees_with_reference() -> None:
    """Mean rounds per match and seat 0's match-win rate, classic-house, 4 random players, to 200."""
    P = 4
    over = ["target_score=200", "elimination=true"]
    fast, _ = play("classic-house", players=P, games=10_000, seed=13, overrides=over)
    options = {**PRESETS["classic-house"], "target_score": 200, "elimination": True}
    ref = [play_match(options, P, ["random"] * P, seed) for seed in range(3_000)]
    failures = [_compare("mean rounds", fast["rounds"].to_numpy(float), np.array([r["rounds"] for r in ref], float))]
    failures.append(_compare("seat 0 wins", (fast["match_winner"] == 0).to_numpy(float),
                             np.array([r["match_winner"] == 0 for r in ref], float)))
    failures.append(_compare("mean winning total", np.array([s[w] for s, w in zip(fast["scores"], fast["match_winner"])], float),
                             np.array([r["scores"][r["match_winner"]] for r in ref], float)))
    failures.append(_compare("mean sum of totals", np.array([sum(s) for s in fast["scores"]], float),
                             np.array([sum(r["scores"]) for r in ref], float)))
    failures = [f for f in failures if f]
    assert not failures, "; ".join(failures)


# exact positions: seat 1 is out of the match (eliminated) and holds nothing
DRAW = ["yellow 1"] * 30


def test_E_4_turns_skip_an_eliminated_seat() -> None:
    hands = [["red 5", "blue 9"], [], ["green 2", "blue 1"], ["green 3", "blue 2"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW, eliminated=[1]), script=[("play", "red 5")])
    assert after.turn == 2 and after.hand_sizes == [1, 0, 2, 2]
    after = play_from(Position(hands=hands, top="green 7", draw=DRAW, eliminated=[1], direction=-1, turn=2),
                      script=[("play", "green 2")])
    assert after.turn == 0
    skip = [["red skip", "blue 9"], [], ["green 2", "blue 1"], ["green 3", "blue 2"]]
    after = play_from(Position(hands=skip, top="red 3", draw=DRAW, eliminated=[1]), script=[("play", "red skip")])
    assert after.turn == 3


def test_E_4_two_players_left_play_the_two_player_rules() -> None:
    """A-2: with two players left at a larger table, a Reverse acts as a Skip."""
    hands = [["red reverse", "blue 9"], [], ["green 2", "blue 1"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW, eliminated=[1]), script=[("play", "red reverse")])
    assert after.turn == 0 and after.direction == -1
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW, eliminated=[1]), script=[("play", "red reverse")],
                      overrides={"reverse_two_players_skips": False})
    assert after.turn == 2


def test_E_4_eliminated_seats_neither_vote_nor_are_pointed_at() -> None:
    hands = [["red point taken", "blue 5"], [], ["green 3"], ["green 4"]]
    pos = Position(hands=hands, top="red 3", draw=DRAW, eliminated=[1])
    after = play_from(pos, rules="party", script=[("play", "red point taken"), ("point_at", [2, 0, 2])])
    assert after.hand_sizes == [2, 0, 3, 1] and after.turn == 2 and after.party["point_taken_draws"] == 3
    with pytest.raises(StrategyError, match="out of the match"):
        play_from(pos, rules="party", script=[("play", "red point taken"), ("point_at", [1, 0, 2])])


def test_E_4_eliminated_seats_cannot_be_linked_or_jump_in() -> None:
    hands = [["wild drawn together", "blue 5"], [], ["green 3"], ["green 4"]]
    pos = Position(hands=hands, top="red 3", draw=DRAW, eliminated=[1])
    after = play_from(pos, rules="party", script=[("play", "wild drawn together"), ("colour", "blue"), ("link", (2, 3))])
    assert after.link == (2, 3)
    with pytest.raises(StrategyError, match="choose_link"):
        play_from(pos, rules="party", script=[("play", "wild drawn together"), ("colour", "blue"), ("link", (0, 1))])
    # P-3 at error rate 1: only the seats still in the match jump in wrongly
    hands = [["red 5", "blue 9"], [], ["green 2"], ["green 3"]]
    after = play_from(Position(hands=hands, top="red 3", draw=DRAW, eliminated=[1]), rules="party",
                      overrides={"speed_play_error_rate": 1.0}, script=[("play", "red 5")])
    assert after.hand_sizes == [1, 0, 2, 2] and after.party["wrong_jump_ins"] == 2 and after.turn == 2


def test_single_rounds_have_no_round_column() -> None:
    config = RunConfig.build(games=20)
    table, rounds = play_tables(config, 0, 20)
    assert rounds is None and "round" not in table.column_names and table.column_names[0] == "game"


@pytest.mark.parametrize("rules", ["classic-house", "party"])
def test_matches_do_not_depend_on_batch_size_or_ranges(rules: str) -> None:
    over = ["target_score=150"]
    base_m, base_r = play(rules, games=60, overrides=over)
    for batch in (1, 7):
        m, r = play(rules, games=60, overrides=over, batch_size=batch)
        pd.testing.assert_frame_equal(m, base_m)
        pd.testing.assert_frame_equal(r, base_r)
    m1, r1 = play(rules, games=25, overrides=over)
    m2, r2 = play(rules, games=35, overrides=over, first=25)
    pd.testing.assert_frame_equal(pd.concat([m1, m2], ignore_index=True), base_m)
    pd.testing.assert_frame_equal(pd.concat([r1, r2], ignore_index=True), base_r)


@pytest.mark.parametrize("rules", ["party", "classic-house"])
def test_matches_agree_with_reference(rules: str) -> None:
    """Mean rounds per match, seat 0's match-win rate and the mean winning total, to 500."""
    P = 4
    fast, _ = play(rules, players=P, games=10_000, seed=11)
    ref = [play_match(PRESETS[rules], P, ["random"] * P, seed) for seed in range(3_000)]
    failures = [_compare("mean rounds", fast["rounds"].to_numpy(float), np.array([r["rounds"] for r in ref], float))]
    # the reference does not report its first dealer: compare seat 0
    failures.append(_compare("seat 0 wins", (fast["match_winner"] == 0).to_numpy(float),
                             np.array([r["match_winner"] == 0 for r in ref], float)))
    failures.append(_compare("mean winning total", np.array([s[w] for s, w in zip(fast["scores"], fast["match_winner"])], float),
                             np.array([r["scores"][r["match_winner"]] for r in ref], float)))
    failures = [f for f in failures if f]
    assert not failures, "; ".join(failures)


def test_match_runs_write_both_tables_resume_and_do_not_depend_on_jobs(tmp_path: Path) -> None:
    config = RunConfig.build(rules="classic-house", players=4, games=600, seed=5, match=True, overrides=["target_score=100"])
    one, two = tmp_path / "one", tmp_path / "two"
    run(config, one, jobs=1, chunk_size=100, quiet=True)
    run(config, two, jobs=2, chunk_size=100, quiet=True)
    for table in ("main", "rounds"):
        pd.testing.assert_frame_equal(unosim.load(one, table=table), unosim.load(two, table=table))
    matches, rounds = unosim.load(one), unosim.load(one, table="rounds")
    assert len(matches) == 600 and len(rounds) == matches["rounds"].sum()
    check_match_rules(matches, rounds, penalty=True, target=100)

    (one / files.ROUNDS_DIR / "part-00002.parquet").unlink()  # the main file alone is not a finished chunk
    (one / "part-00004.parquet").unlink()
    with pytest.raises(ValueError, match="incomplete"):
        unosim.load(one, table="rounds")
    result = run(config, one, jobs=1, quiet=True)
    assert result.chunks_played == 2 and result.chunks_resumed == 4
    for table in ("main", "rounds"):
        pd.testing.assert_frame_equal(unosim.load(one, table=table), unosim.load(two, table=table))
    with pytest.raises(ValueError, match="no rounds table"):
        unosim.load(run(RunConfig.build(games=10), tmp_path / "single", jobs=1, quiet=True).path, table="rounds")


def test_cli_match_run_prints_rounds_per_match(tmp_path: Path) -> None:
    from test_cli_simulate import flat, invoke

    for rules in ("classic", "classic-house", "party"):
        out = tmp_path / rules
        result = invoke("simulate", "--rules", rules, "--players", "6", "--games", "40", "--match", "--jobs", "1",
                        "--set", "target_score=120", "--out", str(out))
        assert result.exit_code == 0, result.output
        assert "rounds per match on average" in flat(result.output)
        assert len(unosim.load(out)) == 40 and len(unosim.load(out, table="rounds")) >= 40


@pytest.mark.parametrize(("rules", "players", "extra"), [
    ("classic-house", 4, []),
    ("party", 5, ["scoring=penalty", "speed_play_error_rate=0.05", "relink_must_differ=true"]),
    ("party", 3, ["scoring=penalty", "uno_penalty=2"]),
    ("classic", 5, ["scoring=penalty", "stacking=mixed", "seven_zero=true", "speed_play=true", "jump_in_cards=numbers_and_actions",
                    "go_out_on_action=false"]),
])
def test_E_4_elimination_rounds_pass_the_referee(rules: str, players: int, extra: list[str]) -> None:
    """The independent referee re-plays every traced round: eliminated seats never act, nor exchange or
    receive a hand (H-2)."""
    from referee import check_played_matches

    config = RunConfig.build(rules=rules, players=players, games=300, seed=31, match=True,
                             strategies=(["random(forget_uno_rate=0.3, catch_uno_rate=0.5)", "greedy", "random"] * 2)[:players],
                             overrides=["elimination=true", "target_score=150", *extra])
    played = Engine(config, trace=True, check=True).play(0, 300)
    rounds = check_played_matches(config.rules, players, played)
    assert rounds == len(played.rec)
    alive_rounds = (played.opening[:, :, 0] >= 0).sum(axis=1)
    assert (alive_rounds < players).sum() > 100 and (alive_rounds == 2).sum() > 50


def test_E_4_elimination_runs_write_tables_that_load(tmp_path: Path) -> None:
    """Eliminated seats' empty opening hands go through parquet and back."""
    config = RunConfig.build(rules="classic-house", players=4, games=300, seed=5, match=True,
                             overrides=["target_score=150", "elimination=true"])
    run(config, tmp_path / "elim", jobs=1, chunk_size=100, quiet=True)
    matches, rounds = unosim.load(tmp_path / "elim"), unosim.load(tmp_path / "elim", table="rounds")
    assert len(matches) == 300 and len(rounds) == matches["rounds"].sum()
    assert any(len(h) == 0 for hands in rounds["opening_hand"] for h in hands)
    check_elimination_rules(matches, rounds, target=150)
