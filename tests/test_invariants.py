"""Invariants over random games: every card accounted for after every
step (the engine's own check, run after each slot step), only legal plays and
correct turn order (the independent referee re-plays every traced game).

Strategies are mixed per seat and include a deliberately erratic ``random``
(draws by choice, keeps drawn cards, bluffs, challenges, forgets and catches
UNO) so that every classic rule path is visited.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from referee import check_played

from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine, Played
from unosim.game.cards import CARD_FACE
from unosim.game.kernels import layout as L
from unosim.game.rules import RuleSet

EVENTS = 400_000
"""Events refereed per configuration (at least ``MIN_GAMES`` games): the games are played in
chunks until the budget is spent, so a configuration of long games (classic-house at 2
players: about 1,400 events a game) costs the referee as much as one of short games."""
MIN_GAMES = 300
CHUNK = 150
NOISY = "random(draw_rate=0.1, keep_rate=0.2, bluff_rate=0.5, challenge_rate=0.5, forget_uno_rate=0.3, catch_uno_rate=0.5)"


def lineup(players: int) -> list[str]:
    return [[NOISY, NOISY, "greedy", "random"][i % 4] for i in range(players)]


def play_refereed(config: RunConfig, players: int, checker=check_played) -> Played:
    """Play (with the engine's own card-accounting check) and referee chunks of games until
    ``EVENTS`` events and ``MIN_GAMES`` games are reached; return them as one record."""
    engine = Engine(config, trace=True, check=True)
    chunks: list[Played] = []
    games = events = 0
    while events < EVENTS or games < MIN_GAMES:
        played = engine.play(games, CHUNK)
        assert checker(config.rules, players, played) == CHUNK
        chunks.append(played)
        games += CHUNK
        events += len(played.events)
    return Played(first=0, rec=np.concatenate([c.rec for c in chunks]), points=np.concatenate([c.points for c in chunks]),
                  opening=np.concatenate([c.opening for c in chunks]), events=np.concatenate([c.events for c in chunks]))


@pytest.mark.parametrize("players", [2, 4, 10, 16])
@pytest.mark.parametrize("preset", ["classic", "classic-house"])
def test_invariants_random_games(preset: str, players: int) -> None:
    overrides = ["deck_copies=2"] if players == 16 else None
    config = RunConfig.build(rules=preset, players=players, strategies=lineup(players), seed=11, overrides=overrides)
    played = play_refereed(config, players)
    rec = played.rec
    # every rule path that the erratic lineup should reach was reached
    assert rec[:, L.R_UNO_PENALTIES].sum() > 0
    if config.rules.wd4_challenge:
        assert rec[:, L.R_CHALLENGES_WON].sum() > 0
        assert (rec[:, L.R_CHALLENGES] > rec[:, L.R_CHALLENGES_WON]).any()
    reshuffles = (played.events[:, 1] == L.EV_RESHUFFLE).sum()
    assert reshuffles > 0
    assert np.all(rec[:, L.R_WINNER] < players)


PARTY_ACTIONS_DECK = str(Path(__file__).parent / "data" / "classic_plus_party_actions.toml")


@pytest.mark.parametrize("players", [2, 4, 10])
@pytest.mark.parametrize("preset", ["classic", "classic-house"])
def test_invariants_with_point_taken_and_links(preset: str, players: int) -> None:
    """A-4, P-6, P-7 on the classic deck plus Point Taken and Wild Drawn Together; under classic-house a
    turn's draw until playable is echoed once over a link, reshuffles between its draws included (T-4, T-5)."""
    config = RunConfig.build(
        rules=preset, players=players, strategies=lineup(players), seed=12, deck=PARTY_ACTIONS_DECK,
        overrides=["max_turns=1000"],
    )
    played = play_refereed(config, players)
    assert played.rec[:, L.R_POINT_TAKEN_DRAWS].sum() > 0 and played.rec[:, L.R_LINK_ECHO_DRAWS].sum() > 0


PARTY_OPTIONS = {
    "defaults": [],
    "options": ["pileup_flipped_wilds=mini_pile", "link_shares_pileup=true", "point_taken_breaks_link_first=false",
                "speed_play_error_rate=0.03", "relink_must_differ=true"],
}


@pytest.mark.parametrize("options", list(PARTY_OPTIONS))
@pytest.mark.parametrize("players", [2, 6, 12, 16])
def test_invariants_party(players: int, options: str) -> None:
    """The party preset in full (every party card, speed play): all 224 cards accounted for
    after every step (mini pile included), legal plays, additions and jump-ins, turn order
    after jump-ins and reverses, with the defaults and with options flipped."""
    config = RunConfig.build(
        rules="party", players=players, strategies=lineup(players), seed=13,
        overrides=["max_turns=1500", *PARTY_OPTIONS[options]],
    )
    played = play_refereed(config, players)
    rec = played.rec
    assert rec[:, L.R_PILEUPS].sum() > 0 and rec[:, L.R_POINT_TAKEN_DRAWS].sum() > 0
    assert rec[:, L.R_JUMP_INS].sum() > 0
    assert (rec[:, L.R_WRONG_JUMP_INS].sum() > 0) == (options == "options")
    # every jump-in counted in the records is a traced (and refereed) jump-in play
    jumps = played.events[(played.events[:, 1] == L.EV_PLAY) & (played.events[:, 5] == 1)]
    assert len(jumps) == rec[:, L.R_JUMP_INS].sum()


def _classic_log() -> tuple[RunConfig, object]:
    config = RunConfig.build(rules="classic", players=4, strategies="random", seed=5)
    return config, Engine(config, trace=True).play(0, 20)


def test_referee_catches_a_tampered_log() -> None:
    config, played = _classic_log()
    i = np.flatnonzero(played.events[:, 1] == L.EV_PLAY)[5]
    seat, game = played.events[i, 2], played.events[i, 0]
    played.events[i, 3] = 13  # a red Point Taken, a card the classic deck does not have
    with pytest.raises(AssertionError, match=rf"game {game}: seat {seat} played 13 it does not hold"):
        check_played(config.rules, 4, played)


def test_referee_catches_a_wrong_turn_order() -> None:
    config, played = _classic_log()
    i = np.flatnonzero(played.events[:, 1] == L.EV_TURN)[7]
    right, game = played.events[i, 2], played.events[i, 0]
    played.events[i, 2] = (right + 1) % 4
    with pytest.raises(AssertionError, match=rf"game {game}: turn of seat {(right + 1) % 4}, expected {right}"):
        check_played(config.rules, 4, played)


def test_referee_catches_a_catch_without_a_forgotten_call() -> None:
    """U-1: a player may be caught only after forgetting to call UNO."""
    config = RunConfig.build(rules="classic", players=4, seed=5,
                             strategies="random(forget_uno_rate=1.0, catch_uno_rate=1.0)")
    played = Engine(config, trace=True).play(0, 20)
    forgets = np.flatnonzero(played.events[:, 1] == L.EV_UNO_FORGET)
    assert len(forgets) > 0
    i = forgets[0]
    played.events[i, 1] = L.EV_SKIP  # the forgotten call erased: the catch that follows is unfounded
    with pytest.raises(AssertionError, match=r"was caught not calling UNO, but it did not forget"):
        check_played(config.rules, 4, played)


def test_referee_follows_the_draw_pile() -> None:
    """T-5: a card drawn must be in the draw pile; a reshuffle moves exactly the cards under the top."""
    config, played = _classic_log()
    draws = np.flatnonzero(played.events[:, 1] == L.EV_DRAW)
    tampered = played.events.copy()
    tampered[draws[3], 3] = 13  # drawn a card that no pile holds
    played.events = tampered
    with pytest.raises(AssertionError, match=r"drew 13, which is not in the draw pile"):
        check_played(config.rules, 4, played)
    config = RunConfig.build(rules="classic", players=10, strategies="random", seed=5)  # 38 cards to draw: reshuffles
    played = Engine(config, trace=True).play(0, 20)
    reshuffles = np.flatnonzero(played.events[:, 1] == L.EV_RESHUFFLE)
    assert len(reshuffles) > 0
    assert check_played(config.rules, 10, played) == 20
    played.events[reshuffles[0], 4] += 1
    with pytest.raises(AssertionError, match=r"cards reshuffled, but \d+ lay under the top card"):
        check_played(config.rules, 10, played)


HOUSE_OPTIONS = {
    "stack_same_face": ["stacking=same_face"],
    "stack_mixed": ["stacking=mixed"],
    "stack_plus4_on_plus2": ["stacking=plus4_on_plus2"],
    "seven_zero": ["seven_zero=true"],
    "action_jump_ins": ["speed_play=true", "jump_in_cards=numbers_and_actions", "speed_play_error_rate=0.02"],
    "no_action_out": ["go_out_on_action=false"],
    "all": ["stacking=mixed", "seven_zero=true", "speed_play=true", "jump_in_cards=numbers_and_actions", "go_out_on_action=false"],
}
HOUSE_COUNTER = {"stack": L.R_STACKS, "seven": L.R_SEVEN_SWAPS, "action": L.R_ACTION_JUMP_INS, "no_action": L.R_BLOCKED}


@pytest.mark.parametrize("option", list(HOUSE_OPTIONS))
@pytest.mark.parametrize("players", [2, 6, 16])
@pytest.mark.parametrize("preset", ["classic", "party"])
def test_invariants_house_rules(preset: str, players: int, option: str) -> None:
    """H-1..H-4 over random games with the erratic line-up: every card accounted for and no hand below
    zero after every step (the engine's check), turns within ``max_turns``, the winner's hand empty,
    the counters in step with the traced events, and under ``go_out_on_action=false`` no round won
    on an action card or a wild."""
    copies = RuleSet.preset(preset).copies_needed(players)
    config = RunConfig.build(rules=preset, players=players, strategies=lineup(players), seed=14,
                             overrides=["max_turns=1500", f"deck_copies={copies}", *HOUSE_OPTIONS[option]])
    played = Engine(config, trace=True, check=True).play(0, 200)
    rec, ev, points = played.rec, played.events, played.points
    assert np.all(rec[:, L.R_TURNS] <= config.rules.max_turns) and np.all(points >= 0)
    won = rec[:, L.R_TRUNCATED] == 0
    assert np.all(points[won, rec[won, L.R_WINNER]] == 0)
    assert np.all(rec[:, L.R_STACK_CARDS] <= rec[:, L.R_DRAWN]) and np.all(rec[:, L.R_STACK_MAX] <= rec[:, L.R_DRAWN])
    kinds = ev[:, 1]
    assert (kinds == L.EV_STACK).sum() == rec[:, L.R_STACKS].sum()
    assert (kinds == L.EV_SWAP).sum() == rec[:, L.R_SEVEN_SWAPS].sum() and (kinds == L.EV_PASS).sum() == rec[:, L.R_ZERO_PASSES].sum()
    jumps = ev[(kinds == L.EV_PLAY) & (ev[:, 5] == 1)]
    assert len(jumps) == rec[:, L.R_JUMP_INS].sum()
    assert (CARD_FACE[jumps[:, 3]] > 9).sum() == rec[:, L.R_ACTION_JUMP_INS].sum()
    for key, col in HOUSE_COUNTER.items():
        if any(o.startswith({"stack": "stacking", "seven": "seven_zero", "action": "jump_in_cards", "no_action": "go_out"}[key])
               for o in HOUSE_OPTIONS[option]):
            assert rec[:, col].sum() > 0, f"{option}: no {key} counted"
        elif key != "action":
            assert rec[:, col].sum() == 0
    if "go_out_on_action=false" in HOUSE_OPTIONS[option]:
        last: dict[int, tuple[int, int]] = {}  # a mini pile addition is no play: it may end the round on any card
        for g, kind, card in ev[:, [0, 1, 3]]:
            if kind in (L.EV_PLAY, L.EV_PILE_ADD):
                last[int(g)] = (int(kind), int(card))
            elif kind == L.EV_WIN:
                how, card = last[int(g)]
                assert how == L.EV_PILE_ADD or CARD_FACE[card] <= 9, f"game {g} won on {card}"
