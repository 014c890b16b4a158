"""Full event logs of single games, and their narration.

Any game of a run is replayed exactly from (config, game index): its random
stream depends on nothing else. `replay` plays it alone with tracing on
and returns a `GameTrace` — the event rows (layout: ``EV_*`` in
`unosim.game.kernels.layout`), the opening hands, the record — and
`GameTrace.narrate` tells the game in words.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from ..game.cards import CARD_NAMES, COLOUR_NAMES, N_COLOURED, NAMES_A_COLOUR
from ..game.errors import UnosimInputError
from ..game.kernels import layout as L
from .config import RunConfig

__all__ = ["GameTrace", "replay"]


@dataclass
class GameTrace:
    """One game's events, opening hands and record."""

    config: RunConfig
    game: int
    events: NDArray[np.int32]
    opening: NDArray[np.int8]
    record: dict[str, object]
    why: dict[int, list[tuple[int, str]]] = field(default_factory=dict)
    """Per seat of a rule strategy, each turn's (card, the rule that chose it), in order."""
    pile_why: dict[int, list[tuple[int, str]]] = field(default_factory=dict)
    """The same for each mini-pile decision (card -1: takes the pile)."""

    def narrate(self) -> list[str]:
        """The game in readable lines, one per event."""
        return [line for _, line, _ in _narrate(self)]

    def narrate_events(self) -> list[tuple[int, str, str]]:
        """The narration with its sources.

        Returns
        -------
        list of (int, str, str)
            Per line: the index of the event row it tells, the line, and the
            reason a rule strategy gave for that move ("" if none).
        """
        return list(_narrate(self))


def replay(config: RunConfig, game: int) -> GameTrace:
    """Replay game ``game`` of the run ``config`` with its full event log."""
    from .driver import Engine
    from .records import records_table

    if not 0 <= game:
        raise UnosimInputError(f"game = {game}; a game index is a whole number ≥ 0.")
    if config.match:
        raise UnosimInputError("replay plays single rounds; replaying a match (--match) is not supported yet.")
    engine = Engine(config, batch_size=1, trace=True)
    explaining = [s for s in engine.strategies if hasattr(s, "explanations")]  # rule strategies
    if explaining:  # their Python methods say which rule fired (same games as their compiled path)
        engine = Engine(config, batch_size=1, trace=True, compiled=False)
        explaining = [s for s in engine.strategies if hasattr(s, "explanations")]
        for strat in explaining:
            strat.explanations = []
    played = engine.play(game, 1)
    row = records_table(config, played).to_pylist()[0]
    why: dict[str, dict[int, list[tuple[int, str]]]] = {"turn": {}, "pileup": {}}
    for strat in explaining:
        for _, seat, phase, card, text in strat.explanations:
            why[phase].setdefault(seat, []).append((card, text))
    assert played.events is not None, "a traced engine keeps the events"
    return GameTrace(config, game, played.events, played.opening[0], row, why["turn"], why["pileup"])


def _card(c: int) -> str:
    return CARD_NAMES[c]


def _colour(c: int) -> str:
    return COLOUR_NAMES[c] if 0 <= c < 4 else "none"


def _hand(counts: NDArray[np.int8]) -> str:
    return ", ".join(_card(int(c)) for c in sorted(counts))


def _narrate(t: GameTrace) -> Iterator[tuple[int, str, str]]:
    P = t.config.players
    names = [f"seat {p} ({s})" for p, s in enumerate(t.config.strategies)]
    yield -1, f"Game {t.game} of seed {t.config.seed}: {t.config.rules.name} rules, {P} players.", ""
    why = {seat: iter(reasons) for seat, reasons in t.why.items()}
    pile_why = {seat: iter(reasons) for seat, reasons in t.pile_why.items()}
    takes = "takes the mini pile" if t.config.rules.pileup_may_refuse else "cannot add and takes the mini pile"
    pending: tuple[int, str] | None = None  # the rule behind this turn's play or draw (rule strategies)
    for i, row in enumerate(t.events):
        _, ev, seat, card, a, b = (int(x) for x in row)
        who = names[seat] if 0 <= seat < P else ""
        if ev == L.EV_TURN:
            pending = next(why[seat], None) if seat in why else None
        because = ""
        played_it = ev == L.EV_PLAY and not b and pending is not None and pending[0] == card
        drew = ev == L.EV_DRAW and a == L.DR_TURN and pending is not None and pending[0] < 0
        if pending is not None and (played_it or drew):
            because, pending = f" — {pending[1]}", None
        if ev in (L.EV_PILE_ADD, L.EV_PILE_TAKE) and seat in pile_why:  # the rule behind a mini-pile decision
            reason = next(pile_why[seat], None)
            because = f" — {reason[1]}" if reason is not None else ""
        if ev == L.EV_DEAL:
            if seat == 0:
                yield i, f"Dealer: {names[a]}. Each player gets {t.config.rules.hand_size} cards.", because[3:]
            yield i, f"  {who} holds: {_hand(t.opening[seat])}", because[3:]
        elif ev == L.EV_RETURN:
            fate = "stays under the pile (no effect)." if a else "goes back into the deck; another is flipped."
            yield i, f"Start card {_card(card)} {fate}", because[3:]
        elif ev == L.EV_START:
            yield i, f"Start card: {_card(card)}. {names[b]} is left of the dealer.", because[3:]
        elif ev == L.EV_TURN:
            yield i, f"Turn {a + 1}: {who}.", because[3:]
        elif ev == L.EV_PLAY:
            colour = f" and names {_colour(a)}" if card in NAMES_A_COLOUR else ""
            if b:
                yield i, f"  {who} jumps in with the identical {_card(card)}! Play goes on after them.", because[3:]
            else:
                yield i, f"  {who} plays {_card(card)}{colour}{because}.", because[3:]
        elif ev == L.EV_DRAW:
            yield i, f"  {who} draws {_card(card)} ({L.REASON_NAMES[a]}){because}.", because[3:]
        elif ev == L.EV_EMPTY:
            yield i, f"  {who} must draw but both piles are empty ({L.REASON_NAMES[a]}).", because[3:]
        elif ev == L.EV_KEEP:
            yield i, f"  {who} keeps the drawn {_card(card)}.", because[3:]
        elif ev == L.EV_SKIP:
            yield i, f"  {who} loses their turn.", because[3:]
        elif ev == L.EV_REVERSE:
            yield i, f"  Direction is now {'clockwise' if a > 0 else 'counter-clockwise'}.", because[3:]
        elif ev == L.EV_COLOUR:
            yield i, f"  {who} names {_colour(a)}.", because[3:]
        elif ev == L.EV_CHALLENGE:
            yield i, f"  {who} challenges the Wild Draw Four of {names[b]}: " + ("it was a bluff!" if a else "it was legal."), because[3:]
        elif ev == L.EV_NO_CHALLENGE:
            yield i, f"  {who} does not challenge.", because[3:]
        elif ev == L.EV_UNO_FORGET:
            yield i, f"  {who} forgets to call UNO.", because[3:]
        elif ev == L.EV_CATCH:
            yield i, f"  {names[a]} catches {who}!", because[3:]
        elif ev == L.EV_RESHUFFLE:
            yield i, f"  The draw pile is empty: {a} discarded cards are shuffled into a new one.", because[3:]
        elif ev == L.EV_WIN:
            yield i, f"{who} has no cards left and wins, scoring {a} points.", because[3:]
        elif ev == L.EV_VOTE:
            yield i, f"  {who} points at {names[a]}.", because[3:]
        elif ev == L.EV_LINK:
            yield i, f"  {who} links {names[a]} and {names[b]}: each will draw whenever the other must.", because[3:]
        elif ev == L.EV_LINK_END:
            yield i, f"  The link of {names[a]} and {names[b]} ends.", because[3:]
        elif ev == L.EV_PILE_FLIP:
            where = "." if card < N_COLOURED else (" (into the mini pile)." if a else " (onto the discard pile).")
            yield i, f"  Turned up for the mini pile: {_card(card)}{where}", because[3:]
        elif ev == L.EV_PILE_ADD:
            yield i, f"  {who} adds {_card(card)} to the mini pile{because}.", because[3:]
        elif ev == L.EV_PILE_TAKE:
            yield i, f"  {who} {takes}: {a} cards; the colour is now {_colour(b)}{because}.", because[3:]
        elif ev == L.EV_PILE_AS_WILD:
            yield i, "  No card can start a mini pile: the Wild Pile Up acts as a Wild.", because[3:]
        elif ev == L.EV_WRONG_JUMP:
            yield i, f"  {who} jumps in on {_card(card)} without an identical card and must draw 1.", because[3:]
        elif ev == L.EV_STACK:
            yield i, f"  {who} stacks {_card(card)} on the penalty, which is now {a} cards.", because[3:]
        elif ev == L.EV_SWAP:
            yield i, f"  {who} swaps hands with {names[a]}.", because[3:]
        elif ev == L.EV_PASS:
            way = "clockwise" if a > 0 else "counter-clockwise"
            yield i, f"  Every player passes their hand to the next player {way}.", because[3:]
        elif ev == L.EV_TRUNCATE:
            yield i, f"The round stops after {a} turns (max_turns) and is recorded as truncated.", because[3:]
        else:
            yield i, f"  event {ev}: seat {seat}, card {card}, {a}, {b}", because[3:]
