"""The chunks of a tournament's dataset, and what an existing dataset already holds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...runs import files
from ...runs.planning import Part, Plan, describe_deck, describe_strategies, new_metadata
from .settings import Settings


# ------------------------------------------------------------------ plans
def build_plan(settings: Settings, deals: int, chunk_size: int) -> Plan:
    """The dataset metadata and the chunks of every cell for deals ``0 .. deals-1``."""
    size = min(chunk_size, deals)
    chunks = -(-deals // size)
    cells = settings.design.cells()
    pattern = files.file_pattern(chunks, cells=len(cells))
    meta = new_metadata("experiment", chunk_size=size, chunks=chunks, pattern=pattern)
    meta["experiment"] = {
        "name": "tournament",
        "description": "seat-fair tournament: " + ", ".join(settings.labels),
        "seed": settings.seed,
        "games_per_cell": deals,
        "source": "unosim tournament",
        "settings": {},
    }
    meta["tournament"] = {
        "strategies": [s.to_dict() for s in settings.specs],
        "labels": list(settings.labels),
        "design": settings.design.describe(),
        "rules": settings.rules.name,
        "players": settings.players,
        "seed": settings.seed,
        "deals": deals,
        "games": deals * len(cells),
        "match": settings.match,
        "precision": settings.precision,
        "max_games": settings.max_games,
        "bootstrap": settings.bootstrap,
    }
    meta["strategy_params"] = describe_strategies(settings.specs)  # compared on resume: an edited rule file is a change
    parts, described = [], []
    for c, (table, rotation, lineup) in enumerate(cells):
        config = settings.config(lineup, deals)
        described.append({
            "cell": c, "table": table, "rotation": rotation, "rules": settings.rules.name, "players": settings.players,
            "lineup": [settings.labels[k] for k in lineup], "seed": settings.seed, "config": config.to_dict(),
            "deck": describe_deck(config),
        })
        columns = (("cell", c), ("table", table), ("rotation", rotation))
        for i in range(chunks):
            first = i * size
            parts.append(Part(config, c, i, first, min(size, deals - first), pattern.format(cell=c, chunk=i), columns, verify=True))
    meta["cells"] = described
    description = f"{settings.rules.name} · {settings.players} players · {len(settings.labels)} strategies"
    return Plan(json.loads(json.dumps(meta)), tuple(parts), description)


def _shape_free(meta: dict[str, Any]) -> dict[str, Any]:
    """The identity of a tournament dataset without its number of deals (which rounds extend)."""
    ident = json.loads(json.dumps(files.identity(meta)))
    for cell in ident.get("cells") or []:
        cell.get("config", {}).pop("games", None)
    chunking = ident.get("chunking") or {}
    for key in ("chunks", "file_pattern"):
        chunking.pop(key, None)
    return ident


def existing_deals(out: Path | None, plan: Plan) -> int | None:
    """Deals of the tournament already in ``out`` when it is this tournament (any number of deals)."""
    if out is None or not (out / files.METADATA_FILE).is_file():
        return None
    try:
        old = files.read_metadata(out)
    except ValueError:
        return None
    if "tournament" not in old or _shape_free(old) != _shape_free(plan.meta):
        return None
    return int(old["tournament"]["deals"])


def extend_metadata(out: Path, plan: Plan) -> None:
    """Rewrite ``out``'s metadata for a larger number of deals of the same tournament (keeping
    its creation time), so that the runner resumes it and plays only the new chunks."""
    old = files.read_metadata(out)
    files.write_metadata(out, {**plan.meta, "created": old.get("created", plan.meta["created"])})


__all__ = ["build_plan", "existing_deals", "extend_metadata"]
