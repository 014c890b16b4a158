"""Scenario tests of the classic rules, one (family) per rule id of docs/rules.md.

Turn-level rules (T-, A-, W-, U-, E-) put an exact position on the table with
:func:`unosim.engine.position.play_from`, answer a short script of decisions and
compare the whole resulting table (hands, piles, top card, colour, whose turn,
direction, phase, counters) with what docs/rules.md says. Set-up rules (S-1, S-3,
S-4) deal games with the real engine and inspect each game's state at its first
decision together with its trace.

Draw piles hold one card kind wherever the card drawn matters, so every
expected state is exact.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine, StrategyError
from unosim.engine.position import Position, Snapshot, card_id, play_from
from unosim.game.cards import CARD_COLOUR, CARD_FACE, CARD_NAMES, COLOUR_NAMES
from unosim.game.kernels import layout as L
from unosim.strategy import registry

NO_COUNTERS = {"challenges": 0, "challenges_won": 0, "uno_penalties": 0, "truncated": 0}
EVENT_NAMES = {getattr(L, name): name[3:] for name in dir(L) if name.startswith("EV_")}
SEED = 11


# ---------------------------------------------------------------- helpers
def table(snap: Snapshot) -> dict[str, Any]:
    """The observable state of a snapshot, as one comparable dict."""
    return {
        "hands": snap.hands,
        "top": snap.top,
        "colour": snap.colour,
        "turn": snap.turn,
        "direction": snap.direction,
        "phase": snap.phase,
        "draw": snap.draw,
        "discard": snap.discard,
        "turns": snap.turns,
        "cards_drawn": snap.cards_drawn,
        "winner": snap.winner,
        "finished": snap.finished,
        "counters": snap.counters,
    }


def expect(
    hands: list[dict[str, int]],
    top: str,
    turn: int,
    *,
    draw: dict[str, int],
    discard: dict[str, int],
    colour: str | None = None,
    direction: int = 1,
    phase: str = "turn",
    turns: int = 1,
    cards_drawn: int = 0,
    winner: int | None = None,
    finished: bool = False,
    **counters: int,
) -> dict[str, Any]:
    """The expected :func:`table`; ``colour`` defaults to the top card's colour."""
    return {
        "hands": hands,
        "top": top,
        "colour": colour if colour is not None else COLOUR_NAMES[CARD_COLOUR[card_id(top)]],
        "turn": turn,
        "direction": direction,
        "phase": phase,
        "draw": draw,
        "discard": discard,
        "turns": turns,
        "cards_drawn": cards_drawn,
        "winner": winner,
        "finished": finished,
        "counters": {**NO_COUNTERS, **counters},
    }


def events(snap_or_rows: Snapshot | np.ndarray, kind: str) -> list[tuple[int, str | None, int, int]]:
    """Trace rows of one event kind as ``(seat, card name, a, b)``."""
    rows = snap_or_rows.events if isinstance(snap_or_rows, Snapshot) else snap_or_rows
    code = getattr(L, f"EV_{kind}")
    return [
        (int(r[2]), CARD_NAMES[r[3]] if r[3] >= 0 else None, int(r[4]), int(r[5]))
        for r in rows
        if r[1] == code
    ]


def draws(snap: Snapshot) -> list[tuple[int, str, str]]:
    """Every card drawn, as ``(seat, card, reason)``."""
    return [(seat, card, L.REASON_NAMES[a]) for seat, card, a, _ in events(snap, "DRAW")]


def refused(position: Position, script: list[tuple[Any, ...]], **kwargs: Any) -> None:
    """Assert that the engine refuses the scripted play as illegal."""
    with pytest.raises(StrategyError, match="may not be played"):
        play_from(position, script=script, **kwargs)


# ================================================================ set-up
CLASSIC_DECK = RunConfig.build(players=2, games=1).rules.load_deck().array(1).astype(np.int64)


class _AskedEveryTurn(registry.resolve("random")):
    """``random``, asked even on a turn with nothing to play."""

    forced_draw_uniforms = None


def first_decisions(n_games: int, *, players: int = 4, rules: str = "classic", **overrides: Any) -> tuple[Any, np.ndarray]:
    """Deal games 0..n-1 of a traced run; return the buffers at each game's first decision, and the trace."""
    cfg = RunConfig.build(rules=rules, players=players, seed=SEED, games=n_games, overrides=overrides or None)
    # compiled=False: the random strategy is asked in Python, so every slot waits at its first decision;
    # with its forced_draw_uniforms switched off, also a first turn with nothing to play
    engine = Engine(cfg, batch_size=n_games, trace=True, check=True, compiled=False)
    engine.set_strategies([_AskedEveryTurn()], ["random"], [0] * players)
    run = engine.start(0, n_games)
    run.advance()
    b = run.buffers
    assert b.game.tolist() == list(range(n_games))
    return b, run.events[0]


def game_rows(trace: np.ndarray, game: int) -> np.ndarray:
    """Trace rows of one game."""
    return trace[trace[:, 0] == game]


def start_card(trace: np.ndarray, game: int) -> str:
    """Name of the start card of ``game``."""
    ((_, card, _, _),) = events(game_rows(trace, game), "START")
    return card


def first_game(trace: np.ndarray, n_games: int, predicate: Any) -> int:
    """The first game whose trace rows satisfy ``predicate``."""
    for g in range(n_games):
        if predicate(game_rows(trace, g)):
            return g
    raise AssertionError("no game of the sample has the wanted start; enlarge the sample")


def starts_with(kind: str) -> Any:
    """Predicate: the start card is a ``kind`` ('number', 'skip', 'reverse', 'draw two', 'wild') and nothing was put back."""

    def pred(rows: np.ndarray) -> bool:
        if events(rows, "RETURN"):
            return False
        ((_, card, _, _),) = events(rows, "START")
        if kind == "number":
            return card_id(card) < 56 and CARD_FACE[card_id(card)] <= 9
        return card == "wild" if kind == "wild" else card_id(card) < 56 and card.endswith(kind)

    return pred


def slot_state(b: Any, s: int) -> dict[str, Any]:
    """The state of slot ``s`` at its first decision, in the terms of the tests."""
    slot = b.slot[s]
    hands = b.hands[s].astype(np.int64)
    return {
        "phase": L.PHASE_NAMES[slot[L.F_PHASE]],
        "turn": int(slot[L.F_TURN]) if slot[L.F_PHASE] == L.PH_TURN else None,
        "actor": int(slot[L.F_ACTOR]) if slot[L.F_PHASE] == L.PH_COLOUR else None,
        "direction": int(slot[L.F_DIR]),
        "top": CARD_NAMES[slot[L.F_TOP]],
        "colour": int(slot[L.F_COLOUR]),
        "hand_sizes": b.hsize[s].tolist(),
        "draw_n": int(slot[L.F_DRAW_N]),
        "disc_n": int(slot[L.F_DISC_N]),
        "turns": int(slot[L.F_TURNS]),
        "cards_drawn": int(slot[L.F_DRAWN]),
        "hands": hands,
        "draw": b.piles[s, L.DRAW].astype(np.int64),
    }


def opening_counts(b: Any, s: int) -> np.ndarray:
    """Per-seat card counts of the opening hands of slot ``s``."""
    players = b.opening.shape[1]
    out = np.zeros((players, CLASSIC_DECK.size), np.int64)
    for p in range(players):
        np.add.at(out[p], b.opening[s, p].astype(np.int64), 1)
    return out


def assert_rest_is_draw_pile(st: dict[str, Any]) -> None:
    """S-1: every card not in a hand and not on top is in the draw pile (the discard pile is empty)."""
    rest = CLASSIC_DECK - st["hands"].sum(axis=0)
    rest[card_id(st["top"])] -= 1
    assert st["disc_n"] == 0
    assert st["draw"].tolist() == rest.tolist()
    assert st["draw_n"] == rest.sum()


@pytest.mark.parametrize(("players", "hand_size"), [(2, 7), (4, 7), (10, 7), (4, 5)])
def test_S1_deal_hand_size_cards_each_rest_is_draw_pile(players: int, hand_size: int) -> None:
    """S-1: each player gets ``hand_size`` cards; the rest (minus the start card) is the draw pile."""
    n = 60
    b, trace = first_decisions(n, players=players, hand_size=hand_size)
    checked = 0
    for g in range(n):
        if not starts_with("number")(game_rows(trace, g)):
            continue
        st = slot_state(b, g)
        assert st["hand_sizes"] == [hand_size] * players
        assert (st["hands"] == opening_counts(b, g)).all()
        assert_rest_is_draw_pile(st)
        assert st["draw_n"] == 108 - players * hand_size - 1
        assert len(events(game_rows(trace, g), "DEAL")) == players
        checked += 1
    assert checked > n // 2
    assert len({bytes(b.opening[s, 0]) for s in range(n)}) == n  # every deal differs


def test_S3_number_start_card() -> None:
    """S-3/S-4: a number start card: no effect, the dealer's left starts, clockwise."""
    n = 40
    b, trace = first_decisions(n)
    g = first_game(trace, n, starts_with("number"))
    st = slot_state(b, g)
    dealer = int(b.slot[g, L.F_DEALER])
    top = st["top"]
    assert st["phase"] == "turn" and st["turn"] == (dealer + 1) % 4 and st["direction"] == 1
    assert st["colour"] == CARD_COLOUR[card_id(top)]
    assert st["hand_sizes"] == [7] * 4 and (st["hands"] == opening_counts(b, g)).all()
    assert st["turns"] == 0 and st["cards_drawn"] == 0
    assert_rest_is_draw_pile(st)
    assert events(game_rows(trace, g), "SKIP") == []


def test_S3_skip_start_card_skips_the_first_player() -> None:
    """S-3: a Skip start card skips the first player (the dealer's left); the next one starts, clockwise."""
    n = 60
    b, trace = first_decisions(n)
    g = first_game(trace, n, starts_with("skip"))
    st = slot_state(b, g)
    dealer = int(b.slot[g, L.F_DEALER])
    assert st["phase"] == "turn" and st["turn"] == (dealer + 2) % 4 and st["direction"] == 1
    assert events(game_rows(trace, g), "SKIP") == [((dealer + 1) % 4, None, 0, 0)]
    assert st["colour"] == CARD_COLOUR[card_id(st["top"])]
    assert st["hand_sizes"] == [7] * 4 and (st["hands"] == opening_counts(b, g)).all()
    assert st["turns"] == 0 and st["cards_drawn"] == 0
    assert_rest_is_draw_pile(st)


def test_S3_reverse_start_card_dealers_right_starts_counter_clockwise() -> None:
    """S-3: a Reverse start card counts as played: the dealer's right starts, counter-clockwise."""
    n = 60
    b, trace = first_decisions(n)
    g = first_game(trace, n, starts_with("reverse"))
    st = slot_state(b, g)
    dealer = int(b.slot[g, L.F_DEALER])
    assert st["phase"] == "turn" and st["turn"] == (dealer - 1) % 4 and st["direction"] == -1
    assert events(game_rows(trace, g), "SKIP") == []
    assert st["colour"] == CARD_COLOUR[card_id(st["top"])]
    assert st["hand_sizes"] == [7] * 4 and (st["hands"] == opening_counts(b, g)).all()
    assert st["turns"] == 0 and st["cards_drawn"] == 0
    assert_rest_is_draw_pile(st)


def test_S3_draw_two_start_card_first_player_draws_two_and_loses_turn() -> None:
    """S-3: a Draw Two start card: the first player draws 2 and loses the turn; the next one starts."""
    n = 60
    b, trace = first_decisions(n)
    g = first_game(trace, n, starts_with("draw two"))
    st = slot_state(b, g)
    dealer = int(b.slot[g, L.F_DEALER])
    first = (dealer + 1) % 4
    rows = game_rows(trace, g)
    drawn = [(seat, card, a) for seat, card, a, _ in events(rows, "DRAW")]
    assert [(seat, a) for seat, _, a in drawn] == [(first, L.DR_START)] * 2
    assert events(rows, "SKIP") == [(first, None, 0, 0)]
    assert st["phase"] == "turn" and st["turn"] == (dealer + 2) % 4 and st["direction"] == 1
    expected_hands = opening_counts(b, g)
    for _, card, _ in drawn:
        expected_hands[first, card_id(card)] += 1
    assert (st["hands"] == expected_hands).all()
    assert st["hand_sizes"] == [9 if p == first else 7 for p in range(4)]
    assert st["draw_n"] == 108 - 28 - 1 - 2 and st["cards_drawn"] == 2 and st["turns"] == 0
    assert_rest_is_draw_pile(st)


def test_S3_wild_start_card_first_player_chooses_colour() -> None:
    """S-3 (first_wild=first_player_chooses, classic): the first player names the colour, then plays."""
    n = 200
    b, trace = first_decisions(n)
    g = first_game(trace, n, starts_with("wild"))
    st = slot_state(b, g)
    dealer = int(b.slot[g, L.F_DEALER])
    first = (dealer + 1) % 4
    assert st["phase"] == "colour" and st["actor"] == first and st["colour"] == -1
    assert st["top"] == "wild" and st["direction"] == 1 and st["turns"] == 0
    assert st["hand_sizes"] == [7] * 4
    assert_rest_is_draw_pile(st)
    # the colour decision, answered by a scripted strategy on the same deal
    cfg = RunConfig.build(
        players=4, seed=SEED, games=n, strategies="unosim.engine.position:ScriptedStrategy(script=[('colour', 'green')])"
    )
    engine = Engine(cfg, batch_size=1, trace=True, check=True)
    run = engine.start(g, 1)
    run.advance()
    run.decide()
    run.advance()
    after = slot_state(run.buffers, 0)
    assert after["phase"] == "turn" and after["turn"] == first and after["direction"] == 1
    assert after["colour"] == COLOUR_NAMES.index("green") and after["top"] == "wild"
    assert after["turns"] == 0 and (after["hands"] == st["hands"]).all()
    assert events(run.events[1], "COLOUR") == [(first, None, COLOUR_NAMES.index("green"), 0)]


@pytest.mark.parametrize(
    ("rules", "overrides", "returned"),
    [
        ("classic", {"first_wild": "reflip"}, "wild"),
        ("classic-house", {}, "wild"),
        ("classic", {}, "wild draw four"),
        ("classic-house", {}, "wild draw four"),
    ],
)
def test_S3_wild_start_card_put_back_and_reflipped(rules: str, overrides: dict[str, Any], returned: str) -> None:
    """S-3: a Wild Draw Four start card (and a Wild under first_wild=reflip) goes back into the deck; another is flipped."""
    n = 400
    b, trace = first_decisions(n, rules=rules, **overrides)
    g = first_game(
        trace, n,
        lambda rows: any(card == returned for _, card, _, _ in events(rows, "RETURN"))
        and events(rows, "START")[0][1] not in ("wild", "wild draw four"),
    )
    rows = game_rows(trace, g)
    st = slot_state(b, g)
    top = st["top"]
    put_back = [card for _, card, _, _ in events(rows, "RETURN")]
    assert set(put_back) <= {"wild", "wild draw four"}
    assert top not in ("wild", "wild draw four")
    assert start_card(trace, g) == top
    assert st["colour"] == CARD_COLOUR[card_id(top)]
    assert_rest_is_draw_pile(st)  # the put-back wilds are in the draw pile again, not in the discard pile
    assert st["draw_n"] == 108 - 28 - 1 - (2 if top.endswith("draw two") else 0)


def test_S3_wild_start_card_never_stays_under_reflip_rules() -> None:
    """S-3: with first_wild=reflip no game starts on a wild; under classic only a Wild (never a WD4) may start."""
    n = 400
    _, house = first_decisions(n, rules="classic-house")
    assert not [g for g in range(n) if start_card(house, g) in ("wild", "wild draw four")]
    _, classic = first_decisions(n)
    starts = Counter(start_card(classic, g) for g in range(n))
    assert starts["wild draw four"] == 0 and starts["wild"] > 0


def test_S4_dealers_left_starts_clockwise_dealer_uniform() -> None:
    """S-4: the first player is the dealer's left, clockwise; the dealer is a uniformly random seat."""
    n, players = 4000, 4
    b, trace = first_decisions(n, players=players)
    dealers = b.slot[:, L.F_DEALER]
    starts = trace[trace[:, 1] == L.EV_START]
    assert (starts[:, 0] == np.arange(n)).all()
    assert (starts[:, 5] == (dealers + 1) % players).all()
    deals = trace[trace[:, 1] == L.EV_DEAL]
    assert (deals[:, 4] == np.repeat(dealers, players)).all()
    # clockwise from the dealer's left unless the start card says otherwise (S-3)
    faces = CARD_FACE[starts[:, 3]]
    plain = (starts[:, 3] < 56) & (faces <= 9)
    turn = b.slot[:, L.F_TURN]
    assert (turn[plain] == (dealers[plain] + 1) % players).all()
    assert (b.slot[plain, L.F_DIR] == 1).all()
    # a uniformly random dealer: each seat within 5 standard deviations of n / P
    counts = np.bincount(dealers, minlength=players)
    sd = np.sqrt(n * (1 / players) * (1 - 1 / players))
    assert np.all(np.abs(counts - n / players) < 5 * sd), counts


def test_S4_fixed_dealer_option() -> None:
    """S-4 (option dealer=<seat>): every game has that dealer; the seat to its left starts."""
    n = 50
    b, trace = first_decisions(n, players=5, dealer=3)
    assert (b.slot[:, L.F_DEALER] == 3).all()
    starts = trace[trace[:, 1] == L.EV_START]
    assert (starts[:, 5] == 4).all()


# ================================================================ T-1 matching
def test_T1_colour_match() -> None:
    """T-1: a card of the active colour is playable."""
    after = play_from(
        Position(hands=[["red 5", "blue 7"], ["green 2"], ["yellow 4"]], top="red 3", draw=["yellow 1"] * 5),
        script=[("play", "red 5")],
    )
    assert table(after) == expect(
        [{"blue 7": 1}, {"green 2": 1}, {"yellow 4": 1}], "red 5", 1,
        draw={"yellow 1": 5}, discard={"red 3": 1},
    )


def test_T1_face_match_changes_colour() -> None:
    """T-1: a card of the same number is playable; the active colour becomes its colour."""
    after = play_from(
        Position(hands=[["blue 3", "green 7"], ["green 2"], ["yellow 4"]], top="red 3", draw=["yellow 1"] * 5),
        script=[("play", "blue 3")],
    )
    assert table(after) == expect(
        [{"green 7": 1}, {"green 2": 1}, {"yellow 4": 1}], "blue 3", 1,
        draw={"yellow 1": 5}, discard={"red 3": 1},
    )


def test_T1_symbol_match_skip_on_skip() -> None:
    """T-1 (action_symbol_match=true, classic): a Skip of another colour is playable on a Skip."""
    after = play_from(
        Position(hands=[["blue skip", "green 7"], ["green 2"], ["yellow 4"]], top="red skip", draw=["yellow 1"] * 5),
        script=[("play", "blue skip")],
    )
    assert table(after) == expect(
        [{"green 7": 1}, {"green 2": 1}, {"yellow 4": 1}], "blue skip", 2,
        draw={"yellow 1": 5}, discard={"red skip": 1},
    )


def test_T1_wild_matches_anything() -> None:
    """T-1/W-1: a Wild is playable on anything; its player names the colour."""
    after = play_from(
        Position(hands=[["wild", "red 7"], ["green 2"], ["yellow 4"]], top="red 3", draw=["yellow 1"] * 5),
        script=[("play", "wild"), ("colour", "yellow")],
    )
    assert table(after) == expect(
        [{"red 7": 1}, {"green 2": 1}, {"yellow 4": 1}], "wild", 1, colour="yellow",
        draw={"yellow 1": 5}, discard={"red 3": 1},
    )


@pytest.mark.parametrize(
    ("top", "colour", "card", "symbol_match", "ok"),
    [
        ("red 3", None, "red 9", True, True),
        ("red 3", None, "blue 3", True, True),
        ("red 3", None, "blue 7", True, False),
        ("red 3", None, "blue skip", True, False),
        ("red skip", None, "blue skip", True, True),
        ("red reverse", None, "green reverse", True, True),
        ("red draw two", None, "yellow draw two", True, True),
        ("red skip", None, "blue reverse", True, False),
        ("red skip", None, "blue skip", False, False),
        ("red reverse", None, "green reverse", False, False),
        ("red draw two", None, "yellow draw two", False, False),
        ("red skip", None, "red skip", False, True),
        ("red skip", None, "red 4", False, True),
        ("red 3", None, "blue 3", False, True),
        ("wild", "blue", "blue 9", True, True),
        ("wild", "blue", "red 3", True, False),
        ("wild", "blue", "wild", True, True),
        ("wild draw four", "green", "yellow 5", True, False),
        ("wild draw four", "green", "green 5", True, True),
    ],
)
def test_T1_playable_cards(top: str, colour: str | None, card: str, symbol_match: bool, ok: bool) -> None:
    """T-1: colour or face match, wilds anywhere; a wild on top offers no face; symbol match only with the option."""
    position = Position(
        hands=[[card, "green 7", "yellow 8"], ["green 2"], ["yellow 4"]], top=top, colour=colour, draw=["yellow 1"] * 5
    )
    script = [("play", card)] + ([("colour", "red")] if card == "wild" else [])
    overrides = {"action_symbol_match": symbol_match}
    if not ok:
        refused(position, script, overrides=overrides)
        return
    after = play_from(position, script=script, overrides=overrides)
    assert after.top == card and after.hands[0] == {"green 7": 1, "yellow 8": 1} and after.discard == {top: 1}
    assert after.colour == ("red" if card == "wild" else card.split()[0])


def test_T1_match_table_agrees_with_matches() -> None:
    """T-1: the byte table the kernel's legal-move rows read (``legality.MATCHES``) says what
    :func:`~unosim.game.kernels.legality.matches` says, for every card, active colour, top face and
    ``action_symbol_match``."""
    from unosim.game.kernels.legality import MATCHES, MAX_FACE, matches

    for sym in (False, True):
        for colour in range(-1, 4):
            for face in range(-1, MAX_FACE + 1):
                row = MATCHES[int(sym), colour + 1, face + 1]
                assert [bool(v) for v in row] == [bool(matches(t, face, colour, sym)) for t in range(len(CARD_NAMES))], (sym, colour, face)


@pytest.mark.parametrize("holds_green", [False, True])
def test_T1_wd4_on_wd4_played_as_a_wild(holds_green: bool) -> None:
    """T-1: a Wild Draw Four on a Wild Draw Four is played as a wild: no face match, its legality rule applies (W-2)."""
    other = "green 1" if holds_green else "red 1"
    position = Position(
        hands=[["wild draw four", other, "yellow 2"], ["blue 4"], ["blue 5"]], top="wild draw four", colour="green",
        draw=["yellow 1"] * 8,
    )
    script = [("play", "wild draw four"), ("colour", "blue")]
    overrides = {"wd4_challenge": False}
    if holds_green:  # a face match would make it playable; T-1 says a wild on top has no face
        refused(position, script, overrides=overrides)
        return
    after = play_from(position, script=script, overrides=overrides)
    assert table(after) == expect(
        [{"red 1": 1, "yellow 2": 1}, {"blue 4": 1, "yellow 1": 4}, {"blue 5": 1}], "wild draw four", 2,
        colour="blue", draw={"yellow 1": 4}, discard={"wild draw four": 1}, cards_drawn=4,
    )


# ================================================================ T-2, T-3, T-4
def test_T2_may_draw_while_holding_a_playable_card() -> None:
    """T-2: a player holding a playable card may draw instead (an unplayable card: the turn ends)."""
    after = play_from(
        Position(hands=[["red 5", "blue 7"], ["green 2"], ["yellow 4"]], top="red 3", draw=["yellow 1"] * 5),
        script=[("draw",)],
    )
    assert table(after) == expect(
        [{"red 5": 1, "blue 7": 1, "yellow 1": 1}, {"green 2": 1}, {"yellow 4": 1}], "red 3", 1,
        draw={"yellow 1": 4}, discard={}, cards_drawn=1,
    )


def test_T3_drawing_takes_one_card_and_offers_a_playable_one() -> None:
    """T-3: drawing takes one card; if it is playable the same player decides at once whether to play it."""
    after = play_from(
        Position(hands=[["blue 7", "green 8"], ["green 2"], ["yellow 4"]], top="red 3", draw=["red 9"] * 3),
        script=[("draw",)],
    )
    assert after.actor == 0
    assert table(after) == expect(
        [{"blue 7": 1, "green 8": 1, "red 9": 1}, {"green 2": 1}, {"yellow 4": 1}], "red 3", 0, phase="drawn",
        draw={"red 9": 2}, discard={}, cards_drawn=1,
    )


def test_T3_play_the_drawn_card() -> None:
    """T-3: the playable drawn card may be played at once; then the turn passes."""
    after = play_from(
        Position(hands=[["blue 7", "green 8"], ["green 2"], ["yellow 4"]], top="red 3", draw=["red 9"] * 3),
        script=[("draw",), ("play_drawn", True)],
    )
    assert table(after) == expect(
        [{"blue 7": 1, "green 8": 1}, {"green 2": 1}, {"yellow 4": 1}], "red 9", 1,
        draw={"red 9": 2}, discard={"red 3": 1}, cards_drawn=1,
    )


def test_T3_keep_the_drawn_card() -> None:
    """T-3: the player may keep the playable drawn card; the turn ends."""
    after = play_from(
        Position(hands=[["blue 7", "green 8"], ["green 2"], ["yellow 4"]], top="red 3", draw=["red 9"] * 3),
        script=[("draw",), ("play_drawn", False)],
    )
    assert table(after) == expect(
        [{"blue 7": 1, "green 8": 1, "red 9": 1}, {"green 2": 1}, {"yellow 4": 1}], "red 3", 1,
        draw={"red 9": 2}, discard={}, cards_drawn=1,
    )
    assert events(after, "KEEP") == [(0, "red 9", 0, 0)]


def test_T3_play_a_drawn_wild_names_the_colour() -> None:
    """T-3/W-1: a drawn Wild may be played at once; its player names the colour."""
    after = play_from(
        Position(hands=[["blue 7", "green 8"], ["green 2"], ["yellow 4"]], top="red 3", draw=["wild"] * 2),
        script=[("draw",), ("play_drawn", True), ("colour", "green")],
    )
    assert table(after) == expect(
        [{"blue 7": 1, "green 8": 1}, {"green 2": 1}, {"yellow 4": 1}], "wild", 1, colour="green",
        draw={"wild": 1}, discard={"red 3": 1}, cards_drawn=1,
    )


def test_T3_unplayable_drawn_card_ends_the_turn_after_one_card() -> None:
    """T-3 (classic): one card only, even if unplayable; the turn ends."""
    after = play_from(
        Position(hands=[["blue 7"], ["green 2"], ["yellow 4"]], top="red 3", draw=["yellow 1"] * 3),
        script=[("draw",)],
    )
    assert table(after) == expect(
        [{"blue 7": 1, "yellow 1": 1}, {"green 2": 1}, {"yellow 4": 1}], "red 3", 1,
        draw={"yellow 1": 2}, discard={}, cards_drawn=1,
    )
    assert draws(after) == [(0, "yellow 1", "turn")]


@pytest.mark.parametrize(("rules", "overrides"), [("classic", {"draw_until_playable": True}), ("classic-house", {})])
@pytest.mark.parametrize("play", [True, False])
def test_T4_draw_until_playable(rules: str, overrides: dict[str, Any], play: bool) -> None:
    """T-4: keep drawing until a card is playable (here after a T-5 reshuffle); only that card may be played."""
    after = play_from(
        Position(
            hands=[["blue 7", "green 8"], ["green 2"], ["yellow 4"]], top="red 3",
            draw=["yellow 1"] * 3, discard=["red 9"],
        ),
        rules=rules,
        overrides=overrides,
        script=[("draw",), ("play_drawn", play)],
    )
    kept = {} if play else {"red 9": 1}
    assert table(after) == expect(
        [{"blue 7": 1, "green 8": 1, "yellow 1": 3, **kept}, {"green 2": 1}, {"yellow 4": 1}],
        "red 9" if play else "red 3", 1,
        draw={}, discard={"red 3": 1} if play else {}, cards_drawn=4,
    )
    assert draws(after) == [(0, "yellow 1", "turn")] * 3 + [(0, "red 9", "turn")]
    assert events(after, "RESHUFFLE") == [(-1, None, 1, 0)]


def test_T4_draw_until_playable_stops_on_empty_piles() -> None:
    """T-4/T-5: drawing until playable with nothing playable left anywhere stops when both piles are empty."""
    after = play_from(
        Position(hands=[["blue 7"], ["green 2"], ["yellow 4"]], top="red 3", draw=["yellow 1"] * 2),
        overrides={"draw_until_playable": True},
        script=[("draw",)],
    )
    assert table(after) == expect(
        [{"blue 7": 1, "yellow 1": 2}, {"green 2": 1}, {"yellow 4": 1}], "red 3", 1,
        draw={}, discard={}, cards_drawn=2,
    )
    assert events(after, "EMPTY") == [(0, None, L.DR_TURN, 0)]


# ================================================================ T-5 reshuffle
def test_T5_reshuffle_when_draw_pile_empty() -> None:
    """T-5: the draw pile is empty when a card is needed: the discard pile below the top becomes the draw pile."""
    after = play_from(
        Position(hands=[["blue 7"], ["green 2"], ["yellow 4"]], top="red 3", discard=["yellow 2"] * 3),
        script=[("draw",)],
    )
    assert table(after) == expect(
        [{"blue 7": 1, "yellow 2": 1}, {"green 2": 1}, {"yellow 4": 1}], "red 3", 1,
        draw={"yellow 2": 2}, discard={}, cards_drawn=1,
    )
    assert events(after, "RESHUFFLE") == [(-1, None, 3, 0)]


def test_T5_reshuffle_waits_until_a_card_is_needed() -> None:
    """T-5 [default]: taking the last card does not reshuffle; the next card needed does."""
    position = Position(hands=[["blue 7"], ["blue 2"], ["yellow 4"]], top="red 3", draw=["yellow 2"], discard=["green 8"])
    first = play_from(position, script=[("draw",)])
    assert table(first) == expect(
        [{"blue 7": 1, "yellow 2": 1}, {"blue 2": 1}, {"yellow 4": 1}], "red 3", 1,
        draw={}, discard={"green 8": 1}, cards_drawn=1,
    )
    assert events(first, "RESHUFFLE") == []
    second = play_from(position, script=[("draw",), ("draw",)])
    assert table(second) == expect(
        [{"blue 7": 1, "yellow 2": 1}, {"blue 2": 1, "green 8": 1}, {"yellow 4": 1}], "red 3", 2,
        draw={}, discard={}, turns=2, cards_drawn=2,
    )
    assert events(second, "RESHUFFLE") == [(-1, None, 1, 0)]


def test_T5_reshuffle_in_the_middle_of_a_draw_two() -> None:
    """T-5: a forced draw that empties the draw pile goes on from the reshuffled discard pile."""
    after = play_from(
        Position(hands=[["red draw two", "blue 7"], ["green 2"], ["yellow 4"]], top="red 3", draw=["yellow 1"]),
        script=[("play", "red draw two")],
    )
    assert table(after) == expect(
        [{"blue 7": 1}, {"green 2": 1, "yellow 1": 1, "red 3": 1}, {"yellow 4": 1}], "red draw two", 2,
        draw={}, discard={}, cards_drawn=2,
    )
    assert draws(after) == [(1, "yellow 1", "draw two"), (1, "red 3", "draw two")]


@pytest.mark.parametrize("draw_until_playable", [False, True])
def test_T5_both_piles_empty_draw_takes_nothing(draw_until_playable: bool) -> None:
    """T-5: both piles empty: the player who must draw takes nothing and the turn ends (no loop, no crash)."""
    after = play_from(
        Position(hands=[["blue 7", "red 5"], ["green 2"], ["yellow 4"]], top="red 3"),
        overrides={"draw_until_playable": draw_until_playable},
        script=[("draw",)],
    )
    assert table(after) == expect(
        [{"blue 7": 1, "red 5": 1}, {"green 2": 1}, {"yellow 4": 1}], "red 3", 1,
        draw={}, discard={}, cards_drawn=0,
    )
    assert events(after, "EMPTY") == [(0, None, L.DR_TURN, 0)]


def test_T5_both_piles_run_out_during_a_draw_two() -> None:
    """T-5: a Draw Two with one card left anywhere: the victim takes it, draws nothing more, loses the turn."""
    after = play_from(
        Position(hands=[["red draw two", "blue 7"], ["green 2"], ["yellow 4"]], top="red 3"),
        script=[("play", "red draw two")],
    )
    assert table(after) == expect(
        [{"blue 7": 1}, {"green 2": 1, "red 3": 1}, {"yellow 4": 1}], "red draw two", 2,
        draw={}, discard={}, cards_drawn=1,
    )
    assert events(after, "EMPTY") == [(1, None, L.DR_DRAW_TWO, 0)]


# ================================================================ T-6, T-7
@pytest.mark.parametrize(
    ("players", "turn", "direction", "nxt"),
    [(4, 0, 1, 1), (4, 3, 1, 0), (4, 0, -1, 3), (3, 2, -1, 1), (2, 1, 1, 0)],
)
@pytest.mark.parametrize("action", ["play", "draw"])
def test_T6_turn_passes_to_next_player_in_direction(players: int, turn: int, direction: int, nxt: int, action: str) -> None:
    """T-6: after a play or a draw the turn passes to the next player in the current direction."""
    hands = [["green 2", "yellow 6"] for _ in range(players)]
    hands[turn] = ["red 5", "blue 7"]
    script = [("play", "red 5")] if action == "play" else [("draw",)]
    after = play_from(
        Position(hands=hands, top="red 3", turn=turn, direction=direction, draw=["yellow 1"] * 4), script=script
    )
    expected_hands = [{"green 2": 1, "yellow 6": 1} for _ in range(players)]
    expected_hands[turn] = {"blue 7": 1} if action == "play" else {"red 5": 1, "blue 7": 1, "yellow 1": 1}
    assert table(after) == expect(
        expected_hands, "red 5" if action == "play" else "red 3", nxt, direction=direction,
        draw={"yellow 1": 4 if action == "play" else 3}, discard={"red 3": 1} if action == "play" else {},
        cards_drawn=0 if action == "play" else 1,
    )


def test_T7_draw_then_play_drawn_is_one_turn() -> None:
    """T-7: a draw followed by playing the drawn card is one turn."""
    after = play_from(
        Position(hands=[["blue 7", "green 8"], ["green 2"], ["yellow 4"]], top="red 3", draw=["red 9"] * 3, turns=5),
        script=[("draw",), ("play_drawn", True)],
    )
    assert table(after) == expect(
        [{"blue 7": 1, "green 8": 1}, {"green 2": 1}, {"yellow 4": 1}], "red 9", 1,
        draw={"red 9": 2}, discard={"red 3": 1}, turns=6, cards_drawn=1,
    )


def test_T7_skipped_players_are_not_turns() -> None:
    """T-7: a skipped player (Skip, Draw Two) has no turn; only the players who act count."""
    after = play_from(
        Position(
            hands=[["red skip", "blue 7"], ["green 2", "yellow 3"], ["red draw two", "yellow 4"], ["green 9", "blue 1"]],
            top="red 3", draw=["yellow 1"] * 4,
        ),
        script=[("play", "red skip"), ("play", "red draw two")],
    )
    assert table(after) == expect(
        [{"blue 7": 1}, {"green 2": 1, "yellow 3": 1}, {"yellow 4": 1}, {"green 9": 1, "blue 1": 1, "yellow 1": 2}],
        "red draw two", 0, draw={"yellow 1": 2}, discard={"red 3": 1, "red skip": 1}, turns=2, cards_drawn=2,
    )
    assert [seat for seat, *_ in events(after, "SKIP")] == [1, 3]
    assert [(seat, a) for seat, _, a, _ in events(after, "TURN")] == [(0, 0), (2, 1), (0, 2)]


def test_T7_turns_of_whole_games() -> None:
    """T-7: over whole games each turn is one action of its player: a play, or a draw (then maybe playing that card)."""
    n = 100
    cfg = RunConfig.build(players=4, seed=SEED, games=n)
    played = Engine(cfg, trace=True, check=True).play(0, n)
    ev = played.events
    for g in range(n):
        rows = ev[ev[:, 0] == g]
        starts = np.flatnonzero(rows[:, 1] == L.EV_TURN)
        assert rows[starts, 4].tolist() == list(range(len(starts)))  # the counter before each turn: 0, 1, 2, ...
        assert played.rec[g, L.R_TURNS] == len(starts)
        for lo, hi in zip(starts, [*starts[1:], len(rows)]):
            seat = rows[lo, 2]
            seg = rows[lo + 1 : hi]
            acts = seg[
                (seg[:, 1] == L.EV_PLAY)
                | ((seg[:, 1] == L.EV_DRAW) & (seg[:, 4] == L.DR_TURN))
                | ((seg[:, 1] == L.EV_EMPTY) & (seg[:, 4] == L.DR_TURN))
            ]
            assert (acts[:, 2] == seat).all()
            kinds = acts[:, 1].tolist()
            assert kinds in ([L.EV_PLAY], [L.EV_DRAW], [L.EV_EMPTY], [L.EV_DRAW, L.EV_PLAY]), kinds
            if kinds == [L.EV_DRAW, L.EV_PLAY]:
                assert acts[0, 3] == acts[1, 3]  # only the drawn card may be played (T-3)
            skipped = seg[seg[:, 1] == L.EV_SKIP, 2]
            if hi < len(rows) and len(skipped):
                assert rows[hi, 2] not in skipped  # a skipped player gets no turn


# ================================================================ A-1, A-2, A-3
@pytest.mark.parametrize(("direction", "skipped", "nxt"), [(1, 1, 2), (-1, 2, 1)])
def test_A1_skip(direction: int, skipped: int, nxt: int) -> None:
    """A-1: Skip: the next player in the current direction loses their turn."""
    after = play_from(
        Position(
            hands=[["red skip", "blue 7"], ["green 2"], ["yellow 4"]], top="red 3", direction=direction,
            draw=["yellow 1"] * 4,
        ),
        script=[("play", "red skip")],
    )
    assert table(after) == expect(
        [{"blue 7": 1}, {"green 2": 1}, {"yellow 4": 1}], "red skip", nxt, direction=direction,
        draw={"yellow 1": 4}, discard={"red 3": 1},
    )
    assert events(after, "SKIP") == [(skipped, None, 0, 0)]


def test_A1_skip_two_players_plays_again() -> None:
    """A-1: with two players a Skip gives the turn back to its player."""
    after = play_from(
        Position(hands=[["red skip", "blue 7"], ["green 2"]], top="red 3", draw=["yellow 1"] * 4),
        script=[("play", "red skip")],
    )
    assert table(after) == expect(
        [{"blue 7": 1}, {"green 2": 1}], "red skip", 0, draw={"yellow 1": 4}, discard={"red 3": 1},
    )


@pytest.mark.parametrize(("direction", "nxt"), [(1, 0), (-1, 2)])
def test_A2_reverse_flips_direction(direction: int, nxt: int) -> None:
    """A-2: Reverse flips the direction; the next player is the one on the other side."""
    after = play_from(
        Position(
            hands=[["green 2"], ["red reverse", "blue 7"], ["yellow 4"], ["blue 5"]], top="red 3", turn=1,
            direction=direction, draw=["yellow 1"] * 4,
        ),
        script=[("play", "red reverse")],
    )
    assert table(after) == expect(
        [{"green 2": 1}, {"blue 7": 1}, {"yellow 4": 1}, {"blue 5": 1}], "red reverse", nxt, direction=-direction,
        draw={"yellow 1": 4}, discard={"red 3": 1},
    )
    assert events(after, "REVERSE") == [(1, None, -direction, 0)]


def test_A2_two_players_reverse_acts_as_skip() -> None:
    """A-2: with two players a Reverse also acts as a Skip: its player plays again."""
    after = play_from(
        Position(hands=[["red reverse", "blue 7"], ["green 2"]], top="red 3", draw=["yellow 1"] * 4),
        script=[("play", "red reverse")],
    )
    assert (after.turn, after.phase, after.hands, after.top, after.turns) == (
        0, "turn", [{"blue 7": 1}, {"green 2": 1}], "red reverse", 1,
    )
    assert events(after, "SKIP") == [(1, None, 0, 0)]


def test_A2_two_players_reverse_still_flips_direction() -> None:
    """A-2: "direction flips. With exactly two players it ALSO acts as Skip": the direction flips as well."""
    after = play_from(
        Position(hands=[["red reverse", "blue 7"], ["green 2"]], top="red 3", draw=["yellow 1"] * 4),
        script=[("play", "red reverse")],
    )
    assert table(after) == expect(
        [{"blue 7": 1}, {"green 2": 1}], "red reverse", 0, direction=-1, draw={"yellow 1": 4}, discard={"red 3": 1},
    )
    assert events(after, "REVERSE") == [(0, None, -1, 0)]


def test_A2_two_players_reverse_without_skip_option() -> None:
    """A-2 (reverse_two_players_skips=false): with two players a Reverse only flips; the other player is next."""
    after = play_from(
        Position(hands=[["red reverse", "blue 7"], ["green 2"]], top="red 3", draw=["yellow 1"] * 4),
        overrides={"reverse_two_players_skips": False},
        script=[("play", "red reverse")],
    )
    assert table(after) == expect(
        [{"blue 7": 1}, {"green 2": 1}], "red reverse", 1, direction=-1, draw={"yellow 1": 4}, discard={"red 3": 1},
    )
    assert events(after, "SKIP") == []


@pytest.mark.parametrize(("direction", "victim", "nxt"), [(1, 1, 2), (-1, 3, 2)])
def test_A3_draw_two_no_stacking(direction: int, victim: int, nxt: int) -> None:
    """A-3: Draw Two: the next player draws 2 and loses the turn; holding a Draw Two does not let them stack."""
    hands = [["red draw two", "blue 7"], ["green 4"], ["yellow 4"], ["green 5"]]
    hands[victim] = ["blue draw two", "green 6"]
    after = play_from(
        Position(hands=hands, top="red 3", direction=direction, draw=["yellow 1"] * 5),
        script=[("play", "red draw two")],
    )
    expected = [{"blue 7": 1}, {"green 4": 1}, {"yellow 4": 1}, {"green 5": 1}]
    expected[victim] = {"blue draw two": 1, "green 6": 1, "yellow 1": 2}
    assert table(after) == expect(
        expected, "red draw two", nxt, direction=direction, draw={"yellow 1": 3}, discard={"red 3": 1}, cards_drawn=2,
    )
    assert draws(after) == [(victim, "yellow 1", "draw two")] * 2
    assert events(after, "SKIP") == [(victim, None, 0, 0)]


# ================================================================ W-1, W-2
def test_W1_wild_sets_the_colour_the_next_player_follows() -> None:
    """W-1: a Wild matches anything and its player chooses the active colour; the next player must follow it."""
    position = Position(hands=[["wild", "red 7"], ["blue 9", "red 4"], ["yellow 4"]], top="red 3", draw=["yellow 1"] * 5)
    after = play_from(position, script=[("play", "wild"), ("colour", "blue"), ("play", "blue 9")])
    assert table(after) == expect(
        [{"red 7": 1}, {"red 4": 1}, {"yellow 4": 1}], "blue 9", 2,
        draw={"yellow 1": 5}, discard={"red 3": 1, "wild": 1}, turns=2,
    )
    assert events(after, "PLAY")[0] == (0, "wild", COLOUR_NAMES.index("blue"), 0)
    refused(position, [("play", "wild"), ("colour", "blue"), ("play", "red 4")])


WD4_HANDS = {
    "colour": ["wild draw four", "red 7", "green 1"],
    "number": ["wild draw four", "blue 3", "green 1"],
    "wild": ["wild draw four", "wild", "green 1"],
    "wd4": ["wild draw four", "wild draw four", "green 1"],
    "none": ["wild draw four", "blue 7", "green 1"],
}
WD4_LEGAL = {
    "no_color_match": {"colour": False, "number": True, "wild": True, "wd4": True, "none": True},
    "no_color_match_incl_wilds": {"colour": False, "number": True, "wild": False, "wd4": False, "none": True},
    "no_color_or_number_match": {"colour": False, "number": False, "wild": True, "wd4": True, "none": True},
    "always": {"colour": True, "number": True, "wild": True, "wd4": True, "none": True},
    "no_color_match_incl_plain_wilds": {"colour": False, "number": True, "wild": False, "wd4": True, "none": True},
}


@pytest.mark.parametrize("when", list(WD4_LEGAL))
@pytest.mark.parametrize("holding", list(WD4_HANDS))
def test_W2_wd4_legal_when(when: str, holding: str) -> None:
    """W-2 (wd4_challenge=false, no bluffing): legality of a Wild Draw Four under each ``wd4_legal_when``.

    Top red 3; the player also holds a red card ('colour'), a blue 3 ('number'), a Wild ('wild'),
    a second Wild Draw Four ('wd4') or nothing that matches ('none').
    """
    hand = WD4_HANDS[holding]
    position = Position(hands=[hand, ["blue 4"], ["yellow 5"]], top="red 3", draw=["yellow 1"] * 6)
    script = [("play", "wild draw four"), ("colour", "blue")]
    overrides = {"wd4_legal_when": when, "wd4_challenge": False}
    if not WD4_LEGAL[when][holding]:
        refused(position, script, overrides=overrides)
        return
    after = play_from(position, script=script, overrides=overrides)
    rest = dict(Counter(hand[1:]))
    assert table(after) == expect(
        [rest, {"blue 4": 1, "yellow 1": 4}, {"yellow 5": 1}], "wild draw four", 2, colour="blue",
        draw={"yellow 1": 2}, discard={"red 3": 1}, cards_drawn=4,
    )
    assert events(after, "SKIP") == [(1, None, 0, 0)]


def test_W2_wd4_legality_uses_the_active_colour_after_a_wild() -> None:
    """W-2 (no_color_match): after a Wild the active colour, not the top card, decides legality."""
    position = Position(
        hands=[["wild draw four", "green 1", "red 2"], ["blue 4"], ["yellow 5"]], top="wild", colour="green",
        draw=["yellow 1"] * 6,
    )
    refused(position, [("play", "wild draw four"), ("colour", "blue")], overrides={"wd4_challenge": False})
    position.colour = "yellow"
    after = play_from(position, script=[("play", "wild draw four"), ("colour", "blue")], overrides={"wd4_challenge": False})
    assert after.top == "wild draw four" and after.turn == 2 and after.colour == "blue"


BLUFF = ["wild draw four", "red 7", "green 1"]  # holds red on red 3: illegal under no_color_match
LEGAL = ["wild draw four", "yellow 2", "green 1"]


def test_W2_bluff_allowed_with_challenges() -> None:
    """W-2 (wd4_challenge=true, classic): an illegal Wild Draw Four may be played (a bluff); the victim may challenge."""
    after = play_from(
        Position(hands=[BLUFF, ["blue 4"], ["yellow 5"]], top="red 3", draw=["yellow 1"] * 6),
        script=[("play", "wild draw four"), ("colour", "blue")],
    )
    assert after.actor == 1
    assert table(after) == expect(
        [{"red 7": 1, "green 1": 1}, {"blue 4": 1}, {"yellow 5": 1}], "wild draw four", 0, colour="blue",
        phase="challenge", draw={"yellow 1": 6}, discard={"red 3": 1},
    )


def test_W2_bluff_refused_without_challenges() -> None:
    """W-2 (wd4_challenge=false): no bluffing; the legality rule is an ordinary playability rule."""
    refused(
        Position(hands=[BLUFF, ["blue 4"], ["yellow 5"]], top="red 3", draw=["yellow 1"] * 6),
        [("play", "wild draw four"), ("colour", "blue")],
        overrides={"wd4_challenge": False},
    )


def test_W2_challenge_of_a_legal_play() -> None:
    """W-2: challenging a legal Wild Draw Four: the challenger draws 6 and loses the turn; the colour stands."""
    after = play_from(
        Position(hands=[LEGAL, ["blue 4"], ["yellow 5"]], top="red 3", draw=["green 9"] * 8),
        script=[("play", "wild draw four"), ("colour", "blue"), ("challenge", True)],
    )
    assert table(after) == expect(
        [{"yellow 2": 1, "green 1": 1}, {"blue 4": 1, "green 9": 6}, {"yellow 5": 1}], "wild draw four", 2,
        colour="blue", draw={"green 9": 2}, discard={"red 3": 1}, cards_drawn=6, challenges=1,
    )
    assert draws(after) == [(1, "green 9", "challenge")] * 6
    assert events(after, "CHALLENGE") == [(1, None, 0, 0)]


def test_W2_challenge_of_a_bluff() -> None:
    """W-2: challenging a bluff: its player draws 4; the challenger then takes a normal turn; the colour stands."""
    after = play_from(
        Position(hands=[BLUFF, ["blue 4"], ["yellow 5"]], top="red 3", draw=["green 9"] * 8),
        script=[("play", "wild draw four"), ("colour", "blue"), ("challenge", True)],
    )
    assert table(after) == expect(
        [{"red 7": 1, "green 1": 1, "green 9": 4}, {"blue 4": 1}, {"yellow 5": 1}], "wild draw four", 1,
        colour="blue", draw={"green 9": 4}, discard={"red 3": 1}, cards_drawn=4, challenges=1, challenges_won=1,
    )
    assert draws(after) == [(0, "green 9", "challenge")] * 4
    assert events(after, "CHALLENGE") == [(1, None, 1, 0)]


@pytest.mark.parametrize("hand", [LEGAL, BLUFF], ids=["legal", "bluff"])
def test_W2_no_challenge(hand: list[str]) -> None:
    """W-2: not challenged (legal or bluff): the next player draws 4 and loses the turn; the colour stands."""
    after = play_from(
        Position(hands=[hand, ["blue 4"], ["yellow 5"]], top="red 3", draw=["green 9"] * 8),
        script=[("play", "wild draw four"), ("colour", "blue"), ("challenge", False)],
    )
    assert table(after) == expect(
        [dict(Counter(hand[1:])), {"blue 4": 1, "green 9": 4}, {"yellow 5": 1}], "wild draw four", 2,
        colour="blue", draw={"green 9": 4}, discard={"red 3": 1}, cards_drawn=4,
    )
    assert draws(after) == [(1, "green 9", "wild draw four")] * 4


def test_W2_challenge_with_direction_reversed() -> None:
    """W-2: the victim and challenger is the next player in the current direction; a lost challenge passes beyond them."""
    after = play_from(
        Position(hands=[LEGAL, ["blue 4"], ["yellow 5"], ["red 6"]], top="red 3", direction=-1, draw=["green 9"] * 8),
        script=[("play", "wild draw four"), ("colour", "green"), ("challenge", True)],
    )
    assert table(after) == expect(
        [{"yellow 2": 1, "green 1": 1}, {"blue 4": 1}, {"yellow 5": 1}, {"red 6": 1, "green 9": 6}], "wild draw four",
        2, colour="green", direction=-1, draw={"green 9": 2}, discard={"red 3": 1}, cards_drawn=6, challenges=1,
    )


# ================================================================ U-1, U-2
UNO = Position(hands=[["red 5", "blue 7"], ["green 2", "green 3"], ["yellow 4", "yellow 6"], ["blue 1", "blue 2"]],
               top="red 3", draw=["yellow 1"] * 6)
OTHERS = [{"green 2": 1, "green 3": 1}, {"yellow 4": 1, "yellow 6": 1}, {"blue 1": 1, "blue 2": 1}]


def test_U1_forgetting_opens_the_catch_phase() -> None:
    """U-1: a player who goes down to one card and forgets to call UNO may be caught before the next turn."""
    after = play_from(UNO, script=[("play", "red 5"), ("forget_uno", True)])
    assert table(after) == expect(
        [{"blue 7": 1}, *OTHERS], "red 5", 0, phase="catch", draw={"yellow 1": 6}, discard={"red 3": 1},
    )
    assert events(after, "UNO_FORGET") == [(0, None, 0, 0)]


def test_U1_calling_uno_no_catch_phase() -> None:
    """U-1: a player who calls UNO cannot be caught; play goes on."""
    after = play_from(UNO, script=[("play", "red 5"), ("forget_uno", False)])
    assert table(after) == expect(
        [{"blue 7": 1}, *OTHERS], "red 5", 1, draw={"yellow 1": 6}, discard={"red 3": 1},
    )


def test_U1_caught_draws_the_penalty() -> None:
    """U-1/U-2: caught by another player: the forgetter draws the penalty (2, classic), then play goes on."""
    after = play_from(UNO, script=[("play", "red 5"), ("forget_uno", True), ("catch_uno", [False, True, False])])
    assert table(after) == expect(
        [{"blue 7": 1, "yellow 1": 2}, *OTHERS], "red 5", 1, draw={"yellow 1": 4}, discard={"red 3": 1},
        cards_drawn=2, uno_penalties=1,
    )
    assert events(after, "CATCH") == [(0, None, 2, 0)]
    assert draws(after) == [(0, "yellow 1", "UNO penalty")] * 2


def test_U1_nobody_catches_no_penalty() -> None:
    """U-1: a forgotten call that nobody catches costs nothing."""
    after = play_from(UNO, script=[("play", "red 5"), ("forget_uno", True), ("catch_uno", [False, False, False])])
    assert table(after) == expect(
        [{"blue 7": 1}, *OTHERS], "red 5", 1, draw={"yellow 1": 6}, discard={"red 3": 1},
    )
    assert events(after, "CATCH") == []


def test_U1_caught_on_an_action_card_penalty_then_effect() -> None:
    """U-1: the catch comes before the next turn; the card's effect (here a Skip) still applies."""
    position = Position(
        hands=[["red skip", "blue 7"], ["green 2"], ["yellow 4"], ["blue 1"]], top="red 3", draw=["yellow 1"] * 6
    )
    after = play_from(position, script=[("play", "red skip"), ("forget_uno", True), ("catch_uno", [True, True, True])])
    assert table(after) == expect(
        [{"blue 7": 1, "yellow 1": 2}, {"green 2": 1}, {"yellow 4": 1}, {"blue 1": 1}], "red skip", 2,
        draw={"yellow 1": 4}, discard={"red 3": 1}, cards_drawn=2, uno_penalties=1,
    )


@pytest.mark.parametrize(("rules", "penalty"), [("classic", 2), ("classic-house", 4)])
def test_U2_uno_penalty(rules: str, penalty: int) -> None:
    """U-2: the UNO penalty is 2 cards in classic, 4 in classic-house."""
    after = play_from(
        UNO, rules=rules, script=[("play", "red 5"), ("forget_uno", True), ("catch_uno", [True, False, False])]
    )
    assert table(after) == expect(
        [{"blue 7": 1, "yellow 1": penalty}, *OTHERS], "red 5", 1, draw={"yellow 1": 6 - penalty},
        discard={"red 3": 1}, cards_drawn=penalty, uno_penalties=1,
    )
    assert events(after, "CATCH") == [(0, None, 1, 0)]


# ================================================================ E-1, E-2, E-5
def test_E1_round_ends_when_a_hand_is_empty() -> None:
    """E-1: the round ends the moment a player has no cards; that player wins (E-3: others' points)."""
    after = play_from(
        Position(hands=[["red 5"], ["blue skip", "green 4"], ["wild", "yellow 9"]], top="red 3", draw=["yellow 1"] * 4),
        script=[("play", "red 5")],
    )
    assert table(after) == expect(
        [{}, {"blue skip": 1, "green 4": 1}, {"wild": 1, "yellow 9": 1}], "red 5", 0,
        phase="idle", draw={"yellow 1": 4}, discard={"red 3": 1}, winner=0, finished=True,
    )
    assert events(after, "WIN") == [(0, None, 20 + 4 + 50 + 9, 0)]


@pytest.mark.parametrize("last_card_draws", [True, False])
@pytest.mark.parametrize(("card", "n"), [("red draw two", 2), ("wild draw four", 4)])
@pytest.mark.parametrize(("direction", "victim"), [(1, 1), (-1, 2)])
def test_E2_last_card_draws(last_card_draws: bool, card: str, n: int, direction: int, victim: int) -> None:
    """E-2: a last Draw Two / Wild Draw Four still makes the next player draw (classic), and those cards score."""
    script = [("play", card)] + ([("colour", "green")] if card == "wild draw four" else [])
    after = play_from(
        Position(hands=[[card], ["green 4"], ["yellow 9"]], top="red 3", direction=direction, draw=["blue 5"] * 6),
        overrides={"last_card_draws": last_card_draws},
        script=script,
    )
    drawn = n if last_card_draws else 0
    hands = [{}, {"green 4": 1}, {"yellow 9": 1}]
    if drawn:
        hands[victim]["blue 5"] = drawn
    assert table(after) == expect(
        hands, card, 0, colour="green" if card == "wild draw four" else "red", direction=direction,
        phase="idle", draw={"blue 5": 6 - drawn}, discard={"red 3": 1}, cards_drawn=drawn, winner=0, finished=True,
    )
    assert draws(after) == [(victim, "blue 5", "last card")] * drawn
    assert events(after, "WIN") == [(0, None, 4 + 9 + 5 * drawn, 0)]


def test_E2_classic_default_last_card_draws() -> None:
    """E-2: the classic presets have last_card_draws on."""
    assert RunConfig.build(rules="classic", players=2, games=1).rules.last_card_draws
    assert RunConfig.build(rules="classic-house", players=2, games=1).rules.last_card_draws


def test_E5_round_past_max_turns_is_truncated() -> None:
    """E-5: a round that reaches max_turns (default 5000) stops, recorded as truncated: no winner."""
    after = play_from(
        Position(hands=[["red 5", "blue 7"], ["green 2"], ["yellow 4"]], top="red 3", draw=["yellow 1"] * 4, turns=4999),
        script=[("play", "red 5")],
    )
    assert table(after) == expect(
        [{"blue 7": 1}, {"green 2": 1}, {"yellow 4": 1}], "red 5", 1, phase="idle",
        draw={"yellow 1": 4}, discard={"red 3": 1}, turns=5000, finished=True, truncated=1,
    )
    assert events(after, "TRUNCATE") == [(1, None, 5000, 0)]
    assert events(after, "WIN") == []


def test_E5_max_turns_option_counts_turns_not_skips() -> None:
    """E-5/T-7 (max_turns=2): two turns (a Skip, a draw) and the round stops; the skipped player was no turn."""
    after = play_from(
        Position(hands=[["red skip", "blue 7"], ["green 2"], ["yellow 4", "blue 3"]], top="red 3", draw=["yellow 1"] * 4),
        overrides={"max_turns": 2},
        script=[("play", "red skip"), ("draw",)],
    )
    assert table(after) == expect(
        [{"blue 7": 1}, {"green 2": 1}, {"yellow 4": 1, "blue 3": 1, "yellow 1": 1}], "red skip", 0, phase="idle",
        draw={"yellow 1": 3}, discard={"red 3": 1}, turns=2, cards_drawn=1, finished=True, truncated=1,
    )


def test_E5_winning_on_the_last_allowed_turn_is_a_win() -> None:
    """E-5: the round is stopped only when a further turn would start; a win on turn max_turns stands."""
    after = play_from(
        Position(hands=[["red 5"], ["green 2"], ["yellow 4"]], top="red 3", draw=["yellow 1"] * 4, turns=4999),
        script=[("play", "red 5")],
    )
    assert (after.winner, after.finished, after.turns, after.counters["truncated"]) == (0, True, 5000, 0)


def test_E5_truncated_games_are_recorded_not_dropped() -> None:
    """E-5: with max_turns=5 every game of a run is recorded, truncated, with no winner."""
    n = 30
    cfg = RunConfig.build(players=4, seed=SEED, games=n, overrides={"max_turns": 5})
    played = Engine(cfg, check=True).play(0, n)
    assert played.rec.shape[0] == n
    assert (played.rec[:, L.R_TRUNCATED] == 1).all()
    assert (played.rec[:, L.R_WINNER] == -1).all()
    assert (played.rec[:, L.R_TURNS] == 5).all()
