"""The fast engine agrees with the independent pure-Python reference engine.

Statistics compared: mean game length (turns), win rate of each seat
offset from the dealer, and mean points per game (the winner's score, E-3).
Tolerance: |difference| ≤ 4 standard errors of the difference (the SEs of both
samples combined). Seeds are fixed, so the test is deterministic; the sizes
make a genuine rule difference of a few percent visible.

Power of the party tests: the reference sample of each configuration
(``PARTY_REF_GAMES``) is sized so that a rule bug as small as "Wild Draw Four
always legal" (``wd4_legal_when=always`` instead of the party reading) fails
every party configuration. Its largest effect on any statistic, measured with
the reference engine (6,000 games a side), is 0.098 standard deviations at 4
players with random (winner's points), 0.12 at 6 and 12 with random, 0.17-0.23
with greedy; the sizes put it 7 standard errors of the difference away in
expectation. Checked by giving the reference the bug at these seeds: the
largest deviations were 7.4 / 8.4 SE (4 players, random / greedy), 6.0 / 7.4
(12), 6.9 / 8.2 (6, options flipped); with the former sizes (3,000 / 1,500
reference games against 30,000) the bug passed 12 players with random.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest
from reference_engine import PRESETS, play_game

from unosim.api import simulate

REF_GAMES = 3_000
FAST_GAMES = 60_000
Z = 4.0


def _compare(name: str, a: np.ndarray, b: np.ndarray) -> str | None:
    diff = a.mean() - b.mean()
    se = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    if abs(diff) > Z * se:
        return f"{name}: fast {a.mean():.4f} vs reference {b.mean():.4f} (diff {diff:+.4f}, {abs(diff) / se:.1f} SE)"
    return None


@pytest.mark.parametrize("players", [2, 6])
@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_fast_engine_agrees_with_reference(players: int, strategy: str) -> None:
    fast = simulate(rules="classic", players=players, games=FAST_GAMES, strategies=strategy, seed=2024)
    ref = [play_game(PRESETS["classic"], players, [strategy] * players, seed) for seed in range(REF_GAMES)]
    ref_turns = np.array([g["turns"] for g in ref], float)
    ref_points = np.array([g["winner_points"] for g in ref], float)
    ref_offset = np.array([g["winner_offset"] or 0 for g in ref])
    assert not any(g["truncated"] for g in ref)
    assert not fast["truncated"].any()
    failures = [
        _compare("mean turns", fast["turns"].to_numpy(float), ref_turns),
        _compare("mean points", fast["winner_points"].to_numpy(float), ref_points),
    ]
    offsets = fast["winner_offset"].to_numpy()
    for k in range(1, players + 1):
        failures.append(_compare(f"win rate of offset {k}", (offsets == k).astype(float), (ref_offset == k).astype(float)))
    failures = [f for f in failures if f]
    assert not failures, "; ".join(failures)


def test_classic_house_agrees_with_reference() -> None:
    """Draw-until-playable, colour-only actions, no challenges, penalty 4 (seed 003's rules)."""
    fast = simulate(rules="classic-house", players=4, games=30_000, strategies="random", seed=77)
    ref = [play_game(PRESETS["classic-house"], 4, ["random"] * 4, seed) for seed in range(REF_GAMES)]
    failures = [
        _compare("mean turns", fast["turns"].to_numpy(float), np.array([g["turns"] for g in ref], float)),
        _compare("mean cards drawn", fast["cards_drawn"].to_numpy(float), np.array([g["cards_drawn"] for g in ref], float)),
        _compare("mean points", fast["winner_points"].to_numpy(float), np.array([g["winner_points"] for g in ref], float)),
    ]
    failures = [f for f in failures if f]
    assert not failures, "; ".join(failures)


PARTY_ACTIONS_DECK = Path(__file__).parent / "data" / "classic_plus_party_actions.toml"


@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_point_taken_and_links_agree_with_reference(strategy: str) -> None:
    """A-4 Point Taken and P-6/P-7 links, on the classic deck plus those cards, 4 players."""
    deck = tomllib.loads(PARTY_ACTIONS_DECK.read_text())
    options = {**PRESETS["classic"], "deck": {"per_colour": deck["per_colour"], "wild": deck["wild"]}}
    fast = simulate(rules="classic", players=4, games=30_000, strategies=strategy, seed=5, deck=str(PARTY_ACTIONS_DECK))
    ref = [play_game(options, 4, [strategy] * 4, seed) for seed in range(REF_GAMES)]
    assert fast["point_taken_draws"].sum() > 0 and fast["link_echo_draws"].sum() > 0
    failures = []
    for column, key in (("turns", "turns"), ("winner_points", "winner_points"), ("point_taken_draws", "point_taken_draws"),
                        ("link_echo_draws", "link_echo_draws"), ("cards_drawn", "cards_drawn"), ("truncated", "truncated")):
        failures.append(_compare(column, fast[column].to_numpy(float), np.array([g[key] for g in ref], float)))
    offsets = fast["winner_offset"].fillna(0).to_numpy()
    ref_offset = np.array([g["winner_offset"] or 0 for g in ref])
    for k in range(1, 5):
        failures.append(_compare(f"win rate of offset {k}", (offsets == k).astype(float), (ref_offset == k).astype(float)))
    failures = [f for f in failures if f]
    assert not failures, "; ".join(failures)


PARTY_COLUMNS = (
    ("turns", "turns"), ("winner_points", "winner_points"), ("cards_drawn", "cards_drawn"), ("pileups", "pileups"),
    ("pileup_cards", "pileup_cards_taken"), ("point_taken_draws", "point_taken_draws"), ("link_echo_draws", "link_echo_draws"),
    ("challenges", "challenges"), ("jump_ins", "jump_ins"), ("wrong_jump_ins", "wrong_jump_ins"), ("truncated", "truncated"),
)


PARTY_FAST_GAMES = 60_000
PARTY_REF_GAMES = {(4, "random"): 6_000, (4, "greedy"): 2_000, (12, "random"): 4_000, (12, "greedy"): 1_500,
                   (6, "random"): 4_000, (6, "greedy"): 1_500}
"""Reference games per party configuration (players, strategy): see the module docstring for the power."""


def _party_agrees(players: int, strategy: str, overrides: dict[str, object], n_ref: int, seed: int,
                  ref_overrides: dict[str, object] | None = None) -> list[str]:
    """Every party event count per game, game length, points and seat-offset win rates; the failures.

    ``ref_overrides`` changes the reference's rules only (a deliberate rule bug, for measuring power)."""
    options = {**PRESETS["party"], **overrides, **(ref_overrides or {})}
    fast = simulate(rules="party", players=players, games=PARTY_FAST_GAMES, strategies=strategy, seed=seed,
                    overrides=[f"{k}={v}" for k, v in overrides.items()])
    ref = [play_game(options, players, [strategy] * players, s) for s in range(n_ref)]
    assert fast["pileups"].sum() > 0 and fast["jump_ins"].sum() > 0
    failures = [_compare(column, fast[column].to_numpy(float), np.array([g[key] for g in ref], float)) for column, key in PARTY_COLUMNS]
    offsets = fast["winner_offset"].fillna(0).to_numpy()
    ref_offset = np.array([g["winner_offset"] or 0 for g in ref])
    for k in range(1, players + 1):
        failures.append(_compare(f"win rate of offset {k}", (offsets == k).astype(float), (ref_offset == k).astype(float)))
    return [f for f in failures if f]


@pytest.mark.parametrize("players", [4, 12])
@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_party_agrees_with_reference(players: int, strategy: str) -> None:
    """The party preset in full: Point Taken, Wild Pile Up, Wild Drawn Together, S-2 start,
    W-2 incl. wilds, and speed play (jump-ins, chains, the race)."""
    failures = _party_agrees(players, strategy, {}, PARTY_REF_GAMES[players, strategy], seed=9)
    assert not failures, "; ".join(failures)


@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_party_options_agree_with_reference(strategy: str) -> None:
    """6 players with options flipped: P-3 wrong jump-ins at speed_play_error_rate=0.05,
    relink_must_differ, flipped wilds into the mini pile, taking the pile echoed over a link,
    a Point Taken ending the link after its draws."""
    options = {"speed_play_error_rate": 0.05, "relink_must_differ": True, "pileup_flipped_wilds": "mini_pile",
               "link_shares_pileup": True, "point_taken_breaks_link_first": False}
    failures = _party_agrees(6, strategy, options, PARTY_REF_GAMES[6, strategy], seed=10)
    assert not failures, "; ".join(failures)



# ---------------------------------------------------------------- §10 house rules (H-1..H-4)
#
# Each option (each stacking value) against the reference engine: mean game length, the
# winner's points, cards drawn, the truncated share, every record column the option adds
# (H-1 stacks / stack_max / stack_cards, H-2 seven_swaps / zero_passes, H-3 jump_ins /
# action_jump_ins, H-4 blocked_finishes) and the win rate of every seat offset. Tolerance
# as above: |difference| <= Z = 4 standard errors of the difference; fixed seeds, so
# deterministic. HOUSE_REF_GAMES reference games (about 0.3 ms each at 4 players) against
# HOUSE_FAST_GAMES fast games per configuration: the SE of the difference is then about
# 1.2 % of a standard deviation of each statistic, so a rule difference moving any
# statistic by 0.05 standard deviations shows as 4 SE.

HOUSE_REF_GAMES = 8_000
HOUSE_FAST_GAMES = 60_000
HOUSE_BASE_COLUMNS = ("turns", "winner_points", "cards_drawn", "truncated")
HOUSE_COLUMNS = {
    "stacking": ("stacks", "stack_max", "stack_cards"),
    "seven_zero": ("seven_swaps", "zero_passes"),
    "jump_in_cards": ("jump_ins", "action_jump_ins"),
    "speed_play": ("jump_ins",),
    "go_out_on_action": ("blocked_finishes",),
}
"""The record columns each option adds, compared wherever the option is set."""

def _house_agrees(preset: str, players: int, strategy: str, overrides: dict[str, object], seed: int,
                  n_ref: int = HOUSE_REF_GAMES, extra: tuple[str, ...] = (), n_fast: int = HOUSE_FAST_GAMES) -> None:
    """Compare one house-rule configuration; fail on any disagreement."""
    options = {**PRESETS[preset], **overrides}
    text = {k: (str(v).lower() if isinstance(v, bool) else v) for k, v in overrides.items()}
    fast = simulate(rules=preset, players=players, games=n_fast, strategies=strategy, seed=seed,
                    overrides=[f"{k}={v}" for k, v in text.items()])
    ref = [play_game(options, players, [strategy] * players, s) for s in range(n_ref)]
    columns = list(HOUSE_BASE_COLUMNS) + list(extra)
    for option in overrides:
        columns += [c for c in HOUSE_COLUMNS.get(option, ()) if c not in columns]
    for column in HOUSE_COLUMNS.get(next(iter(overrides)), ()):
        assert fast[column].sum() > 0 and sum(g[column] for g in ref) > 0, f"{column} never happens"
    results = {c: _compare(c, fast[c].to_numpy(float), np.array([g[_REF_KEY.get(c, c)] for g in ref], float)) for c in columns}
    offsets = fast["winner_offset"].fillna(0).to_numpy()
    ref_offset = np.array([g["winner_offset"] or 0 for g in ref])
    for k in range(1, players + 1):
        results[f"offset {k}"] = _compare(f"win rate of offset {k}", (offsets == k).astype(float),
                                          (ref_offset == k).astype(float))
    failures = [f for f in results.values() if f]
    assert not failures, "; ".join(failures)


_REF_KEY = {"pileup_cards": "pileup_cards_taken"}


@pytest.mark.parametrize("strategy", ["random", "greedy"])
@pytest.mark.parametrize("stacking", ["same_face", "mixed", "plus4_on_plus2"])
def test_house_H1_stacking_agrees_with_reference(stacking: str, strategy: str) -> None:
    """H-1 in classic UNO, 4 players: chains, the Wild Draw Four on a Draw Two, E-2 with a chain."""
    _house_agrees("classic", 4, strategy, {"stacking": stacking}, seed=31)


def test_house_H1_stacking_in_party_agrees_with_reference() -> None:
    """H-1 under the party preset, 6 players: links echo a taken total, speed play after a chain."""
    _house_agrees("party", 6, "greedy", {"stacking": "mixed"}, seed=32, n_ref=3_000,
                  extra=("jump_ins", "link_echo_draws", "pileup_cards"))


@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_house_H2_seven_zero_agrees_with_reference(strategy: str) -> None:
    """H-2 in classic UNO, 4 players: the 7 exchange (each strategy's target) and the 0 passing."""
    _house_agrees("classic", 4, strategy, {"seven_zero": True}, seed=33)


def test_house_H2_seven_zero_in_party_agrees_with_reference() -> None:
    """H-2 under the party preset, 6 players: jump-ins on a 7 or a 0, links kept across exchanges."""
    _house_agrees("party", 6, "random", {"seven_zero": True}, seed=34, n_ref=4_000, extra=("jump_ins", "link_echo_draws"))


@pytest.mark.parametrize("preset", ["classic", "classic-house"])
def test_house_H3_speed_play_in_classic_presets_agrees_with_reference(preset: str) -> None:
    """H-3: speed play with number cards in the classic presets, 4 players, greedy (always jumps in)."""
    _house_agrees(preset, 4, "greedy", {"speed_play": True}, seed=35)


@pytest.mark.parametrize(("preset", "players", "strategy"),
                         [("classic", 4, "random"), ("classic-house", 4, "greedy"), ("party", 6, "greedy")])
def test_house_H3_action_jump_ins_agree_with_reference(preset: str, players: int, strategy: str) -> None:
    """H-3: jump-ins with identical action cards (Skip, Reverse, Draw Two, Point Taken), in each preset."""
    n_ref = HOUSE_REF_GAMES if preset != "party" else 3_000
    _house_agrees(preset, players, strategy, {"jump_in_cards": "numbers_and_actions", "speed_play": True}, seed=36,
                  n_ref=n_ref)


@pytest.mark.parametrize(("preset", "players", "strategy"),
                         [("classic", 4, "random"), ("classic", 4, "greedy"), ("classic-house", 4, "random")])
def test_house_H4_no_going_out_on_an_action_agrees_with_reference(preset: str, players: int, strategy: str) -> None:
    """H-4: a lone action card or wild cannot go; T-3 and T-4 (classic-house)."""
    _house_agrees(preset, players, strategy, {"go_out_on_action": False}, seed=37)


def test_house_H4_mini_pile_in_party_agrees_with_reference() -> None:
    """H-4 under the party preset, 6 players, random: no going out into a mini pile either."""
    _house_agrees("party", 6, "random", {"go_out_on_action": False}, seed=37, n_ref=12_000, extra=("pileup_cards",))


def test_house_rules_together_agree_with_reference() -> None:
    """All four house rules at once under the party preset, 5 players, random."""
    overrides = {"stacking": "mixed", "seven_zero": True, "jump_in_cards": "numbers_and_actions", "go_out_on_action": False}
    _house_agrees("party", 5, "random", overrides, seed=38, n_ref=4_000, extra=("jump_ins", "link_echo_draws", "pileup_cards"))
