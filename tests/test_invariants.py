"""Invariants over random games: every card accounted for after every
step (the engine's own check, run after each slot step), only legal plays and
correct turn order (the independent referee re-plays every traced game), with
the house rules (§10) on as well; tampered logs show that the referee rejects
what the rules forbid.

Strategies are mixed per seat and include a deliberately erratic ``random``
(draws by choice, keeps drawn cards, bluffs, challenges, forgets and catches
UNO) so that every classic rule path is visited.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from referee import Referee, check_played, colour, is_number, penalty_face

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
    "jump_ins": ["speed_play=true"],
    "action_jump_ins": ["speed_play=true", "jump_in_cards=numbers_and_actions", "speed_play_error_rate=0.02"],
    "no_action_out": ["go_out_on_action=false"],
    "all": ["stacking=mixed", "seven_zero=true", "speed_play=true", "jump_in_cards=numbers_and_actions", "go_out_on_action=false"],
    "mix": ["stacking=plus4_on_plus2", "seven_zero=true", "speed_play=true", "speed_play_error_rate=0.02", "last_card_draws=true"],
}
HOUSE_COUNTER = {"stack": L.R_STACKS, "seven": L.R_SEVEN_SWAPS, "action": L.R_ACTION_JUMP_INS, "no_action": L.R_BLOCKED}


@pytest.mark.parametrize("option", list(HOUSE_OPTIONS))
@pytest.mark.parametrize("players", [2, 6, 16])
@pytest.mark.parametrize("preset", ["classic", "classic-house", "party"])
def test_invariants_house_rules(preset: str, players: int, option: str) -> None:
    """H-1..H-4 over random games with the erratic line-up (a seed per table size): every card accounted
    for and no hand below zero after every step (the engine's check), every game re-played by the
    referee from the rule book, turns within ``max_turns``, the winner's hand empty, the counters in
    step with the traced events, and under ``go_out_on_action=false`` no round won on an action card
    or a wild."""
    copies = RuleSet.preset(preset).copies_needed(players)
    config = RunConfig.build(rules=preset, players=players, strategies=lineup(players), seed=14 + players,
                             overrides=["max_turns=1500", f"deck_copies={copies}", *HOUSE_OPTIONS[option]])
    played = Engine(config, trace=True, check=True).play(0, 200)
    assert check_played(config.rules, players, played) == 200
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
        last: dict[int, int] = {}  # the last card played or added to a mini pile: a number card (H-4)
        for g, kind, card in ev[:, [0, 1, 3]]:
            if kind in (L.EV_PLAY, L.EV_PILE_ADD):
                last[int(g)] = int(card)
            elif kind == L.EV_WIN:
                assert CARD_FACE[last[int(g)]] <= 9, f"game {g} won on {last[int(g)]}"


def _by_game(played: Played) -> Played:
    """The event rows sorted by game (each game's rows stay in order), so that neighbouring rows are one game's."""
    played.events = played.events[np.argsort(played.events[:, 0], kind="stable")]
    return played


def _house_log(overrides: list[str], players: int = 4, games: int = 60, seed: int = 15, rules: str = "classic"):
    """A traced house-rule run, its rows sorted by game, that the referee accepts untampered."""
    config = RunConfig.build(rules=rules, players=players, strategies=lineup(players), seed=seed, overrides=overrides)
    played = _by_game(Engine(config, trace=True).play(0, games))
    assert check_played(config.rules, players, played) == games
    return config, played


def _replay(config: RunConfig, played: Played):
    """(row index, the referee's table just before that row) for every event row, game by game."""
    ev = played.events
    for g in range(len(played.rec)):
        ref = Referee(config.rules, config.players, played.opening[g])
        for i in np.flatnonzero(ev[:, 0] == played.first + g):
            yield int(i), ref
            ref.event(*(int(x) for x in ev[i, 1:]))


@pytest.mark.parametrize("stacking", ["same_face", "mixed", "plus4_on_plus2"])
def test_referee_house_rules_at_max_turns(stacking: str) -> None:
    """H-1 with E-5: short rounds stop on chains too (a victim offered a stack once ``max_turns`` turns
    are taken); the referee accepts those stops, and the stacks and challenges before them."""
    config = RunConfig.build(rules="classic", players=4, strategies=lineup(4), seed=16,
                             overrides=["max_turns=25", f"stacking={stacking}", "speed_play=true",
                                        "jump_in_cards=numbers_and_actions"])
    played = Engine(config, trace=True, check=True).play(0, 300)
    assert check_played(config.rules, 4, played) == 300
    kinds = played.events[:, 1]
    assert sum(kinds[i] == L.EV_TRUNCATE and ref.chain is not None for i, ref in _replay(config, played)) > 0


def _first_stack(config: RunConfig, played: Played, stacked: int, on: int) -> int:
    """The row of the first stack of a ``stacked`` on an ``on`` (12: a Draw Two, 57: a Wild Draw Four)."""
    ev = played.events
    return next(i for i, ref in _replay(config, played)
                if ev[i, 1] == L.EV_STACK and penalty_face(ev[i, 3]) == stacked and penalty_face(ref.top) == on)


@pytest.mark.parametrize(("stacking", "stacked", "on", "tampered", "message"), [
    ("same_face", 12, 12, 57, r"stacked 57 on \d+ \(H-1, stacking=same_face\)"),  # no Wild Draw Four on a Draw Two
    ("mixed", 57, 57, 12, r"stacked 12 on 57 \(H-1, stacking=mixed\)"),  # a Draw Two never goes on a Wild Draw Four
    ("plus4_on_plus2", 57, 12, 10, r"stacked 10 on \d+ \(H-1"),  # a Skip (red) does not turn a penalty aside
    ("mixed", 12, 12, 58, r"stacked 58 on \d+ \(H-1"),  # a Wild Pile Up is no stacking card
])
def test_referee_rejects_a_stack_the_rules_forbid(stacking: str, stacked: int, on: int, tampered: int, message: str) -> None:
    """H-1: a stacked card changed in the log (the stack and its play) to one the stacking value forbids."""
    config, played = _house_log([f"stacking={stacking}"])
    i = _first_stack(config, played, stacked, on)
    assert played.events[i + 1, 1] == L.EV_PLAY
    played.events[i : i + 2, 3] = tampered
    with pytest.raises(AssertionError, match=message):
        check_played(config.rules, 4, played)


def test_referee_rejects_a_stack_on_a_wild_draw_four_under_plus4_on_plus2() -> None:
    """H-1: under ``plus4_on_plus2`` nothing goes on a Wild Draw Four; a log where a Wild Draw Four went on one
    (legal under ``mixed``) is refused."""
    config, played = _house_log(["stacking=mixed"])
    _first_stack(config, played, 57, 57)  # the log holds a Wild Draw Four stacked on a Wild Draw Four
    with pytest.raises(AssertionError, match=r"stacked 57 on 57 \(H-1, stacking=plus4_on_plus2\)"):
        check_played(config.rules.replace(stacking="plus4_on_plus2"), 4, played)


def test_referee_checks_the_chain_total_and_its_take() -> None:
    """H-1: each stack adds its own 2 or 4 to the total; the victim who does not stack draws all of it."""
    config, played = _house_log(["stacking=same_face"])
    ev = played.events
    i = int(np.flatnonzero(ev[:, 1] == L.EV_STACK)[0])
    played.events = ev.copy()
    played.events[i, 4] += 2
    with pytest.raises(AssertionError, match=r"chain total \d+ after a stack on \d+"):
        check_played(config.rules, 4, played)
    # the last draw of a chain's take, after a stack (4 cards or more), erased from the log
    ends = (ev[:, 1] == L.EV_SKIP) & (np.roll(ev[:, 1], 1) == L.EV_DRAW) & np.isin(np.roll(ev[:, 4], 1), [L.DR_DRAW_TWO, L.DR_WD4])
    j = int(np.flatnonzero(ends & (np.arange(len(ev)) > i))[0])
    assert ev[j, 0] == ev[i, 0] and not (ev[i:j, 1] == L.EV_TURN).any()  # the take of this stack's chain
    played.events = ev.copy()
    played.events[j - 1, 1] = L.EV_SKIP
    with pytest.raises(AssertionError, match=r"forced draws outstanding|forced draws never made"):
        check_played(config.rules, 4, played)


def test_referee_lets_only_the_wild_draw_four_on_top_be_challenged() -> None:
    """H-1 with W-2: a challenge names the player of the Wild Draw Four on top, never of one under it."""
    config, played = _house_log(["stacking=mixed"], games=150)
    ev = played.events
    i = next(i for i in np.flatnonzero(ev[:, 1] == L.EV_CHALLENGE) if ev[i - 1, 1] == L.EV_PLAY and ev[i - 2, 1] == L.EV_STACK)
    stacker = ev[i, 5]
    first = next(r[2] for r in ev[i - 3 :: -1] if r[1] == L.EV_PLAY)  # the player of the card stacked on
    assert first != stacker
    played.events[i, 5] = first
    with pytest.raises(AssertionError, match=rf"challenged the Wild Draw Four of seat {first}, the one on top is seat {stacker}'s"):
        check_played(config.rules, 4, played)


def test_referee_rejects_a_seven_swapped_with_its_own_player() -> None:
    """H-2: a 7 exchanges hands with another seat of the round, never its player's own."""
    config, played = _house_log(["seven_zero=true"])
    i = int(np.flatnonzero(played.events[:, 1] == L.EV_SWAP)[0])
    seat = played.events[i, 2]
    played.events[i, 4] = seat
    with pytest.raises(AssertionError, match=rf"seat {seat} exchanged hands with seat {seat} \(H-2\)"):
        check_played(config.rules, 4, played)


def test_referee_follows_the_hands_of_seven_zero() -> None:
    """H-2: the referee's hands follow every exchange and passing: a 7 swapped with another seat than the
    log says, a 0 passed the wrong way, or a 7 that exchanged nothing is a disagreement."""
    config, played = _house_log(["seven_zero=true"])
    ev = played.events
    swap = int(np.flatnonzero(ev[:, 1] == L.EV_SWAP)[0])
    seat, target = ev[swap, 2], ev[swap, 4]
    played.events = ev.copy()
    played.events[swap, 4] = next(p for p in range(4) if p not in (seat, target))
    with pytest.raises(AssertionError):
        check_played(config.rules, 4, played)
    played.events = ev.copy()
    played.events[swap, 1] = L.EV_SKIP
    with pytest.raises(AssertionError, match=r"before the player of the 7 exchanged hands \(H-2\)"):
        check_played(config.rules, 4, played)
    passing = int(np.flatnonzero(ev[:, 1] == L.EV_PASS)[0])
    played.events = ev.copy()
    played.events[passing, 4] = -ev[passing, 4]
    with pytest.raises(AssertionError, match=r"the hands passed in direction -?1, the direction of play is -?1 \(H-2\)"):
        check_played(config.rules, 4, played)


ACTION_JUMPS = ["speed_play=true", "jump_in_cards=numbers_and_actions"]


@pytest.mark.parametrize("preset", ["classic", "classic-house"])
def test_referee_rejects_an_action_jump_in_by_the_cards_player(preset: str) -> None:
    """H-3: the player who put an action card on top cannot jump in on it; with ``jump_in_cards = "numbers"``
    nobody jumps in on it at all."""
    config, played = _house_log(ACTION_JUMPS, rules=preset)
    ev = played.events
    i = int(np.flatnonzero((ev[:, 1] == L.EV_PLAY) & (ev[:, 5] == 1) & (CARD_FACE[ev[:, 3]] > 9))[0])
    player = next(r[2] for r in ev[i - 1 :: -1] if r[1] == L.EV_PLAY)  # who put the card on top
    with pytest.raises(AssertionError, match=r"a jump-in with no card open to one \(P-2, H-3\)"):
        check_played(config.rules.replace(jump_in_cards="numbers"), 4, played)
    played.events[i, 2] = player
    with pytest.raises(AssertionError, match=rf"seat {player} jumped in with {ev[i, 3]}"):
        check_played(config.rules, 4, played)


def test_referee_continues_the_turn_order_from_the_jumper() -> None:
    """H-3: a Skip jumped in skips the player after the jumper; the turn going to that player is refused."""
    config, played = _house_log(ACTION_JUMPS, players=3, games=100)
    ev = played.events
    i = next(i for i in np.flatnonzero((ev[:, 1] == L.EV_PLAY) & (ev[:, 5] == 1) & (CARD_FACE[ev[:, 3]] == 10))
             if list(ev[i + 1 : i + 3, 1]) == [L.EV_SKIP, L.EV_TURN] and ev[i, 0] == ev[i + 2, 0])
    jumper, nxt = ev[i, 2], ev[i + 2, 2]
    (skipped,) = {0, 1, 2} - {jumper, nxt}  # three players: the one between the jumper and the next
    assert ev[i + 1, 2] == skipped
    played.events[i + 2, 2] = skipped
    with pytest.raises(AssertionError, match=rf"turn of seat {skipped}, expected {nxt}"):
        check_played(config.rules, 3, played)


def _blocked_draw(config: RunConfig, played: Played) -> tuple[int, int]:
    """The first turn draw of a player whose lone card is an action card or a wild, and that card."""
    ev = played.events
    for i, ref in _replay(config, played):
        seat = ev[i, 2]
        if ev[i, 1] == L.EV_DRAW and ev[i, 4] == L.DR_TURN and ref.turn_draw is None and ref.hands[seat].total() == 1:
            (last,) = +ref.hands[seat]
            if not is_number(last):
                return i, last
    raise AssertionError("no turn with a lone action card or wild")


def test_referee_rejects_going_out_on_an_action_card_or_a_wild() -> None:
    """H-4: the draw of a player whose lone card is an action card or a wild, changed into the play of that
    card, is refused; so is a ``blocked_finishes`` record that does not count those turns."""
    config, played = _house_log(["go_out_on_action=false"])
    ev = played.events
    i, last = _blocked_draw(config, played)
    played.events = ev.copy()
    played.events[i, 1], played.events[i, 3], played.events[i, 4] = L.EV_PLAY, last, max(colour(last), 0)
    with pytest.raises(AssertionError, match=rf"went out on {last}, not a number card \(H-4\)"):
        check_played(config.rules, 4, played)
    played.events = ev
    played.rec[ev[i, 0], L.R_BLOCKED] += 1
    with pytest.raises(AssertionError, match=r"blocked_finishes: referee \d+, record \d+"):
        check_played(config.rules, 4, played)


def test_referee_rejects_a_last_action_card_added_to_a_mini_pile() -> None:
    """H-4 with P-5: a round won by adding a last wild or action card to the mini pile, legal by default, is
    refused under ``go_out_on_action=false``."""
    config, played = _house_log(["max_turns=1500"], players=10, games=150, rules="party")
    ev = played.events
    wins = np.flatnonzero((ev[:, 1] == L.EV_PILE_ADD) & (np.roll(ev[:, 1], -1) == L.EV_WIN) & (CARD_FACE[ev[:, 3]] > 9))
    g = int(ev[wins[0], 0])
    game = Played(first=g, rec=played.rec[g : g + 1], points=played.points[g : g + 1], opening=played.opening[g : g + 1],
                  events=ev[ev[:, 0] == g])
    assert check_played(config.rules, 10, game) == 1
    seat, card = ev[wins[0], 2], ev[wins[0], 3]
    with pytest.raises(AssertionError, match=rf"game {g}: seat {seat} added its last card {card}, not a number card \(H-4\)"):
        check_played(config.rules.replace(go_out_on_action=False), 10, game)
