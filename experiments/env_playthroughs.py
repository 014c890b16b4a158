"""Write the environments' playthroughs: one round of every preset, house rules included, as text.

    .venv/bin/python experiments/env_playthroughs.py            # writes tests/playthroughs/*.txt

Each file holds round 0 of a fixed seed in :class:`~unosim.env.multi.UnoAECEnv` (every seat's
decisions, the Python stepping) and in :class:`~unosim.env.single.UnoEnv` (one learning seat,
the compiled stepping), written by :mod:`unosim.env.playthrough`. ``tests/test_env_playthroughs.py``
plays them again and compares; after a deliberate change of the encoding or of the environments'
behaviour, run this script and read the diff.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from unosim.env.playthrough import aec_playthrough, single_playthrough
from unosim.game.rules import PRESETS, RuleSet

OUT = Path(__file__).resolve().parent.parent / "tests" / "playthroughs"
HOUSE = ["seven_zero=true", "speed_play=true", "jump_in_cards=numbers_and_actions", "go_out_on_action=false"]
"""Every house rule but stacking (H-2, H-3, H-4)."""
PLAYERS = 3


def tables() -> dict[str, Any]:
    """Name -> rules of every playthrough: the presets, and classic with every house rule on for each stacking value."""
    out: dict[str, Any] = {name: name for name in PRESETS}
    for stacking in ("same_face", "mixed", "plus4_on_plus2"):
        out[f"house_{stacking}"] = RuleSet.preset("classic").with_overrides([f"stacking={stacking}", *HOUSE])
    return out


def seed(name: str) -> int:
    """The run seed of a playthrough (one per table: each shows other deals)."""
    return 2 + list(tables()).index(name)


def playthrough(name: str) -> str:
    """The text of the file of table ``name``: the AEC round, then the single-seat round."""
    rules = tables()[name]
    return aec_playthrough(rules, PLAYERS, seed(name)) + "\n" + single_playthrough(rules, PLAYERS, seed(name))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder of the playthrough files")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in tables():
        path = args.out / f"{name}.txt"
        path.write_text(playthrough(name))
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
