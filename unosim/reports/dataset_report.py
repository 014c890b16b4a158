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
  table with flags; streamed, see `unosim.analysis.cardvalue`); a single
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
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import numpy as np
import pandas as pd
import pyarrow.compute as pc
from matplotlib import rc_context
from matplotlib.figure import Figure

from ..analysis import findings as analysis_findings
from ..analysis.stats import adjust_p_values, p_value
from ..game.names import file_stem, printable
from ..runs.files import has_rounds, read_metadata
from ..runs.reading import read_table, to_frame
from ..runs.results import write_whole
from . import basis, explain, plots
from . import findings as words

PLAYER_COUNT_COLUMNS = ["players", "turns", "truncated", "winner_offset", "cards_played", "cards_drawn"]
"""The columns the player-count section reads."""


@dataclass
class Section:
    """A titled part of the report: text, figures and tables, in that order."""

    title: str
    text: str = ""
    figures: list[tuple[str, Figure]] = field(default_factory=list)
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    collapsed: bool = False
    """Shown folded (``<details>``) in the HTML: an appendix."""


def _figure(draw: Any, *args: Any, size: tuple[float, float] = (7.5, 4.8), **kwargs: Any) -> Figure:
    with names_as_text():
        fig = Figure(figsize=size)  # no pyplot state: safe in scripts, servers and notebooks
        draw(*args, ax=fig.subplots(), **kwargs)
        fig.tight_layout()
    return fig


def names_as_text() -> Any:
    """While figures are made in this block their texts are shown as written: a ``$`` in a rule name is a
    dollar sign, not the start of a formula matplotlib would try (and fail) to typeset."""
    return rc_context({"text.parse_math": False})


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
    spread = plots.seat_advantage_spread(df) if df["players"].nunique() > 1 else None
    for name in rules:
        key = None if name == "all" else name
        suffix = "" if key is None else f"_{name}"
        if df["players"].nunique() > 1:
            section.figures.append((f"seat_advantage_heatmap{suffix}", _figure(plots.seat_advantage_heatmap, df, rules=key,
                                                                               spread=spread)))
        else:
            section.figures.append((f"seat_advantage{suffix}", _figure(plots.seat_advantage, df, rules=key)))
    section.tables.append(("Summary", plots.summary_table(df)))
    return section


def _interval(v: float, lo: float, hi: float) -> str:
    return f"{v:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def card_value_section(values: pd.DataFrame, rules_by_name: dict[str, dict[str, Any]] | None = None) -> Section:
    """Heatmaps, lines, first/second-copy panels and tables of card values (percentage points, 95 % intervals).

    ``rules_by_name``: the options each rule set played ([`RuleSet.to_dict`][unosim.RuleSet.to_dict]), which the
    explanation of each flag names.
    """
    section = Section(
        "Card values",
        "Change in the holder's win probability, in percentage points, from one more card of a kind "
        "instead of a number card in a naturally dealt opening hand: linear probability regression of "
        "winning on the opening counts per kind with seat-offset dummies, standard errors clustered by "
        "game, 95 % intervals. *All seats*: pooled over seats; *first player*: offset 1 alone. "
        "First copy = 0 → 1 card, second copy = 1 → 2 cards (count dummies): the second copy is the step "
        "from one card to two, not the value of holding two. ⚑ marks kinds whose first- and second-copy "
        f"values differ. {ADJUSTMENT_TEXT}",
    )
    spread = plots.card_value_spread(values)
    for rules in values["rules"].unique():
        several = values[values["rules"] == rules]["players"].nunique() > 1
        for scope in ("all seats", "first player"):
            tag = f"{rules}_{scope.replace(' ', '_')}"
            section.figures.append((f"card_value_heatmap_{tag}", _figure(plots.card_value_heatmap, values, rules=rules,
                                                                         scope=scope, size=(8.5, 4.8), spread=spread)))
            n_kinds = values[values["rules"] == rules]["kind"].nunique()
            if several and n_kinds >= plots.SMALL_MULTIPLES_FROM:  # overlapping bands: one panel per kind
                with names_as_text():
                    panels = Figure(figsize=(10, 2.6 * -(-n_kinds // 4) + 1.2))
                    plots.card_value_panels(values, panels, rules=rules, scope=scope)
                    panels.tight_layout()
                section.figures.append((f"card_value_lines_{tag}", panels))
            elif several:
                section.figures.append((f"card_value_lines_{tag}", _figure(plots.card_value_lines, values, rules=rules,
                                                                           scope=scope, size=(8.5, 4.8))))
        n_kinds = values[values["rules"] == rules]["kind"].nunique()
        with names_as_text():
            copies = Figure(figsize=(10, 2.6 * -(-n_kinds // 4) + 1.2))
            plots.card_value_copies(values, copies, rules=rules)
            copies.tight_layout()
        section.figures.append((f"card_value_copies_{rules}", copies))
        for scope in ("all seats", "first player"):
            data = values[(values["rules"] == rules) & (values["scope"] == scope)].copy()
            data["cell"] = [_interval(v, lo, hi) for v, lo, hi in zip(data["value"], data["low"], data["high"])]
            table = data.pivot(index="kind", columns="players", values="cell").reindex(data["kind"].unique())
            table.columns = [f"{p} players" for p in table.columns]
            section.tables.append((f"{rules}, {scope}: value per card, pp [95 % CI]", table.reset_index()))
        data = values[(values["rules"] == rules) & (values["scope"] == "all seats")].copy()
        flags = data["copies_differ_adjusted"] if "copies_differ_adjusted" in data else data["copies_differ"]
        data["cell"] = [f"{f:+.2f} / {s:+.2f}" + (" ⚑" if flag else "")
                        for f, s, flag in zip(data["first_copy"], data["second_copy"], flags)]
        table = data.pivot(index="kind", columns="players", values="cell").reindex(data["kind"].unique())
        table.columns = [f"{p} players" for p in table.columns]
        section.tables.append((f"{rules}, all seats: first copy / second copy, pp (⚑: they differ)", table.reset_index()))
        flagged = data[flags.to_numpy(bool)]
        if len(flagged):
            why = []
            for kind, g in flagged.groupby("kind", sort=False):
                rule, note = explain.copies_note(str(kind), (rules_by_name or {}).get(str(rules)))
                steps = ", ".join(f"{int(p)} players: {s - f:+.1f}" for p, f, s in
                                  zip(g["players"], g["first_copy"], g["second_copy"]))
                why.append({"kind": kind, "second − first copy, pp": steps, "rule and option": rule, "why": note})
            section.tables.append((f"{rules}: why the flagged kinds' copies differ", pd.DataFrame(why)))
    return section


ADJUSTMENT_TEXT = (
    "Flags are controlled for multiple comparisons: each family (every flag of one kind in this report) "
    "is adjusted with Holm's step-down method (statsmodels `multipletests`), so the chance of any false "
    "flag in a family is at most 5 %; a flag needs an adjusted p-value below 0.05. The 95 % intervals "
    "shown are per estimate, not adjusted."
)
"""How every report states its multiple-comparison control."""


def comparison_section(comparison: Any) -> Section:
    """Paired differences of a comparison, per metric, with intervals and variance reduction."""
    from ..analysis.compare import metric_label

    skill = comparison.settings.get("skill", "greedy")
    section = Section(
        "Rule comparison on common random numbers",
        f"Variants: {', '.join(comparison.settings['variants'])}; baseline: {comparison.settings['variants'][0]}. "
        f"{comparison.settings['games']:,} games per variant, player count and line-up, the same deals (seed "
        f"{comparison.settings['seed']}) under every variant. Differences are paired game by game, with 95 % "
        "intervals; *variance reduction* = variance of an unpaired difference / variance of the paired one. "
        "*Differs* flags a difference from the baseline. " + ADJUSTMENT_TEXT,
    )
    diffs = comparison.differences
    constant = []
    for metric in diffs["metric"].unique():
        label = metric_label(metric, skill)
        rows = diffs[diffs["metric"] == metric]
        if (rows[["diff", "low", "high"]].abs().to_numpy(float) == 0).all():
            constant.append(label)  # nothing to draw: every difference and interval is exactly 0
            continue
        section.figures.append((f"compare_{metric}", _figure(plots.comparison_differences, diffs, metric, label=label)))
    if constant:
        section.text += (" Not drawn, since every variant gave exactly the same value on every deal: "
                         + ", ".join(constant) + ".")
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
    reject, adjusted = adjust_p_values(p_value(shown["diff"], shown["se"]))
    shown["p (Holm)"] = [f"{p:.2g}" if p == p else "" for p in adjusted]
    shown["differs"] = ["⚑" if r else "" for r in reject]
    section.tables.append(("Paired differences (variant − baseline; ⚑: differs after Holm's adjustment)",
                           shown[["players", "variant", "metric", "difference [95 % CI]", "p (Holm)", "differs",
                                  "variance reduction", "games"]]))
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
        comparison = Comparison.read(path)
        found = analysis_findings.comparison_findings(comparison.differences)
        return with_findings(found, [comparison_basis(comparison.settings), comparison_section(comparison)],
                             skill=comparison.settings.get("skill", "greedy"))
    if (path / SWAP_FILE).is_file():
        result = SwapResult.read(path)
        return with_findings(analysis_findings.swap_findings(result.values),
                             [swap_basis(result.settings), swap_section(result)])
    meta = read_metadata(path)
    basis_section, appendix = dataset_basis_sections(meta)
    matches = has_rounds(meta)
    columns = PLAYER_COUNT_COLUMNS + (["rules"] if meta.get("kind") == "experiment" else [])
    data = read_table(path, columns=columns, table="rounds" if matches else "main")
    if "rules" in data.column_names:  # a few names repeated: as strings, 75 million games' held 1.1 GB
        data = data.set_column(data.column_names.index("rules"), "rules", pc.dictionary_encode(data["rules"]))
    frame = to_frame(data, consume=True)
    del data
    sections = [basis_section, player_count_section(frame)]
    found = analysis_findings.dataset_findings(frame, rules=str(_configs(meta)[0]["rules"]["name"]))
    del frame  # the card values stream the dataset again
    possible = not matches and same_strategy_everywhere(meta)
    wanted = card_values if card_values is not None else meta.get("kind") == "experiment"
    if possible and wanted:
        from ..analysis.cardvalue import card_values as estimate

        try:
            played = ({str(c["rules"]): c["config"]["rules"] for c in meta.get("cells", [])}
                      if meta.get("kind") == "experiment" else {str(meta["config"]["rules"]["name"]): meta["config"]["rules"]})
            values = estimate(path)
            cv = card_value_section(values, played)
            found += analysis_findings.card_value_findings(values)
            cv.text = f"Policy: {basis.seats_text(_configs(meta)[0]['strategies'])}; card values hold for it alone. " + cv.text
            sections.append(cv)
        except ValueError as exc:  # too few games for the regression (e.g. a kind never dealt twice)
            sections[1].text += f" Card values could not be estimated from these games ({exc}); play more games per cell."
    elif possible:
        sections[1].text += (
            f" Card values were not estimated for this single run: `unosim report {path} --card-values` or "
            f"`unosim.card_values({str(path)!r})` streams them from the opening hands."
        )
    return with_findings(found, sections + ([appendix] if appendix is not None else []))


def with_findings(found: list[Any], sections: list[Section], *, skill: str = "greedy") -> list[Section]:
    """The sections with the Findings (`unosim.reports.findings`) first.

    The first figure of the sections moves into the Findings, beside the sentences, so that the
    report's first screen holds both; the sentences link to it and to the other figures.
    """
    opening = Section(words.FINDINGS_TITLE, words.findings_text(found, skill))
    for section in sections:
        if section.figures:
            opening.figures.append(section.figures.pop(0))
            break
    return [opening, *sections]


def _configs(meta: dict[str, Any]) -> list[dict[str, Any]]:
    return [meta["config"]] if meta.get("kind") == "run" else [c["config"] for c in meta.get("cells", [])]


APPENDIX_TITLE = "Appendix: every cell"
"""Title of the appendix that lists an experiment's cells (seeds and all)."""


def dataset_basis_sections(meta: dict[str, Any]) -> tuple[Section, Section | None]:
    """What a dataset's games rest on (`unosim.reports.basis`) in a few lines, and, for an
    experiment, the appendix with the table of its cells (collapsed in the HTML)."""
    text, cells = basis.dataset_basis(meta)
    section = Section(basis.BASIS_TITLE, text)
    if cells is None:
        return section, None
    section.text += f"\n- every cell, with its seed: [{APPENDIX_TITLE.lower()}](#{words.anchor(APPENDIX_TITLE)})"
    return section, Section(APPENDIX_TITLE, "One row per cell of the experiment: its rules, table, deck copies, "
                            "strategies, games and seed.", tables=[("Cells", cells)], collapsed=True)


def comparison_basis(settings: dict[str, Any]) -> Section:
    """The opening section of a comparison's report."""
    from ..analysis.compare import Variant

    lines, copies = [], {}
    recorded = settings.get("variant_rules", {})
    for label in settings["variants"]:
        if label in recorded:
            given = recorded[label]
            variant = Variant(given["rules"], tuple((str(k), str(v)) for k, v in given["options"].items()), label)
        else:  # a comparison written before variants had names: the label names the options
            preset, *options = label.split()
            variant = Variant(preset, tuple(tuple(o.split("=", 1)) for o in options))
        described = basis.describe_rules(variant.rules(2))
        lines.append(f"{label}: {described}" if variant.name else described)
        copies.update({(label, int(p)): variant.rules(p).deck_copies for p in settings["players"]})
    skill = settings.get("skill", "greedy")
    return Section(basis.BASIS_TITLE, basis.basis_lines(
        rules=lines, copies=basis.copies_text(copies),
        seats=f"random at every seat; skill runs: {skill} at seat 0, random at the others",
        games=f"{settings['games']:,} per variant, player count and run", seed=settings["seed"],
        version=settings.get("unosim_version", "not recorded"),
        extra=[f"players: {', '.join(str(p) for p in settings['players'])}"]))


def swap_basis(settings: dict[str, Any]) -> Section:
    """The opening section of a swap cross-check's report."""
    from ..analysis.compare import Variant

    variant = Variant(str(settings["rules"]), ())
    players = [int(p) for p in settings.get("players", [])]
    return Section(basis.BASIS_TITLE, basis.basis_lines(
        rules=[basis.describe_rules(variant.rules(min(players, default=2)))],
        copies=", ".join(f"{p} players: {variant.rules(p).deck_copies}" for p in players) or "—",
        seats=f"{settings.get('strategy', 'random')} at every seat",
        games=f"{settings['games']:,} deals per player count", seed=settings["seed"],
        version=settings.get("unosim_version", "not recorded")))


def same_strategy_everywhere(meta: dict[str, Any]) -> bool:
    """Whether every seat of every cell plays the same strategy (card values then mean one thing)."""
    configs = _configs(meta)
    specs = {str(s) for c in configs for s in c["strategies"]}
    return len(specs) == 1


# ---------------------------------------------------------------- writing
def write_report(path: str | Path, out: str | Path | None = None, *, card_values: bool | None = None,
                 title: str = "unosim report") -> list[Path]:
    """Write the plots (PNG and SVG), ``report.md`` and ``report.html`` of ``path`` into
    ``out`` (default ``path/report``); return the files written, ``report.md`` and
    ``report.html`` last. ``card_values``: see `sections_of`. The files replace the previous
    report's only once every one is written (`unosim.runs.results.write_whole`)."""
    path = Path(path)
    sections = sections_of(path, card_values=card_values)
    return write_whole(Path(out) if out is not None else path / "report",
                       lambda stage: write_sections(sections, stage, title=f"{title}: {path}"))


_LINK = re.compile(r"\[([^\]]+)\]\(#([A-Za-z0-9_-]+)\)")

CAPTIONS: dict[str, str] = {
    "game_length_distribution": "How spread out game length is at each table size (median, quartiles and tails). "
                                "Look at how far the long tail reaches beyond the median as players are added.",
    "game_length": "Mean game length (turns) against the number of players, one line per rule set, with its 95 % band. "
                   "Look at how steeply each line rises and where the rule sets part.",
    "cards_per_game": "Cards played and drawn per game. Look at how much of a game is drawing rather than playing.",
    "seat_advantage_heatmap": "Win rate × players per seat offset from the dealer (1 = a fair share) at each table "
                              "size. Look at offset 1, the first player: how far above 1 it starts and how fast it fades.",
    "seat_advantage": "Win rate × players per seat offset from the dealer (1 = a fair share). Look at offset 1, the first "
                      "player.",
    "card_value_heatmap": "Value of one more card of each kind (pp of win probability) at each table size. Look for the "
                          "strongest cells: the kinds worth most, and at which size.",
    "card_value_lines": "Card values against the number of players, with 95 % bands. Look for lines that cross: kinds "
                        "whose worth depends on the table.",
    "card_value_copies": "First copy (filled) and second copy (hollow) of each kind. Look for ⚑: a second copy worth "
                         "clearly more or less than the first.",
    "card_value_swap": "Swap-experiment value against regression value for each kind. Look for points off the dashed "
                       "diagonal, where the two estimates disagree.",
    "compare_": "Paired difference from the baseline, variant by variant, with 95 % intervals. Look for intervals clear "
                "of the dashed zero line: the rule changes that matter, and at which table size.",
    "leaderboard": "Win rate of each strategy with its 95 % interval; dashed: a fair share. Look at which intervals "
                   "clear the line and each other.",
    "head_to_head": "Share of the pair's wins the row strategy took (0.5 = even). Look at the row of the leader.",
}
"""What each figure shows and what to look at, by the start of its name (the longest match wins)."""


def caption(name: str) -> str:
    """The caption of the figure ``name`` (`CAPTIONS`; empty for an unknown figure)."""
    keys = [k for k in CAPTIONS if name.startswith(k)]
    return CAPTIONS[max(keys, key=len)] if keys else ""


def _html_text(text: str) -> str:
    """A section's text as HTML: ``- `` lines as a list, `` `code` `` as code, ``[text](#id)`` as a
    link within the page, the rest as paragraphs."""
    def inline(line: str) -> str:
        parts = html.escape(line, quote=False).split("`")
        out = "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))
        return _LINK.sub(lambda m: f'<a href="#{m.group(2)}">{m.group(1)}</a>', out)

    out, items = [], []
    for line in text.splitlines():
        if line.startswith("- "):
            items.append(f"<li>{inline(line[2:])}</li>")
            continue
        if items:
            out.append("<ul>" + "".join(items) + "</ul>")
            items = []
        if line.strip():
            out.append(f"<p>{inline(line)}</p>")
    if items:
        out.append("<ul>" + "".join(items) + "</ul>")
    return "".join(out)


def readable(value: Any, column: str = "") -> str:
    """A table cell for reading: whole numbers with thousands separators (not seeds), floats rounded
    to four significant digits (whole above 1,000), missing values empty."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return str(value)
    if isinstance(value, (int, np.integer)):
        return str(value) if "seed" in column else f"{int(value):,}"
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if v.is_integer() and abs(v) < 1e15:
            return f"{int(v):,}"
        return f"{v:,.0f}" if abs(v) >= 1000 else f"{v:.4g}"
    return str(value)


def _readable_table(table: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({c: [readable(v, str(c)) for v in table[c]] for c in table.columns}, columns=table.columns)


STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:1180px;margin:1em auto;padding:0 1em;color:#222;line-height:1.4}"
    "h1{font-size:1.35em;margin:0.2em 0}h2{border-bottom:1px solid #ddd;padding-bottom:0.15em;margin:1.4em 0 0.5em}"
    "h2#findings{margin-top:0.6em}nav.toc{font-size:0.85em;margin:0.3em 0 0.6em}"
    "nav.toc a{margin-right:1em;white-space:nowrap}"
    ".findings{display:grid;grid-template-columns:minmax(0,1.2fr) minmax(0,1fr);gap:1.2em;align-items:start;"
    "font-size:0.92em}.findings ul{margin:0;padding-left:1.2em}.findings li{margin-bottom:0.35em}"
    ".findings figure{margin:0}"
    "table{border-collapse:collapse;font-size:0.85em;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 6px}"
    "td{text-align:right}th{background:#f0f0f0}img{max-width:100%}figure{margin:1em 0}"
    "figcaption{font-size:0.9em;color:#444;max-width:60em}details{margin:1em 0}summary{cursor:pointer;font-weight:bold}"
    "@media(max-width:800px){.findings{grid-template-columns:1fr}}"
)
"""The report page's stylesheet (inline: the page stays one file)."""


def _unused_stem(label: str, used: set[str]) -> str:
    """The file stem of a figure named ``label`` (`file_stem`), unique in its folder."""
    stem = base = file_stem(label)
    n = 1
    while stem in used:
        n += 1
        stem = f"{base}-{n}"
    used.add(stem)
    return stem


def write_sections(sections: list[Section], out: Path, *, title: str) -> list[Path]:
    """Write the sections' figures, ``report.md`` and ``report.html`` into ``out``.

    The page opens with a table of contents; figures carry their captions (`caption`);
    collapsed sections (an appendix) are folded; names are escaped, numbers formatted for reading
    (`readable`); images are embedded, so the page is one file. A figure's file name is made
    from its name by `file_stem`: a name that carries a rule set's name
    never leads outside ``out``.
    """
    out.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    used: set[str] = set()
    stems: dict[str, str] = {}  # a figure's file stem by its name, never leading outside ``out``
    for section in sections:
        for label, _ in section.figures:
            stems.setdefault(label, _unused_stem(label, used))
    figure_files = {words.anchor(label): stem for label, stem in stems.items()}
    md = [f"# {title}\n", "Contents: " + " · ".join(f"[{s.title}](#{words.anchor(s.title)})" for s in sections) + "\n"]
    page = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style></head><body>", f"<h1>{html.escape(title)}</h1>",
            "<nav class='toc'><b>Contents:</b> " + "".join(
                f"<a href='#{words.anchor(s.title)}'>{html.escape(s.title)}</a>" for s in sections) + "</nav>"]

    def md_links(text: str) -> str:  # a figure's link points at its PNG next to report.md
        return _LINK.sub(lambda m: f"[{m.group(1)}]({quote(figure_files[m.group(2)])}.png)" if m.group(2) in figure_files
                         else m.group(0), text)

    for section in sections:
        md.append(f"## {section.title}\n\n{md_links(section.text)}\n")
        body = [_html_text(section.text)]
        figures = []
        for label, fig in section.figures:
            name = stems[label]
            png = io.BytesIO()
            fig.savefig(png, format="png", dpi=110)
            (out / f"{name}.png").write_bytes(png.getvalue())
            fig.savefig(out / f"{name}.svg", format="svg")
            files += [out / f"{name}.png", out / f"{name}.svg"]
            text = caption(label)
            md.append(f"![{label}]({quote(name)}.png)\n" + (f"\n*{text}*\n" if text else ""))
            encoded = base64.b64encode(png.getvalue()).decode()
            figures.append(f"<figure id='{words.anchor(label)}'><img alt='{html.escape(label)}' "
                           f"src='data:image/png;base64,{encoded}'>"
                           + (f"<figcaption>{html.escape(text)}</figcaption>" if text else "") + "</figure>")
        tables = []
        for table_caption, table in section.tables:
            shown = _readable_table(table)
            md.append(f"### {table_caption}\n\n{plots.markdown_table(shown)}")
            tables.append(f"<h3 id='{words.anchor(table_caption)}'>{html.escape(table_caption)}</h3>"
                          + shown.to_html(index=False, border=0, na_rep=""))
        heading = f"<h2 id='{words.anchor(section.title)}'>{html.escape(section.title)}</h2>"
        if section.title == words.FINDINGS_TITLE and figures:
            page.append(heading + "<div class='findings'><div>" + "".join(body) + "</div>" + "".join(figures) + "</div>"
                        + "".join(tables))
        elif section.collapsed:
            page.append(heading + f"<details><summary>{html.escape(section.title)}</summary>"
                        + "".join(body + figures + tables) + "</details>")
        else:
            page.append(heading + "".join(body + figures + tables))
    page.append("</body></html>")
    (out / "report.md").write_text(printable("\n".join(md)))  # no control character of a name reaches the file
    (out / "report.html").write_text("\n".join(page))
    return files + [out / "report.md", out / "report.html"]


__all__ = ["APPENDIX_TITLE", "CAPTIONS", "Section", "caption", "card_value_section", "comparison_section",
           "names_as_text", "player_count_section", "readable", "sections_of", "swap_section", "with_findings",
           "write_report", "write_sections"]
