"""Digests of the records of a fixed set of runs: check that a change to the engine does not change play.

Every preset at 2, 6 and 16 players with ``random``, ``greedy`` and a mixed line-up
(1,500 games each), three match runs (party; classic and party with penalty
scoring and elimination) and a party run for every value of every choice option, each summarised as the sha256 of its records (and of its
rounds for matches). Run it before and after a change and compare the files::

    python experiments/record_digests.py before.json
    python experiments/record_digests.py after.json
    python -c "import json,sys; a,b=(json.load(open(p)) for p in sys.argv[1:]); print(a==b)" before.json after.json
"""

from __future__ import annotations

import hashlib
import json
import sys

from unosim.config import RunConfig
from unosim.rules import RuleSet
from unosim.runner import run


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
    return found


def main() -> None:
    out = {}
    for case in cases():
        result = run(RunConfig.build(**case), None, jobs=1, quiet=True)
        key = json.dumps(case, sort_keys=True)
        out[key] = digest(result.table) + ("/" + digest(result.rounds) if result.rounds is not None else "")
        print(out[key], key, flush=True)
    with open(sys.argv[1], "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
