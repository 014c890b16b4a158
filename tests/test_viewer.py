"""The HTML game viewer: its states follow the trace as the referee does, end at the dataset row,
and the page is one offline file; ``unosim view`` reads runs, experiment cells and seeds."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from referee import Referee
from typer.testing import CliRunner

from unosim.cli import app
from unosim.engine.config import RunConfig
from unosim.engine.trace import replay
from unosim.game.kernels import layout as L
from unosim.reports.viewer import check_final, game_steps, legal_cards, render_viewer, stack_cards

runner = CliRunner()


def embedded(html: str) -> dict:
    """The JSON the page renders from."""
    match = re.search(r'<script id="game-data" type="application/json">(.*?)</script>', html, re.S)
    assert match, "the page embeds its states"
    return json.loads(match.group(1))


@pytest.mark.parametrize(
    ("rules", "players", "overrides", "strategies"),
    [("party", 16, ["speed_play=true"], "random"), ("classic", 4, ["wd4_challenge=true"], "bluffer"), ("party", 6, [], "rules:greedy")],
)
def test_every_state_agrees_with_the_referee(rules: str, players: int, overrides: list[str], strategies: str) -> None:
    config = RunConfig.build(rules=rules, players=players, strategies=strategies, seed=1, games=4, overrides=overrides)
    for game in range(4):
        trace = replay(config, game)
        steps = game_steps(trace)
        ref = Referee(config.rules, players, trace.opening)
        applied = 0
        for step in steps:
            while applied <= step["event"]:
                ref.event(*(int(x) for x in trace.events[applied][1:]))
                applied += 1
            assert [Counter(h) for h in step["hands"]] == [+h for h in ref.hands], (game, step["event"])
            # the referee turns the direction with the Reverse's play, the page at the event saying so, right after
            turning = applied < len(trace.events) and trace.events[applied][1] == L.EV_REVERSE
            assert (step["top"], step["colour"], step["dir"]) == (ref.top, ref.colour, -ref.dir if turning else ref.dir), step
            assert step["draw_n"] == ref.draw.total() and Counter(step["mini"]) == +ref.mini
        assert applied == len(trace.events)
        check_final(steps, trace.record)
        assert steps[-1]["winner"] == (trace.record["winner"] if trace.record["winner"] is not None else -1)


def test_a_changed_record_is_refused() -> None:
    config = RunConfig.build(rules="classic", players=3, seed=2, games=1)
    trace = replay(config, 0)
    row = dict(trace.record, turns=trace.record["turns"] + 1)
    with pytest.raises(ValueError, match="differs from the game's record"):
        render_viewer(trace, row)


def test_legal_cards_follow_colour_face_and_wild_draw_four() -> None:
    config = RunConfig.build(rules="classic", players=2, games=1, overrides=["wd4_challenge=true"])
    # red 5 on top, red active: red 3 by colour, blue 5 by face, wild always; the Wild Draw Four only as a bluff
    legal, bluff = legal_cards([3, 14 * 3 + 5, 14 + 7, 56, 57], 5, 0, config)
    assert legal == [3, 47, 56] and bluff == [57]
    assert legal_cards([14 + 7, 57], 5, 0, config) == ([57], [])


def test_player_view_hides_the_other_hands() -> None:
    config = RunConfig.build(rules="party", players=5, seed=4, games=1)
    data = embedded(render_viewer(replay(config, 0), seat=2))
    assert data["seat"] == 2
    for step in data["steps"]:
        assert all(card == -1 for p, hand in enumerate(step["hands"]) if p != 2 for card in hand)
        assert any(card >= 0 for card in step["hands"][2]) or not step["hands"][2]
        if step["kind"] == "draw" and step["seat"] != 2:
            assert " draws a card." in step["text"]


def test_view_of_a_run_ends_at_its_row(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = runner.invoke(app, ["simulate", "--rules", "party", "--players", "8", "--games", "6", "--seed", "3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = tmp_path / "g5.html"
    result = runner.invoke(app, ["view", "--run", str(out), "--game", "5", "--out", str(page)])
    assert result.exit_code == 0, result.output
    html = page.read_text()
    assert "http://" not in html and "https://" not in html and "<script src" not in html  # works offline
    data = embedded(html)
    import unosim

    row = unosim.load(out).set_index("game").loc[5]
    last = data["steps"][-1]
    assert last["winner"] == row["winner"] and last["turns"] == row["turns"]
    assert data["record"]["cards_drawn"] == row["cards_drawn"]
    assert 'data-card="' in html  # the cards are drawn as inline SVG by the page script


def test_view_of_an_experiment_cell_and_refusals(tmp_path: Path) -> None:
    exp = tmp_path / "exp.toml"
    exp.write_text('name = "v"\nseed = 5\ngames = 4\nchunk_size = 4\npresets = ["classic", "party"]\nplayers = [3]\n'
                   f'strategies = "random"\nout = "{tmp_path / "exp"}"\n')
    result = runner.invoke(app, ["run", str(exp), "--quiet"])
    assert result.exit_code == 0, result.output
    page = tmp_path / "cell.html"
    result = runner.invoke(app, ["view", "--run", str(tmp_path / "exp"), "--cell", "1", "--game", "2", "--out", str(page)])
    assert result.exit_code == 0, result.output
    assert embedded(page.read_text())["title"].startswith("Game 2 · party · 3 players")
    result = runner.invoke(app, ["view", "--run", str(tmp_path / "exp"), "--game", "2"])
    assert result.exit_code == 2 and "--cell" in result.output
    result = runner.invoke(app, ["view", "--rules", "classic", "--seat", "7", "--out", str(tmp_path / "x.html")])
    assert result.exit_code == 2 and "not a seat" in result.output


def test_view_of_a_tournament_cell(tmp_path: Path) -> None:
    out = tmp_path / "tour"
    result = runner.invoke(app, ["tournament", "--strategies", "random,greedy", "--rules", "party", "--players", "4", "--games", "40",
                                 "--seed", "1", "--out", str(out), "--jobs", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    page = tmp_path / "t.html"
    result = runner.invoke(app, ["view", "--run", str(out), "--cell", "1", "--game", "3", "--out", str(page)])
    assert result.exit_code == 0, result.output
    import unosim

    row = unosim.load(out).query("cell == 1 and game == 3").iloc[0]
    last = embedded(page.read_text())["steps"][-1]
    assert last["turns"] == row["turns"] and last["winner"] == row["winner"]
    assert list(embedded(page.read_text())["strategies"]) == list(row["strategies"])


def test_legal_cards_keep_back_a_last_action_card_or_wild_under_go_out_on_action_false() -> None:
    blocked = RunConfig.build(rules="classic", players=2, games=1, overrides=["go_out_on_action=false", "wd4_challenge=true"])
    allowed = RunConfig.build(rules="classic", players=2, games=1, overrides=["wd4_challenge=true"])
    red_skip, red_3, red_5, yellow_5 = 10, 3, 5, 14 + 5
    for last in (red_skip, 56, 57):  # a coloured action card, a Wild, a Wild Draw Four: drawn instead (H-4)
        assert legal_cards([last], red_5, 0, blocked) == ([], [])
        assert legal_cards([last], red_5, 0, allowed) == ([last], [])
    assert legal_cards([yellow_5], red_5, 0, blocked) == ([yellow_5], [])  # a number card may go out
    assert legal_cards([red_skip, red_3], red_5, 0, blocked) == ([red_3, red_skip], [])  # with two cards, the action card too


@pytest.mark.parametrize(
    ("stacking", "on_draw_two", "on_wild_draw_four"),
    [("none", [], []), ("same_face", [12, 54], [57]), ("mixed", [12, 54, 57], [57]), ("plus4_on_plus2", [12, 54, 57], [])],
)
def test_stack_cards_follow_the_stacking_value(stacking: str, on_draw_two: list[int], on_wild_draw_four: list[int]) -> None:
    # W-2 allows no Wild Draw Four while holding the active colour, which does not limit a stack (H-1)
    config = RunConfig.build(rules="classic", players=3, games=1, overrides=[f"stacking={stacking}"])
    red_draw_two, blue_draw_two, yellow_draw_two, red_5 = 12, 42 + 12, 14 + 12, 5
    hand = [red_draw_two, blue_draw_two, blue_draw_two, 57, red_5, 56, 14 + 3]
    assert stack_cards(hand, yellow_draw_two, config) == on_draw_two
    assert stack_cards(hand, 57, config) == on_wild_draw_four
    assert stack_cards(hand, red_5, config) == []  # no chain on a number card


def test_stack_cards_never_stack_the_last_card_under_go_out_on_action_false() -> None:
    config = RunConfig.build(rules="classic", players=3, games=1, overrides=["stacking=mixed", "go_out_on_action=false"])
    assert stack_cards([57], 12, config) == [] and stack_cards([26], 12, config) == []
    assert stack_cards([26, 3], 12, config) == [26]  # not the last card: it may be stacked


@pytest.mark.parametrize(
    "overrides",
    [
        ["stacking=same_face"], ["stacking=mixed"], ["stacking=plus4_on_plus2"], ["go_out_on_action=false"],
        ["stacking=mixed", "go_out_on_action=false", "seven_zero=true", "speed_play=true", "jump_in_cards=numbers_and_actions"],
    ],
    ids=["same_face", "mixed", "plus4_on_plus2", "no_going_out_on_action", "every_house_rule"],
)  # fmt: skip
def test_replayed_house_games_show_what_was_played_as_legal(overrides: list[str]) -> None:
    """``random`` plays whenever a card is legal and never bluffs: a turn's legal list is empty exactly when
    the seat draws, every card played from the hand is on it, and every stacked card is on the stack's list."""
    config = RunConfig.build(rules="classic", players=4, strategies="random", seed=3, games=10, overrides=overrides)
    stacks = blocked = 0
    for game in range(config.games):
        trace = replay(config, game)
        steps = game_steps(trace)
        blocked += trace.record["blocked_finishes"]
        for n, step in enumerate(steps):
            seat, card = step["seat"], int(trace.events[step["event"]][3])
            if step["kind"] == "stack":
                stacks += 1
                assert card in step["legal"], (game, step["event"], step["legal"])
            if step["kind"] not in ("turn", "stack"):
                continue
            acts = (s for s in steps[n + 1:] if s["seat"] == seat and s["kind"] in ("play", "draw", "empty"))
            act = next(acts)
            _, act_ev, _, act_card, act_reason, _ = (int(x) for x in trace.events[act["event"]])
            if act_ev == L.EV_PLAY:
                assert act_card in act["legal"] and act["legal"] == step["legal"], (game, act["event"], step["legal"])
            elif step["kind"] == "turn":
                assert act_reason == L.DR_TURN and step["legal"] == [], (game, step["event"], step["legal"])
    assert stacks > 0 if any(o.startswith("stacking=") for o in overrides) else stacks == 0
    assert blocked > 0 if "go_out_on_action=false" in overrides else blocked == 0
