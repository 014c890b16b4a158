"""``bench``: games per second on one core, or learner steps per second of the environments."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from ..game.errors import UnosimInputError
from . import options as o
from .base import command, err_console, out_console, user_errors

__all__ = ["bench"]


# ---------------------------------------------------------------- bench
@command()
@user_errors()
def bench(
    rules: o.MaybeRules = None,
    players: o.MaybePlayers = None,
    strategies: o.MaybeStrategies = None,
    seconds: Annotated[float, typer.Option("--seconds", help="Seconds to play per measurement, after a warm-up.")] = 10.0,
    batch_size: o.BatchSize = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (one object; a list for the grid).")] = False,
    overrides: o.Set = None,
    python_path: Annotated[
        bool, typer.Option("--python-path", help="Ask the shipped strategies' Python methods, not their compiled versions.")
    ] = False,
    tournament: Annotated[
        bool,
        typer.Option(
            "--tournament",
            help="Measure a seat-fair tournament (default: party rules, 6 players, "
            "random,greedy,diversity,ranking,wild-saver,attacker): every seating in turn.",
        ),
    ] = False,
    search: Annotated[
        bool,
        typer.Option(
            "--search",
            help="Measure the search player instead: searched decisions and games per second at 256, 1,024 and 4,096 "
            "playouts per decision, one seat against random (classic at 2 and 4 players, party at 6; --batch-size games "
            "stepped together, default 64).",
        ),
    ] = False,
    env: Annotated[
        bool,
        typer.Option(
            "--env",
            help="Measure the learning environments instead (the rl extra): learner steps/s with random masked actions of "
            "UnoVectorEnv (--batch-size games, default 256) and UnoEnv at 2, 4, 16 players, classic and party (or --rules, "
            "--players), against --strategies (default random), and RLCard's UNO at 2 and 4 players if rlcard is installed.",
        ),
    ] = False,
) -> None:
    """Single-core games per second (one process, no workers); with --env, learner steps per second.

    Without --rules, the standard grid; --set goes with --rules. --players defaults to 4 (6 with
    --tournament), --strategies to random (with --tournament the six of the standard tournament).
    """
    import json

    from ..analysis.bench import bench as run_bench
    from ..analysis.bench import grid
    from ..engine import kernel_cache

    if kernel_cache.is_cold():  # compile before measuring (the warm-up would include it anyway), and say so
        from ..engine.config import RunConfig
        from ..engine.driver import compile_kernels

        with err_console.status(kernel_cache.compiling_message()):
            compile_kernels([RunConfig.build(players=2)])
    if env:
        _bench_env(rules, players, strategies or "random", seconds, batch_size or 256, as_json)
        return
    if search:
        _bench_search(seconds, batch_size or 64, as_json)
        return
    if tournament:
        from ..analysis.bench import TOURNAMENT_STRATEGIES, bench_tournament

        result = bench_tournament(
            rules or "party", players or 6, strategies or ",".join(TOURNAMENT_STRATEGIES), seconds,
            batch_size=batch_size, compiled=not python_path,
        )
        if as_json:
            print(json.dumps(result))
            return
        out_console.print(
            f"tournament bench (one core): {result['games_per_second']:,.0f} games/s — {result['rules']}, "
            f"{result['players']} players, {result['strategies']} ({result['seatings']} seatings, "
            f"{result['games']:,} games in {result['seconds']:.1f} s)",
            highlight=False,
        )
        return
    players = players or 4
    strategies = strategies or "random"
    if rules is not None:
        results = [run_bench(rules, players, strategies, seconds, batch_size=batch_size, compiled=not python_path,
                             overrides=list(overrides or []))]
    elif overrides:
        raise UnosimInputError("--set applies to one table: give --rules (and --players) with it.")
    else:
        results = grid(seconds, strategies, compiled=not python_path)
    if as_json:
        print(json.dumps(results[0] if rules is not None else results))
        return
    table = Table(title="unosim bench (one core)")
    for col in ("rules", "players", "strategies", "games/s", "mean turns", "batch", "compiled"):
        table.add_column(col, justify="right")
    for r in results:
        table.add_row(
            r["rules"], str(r["players"]), r["strategies"], f"{r['games_per_second']:,.0f}", f"{r['mean_turns']}",
            str(r["batch_size"]), "yes" if r["compiled_strategies"] else "no",
        )
    out_console.print(table)


def _bench_search(seconds: float, batch_size: int, as_json: bool) -> None:
    """``bench --search``: the search player's decisions and games per second at each budget."""
    import json

    from ..analysis.search_bench import bench_search

    results = bench_search(seconds, batch_size=batch_size)
    if as_json:
        print(json.dumps(results))
        return
    table = Table(title="unosim bench --search (one core)")
    for col in ("rules", "players", "playouts", "ms/decision", "decisions/s", "games/s"):
        table.add_column(col, justify="right")
    for r in results:
        table.add_row(r["rules"], str(r["players"]), f"{r['playouts']:,}", f"{r['ms_per_decision']:.1f}",
                      f"{r['decisions_per_second']:,.0f}", f"{r['games_per_second']:,.1f}")
    out_console.print(table)


def _bench_env(rules: str | None, players: int | None, opponents: str, seconds: float, num_envs: int, as_json: bool) -> None:
    """``bench --env``: measure the environments, print the table (or JSON) with the ratios to RLCard."""
    import json

    from ..analysis.env_bench import bench_env

    result = bench_env(seconds, rules=rules, players=players, num_envs=num_envs, opponents=opponents)
    if as_json:
        print(json.dumps(result))
        return
    table = Table(title=f"unosim bench --env (one core; random masked actions, opponents {opponents})")
    for col in ("environment", "rules", "players", "learner steps/s", "decisions/s", "rounds/s", "engine games/s",
                "rounds ÷ engine games", "× RLCard steps", "× RLCard rounds"):
        table.add_column(col, justify="right")
    for r in result["rows"]:
        engine = [f"{r['engine_games_per_second']:,.0f}", f"{r['vs_engine_rounds']:.3f}"] if "vs_engine_rounds" in r else ["", ""]
        ratios = engine + [f"{r[k]:.2f}" if k in r else "" for k in ("vs_rlcard_steps", "vs_rlcard_rounds")]
        table.add_row(r["env"], r["rules"], str(r["players"]), f"{r['steps_per_second']:,.0f}", f"{r['decisions_per_second']:,.0f}",
                      f"{r['rounds_per_second']:,.0f}", *ratios)
    out_console.print(table)
    if result["rlcard"] is False:
        out_console.print("RLCard is not installed (pip install rlcard, for the benchmark only): no ratios.", highlight=False)
    else:
        out_console.print("An RLCard step is any seat's action, a unosim step the learning seat's: × RLCard steps compares "
                          "unosim's decisions with all of RLCard's steps.", highlight=False)
