"""A seat at the table: a person plays one game against unosim strategies in the terminal.

The person's seat is a `PersonStrategy` whose
callback is `TerminalSeat`: at each decision it prints what happened
since the last one (others' drawn cards hidden), the table and the person's
hand, and the legal moves with a key each; a key that is not one of them is
answered with the legal ones. Out-of-turn chances (a jump-in with the
identical card, catching a forgotten UNO call) are offered for a time window
(no answer in time: pass). The engine is the one every run uses, traced, one
game of one batch.

When the game ends, or the person presses Ctrl-C, closes the input (Ctrl-D) or
closes the terminal (SIGHUP; SIGTERM likewise), the answers given are written as
the seat's ``person(answers=...)`` strategy in an ordinary run of one game
([`unosim.runs.run`][unosim.runs.run]), so ``unosim view`` and ``unosim replay`` show it
and its record is the replay's. After an early end the seat's later decisions are
the base strategy's defaults (the game is played to its end so that it has a
record); one line says after which decision and how the person left.
"""

from __future__ import annotations

import select
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import numpy as np
from rich.console import Console
from rich.text import Text

from ..engine.config import RunConfig
from ..engine.driver import Engine
from ..engine.trace import GameTrace
from ..game.cards import CARD_COLOUR, CARD_NAMES, COLOUR_NAMES, N_COLOURED, WILD_DRAW_FOUR
from ..game.errors import UnosimInputError, caused_by
from ..game.kernels import layout as L
from ..runs.progress import PrintableConsole
from ..strategies.person import PersonStrategy, encode
from ..strategy.spec import StrategySpec

__all__ = ["LEFT_BY", "PERSON", "Hangup", "PlayResult", "Quit", "TerminalSeat", "on_hangup", "play_and_write", "play_game", "public_lines",
           "summary"]

PERSON = "unosim.strategies.person:PersonStrategy"
"""The strategy entry point of a person's seat."""

_STYLE = {0: "bold red", 1: "bold yellow", 2: "bold green", 3: "bold blue", -1: "bold magenta"}
_KEYS = "123456789abcefhilmnoqrsuvwxyz"  # card keys; d (draw) and t (take) are never card keys


class Quit(Exception):
    """The person closed the input (Ctrl-D): the game ends as after Ctrl-C."""


class Hangup(KeyboardInterrupt):
    """The terminal closed (SIGHUP) or the process was asked to end (SIGTERM): the game ends as after Ctrl-C."""


LEFT_BY = {"interrupt": "Ctrl-C", "input": "the input ended", "hangup": "the terminal closed", "page": "the page left"}
"""How a person can leave a game early, as the messages name it."""


@contextmanager
def on_hangup(handler: Callable[[int], None]) -> Iterator[None]:
    """Call ``handler(signum)`` on SIGHUP and SIGTERM while inside (main thread only; elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    wanted = [getattr(signal, name) for name in ("SIGHUP", "SIGTERM") if hasattr(signal, name)]
    before = {s: signal.signal(s, lambda signum, frame: handler(signum)) for s in wanted}
    try:
        yield
    finally:
        for s, old in before.items():
            signal.signal(s, old)


def _card(c: int) -> Text:
    return Text(CARD_NAMES[c], style=_STYLE[int(CARD_COLOUR[c]) if c < N_COLOURED else -1])


def public_lines(config: RunConfig, seat: int, run: Any, shown: int) -> tuple[list[str], int]:
    """The narration of the events of ``run`` from event ``shown`` on, as ``seat`` may see it.

    Others' opening hands, drawn and kept cards are left out. Returns the lines and the number of events told.
    """
    if run is None or not run.events:
        return [], shown
    events = np.concatenate(run.events)
    if len(events) <= shown:
        return [], shown
    names = [f"seat {p} ({s})" for p, s in enumerate(config.strategies)]
    trace = GameTrace(config, 0, events, run.buffers.opening[0], {})
    lines = []
    for i, line, _ in trace.narrate_events():
        if i < shown:
            continue
        _, ev, who, _card, a, _b = (int(x) for x in events[i])
        if who != seat and ev == L.EV_DEAL:
            continue
        if who != seat and ev == L.EV_DRAW:
            line = f"  {names[who]} draws a card ({L.REASON_NAMES[a]})."
        elif who != seat and ev == L.EV_KEEP:
            line = f"  {names[who]} keeps the drawn card."
        lines.append(line.replace(names[seat], f"seat {seat} (you)"))
    return lines, len(events)


@dataclass
class PlayResult:
    """What `play_game` wrote: the run directory, the record row and how the game ended."""

    out: Path
    row: dict[str, Any]
    answers: int
    interrupted: bool
    stop: BaseException | None = None
    """What ended the game early (one of the ``stops`` given to `play_and_write`), or None."""


class TerminalSeat:
    """The callback of a person's seat: prints the table and reads the person's keys.

    Parameters
    ----------
    config : RunConfig
        The game's run.
    seat : int
        The person's seat.
    window : float
        Seconds an out-of-turn chance stays open (0: wait for an answer).
    console : rich.console.Console
        Where to print.
    stdin : file
        Where to read keys (a line each).
    """

    def __init__(self, config: RunConfig, seat: int, window: float, console: Console, stdin: TextIO) -> None:
        self.config, self.seat, self.window, self.console, self.stdin = config, seat, window, console, stdin
        self.names = [f"seat {p} ({s})" if p != seat else f"seat {p} (you)" for p, s in enumerate(config.strategies)]
        self.run: Any = None
        self.shown = 0  # events already told

    # ------------------------------------------------------------ what happened
    def tell(self) -> None:
        """Print the events since the last call, as the person may see them."""
        lines, self.shown = public_lines(self.config, self.seat, self.run, self.shown)
        for line in lines:
            self.console.print(line, highlight=False, markup=False)

    def table(self, obs: Any, r: int) -> None:
        """Print the table and the person's hand."""
        top, colour = int(obs.top[r]), int(obs.colour[r])
        sizes = obs.hand_sizes[r]
        line = Text("Table: top ") + _card(top) + Text(" · colour ")
        line += Text(COLOUR_NAMES[colour] if colour >= 0 else "none", style=_STYLE.get(colour, ""))
        line += Text(f" · direction {'clockwise' if int(obs.direction[r]) > 0 else 'counter-clockwise'}")
        if self.run is not None:
            fields = self.run.buffers.slot[0]
            line += Text(f" · draw pile {int(fields[L.F_DRAW_N])}")
            if int(fields[L.F_MINI_N]):
                line += Text(f" · mini pile {int(fields[L.F_MINI_N])}")
        link = obs.link[r]
        if int(link[0]) >= 0:
            line += Text(f" · link {int(link[0])}-{int(link[1])}")
        self.console.print(line)
        self.console.print("Cards: " + ", ".join(f"{'you' if p == self.seat else p}: {int(n)}" for p, n in enumerate(sizes)),
                           highlight=False)
        hand = obs.hand[r]
        self.console.print(Text("Your hand: ") + Text(", ").join(_card(c) for c in range(len(hand)) for _ in range(int(hand[c]))))

    # ------------------------------------------------------------ reading keys
    def read(self, prompt: str, keys: dict[str, Any], window: float | None = None, default: Any = None) -> Any:
        """Ask until one of ``keys`` is typed; an out-of-turn chance (``window``) passes (``default``) when none comes in time."""
        while True:
            self.console.print(prompt, end="", highlight=False, markup=False)
            self.console.file.flush()
            if window:
                ready, _, _ = select.select([self.stdin], [], [], window)
                if not ready:
                    self.console.print("\n(too late: you pass)", highlight=False)
                    return default
            line = self.stdin.readline()
            if line == "":
                raise Quit()
            key = line.strip().lower()
            if key == "" and default is not None:
                return default
            if key in keys:
                return keys[key]
            self.console.print(f"'{key}' is not a legal move here. Legal keys: {', '.join(keys)}", highlight=False, markup=False)

    def choose_cards(self, obs: Any, r: int, cards: list[int], extra: dict[str, tuple[str, Any]], prompt: str) -> Any:
        """List ``cards`` with a key each plus the ``extra`` moves; return the chosen card or extra value."""
        keys: dict[str, Any] = {}
        for k, c in zip(_KEYS, cards):
            keys[k] = c
            self.console.print(Text(f"  [{k}] ") + _card(c) + Text(" (as a bluff)" if c == WILD_DRAW_FOUR and not obs.legal[r, c] else ""))
        for k, (label, value) in extra.items():
            keys[k] = value
            self.console.print(f"  [{k}] {label}", highlight=False, markup=False)
        return self.read(prompt, keys)

    # ------------------------------------------------------------ the decisions
    def __call__(self, decision: str, obs: Any, r: int) -> Any:
        self.tell()
        if decision == "play":
            self.table(obs, r)
            cards = [int(c) for c in np.flatnonzero(obs.legal[r])]
            if bool(obs.bluffable[r]) and WILD_DRAW_FOUR not in cards:
                cards.append(WILD_DRAW_FOUR)
            if not cards:
                self.console.print("Nothing to play: you draw.", highlight=False)
                return -1
            return self.choose_cards(obs, r, cards, {"d": ("draw a card", -1)}, "Your move> ")
        if decision == "play_drawn":
            card = int(obs.drawn[r])
            self.console.print(Text("You drew ") + _card(card) + Text("."))
            return self.read("[p] play it, [k] keep it> ", {"p": True, "k": False})
        if decision == "choose_colour":
            self.table(obs, r)
            keys = {name[0]: c for c, name in enumerate(COLOUR_NAMES)}
            return self.read("Colour: [r]ed [y]ellow [g]reen [b]lue> ", keys)
        if decision == "challenge":
            return self.read(f"{self.names[int(obs.target[r])]} played a Wild Draw Four on you: [c] challenge, [a] accept> ",
                             {"c": True, "a": False})
        if decision == "catch_uno":
            return self.read(f"{self.names[int(obs.target[r])]} forgot to call UNO! [c] catch, Enter: let go> ",
                             {"c": True}, self.window, False)
        if decision == "jump_in":
            card = int(obs.top[r])
            return self.read(f"Jump in with your {CARD_NAMES[card]}? [j] jump in, Enter: pass> ", {"j": 1.0}, self.window, 0.0)
        if decision == "point_at":
            self.table(obs, r)
            seats = [p for p in range(self.config.players) if p != self.seat and bool(obs.alive[r, p])]
            return self.read(f"Point Taken: point at a seat ({', '.join(map(str, seats))})> ", {str(p): p for p in seats})
        if decision == "choose_link":
            self.table(obs, r)
            allowed = [p for p in range(self.config.players) if bool(obs.link_choices[r, p])]
            pairs = {f"{a} {b}": (a, b) for a in allowed for b in allowed if a != b}
            return self.read(f"Link two seats, e.g. '{allowed[0]} {allowed[1]}' (from {', '.join(map(str, allowed))})> ", pairs)
        if decision == "add_to_pile":
            self.table(obs, r)
            colour = int(obs.target[r])
            self.console.print(f"A mini pile in {COLOUR_NAMES[colour] if colour >= 0 else 'no colour'} comes to you.", highlight=False)
            cards = [int(c) for c in np.flatnonzero(obs.legal[r])]
            extra = {"t": ("take the mini pile", -1)} if bool(obs.may_take[r]) or not cards else {}
            return self.choose_cards(obs, r, cards, extra, "Add to the pile> ")
        if decision == "stack":  # H-1
            self.table(obs, r)
            total = int(obs.penalty[r])
            self.console.print(f"A penalty of {total} cards comes to you.", highlight=False)
            cards = [int(c) for c in np.flatnonzero(obs.legal[r])]
            return self.choose_cards(obs, r, cards, {"t": (f"take the {total} cards", -1)}, "Stack on it> ")
        if decision == "swap_with":  # H-2
            self.table(obs, r)
            seats = [p for p in range(self.config.players) if p != self.seat and bool(obs.alive[r, p])]
            return self.read(f"Your 7: swap hands with a seat ({', '.join(map(str, seats))})> ", {str(p): p for p in seats})
        raise UnosimInputError(f"decision {decision!r} is not one a person is asked")


def play_game(
    config: RunConfig, seat: int, out: str | Path, *, window: float = 10.0, console: Console | None = None,
    stdin: TextIO | None = None,
) -> PlayResult:
    """Play game 0 of ``config`` with a person at ``seat`` and write it as a run into ``out``.

    Parameters
    ----------
    config : RunConfig
        The game: rules, players, seed and every seat's strategy (the person's seat is replaced).
    seat : int
        The person's seat.
    out : str or Path
        The run directory to write (replaced if it exists).
    window : float
        Seconds an out-of-turn chance stays open; 0 waits for an answer.
    console, stdin
        Where to print and read (default the terminal).

    Returns
    -------
    PlayResult
    """
    console = console or PrintableConsole()
    stdin = stdin or sys.stdin
    terminal: TerminalSeat | None = None
    playing = [True]

    def hangup(signum: int) -> None:
        if playing[0]:  # once the game is over it is written whatever comes
            raise Hangup(signum)

    def over() -> None:
        playing[0] = False
        try:
            if terminal is not None:
                terminal.tell()
        except OSError:  # the terminal is gone: write the game all the same
            pass

    def attach(live: RunConfig, game: Any) -> Any:
        nonlocal terminal
        terminal = TerminalSeat(live, seat, window, console, stdin)
        terminal.run = game
        console.print(f"{config.rules.name} rules, {config.players} players, seed {config.seed}: you are seat {seat}. "
                      "Ctrl-C ends the game.", highlight=False)
        return terminal

    with on_hangup(hangup):
        result = play_and_write(config, seat, out, attach, (KeyboardInterrupt, Quit), over)
    try:
        if result.interrupted:
            how = LEFT_BY["hangup" if isinstance(result.stop, Hangup) else "input" if isinstance(result.stop, Quit) else "interrupt"]
            console.print(f"\nYou left after {result.answers} decisions ({how}); the rest of the game is played by the seat's "
                          "defaults.", highlight=False, markup=False, soft_wrap=True)
        console.print(summary(result, seat, config), highlight=False, markup=False)
        console.print(f"The game is written to {out}; watch it with: unosim view --run {out} --game 0", highlight=False,
                      markup=False, soft_wrap=True)
    except OSError:  # the terminal is gone: the game is written all the same
        pass
    return result


def summary(result: PlayResult, seat: int, config: RunConfig) -> str:
    """One line on how the game ended."""
    row = result.row
    winner = row["winner"]
    who = "nobody (truncated)" if winner is None else ("you!" if winner == seat else f"seat {winner} ({config.strategies[winner]})")
    return (f"Winner: {who} · turns {row['turns']} · cards played {row['cards_played']} · "
            f"your points left {row['hand_points'][seat]}")


def play_and_write(
    config: RunConfig, seat: int, out: str | Path, attach: Any, stops: tuple[type[BaseException], ...], after: Any = None,
) -> PlayResult:
    """Play game 0 of ``config`` with ``attach(live_config, run)``'s callback at ``seat``, then write it as a run.

    Parameters
    ----------
    config : RunConfig
        The game (the person's seat is replaced by a `PersonStrategy`).
    seat : int
        The person's seat.
    out : str or Path
        The run directory to write (replaced if it exists).
    attach : callable
        ``attach(live_config, run) -> ask``: the callback that answers the person's decisions.
    stops : tuple of exception types
        Exceptions that end the game early (Ctrl-C, a closed input, a closed terminal, a page that left), raised
        by the callback or while the engine plays; the seat's defaults then play the game to its end.
    after : callable, optional
        Called once the game is over (before it is written).

    Returns
    -------
    PlayResult
    """
    from ..engine.records import records_table
    from ..runs.reading import read_table
    from ..runs.runner import run

    if not 0 <= seat < config.players:
        raise UnosimInputError(f"--seat {seat} is not a seat of this table; seats are 0 to {config.players - 1}.")
    if config.match:
        raise UnosimInputError("a person plays single rounds; matches (--match) are not supported.")
    specs = list(config.strategies)
    specs[seat] = StrategySpec(PERSON)
    live = RunConfig(rules=config.rules, players=config.players, strategies=tuple(specs), seed=config.seed, games=1)
    engine = Engine(live, batch_size=1, trace=True)
    person = next(s for s in engine.strategies if isinstance(s, PersonStrategy))
    game = engine.start(0, 1)
    person.ask = attach(live, game)
    stop: BaseException | None = None
    live_row: dict[str, Any] | None = None
    try:
        while game.step():
            pass
        live_row = records_table(live, game.finish()).to_pylist()[0]
    except BaseException as exc:  # a stop raised in the seat's callback reaches here inside the engine's StrategyError
        stop = caused_by(exc, stops)
        if stop is None:
            raise
    if after is not None:
        after()
    specs[seat] = StrategySpec(PERSON, (("answers", encode(person.recorded)),))
    final = RunConfig(rules=config.rules, players=config.players, strategies=tuple(specs), seed=config.seed, games=1)
    run(final, out, jobs=1, quiet=True, overwrite=True)
    row = read_table(out).to_pylist()[0]
    if live_row is not None and any(live_row[k] != row[k] for k in ("winner", "turns", "cards_played", "cards_drawn", "hand_points")):
        raise RuntimeError(f"the game written to {out} differs from the game played; please report this as a bug.")
    return PlayResult(Path(out), row, len(person.recorded), stop is not None, stop)
