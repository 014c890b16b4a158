"""Rule strategies: the file checker, the Python interpreter, the shipped files, replay and ``unosim try``."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

import unosim
from unosim.cli import app
from unosim.engine.config import RunConfig
from unosim.engine.trace import replay
from unosim.strategy import RuleFileError, RuleStrategy, load_program, parse_program, registry, shipped_rule_files

RUNNER = CliRunner()
SAME_GAME_COLUMNS = ["winner", "turns", "cards_drawn", "truncated", "hand_points"]


# ---------------------------------------------------------------- the file checker
@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("name = 'x'\nbogus = 1\n", 2, "bogus = 1 is not allowed; the keys allowed here are"),
        ("[[play.rule]]\ncard = 'skip'\n\n[[play.rule]]\ncard = 'skip'\nhand_mx = 3\n", 6, "play.rule[2].hand_mx = 3"),
        ("[colour]\nchoose = 'purple'\n", 2, "colour.choose = \"purple\" is not allowed; use one of: 'most'"),
        ("[[play.rule]]\ncard = 'purple'\n", 2, "play.rule[1].card = \"purple\""),
        ("[[play.rule]]\ncard = 'skip'\nnext_hand_min = 5\nnext_hand_max = 2\n", 3, "can never hold"),
        ("[[play.rule]]\ncard = 'wilds'\ncolour_held_most = true\n", 3, "wild cards have no colour"),
        ("[[play.rule]]\ncard = 'any'\nnon_wild_min = 4\nhand_max = 3\n", 3, "above hand_max = 3"),
        ("[[play.rule]]\ncard = 'any'\nplayers_max = 17\n", 3, "whole number from 2 to 16"),
        ("[[pile.rule]]\ncard = 'draw'\n", 2, "card = \"draw\" is not allowed; a mini-pile rule takes the pile with card = \"take\""),
        ("[[play.rule]]\ncard = 'take'\n", 2, "card = \"take\" is not allowed; a play rule draws instead with card = \"draw\""),
        ("[[pile.rule]]\ncard = ['take', 'red']\n", 2, "card = [\"take\", \"red\"] is not allowed; write card = \"take\" alone"),
        ("[[pile.rule]]\ncard = 'green'\n[[pile.rule]]\ncard = 'take'\nprefer = 'points'\n", 5, "pile.rule[2].prefer = \"points\""),
        ("[[pile.rule]]\ncard = 'take'\ncolour_held_most = true\n", 3, "a \"take\" rule plays no card"),
        ("[jump_in]\nweight = -1\n", 2, "jump_in.weight = -1"),
        ("[play]\nprefer = ['points', 'points']\n", 2, "distinct tie-break criteria"),
        ("[[play.rule]]\nhand_min = 2\n", 1, "play.rule[1].card = (missing)"),
    ],
)
def test_bad_files_are_refused_naming_line_key_and_value(text: str, line: int, words: str) -> None:
    with pytest.raises(RuleFileError) as info:
        parse_program(text, "bot.toml")
    message = str(info.value)
    assert message.startswith(f"rule file bot.toml, line {line}: "), message
    assert words in message


def test_empty_file_takes_every_default() -> None:
    p = parse_program("", "empty.toml")
    assert (p.play, p.pile, p.play_prefer, p.drawn, p.colour, p.bluff, p.challenge) == ((), (), ("points",), "legal", "most", None, None)
    assert (p.point_taken, p.link, p.jump_weight, p.forget_uno_rate, p.catch_uno_rate) == ("fewest", "fewest", 1.0, 0.0, 1.0)


def test_take_rule_is_read() -> None:
    p = parse_program("[[pile.rule]]\ncard = 'take'\nnext_hand_max = 1\n[[pile.rule]]\ncard = 'wilds'\n", "x.toml")
    take, wilds = p.pile
    assert take.draw and not take.cards.any() and take.label == "take the pile" and take.conditions.high[2] == 1
    assert not wilds.draw and p.text.startswith("[[pile.rule]]")


def test_card_selectors() -> None:
    p = parse_program("[[play.rule]]\ncard = ['red 7', 'blue skip', '3', 'wilds']\n", "x.toml")
    chosen = set(np.flatnonzero(p.play[0].cards).tolist())
    assert chosen == {7, 3 * 14 + 10, 3, 14 + 3, 28 + 3, 42 + 3, 56, 57, 58, 59}


def test_every_shipped_file_loads_and_passes_check() -> None:
    assert {"ranking", "wild-saver", "colour-keeper", "attacker", "diversity", "greedy", "holder"} <= set(shipped_rule_files())
    for name in shipped_rule_files():
        assert load_program(name).play or name == "greedy"  # greedy.toml: every decision at its default
    report = unosim.check("rules:holder", games=4)  # the full suite over one file (every shipped one: `unosim check`)
    assert report.ok, report.message()


def test_cli_refuses_a_bad_file_before_playing(tmp_path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[[play.rule]]\ncard = 'skip'\nnext_hand_max = 'two'\n")
    result = RUNNER.invoke(app, ["simulate", "--strategies", f"rules:{bad}", "--games", "10"])
    assert result.exit_code == 2
    assert "line 3: play.rule[1].next_hand_max = \"two\" is not allowed" in " ".join(result.output.split())


# ---------------------------------------------------------------- the interpreter against the built-ins
class RandomObs:
    """``n`` random turn decisions (hands, legal cards, table) with a resettable uniform stream."""

    def __init__(self, n: int = 3000, players: int = 4, seed: int = 0) -> None:
        g = np.random.default_rng(seed)
        self.phase, self.players, self.seed = "turn", players, seed
        hand = np.zeros((n, 60), np.int8)
        for r, k in enumerate(g.integers(1, 12, n)):
            np.add.at(hand[r], g.integers(0, 60, k), 1)
        self.hand = hand
        self.legal = (g.random((n, 60)) < 0.3) & (hand > 0)
        self.hand_size = hand.sum(axis=1).astype(np.int32)
        self.seat = g.integers(0, players, n).astype(np.int32)
        self.hand_sizes = g.integers(1, 8, (n, players)).astype(np.int32)
        self.hand_sizes[np.arange(n), self.seat] = self.hand_size
        self.alive = np.ones((n, players), bool)
        self.link_choices = self.alive.copy()
        self.direction = g.choice([-1, 1], n).astype(np.int32)
        self.bluffable = np.zeros(n, bool)
        self.may_take = g.random(n) < 0.5
        self.target = np.zeros(n, np.int32)
        self.discard = np.zeros((n, 60), np.int16)
        self.game = np.arange(n)
        self.reset()

    def __len__(self) -> int:
        return self.hand.shape[0]

    def reset(self) -> None:
        self._rng = np.random.default_rng(self.seed + 1)

    def random(self, k: int | None = None) -> np.ndarray:
        return self._rng.random(len(self) if k is None else (len(self), k))


@pytest.mark.parametrize("name", ["ranking", "wild-saver", "colour-keeper", "attacker", "diversity", "greedy"])
def test_shipped_file_decides_like_the_builtin(name: str) -> None:
    """On 3,000 random positions, with the same uniforms, the file and the built-in pick the same cards and seats."""
    builtin, rule = registry.make(name), RuleStrategy(path=name)
    for method in ("play", "add_to_pile", "point_at", "choose_colour"):
        obs = RandomObs(seed=len(method))
        args = (np.full(len(obs), 56),) if method == "choose_colour" else ()
        theirs = getattr(builtin, method)(obs, *args)
        obs.reset()
        assert np.array_equal(theirs, getattr(rule, method)(obs, *args)), method


def test_take_rule_fires_only_where_taking_is_allowed(tmp_path) -> None:
    """On 3,000 random mini-pile positions: the take rule takes where taking is allowed and its condition
    holds; elsewhere the next rule (wilds) and then the default (best by points) decide."""
    bot = tmp_path / "take.toml"
    bot.write_text("[[pile.rule]]\ncard = 'take'\nhand_max = 5\n[[pile.rule]]\ncard = 'wilds'\n")
    strat = RuleStrategy(path=str(bot))
    obs = RandomObs(seed=4)
    cards = strat.add_to_pile(obs)
    takes = obs.may_take & (obs.hand_size <= 5)
    assert takes.any() and (~takes & (obs.hand_size <= 5)).any()
    assert (cards[takes] == -1).all()
    able = (obs.legal & (obs.hand > 0)).any(axis=1)
    rest = ~takes
    assert ((cards[rest] >= 0) == able[rest]).all()
    wild = rest & (obs.legal & (obs.hand > 0))[:, 56:].any(axis=1)
    assert wild.any() and (cards[wild] >= 56).all()  # the second rule: a wild whenever one may be added


def _records(strategies: str, rules: str, players: int, games: int) -> object:
    df = unosim.simulate(rules=rules, players=players, games=games, strategies=strategies, seed=11)
    return df[SAME_GAME_COLUMNS]


@pytest.mark.parametrize(("builtin", "rules", "players"), [
    ("ranking", "party", 4), ("wild-saver", "party", 3), ("colour-keeper", "party", 5), ("attacker", "classic", 4),
])
def test_shipped_file_plays_the_builtins_games(builtin: str, rules: str, players: int) -> None:
    """The file restates the built-in, drawing the same uniforms: the same games, record for record."""
    lineup = ",".join(["{}"] + ["random"] * (players - 1))
    ours = _records(lineup.format(f"rules:{builtin}"), rules, players, 300)
    theirs = _records(lineup.format(builtin), rules, players, 300)
    assert ours.equals(theirs)


def test_attacker_file_beats_random_at_party() -> None:
    """The attacker file (which plays the built-in's games: tests/test_compiled_policies.py) wins more than
    its share against two random players: by more than 4 standard errors (1,500 games at 3 players, seed 11)."""
    games = 1500
    ours = unosim.simulate(rules="party", players=3, games=games, strategies="rules:attacker,random,random", seed=11)
    a = (ours["winner"] == 0).mean()
    assert a > 1 / 3 + 4 * np.sqrt(a * (1 - a) / games)


def test_every_decision_table_is_played(tmp_path) -> None:
    """A file using every decision (bluffs, challenges, colours, votes, links, mini pile, jump-ins, UNO) plays legal games."""
    bot = tmp_path / "all.toml"
    bot.write_text(
        "[play]\nprefer = ['variety', 'colour']\notherwise = 'draw'\n"
        "[[play.rule]]\ncard = 'draw'\nhand_max = 1\nsmallest_opponent_min = 9\n"
        "[[play.rule]]\ncard = 'coloured'\ncolour_held_most = true\ndirection = 'clockwise'\n"
        "[[play.rule]]\ncard = 'any'\nplayers_max = 8\n"
        "[drawn]\nplay = 'rules'\n[colour]\nchoose = 'least'\n[bluff]\nnext_hand_max = 2\n"
        "[challenge]\nopponent_hand_min = 5\n[point_taken]\ntarget = 'most'\n[link]\npair = 'random'\n"
        "[pile]\nprefer = 'colour'\n[[pile.rule]]\ncard = 'take'\nnext_hand_max = 2\n[[pile.rule]]\ncard = 'number'\n"
        "[jump_in]\nweight = 0.5\nhand_min = 3\n[uno]\nforget_rate = 0.3\ncatch_rate = 0.5\n"
    )
    for rules in ("party", "classic"):
        df = unosim.simulate(rules=rules, players=4, games=150, strategies=f"rules:{bot},random,rules:{bot},random", seed=3,
                             overrides=["wd4_challenge=true"] if rules == "classic" else None)
        assert len(df) == 150 and not df["truncated"].all()


# ---------------------------------------------------------------- why did it play that?
def test_replay_names_the_rule_that_fired() -> None:
    config = RunConfig.build(rules="classic", players=2, seed=5, strategies="rules:holder,random", games=4)
    lines = replay(config, 3).narrate()
    plays = [line for line in lines if line.startswith("  seat 0") and " plays " in line]
    assert plays and all(" — rule " in line or " — no rule matched" in line for line in plays), plays
    assert any("rule 2 (coloured): holds " in line for line in plays)
    strat = RuleStrategy(path="holder")
    assert strat.explanations is None  # explaining is switched on only by the replay


# ---------------------------------------------------------------- unosim try
def test_try_prints_the_win_rate_with_its_interval() -> None:
    result = RUNNER.invoke(app, ["try", "holder", "--games", "400", "--players", "2", "--field", "random"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert text.startswith("holder: win rate 0.")
    low, high = (float(x) for x in text.split("[")[1].split("]")[0].split(", "))
    rate = float(text.split("win rate ")[1].split(" ")[0])
    assert low < rate < high
    bad = RUNNER.invoke(app, ["try", "no/such.toml"])
    assert bad.exit_code == 2 and "neither a readable file" in bad.output


def test_watch_evaluates_again_when_the_file_changes(tmp_path) -> None:
    """The --watch loop: one evaluation per saved version, the change from the previous one, a bad edit reported."""
    import os

    from unosim.analysis.rule_files import Evaluation, watch

    bot = tmp_path / "bot.toml"
    bot.write_text("name = 'bot'\n")
    rates = iter([0.5, 0.6])
    lines: list[str] = []

    def run() -> Evaluation:
        load_program(str(bot))
        rate = next(rates)
        return Evaluation(str(bot), "bot", rate, rate - 0.01, rate + 0.01, 0.25, 100, 0.1, "test")

    def report(line: str) -> None:
        lines.append(line)
        if line.startswith("watching") and len([x for x in lines if x.startswith("watching")]) < 3:
            stamp = bot.stat().st_mtime_ns + 10**9
            bot.write_text("bogus = 1\n" if len(lines) == 2 else "name = 'bot'\n")
            os.utime(bot, ns=(stamp, stamp))

    watch(bot, run, report, poll=0.0, rounds=3)
    assert lines[0].startswith("bot: win rate 0.5000 [0.4900, 0.5100]")
    assert lines[2].startswith("error: rule file") and "bogus = 1" in lines[2]
    assert "+0.1000 from the previous version" in lines[4]
