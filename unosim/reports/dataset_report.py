"""The report of a dataset: recognise what it holds, draw the plots (PNG and SVG) and write
``report.md`` and one self-contained ``report.html`` (images embedded as base64).

What is recognised
------------------
* a **comparison** directory (``unosim compare --out``, marker ``_compare.json``):
  paired differences of every metric against the baseline rule set, per player count;
* a **dataset of single rounds** (``unosim simulate --out``, ``unosim run``,
  ``unosim study``): game length (mean with interval band, distribution per player
  count), cards per game, seat advantage heatmap and the summary table — reading
  only the scalar columns these need — and, for an experiment (``unosim run``,
  ``unosim study``) whose seats all play the same strategy, the **card values**
  (kind × player count heatmap, lines with interval bands, first/second copy
  table with flags; streamed, see :mod:`unosim.analysis.cardvalue`); a single
  run gets them on request (``card_values=True``, ``--card-values``), since
  decoding every opening hand is most of the cost of a large run's report;
* a **match dataset**: the same player-count section over its rounds;
* a **swap cross-check** (``unosim cardvalue-swap --out``, marker ``_cardswap.json``):
  swap-experiment and regression card values side by side.
"""

from __future__ import annotations

import base64
import html
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.compute as pc
from matplotlib.figure import Figure

from ..runs import dataset
from . import plots

PLAYER_COUNT_COLUMNS = ["players", "turns", "truncated", "winner_offset", "cards_played", "cards_drawn"]
"""The columns the player-count section reads."""


@dataclass
class Section:
    """A titled part of the report: text, figures and tables, in that order."""

    title: str
    text: str = ""
    figures: list[tuple[str, Figure]] = field(default_factory=list)
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)


def _figure(draw: Any, *args: Any, size: tuple[float, float] = (7.5, 4.8), **kwargs: Any) -> Figure:
    fig = Figure(figsize=size)  # no pyplot state: safe in scripts, servers and notebooks
    draw(*args, ax=fig.subplots(), **kwargs)
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- sections
def player_count_section(df: pd.DataFrame) -> Section:
    """Game length, its distribution, cards per game, seat advantage and the summary table."""
    section = Section(
        "Game length and seat advantage",
        "Intervals are 95 % normal confidence intervals of the mean. Seat offset 1 is the "
        "player to the dealer's left, who plays first; a win rate × players of 1 is a fair share.",
    )
    section.figures.append(("game_length", _figure(plots.game_length_band, df)))
    rules = plots.rule_sets(df)
    for name in rules:
        key = None if name == "all" else name
        suffix = "" if key is None else f"_{name}"
        section.figures.append((f"game_length_distribution{suffix}", _figure(plots.game_length_distribution, df, rules=key)))
    section.figures.append(("cards_per_game", _figure(plots.cards_per_game, df)))
    for name in rules:
        key = None if name == "all" else name
        suffix = "" if key is None else f"_{name}"
        if df["players"].nunique() > 1:
            section.figures.append((f"seat_advantage_heatmap{suffix}", _figure(plots.seat_advantage_heatmap, df, rules=key)))
        else:
            section.figures.append((f"seat_advantage{suffix}", _figure(plots.seat_advantage, df, rules=key)))
    section.tables.append(("Summary", plots.summary_table(df)))
    return section


def _interval(v: float, lo: float, hi: float) -> str:
    return f"{v:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def card_value_section(values: pd.DataFrame) -> Section:
    """Heatmaps, lines and tables of card values (percentage points, 95 % intervals)."""
    section = Section(
        "Card values",
        "Change in the holder's win probability, in percentage points, from one more card of a kind "
        "instead of a number card in a naturally dealt opening hand: linear probability regression of "
        "winning on the opening counts per kind with seat-offset dummies, standard errors clustered by "
        "game, 95 % intervals. *All seats*: pooled over seats; *first player*: offset 1 alone. "
        "First copy = 0 → 1 card, second copy = 1 → 2 cards (count dummies); ⚑ marks kinds whose "
        "first- and second-copy values differ beyond their intervals (95 % interval of the difference "
        "excludes 0).",
    )
    for rules in values["rules"].unique():
        several = values[values["rules"] == rules]["players"].nunique() > 1
        for scope in ("all seats", "first player"):
            tag = f"{rules}_{scope.replace(' ', '_')}"
            section.figures.append((f"card_value_heatmap_{tag}", _figure(plots.card_value_heatmap, values, rules=rules,
                                                                         scope=scope, size=(8.5, 4.8))))
            if several:
                section.figures.append((f"card_value_lines_{tag}", _figure(plots.card_value_lines, values, rules=rules,
                                                                           scope=scope, size=(8.5, 4.8))))
        for scope in ("all seats", "first player"):
            data = values[(values["rules"] == rules) & (values["scope"] == scope)].copy()
            data["cell"] = [_interval(v, lo, hi) for v, lo, hi in zip(data["value"], data["low"], data["high"])]
            table = data.pivot(index="kind", columns="players", values="cell").reindex(data["kind"].unique())
            table.columns = [f"{p} players" for p in table.columns]
            section.tables.append((f"{rules}, {scope}: value per card, pp [95 % CI]", table.reset_index()))
        data = values[(values["rules"] == rules) & (values["scope"] == "all seats")].copy()
        data["cell"] = [f"{f:+.2f} / {s:+.2f}" + (" ⚑" if flag else "")
                        for f, s, flag in zip(data["first_copy"], data["second_copy"], data["copies_differ"])]
        table = data.pivot(index="kind", columns="players", values="cell").reindex(data["kind"].unique())
        table.columns = [f"{p} players" for p in table.columns]
        section.tables.append((f"{rules}, all seats: first copy / second copy, pp (⚑: they differ)", table.reset_index()))
    return section


def comparison_section(comparison: Any) -> Section:
    """Paired differences of a comparison, per metric, with intervals and variance reduction."""
    from ..analysis.compare import metric_label

    skill = comparison.settings.get("skill", "greedy")
    section = Section(
        "Rule comparison on common random numbers",
        f"Variants: {', '.join(comparison.settings['variants'])}; baseline: {comparison.settings['variants'][0]}. "
        f"{comparison.settings['games']:,} games per variant, player count and line-up, the same deals (seed "
        f"{comparison.settings['seed']}) under every variant. Differences are paired game by game, with 95 % "
        "intervals; *variance reduction* = variance of an unpaired difference / variance of the paired one.",
    )
    diffs = comparison.differences
    for metric in diffs["metric"].unique():
        label = metric_label(metric, skill)
        section.figures.append((f"compare_{metric}", _figure(plots.comparison_differences, diffs, metric, label=label)))
    levels = comparison.levels.copy()
    levels["value"] = [f"{m:.3f} [{lo:.3f}, {hi:.3f}]" for m, lo, hi in zip(levels["mean"], levels["low"], levels["high"])]
    levels["metric"] = [metric_label(m, skill) for m in levels["metric"]]
    section.tables.append(("Per variant: mean [95 % CI]",
                           levels.pivot_table(index=["players", "metric"], columns="variant", values="value",
                                              aggfunc="first").reset_index()))
    shown = diffs.copy()
    shown["metric"] = [metric_label(m, skill) for m in shown["metric"]]
    shown["difference [95 % CI]"] = [_interval(d, lo, hi) for d, lo, hi in zip(shown["diff"], shown["low"], shown["high"])]
    shown["variance reduction"] = shown["variance_reduction"].round(2)
    section.tables.append(("Paired differences (variant − baseline)",
                           shown[["players", "variant", "metric", "difference [95 % CI]", "variance reduction", "games"]]))
    return section


def swap_section(result: Any) -> Section:
    """The swap cross-check of card values next to the regression on the same deals."""
    s = result.settings
    section = Section(
        "Card values: swap experiment against regression",
        f"{s['rules']}, every seat random, {s['games']:,} deals per player count (seed {s['seed']}). Each deal is "
        "played as dealt and once per kind with one number card of one seat's opening hand (seat and card at "
        "random) swapped for a card of the kind from the draw pile, on the same random stream (common random "
        "numbers). *Swap value*: mean paired change in that seat's win probability (pp, 95 % interval), the effect "
        "of this exchange at the counts dealt (mostly a first copy: see *first copy share*). *Regression value*: "
        "the slope of winning on the count of the kind over the as-dealt games (all seats, seat-offset controls, "
        "clustered by game). They can differ where a second copy is worth less than the first (the regression "
        "averages the copies), and because the swap takes the card from the draw pile while in a natural deal "
        "it is missing from the opponents' hands too. *Variance reduction* = variance of two independent samples "
        "/ variance of the paired difference (1 = the pairing gained nothing).",
    )
    values = result.values
    section.figures.append(("card_value_swap", _figure(plots.card_value_swap, values, size=(7.5, 6))))
    shown = values.copy()
    shown["swap value [95 % CI]"] = [_interval(v, lo, hi) for v, lo, hi in
                                     zip(shown["swap_value"], shown["swap_low"], shown["swap_high"])]
    shown["regression value [95 % CI]"] = [_interval(v, lo, hi) for v, lo, hi in
                                           zip(shown["regression_value"], shown["regression_low"], shown["regression_high"])]
    shown["first copy share"] = shown["first_copy_share"].round(2)
    shown["variance reduction"] = shown["variance_reduction"].round(2)
    section.tables.append(("Swap and regression values, pp", shown[[
        "players", "kind", "swap value [95 % CI]", "regression value [95 % CI]", "first copy share",
        "variance reduction", "pairs"]]))
    return section


# ---------------------------------------------------------------- what a report rests on
def _changed_options(rules: dict[str, Any]) -> list[str]:
    """``OPTION=VALUE`` for every rule option that differs from the rules' preset."""
    from ..game.rules import PRESETS, RuleSet

    name = rules.get("name", "")
    if name not in PRESETS:
        return []
    preset = RuleSet.preset(name).to_dict()
    return [f"{k}={v}" for k, v in rules.items() if k not in ("name", "deck_copies") and preset.get(k) != v]


def _lineup(strategies: list[dict[str, Any]]) -> str:
    names = [s["name"] + (f"({', '.join(f'{k}={v}' for k, v in s['params'].items())})" if s.get("params") else "")
             for s in strategies]
    return f"every seat {names[0]}" if len(set(names)) == 1 else ", ".join(f"seat {i}: {n}" for i, n in enumerate(names))


def basis_section(meta: dict[str, Any]) -> Section:
    """What the report rests on: rules (preset and every changed option), deck copies, strategies per
    seat, games, seed and the unosim version that played them."""
    cells = [meta] if meta.get("kind") == "run" else meta.get("cells", [])
    rows = []
    for cell in cells:
        config = cell["config"]
        rules = config["rules"]
        changed = _changed_options(rules)
        rows.append({
            "rules": rules["name"] + (f" with {', '.join(changed)}" if changed else ""),
            "players": config["players"], "deck copies": rules["deck_copies"],
            "strategies": _lineup(config["strategies"]), "games": config["games"],
            "unit": "matches" if config.get("match") else "rounds",
        })
    frame = pd.DataFrame(rows)
    games = int(frame["games"].sum()) if len(frame) else 0
    seed = meta.get("experiment", {}).get("seed", cells[0]["config"]["seed"] if cells else None)
    lineups = sorted(set(frame["strategies"])) if len(frame) else []
    copies = sorted(set(frame["deck copies"])) if len(frame) else []
    text = (f"{games:,} games in {len(rows)} cell{'s' if len(rows) != 1 else ''}, seed {seed}, played by unosim "
            f"{meta.get('unosim_version', '?')}. Strategies: {'; '.join(lineups)}. Deck copies: "
            f"{', '.join(str(c) for c in copies)}"
            + (" (more copies at larger tables, so that every hand can be dealt)." if len(copies) > 1 else ".")
            + " Every rule option not named below is the preset's (docs/rule_options.md).")
    table = frame.groupby(["rules", "deck copies", "strategies", "unit"], as_index=False).agg(
        players=("players", lambda s: ", ".join(str(p) for p in sorted(s))), games=("games", "sum"))
    return Section("What this report rests on", text, tables=[("Cells", table)])


# ---------------------------------------------------------------- recognition
def sections_of(path: str | Path, *, card_values: bool | None = None) -> list[Section]:
    """The sections of the report of ``path`` (see the module docstring).

    ``card_values``: ``None`` (default) estimates them for an experiment (a study of
    one or more cells, ``unosim run`` / ``unosim study``) whose seats all play one
    strategy, and not for a single run (where the report says how to get them);
    ``True`` or ``False`` forces the choice.
    """
    from ..analysis.cardswap import SWAP_FILE, SwapResult
    from ..analysis.compare import COMPARE_FILE, Comparison

    path = Path(path)
    if (path / COMPARE_FILE).is_file():
        return [comparison_section(Comparison.read(path))]
    if (path / SWAP_FILE).is_file():
        return [swap_section(SwapResult.read(path))]
    meta = dataset.read_metadata(path)
    matches = dataset.has_rounds(meta)
    columns = PLAYER_COUNT_COLUMNS + (["rules"] if meta.get("kind") == "experiment" else [])
    data = dataset.read_table(path, columns=columns, table="rounds" if matches else "main")
    if "rules" in data.column_names:  # a few names repeated: as strings, 75 million games' held 1.1 GB
        data = data.set_column(data.column_names.index("rules"), "rules", pc.dictionary_encode(data["rules"]))
    frame = dataset.to_frame(data, consume=True)
    del data
    sections = [basis_section(meta), player_count_section(frame)]
    del frame  # the card values stream the dataset again
    possible = not matches and same_strategy_everywhere(meta)
    wanted = card_values if card_values is not None else meta.get("kind") == "experiment"
    if possible and wanted:
        from ..analysis.cardvalue import card_values as estimate

        try:
            sections.append(card_value_section(estimate(path)))
            configs = [meta["config"]] if meta.get("kind") == "run" else [c["config"] for c in meta.get("cells", [])]
            sections[-1].text += (f" Every seat played {configs[0]['strategies'][0]['name']}: a card's value is its "
                                  "value to hands played that way, and changes with the strategy.")
        except ValueError as exc:  # too few games for the regression (e.g. a kind never dealt twice)
            sections[1].text += f" Card values could not be estimated from these games ({exc}); play more games per cell."
    elif possible:
        sections[1].text += (
            f" Card values were not estimated for this single run: `unosim report {path} --card-values` or "
            f"`unosim.card_values({str(path)!r})` streams them from the opening hands."
        )
    return sections


def same_strategy_everywhere(meta: dict[str, Any]) -> bool:
    """Whether every seat of every cell plays the same strategy (card values then mean one thing)."""
    configs = [meta["config"]] if meta.get("kind") == "run" else [c["config"] for c in meta.get("cells", [])]
    specs = {str(s) for c in configs for s in c["strategies"]}
    return len(specs) == 1


# ---------------------------------------------------------------- writing
def write_report(path: str | Path, out: str | Path | None = None, *, card_values: bool | None = None,
                 title: str = "unosim report") -> list[Path]:
    """Write the plots (PNG and SVG), ``report.md`` and ``report.html`` of ``path`` into
    ``out`` (default ``path/report``); return the files written, ``report.md`` and
    ``report.html`` last. ``card_values``: see :func:`sections_of`."""
    path = Path(path)
    sections = sections_of(path, card_values=card_values)
    return write_sections(sections, Path(out) if out is not None else path / "report", title=f"{title}: {path}")


def write_sections(sections: list[Section], out: Path, *, title: str) -> list[Path]:
    """Write the sections' figures, ``report.md`` and ``report.html`` into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    md = [f"# {title}\n"]
    page = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title><style>"
            "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}"
            "table{border-collapse:collapse;font-size:0.85em;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 6px}"
            "th{background:#f0f0f0}img{max-width:100%}</style></head><body>", f"<h1>{html.escape(title)}</h1>"]
    for section in sections:
        md.append(f"## {section.title}\n\n{section.text}\n")
        page.append(f"<h2>{html.escape(section.title)}</h2><p>{html.escape(section.text)}</p>")
        for name, fig in section.figures:
            png = io.BytesIO()
            fig.savefig(png, format="png", dpi=110)
            (out / f"{name}.png").write_bytes(png.getvalue())
            fig.savefig(out / f"{name}.svg", format="svg")
            files += [out / f"{name}.png", out / f"{name}.svg"]
            md.append(f"![{name}]({name}.png)\n")
            encoded = base64.b64encode(png.getvalue()).decode()
            page.append(f"<figure><img alt='{name}' src='data:image/png;base64,{encoded}'></figure>")
        for caption, table in section.tables:
            md.append(f"### {caption}\n\n{plots._markdown(table)}")
            page.append(f"<h3>{html.escape(caption)}</h3>" + table.to_html(index=False, border=0, na_rep=""))
    page.append("</body></html>")
    (out / "report.md").write_text("\n".join(md))
    (out / "report.html").write_text("\n".join(page))
    return files + [out / "report.md", out / "report.html"]


__all__ = ["Section", "basis_section", "card_value_section", "comparison_section", "player_count_section", "sections_of", "swap_section",
           "write_report", "write_sections"]
