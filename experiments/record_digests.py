"""Digests of the records of a fixed set of runs: check that a change to the engine does not change play.

Every preset at 2, 6 and 16 players with ``random``, ``greedy`` and a mixed line-up
(1,500 games each), three match runs (party; classic and party with penalty
scoring and elimination), a party run for every value of every choice option and a classic and a
party run for each house rule and for all of them, each summarised as the sha256 of its records (and of its
rounds for matches). Run it before and after a change and compare the files::

    python experiments/record_digests.py before.json
    python experiments/record_digests.py after.json
    python -c "import json,sys; a,b=(json.load(open(p)) for p in sys.argv[1:]); print(a==b)" before.json after.json

``--python-path`` adds, for every run, its records played by the engine with the shipped strategies
asked through their Python methods and compiled, each at batch sizes 64 and 1,000 (a change to the
lockstep path, the observation rows or the decisions shows here), plus runs of an erratic ``random``
that draws, keeps, bluffs, challenges and forgets UNO; it prints how many runs agree across paths,
batch sizes and the runner (all must: results never depend on any of them).
"""

from __future__ import annotations

import argparse
import hashlib
import json

from unosim.engine.config import RunConfig
from unosim.engine.driver import Engine
from unosim.game.rules import RuleSet
from unosim.runs.runner import run

ERRATIC = "random(draw_rate=0.2,keep_rate=0.3,bluff_rate=0.3,challenge_rate=0.5,forget_uno_rate=0.3,catch_uno_rate=0.5)"
"""A line-up seat that reaches the rarer decisions (drawing by choice, keeping, bluffs, challenges, UNO calls)."""
BATCH_SIZES = (64, 1000)


def digest(table) -> str:
    """sha256 (first 16 hex digits) of a table's column names and values."""
    h = hashlib.sha256()
    h.update(json.dumps(table.column_names).encode())
    for name in table.column_names:
        h.update(repr(table.column(name).to_pylist()).encode())
    return h.hexdigest()[:16]


def cases() -> list[dict]:
    found = []
    for preset in ("classic", "classic-house", "party"):
        for players in (2, 6, 16):
            for strat in ("random", "greedy", ",".join(["random", "greedy"] * (players // 2))):
                found.append(dict(rules=preset, players=players, strategies=strat, games=1500, seed=3,
                                  overrides=[f"deck_copies={RuleSet.preset(preset).copies_needed(players)}"]))
    found.append(dict(rules="party", players=6, strategies="random", games=60, seed=5, match=True))
    found.append(dict(rules="classic", players=4, strategies="greedy,random,greedy,random", games=60, seed=6, match=True,
                      overrides=["scoring=penalty", "elimination=true"]))
    found.append(dict(rules="party", players=5, strategies="greedy", games=40, seed=7, match=True,
                      overrides=["scoring=penalty", "elimination=true"]))
    # every value of every choice option (the codes the kernels compare against)
    for option, value in [("first_card", "reflip_actions"), ("first_card", "ignore_effect"), ("first_wild", "reflip"),
                          ("wd4_legal_when", "no_color_match_incl_wilds"), ("wd4_legal_when", "no_color_or_number_match"),
                          ("wd4_legal_when", "always"), ("pileup_flipped_wilds", "mini_pile")]:
        found.append(dict(rules="party", players=6, strategies="random,greedy,random,greedy,random,greedy", games=500, seed=8,
                          overrides=[f"{option}={value}"]))
    # the house rules (H-1..H-4), each on its own and all together
    jump_ins = ["speed_play=true", "jump_in_cards=numbers_and_actions"]
    for overrides in (["stacking=same_face"], ["stacking=mixed"], ["stacking=plus4_on_plus2"], ["seven_zero=true"], jump_ins,
                      ["go_out_on_action=false"], ["stacking=mixed", "seven_zero=true", *jump_ins, "go_out_on_action=false"]):
        for preset in ("classic", "party"):
            found.append(dict(rules=preset, players=6, strategies="random,greedy,random,greedy,random,greedy", games=500, seed=9,
                              overrides=overrides))
    return found


def erratic_cases() -> list[dict]:
    """Runs of the erratic ``random``, alone and beside ``greedy``, and under the options of T-1 and W-2."""
    found = []
    for preset in ("classic", "party"):
        for players in (2, 5, 12):
            found.append(dict(rules=preset, players=players, strategies=[ERRATIC] * players, games=300, seed=11,
                              overrides=[f"deck_copies={RuleSet.preset(preset).copies_needed(players)}"]))
        found.append(dict(rules=preset, players=4, strategies=["greedy", ERRATIC] * 2, games=300, seed=11))
        for option in ("action_symbol_match=false", "wd4_legal_when=no_color_match_incl_wilds",
                       "wd4_legal_when=no_color_or_number_match", "wd4_legal_when=always"):
            found.append(dict(rules=preset, players=5, strategies=[ERRATIC] * 5, games=400, seed=12, overrides=[option]))
    found.append(dict(rules="party", players=6, strategies=ERRATIC, games=30, seed=5, match=True))
    return found


def tables_digest(main, rounds) -> str:
    """The digest of a run's main table, and of its rounds table for a match run."""
    return digest(main) + ("/" + digest(rounds) if rounds is not None else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="JSON file to write the digests to")
    parser.add_argument("--python-path", action="store_true", help="also play every run through the Python path (see above)")
    args = parser.parse_args()
    out = {}
    agree = []
    for case in cases() + (erratic_cases() if args.python_path else []):
        config = RunConfig.build(**case)
        key = json.dumps(case, sort_keys=True)
        if isinstance(case["strategies"], str):
            result = run(config, None, jobs=1, quiet=True)
            out[key] = tables_digest(result.table, result.rounds)
            print(out[key], key, flush=True)
        if args.python_path:
            ways = {}
            for compiled in (False, True):
                for bs in BATCH_SIZES:
                    engine = Engine(config, compiled=compiled, batch_size=bs)
                    ways[f"{key} compiled={compiled} batch={bs}"] = tables_digest(*engine.tables(0, case["games"]))
            out.update(ways)
            agree.append(len(set(ways.values()) | ({out[key]} if key in out else set())) == 1)  # and the runner's
            print(f"{'agree' if agree[-1] else 'DIFFER'} across paths and batch sizes:", key, flush=True)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
    if args.python_path:
        print(f"{sum(agree)} of {len(agree)} runs agree across paths, batch sizes and the runner")


if __name__ == "__main__":
    main()
