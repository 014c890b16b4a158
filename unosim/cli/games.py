"""``replay``, ``view`` and ``play``: one game, narrated, drawn as a page, or played by a person."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from . import options as o
from .base import command, out_console, user_errors

__all__ = ["play", "replay", "view"]


# ---------------------------------------------------------------- replay
@command()
@user_errors()
@o.shared(*o.GAME)
def replay(**game: Any) -> None:
    """Narrate one game, move by move: of a written dataset (--run, with --cell for an experiment,
    study or tournament), or of a seed (--rules, --players, --seed, --strategies, --set and --deck,
    without --run)."""
    from ..api import replay as replay_game

    trace, row = replay_game(**game)
    for line in trace.narrate():
        out_console.print(line, highlight=False, markup=False, soft_wrap=True)  # one narration line per line, never wrapped
    rec = trace.record
    out_console.print(
        f"winner: seat {rec['winner']}, turns: {rec['turns']}, cards drawn: {rec['cards_drawn']}, "
        f"truncated: {rec['truncated']}",
        highlight=False,
    )
    if row is not None:
        same = all(row[k] == rec[k] for k in ("winner", "turns", "cards_drawn"))
        out_console.print(
            f"dataset row: winner {row['winner']}, turns {row['turns']}, cards drawn {row['cards_drawn']} — "
            + ("replay matches." if same else "REPLAY DIFFERS."),
            highlight=False,
        )
        if not same:
            raise typer.Exit(1)


# ---------------------------------------------------------------- view
@command()
@user_errors()
@o.shared(*o.GAME, first=True)
def view(
    seat: o.MaybeSeat = None,
    out: o.MaybeOut = None,
    **game: Any,
) -> None:
    """Write one game as a self-contained HTML viewer: step through every move, offline.

    The game is one of a written dataset (--run, with --cell for an experiment, study or
    tournament) or of a seed (--rules, --players, --seed, --strategies, --set and --deck, without
    --run). --out is the HTML file to write (default: game-N.html).
    """
    from ..api import view as view_game

    path = view_game(seat=seat, out=out, **game)
    out_console.print(f"wrote {path}", highlight=False)


# ---------------------------------------------------------------- play
@command()
@user_errors()
def play(
    rules: o.Rules = "classic",
    players: o.Players = 4,
    strategies: o.Strategies = "greedy",
    seat: o.Seat = 0,
    seed: o.Seed = 0,
    set_: o.Set = None,
    deck: o.Deck = None,
    window: Annotated[
        float, typer.Option("--window", help="Seconds a jump-in or UNO catch stays open (0: wait for your answer).")
    ] = 10.0,
    out: o.MaybeOut = None,
    browser: Annotated[bool, typer.Option("--browser", help="Play in a page served on this machine instead of the terminal.")] = False,
    port: Annotated[int, typer.Option("--port", help="With --browser: the local port (0: any free one).")] = 0,
    open_page: Annotated[bool, typer.Option("--open/--no-open", help="With --browser: open the page in the default browser.")] = True,
) -> None:
    """Play one game against the strategies in the terminal (or a page); it is written as a run that view and replay show.

    --players counts you; --strategies are the other seats' (one for all, or one per seat, yours
    ignored); --out is the run directory (default runs/play-SEED).
    """
    from ..engine.config import RunConfig

    config = RunConfig.build(rules=rules, players=players, seed=seed, strategies=strategies, overrides=set_, deck=deck, games=1)
    target = out if out is not None else Path("runs") / f"play-{seed}"
    if browser:
        from ..play.web import serve_game

        serve_game(config, seat, target, port=port, window=window, open_browser=open_page,
                   announce=lambda text: out_console.print(text, highlight=False, soft_wrap=True))
        return
    from ..play.terminal import play_game

    play_game(config, seat, target, window=window, console=out_console)
