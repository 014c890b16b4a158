"""``replay``, ``view`` and ``play``: one game, narrated, drawn as a page, or played by a person."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .base import app, out_console, user_errors
from .options import Cell, Deck, Game, MaybeOut, MaybeSeat, Players, Rules, RunDir, Seat, Seed, Set, Strategies

__all__ = ["play", "replay", "view"]


# ---------------------------------------------------------------- replay
@app.command()
@user_errors()
def replay(
    run_dir: RunDir = None,
    game: Game = 0,
    cell: Cell = None,
    rules: Rules = "classic",
    players: Players = 4,
    seed: Seed = 0,
    strategies: Strategies = "random",
    set_: Set = None,
    deck: Deck = None,
) -> None:
    """Narrate one game, move by move: of a written dataset (--run, with --cell for an experiment,
    study or tournament), or of a seed (--rules, --players, --seed, --strategies, --set and --deck,
    without --run)."""
    from ..engine.config import RunConfig
    from ..engine.trace import replay as replay_game
    from ..runs.dataset import read_metadata, read_table

    if run_dir is not None:
        meta = read_metadata(run_dir)
        if meta.get("kind") == "experiment":
            cells = meta.get("cells", [])
            if cell is None or not 0 <= cell < len(cells):
                listing = "; ".join(f"{i}: {c.get('rules')}, {c.get('players')} players" for i, c in enumerate(cells[:8]))
                more = f"; … ({len(cells)} cells)" if len(cells) > 8 else ""
                raise ValueError(f"{run_dir} holds an experiment of {len(cells)} cells; pick one with --cell 0 to "
                                 f"{len(cells) - 1} ({listing}{more}) and a game with --game.")
            config = RunConfig.from_dict(cells[cell]["config"])
        else:
            if cell not in (None, 0):
                raise ValueError(f"--cell {cell}: {run_dir} holds a single run (no cells); leave --cell out.")
            config = RunConfig.from_dict(meta["config"])
            cell = None
        if not 0 <= game < config.games:
            raise ValueError(f"--game {game} is not a game of {run_dir}{'' if cell is None else f' cell {cell}'}; "
                             f"it holds games 0 to {config.games - 1}.")
    else:
        config = RunConfig.build(
            rules=rules, players=players, seed=seed, strategies=strategies, overrides=set_, deck=deck, games=game + 1
        )
    trace = replay_game(config, game)
    for line in trace.narrate():
        out_console.print(line, highlight=False, markup=False, soft_wrap=True)  # one narration line per line, never wrapped
    rec = trace.record
    out_console.print(
        f"winner: seat {rec['winner']}, turns: {rec['turns']}, cards drawn: {rec['cards_drawn']}, "
        f"truncated: {rec['truncated']}",
        highlight=False,
    )
    if run_dir is not None:
        import pyarrow.compute as pc

        columns = ["game", "winner", "turns", "cards_drawn"] + ([] if cell is None else ["cell"])
        table = read_table(run_dir, columns=columns)
        wanted = pc.equal(table["game"], game)
        if cell is not None:
            wanted = pc.and_(wanted, pc.equal(table["cell"], cell))
        row = table.filter(wanted).to_pylist()[0]
        same = all(row[k] == rec[k] for k in ("winner", "turns", "cards_drawn"))
        out_console.print(
            f"dataset row: winner {row['winner']}, turns {row['turns']}, cards drawn {row['cards_drawn']} — "
            + ("replay matches." if same else "REPLAY DIFFERS."),
            highlight=False,
        )
        if not same:
            raise typer.Exit(1)


# ---------------------------------------------------------------- view
@app.command()
@user_errors()
def view(
    run_dir: RunDir = None,
    game: Game = 0,
    cell: Cell = None,
    rules: Rules = "classic",
    players: Players = 4,
    seed: Seed = 0,
    strategies: Strategies = "random",
    set_: Set = None,
    deck: Deck = None,
    seat: MaybeSeat = None,
    out: MaybeOut = None,
) -> None:
    """Write one game as a self-contained HTML viewer: step through every move, offline.

    The game is one of a written dataset (--run, with --cell for an experiment, study or
    tournament) or of a seed (--rules, --players, --seed, --strategies, --set and --deck, without
    --run). --out is the HTML file to write (default: game-N.html).
    """
    from ..engine.config import RunConfig
    from ..reports.viewer import load_game, write_viewer

    row = None
    if run_dir is not None:
        config, row = load_game(run_dir, game, cell)
    else:
        if cell is not None:
            raise ValueError("--cell chooses a cell of a dataset; give the dataset with --run.")
        config = RunConfig.build(
            rules=rules, players=players, seed=seed, strategies=strategies, overrides=set_, deck=deck, games=game + 1
        )
    path = write_viewer(config, game, out if out is not None else Path(f"game-{game}.html"), row=row, seat=seat)
    out_console.print(f"wrote {path}", highlight=False)


# ---------------------------------------------------------------- play
@app.command()
@user_errors()
def play(
    rules: Rules = "classic",
    players: Players = 4,
    strategies: Strategies = "greedy",
    seat: Seat = 0,
    seed: Seed = 0,
    set_: Set = None,
    deck: Deck = None,
    window: Annotated[
        float, typer.Option("--window", help="Seconds a jump-in or UNO catch stays open (0: wait for your answer).")
    ] = 10.0,
    out: MaybeOut = None,
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
