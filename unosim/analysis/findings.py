"""What the games showed, as data: the few results a report opens with, each with its interval.

Every function returns a list of `Finding`; `unosim.reports.findings` words them.
A finding holds estimates (`Estimate`: value, 95 % interval and whether it is *clear*)
and names the figure or table that shows it (``target``).

When an estimate is clear
-------------------------
An estimate of a difference is *clear* when it differs from 0 after the multiple-comparison
control the reports use (`unosim.analysis.stats.adjust_p_values`, Holm's step-down method at
a family-wise 5 %), each finding's estimates forming one family. A *ranking* (the card kind worth
most, the rule change that moves game length most) is clear when the first estimate's 95 %
interval lies wholly above the runner-up's: two intervals that do not overlap (a stricter test
than that of their difference).

Findings
--------
* ``growth``: per rule set, the mean game length's growth per added player between the
  smallest and the largest table, ``(mean(P_max) - mean(P_min)) / (P_max - P_min)``;
* ``shortest``: the (rule set, player count) cell with the shortest games, and the runner-up;
* ``length``: one cell only: its mean game length;
* ``first_player``: per rule set, the first player's edge (win rate of seat offset 1 minus
  ``1/P``, percentage points) at the smallest and the largest table, and its change;
* ``card_value``: per rule set, at one player count, the card kind worth most (all seats);
* ``rule_change``: at one player count, the variant that moves a metric most from the baseline;
* ``no_change``: a metric no variant moves clearly at any player count;
* ``swap_value``: the kind worth most in a swap experiment at one player count;
* ``leader``: a tournament's leader, its win rate, and its share against the runner-up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .stats import adjust_p_values, p_value, z_value

__all__ = ["Estimate", "Finding", "card_value_findings", "comparison_findings", "dataset_findings", "swap_findings", "tournament_findings"]


@dataclass(frozen=True)
class Estimate:
    """A number with its 95 % interval and whether it is clear (see the module docstring)."""

    value: float
    low: float
    high: float
    clear: bool = False

    @classmethod
    def of(cls, value: float, se: float, clear: bool = False) -> Estimate:
        """The estimate ``value`` with the normal 95 % interval of standard error ``se``."""
        half = z_value() * float(se)
        return cls(float(value), float(value) - half, float(value) + half, bool(clear))


@dataclass(frozen=True)
class Finding:
    """One result: its kind, the figure or table that shows it, and its facts.

    Attributes
    ----------
    kind : str
        One of the findings of the module docstring.
    target : str
        The name of the figure (or the caption of the table) that shows it.
    facts : dict
        The kind's numbers (`Estimate` values) and labels.
    """

    kind: str
    target: str
    facts: dict[str, Any] = field(default_factory=dict)


def _cells(df: pd.DataFrame) -> pd.DataFrame:
    """Per (rules, players): games, mean turns and its standard error, the first player's edge (pp) and its se."""
    frame = df if "rules" in df.columns else df.assign(rules="all")
    by = [frame["rules"].astype(str), frame["players"]]
    turns = frame["turns"].groupby(by, sort=True).agg(["mean", "std", "count"])
    first = (frame["winner_offset"] == 1).groupby(by, sort=True).mean()
    cells = turns.index.to_frame(index=False)
    cells.columns = ["rules", "players"]
    n = turns["count"].to_numpy(float)
    cells["games"] = n.astype(int)
    cells["turns"] = turns["mean"].to_numpy(float)
    cells["turns_se"] = np.where(n > 1, turns["std"].to_numpy(float) / np.sqrt(np.maximum(n, 1)), np.nan)
    share = first.to_numpy(float)
    p = cells["players"].to_numpy(float)
    cells["edge"] = 100 * (share - 1 / p)
    cells["edge_se"] = 100 * np.sqrt(share * (1 - share) / np.maximum(n, 1))
    return cells


def dataset_findings(df: pd.DataFrame, values: pd.DataFrame | None = None, *, rules: str = "all") -> list[Finding]:
    """The findings of a dataset of single rounds (or a match dataset's rounds).

    Parameters
    ----------
    df : pandas.DataFrame
        One row per game with ``players``, ``turns``, ``winner_offset`` and, for an experiment,
        ``rules``.
    values : pandas.DataFrame, optional
        Card values of the same dataset ([`unosim.analysis.card_values`][unosim.analysis.card_values]).
    rules : str
        The rule set's name, for a frame without a ``rules`` column (a single run).

    Returns
    -------
    list of Finding
        ``growth`` (several player counts), ``shortest`` (several cells) or ``length`` (one),
        ``first_player``, ``seats`` (one player count), and ``card_value`` at the smallest and the
        largest table.
    """
    cells = _cells(df if "rules" in df.columns else df.assign(rules=rules))
    findings: list[Finding] = []
    several = cells.groupby("rules")["players"].nunique().max() > 1
    if several:
        rows = []
        for rules, g in cells.groupby("rules", sort=False):
            if len(g) < 2:
                continue
            lo, hi = g.loc[g["players"].idxmin()], g.loc[g["players"].idxmax()]
            span = float(hi["players"] - lo["players"])
            slope = (hi["turns"] - lo["turns"]) / span
            se = float(np.hypot(hi["turns_se"], lo["turns_se"]) / span)
            rows.append((str(rules), int(lo["players"]), int(hi["players"]), slope, se))
        clear, _ = adjust_p_values(p_value(np.array([r[3] for r in rows]), np.array([r[4] for r in rows])))
        findings.append(Finding("growth", "game_length", {"per_rules": [
            {"rules": r, "from": a, "to": b, "estimate": Estimate.of(s, se, c)}
            for (r, a, b, s, se), c in zip(rows, clear)]}))
    if len(cells) > 1:
        order = cells.sort_values("turns", kind="stable").reset_index(drop=True)
        best, second = order.iloc[0], order.iloc[1]
        best_e, second_e = (Estimate.of(r["turns"], r["turns_se"]) for r in (best, second))
        findings.append(Finding("shortest", "game_length", {
            "rules": str(best["rules"]), "players": int(best["players"]), "turns": best_e,
            "runner_up": {"rules": str(second["rules"]), "players": int(second["players"]), "turns": second_e},
            "clear": bool(best_e.high < second_e.low), "several_rules": cells["rules"].nunique() > 1}))
    else:
        row = cells.iloc[0]
        findings.append(Finding("length", "Summary", {
            "rules": str(row["rules"]), "players": int(row["players"]), "turns": Estimate.of(row["turns"], row["turns_se"])}))
    findings.append(_first_player(cells, "rules" in df.columns))
    if not several and len(cells) == 1:
        findings.append(_seats(df, int(cells["players"].iloc[0])))
    if values is not None and len(values):
        findings += card_value_findings(values)
    return findings


def _seats(df: pd.DataFrame, players: int) -> Finding:
    """Per seat offset from the dealer, the win rate above a fair share (pp): the best and the worst seat."""
    n = len(df)
    offsets = np.arange(1, players + 1)  # 1: the first player, ..., P: the dealer
    share = (df["winner_offset"].to_numpy()[:, None] == offsets[None, :]).mean(axis=0)
    edge, se = 100 * (share - 1 / players), 100 * np.sqrt(share * (1 - share) / n)
    clear, _ = adjust_p_values(p_value(edge, se))
    best, worst = int(offsets[np.argmax(edge)]), int(offsets[np.argmin(edge)])
    return Finding("seats", "seat_advantage", {
        "players": players, "best": best, "worst": worst, "clear": int(clear.sum()),
        "at_best": Estimate.of(edge[best - 1], se[best - 1], bool(clear[best - 1])),
        "at_worst": Estimate.of(edge[worst - 1], se[worst - 1], bool(clear[worst - 1]))})


def _first_player(cells: pd.DataFrame, by_rules: bool) -> Finding:
    """The first player's edge at the smallest and largest table per rule set, and its change."""
    entries = []
    for rules, g in cells.groupby("rules", sort=False):
        lo, hi = g.loc[g["players"].idxmin()], g.loc[g["players"].idxmax()]
        entries.append((str(rules), lo, hi))
    edges = [(lo["edge"], lo["edge_se"]) for _, lo, _ in entries] + [
        (hi["edge"], hi["edge_se"]) for _, lo, hi in entries if hi["players"] != lo["players"]]
    changes = [(hi["edge"] - lo["edge"], float(np.hypot(hi["edge_se"], lo["edge_se"])))
               for _, lo, hi in entries if hi["players"] != lo["players"]]
    edge_clear, _ = adjust_p_values(p_value(np.array([e[0] for e in edges]), np.array([e[1] for e in edges])))
    change_clear: Any = adjust_p_values(p_value(np.array([c[0] for c in changes]),
                                                np.array([c[1] for c in changes])))[0] if changes else []
    small = iter(zip(edges[:len(entries)], edge_clear[:len(entries)]))
    large = iter(zip(edges[len(entries):], edge_clear[len(entries):]))
    moved = iter(zip(changes, change_clear))
    per_rules = []
    for rules, lo, hi in entries:
        (e, se), c = next(small)
        item: dict[str, Any] = {"rules": rules, "from": int(lo["players"]), "at_from": Estimate.of(e, se, c)}
        if hi["players"] != lo["players"]:
            (e, se), c = next(large)
            (d, dse), dc = next(moved)
            item.update({"to": int(hi["players"]), "at_to": Estimate.of(e, se, c), "change": Estimate.of(d, dse, dc)})
        per_rules.append(item)
    figure = "seat_advantage_heatmap" if cells["players"].nunique() > 1 else "seat_advantage"
    return Finding("first_player", f"{figure}_{cells['rules'].iloc[0]}" if by_rules else figure, {"per_rules": per_rules})


def card_value_findings(values: pd.DataFrame) -> list[Finding]:
    """The card kind worth most (all seats) per rule set at the smallest and the largest table, from card
    values ([`unosim.analysis.card_values`][unosim.analysis.card_values])."""
    data = values[values["scope"] == "all seats"]
    counts = sorted(int(p) for p in data["players"].unique())
    out = []
    for players in dict.fromkeys([counts[0], counts[-1]]):
        per_rules = []
        for rules, g in data[data["players"] == players].groupby("rules", sort=False):
            g = g.sort_values("value", ascending=False, kind="stable")
            top = g.iloc[0]
            clear_value = bool(top["value_clear"]) if "value_clear" in g else bool(top["low"] > 0 or top["high"] < 0)
            item = {"rules": str(rules), "kind": str(top["kind"]),
                    "value": Estimate(float(top["value"]), float(top["low"]), float(top["high"]), clear_value)}
            if len(g) > 1:
                second = g.iloc[1]
                item["runner_up"] = {"kind": str(second["kind"]), "value": Estimate(
                    float(second["value"]), float(second["low"]), float(second["high"]))}
                item["clear"] = bool(top["low"] > second["high"])
            else:
                item["clear"] = True
            per_rules.append(item)
        first_rules = str(data["rules"].iloc[0])
        out.append(Finding("card_value", f"card_value_heatmap_{first_rules}_all_seats",
                           {"players": players, "per_rules": per_rules}))
    return out


def comparison_findings(differences: pd.DataFrame, metrics: tuple[str, ...] = ("turns", "first_player_edge", "skill_edge"),
                        ) -> list[Finding]:
    """The findings of a comparison ([`unosim.analysis.Comparison`][unosim.analysis.Comparison] ``.differences``).

    Clear differences are those the comparison's table flags (Holm over every row of it). For game
    length (``turns``): the variant that moves it most at the smallest and at the largest table;
    for every other metric of ``metrics``: the variant that moves it most over all player counts,
    or ``no_change`` when no variant moves it clearly anywhere.
    """
    diffs = differences.reset_index(drop=True).copy()
    diffs["clear"] = adjust_p_values(p_value(diffs["diff"], diffs["se"]))[0]
    counts = sorted(int(p) for p in diffs["players"].unique())
    out = []
    for metric in metrics:
        rows = diffs[diffs["metric"] == metric]
        if rows.empty:
            continue
        if metric == "turns":
            for players in dict.fromkeys([counts[0], counts[-1]]):
                out.append(_largest(rows[rows["players"] == players], metric, players))
            continue
        clear = rows[rows["clear"]]
        if clear.empty:
            out.append(Finding("no_change", f"compare_{metric}", {"metric": metric, "players": counts}))
        else:
            out.append(_largest(clear, metric, None))
    return out


def _largest(rows: pd.DataFrame, metric: str, players: int | None) -> Finding:
    order = rows.assign(size=rows["diff"].abs()).sort_values("size", ascending=False, kind="stable")
    top = order.iloc[0]

    def estimate(r: Any) -> Estimate:
        return Estimate(float(r["diff"]), float(r["low"]), float(r["high"]), bool(r["clear"]))

    facts: dict[str, Any] = {"metric": metric, "players": int(top["players"]) if players is None else players,
                             "variant": str(top["variant"]), "baseline": str(top["baseline"]), "diff": estimate(top),
                             "over_all_players": players is None}
    if len(order) > 1:
        second = order.iloc[1]
        facts["runner_up"] = {"variant": str(second["variant"]), "players": int(second["players"]),
                              "diff": estimate(second)}
        facts["clear"] = _nearest(estimate(top)) > _farthest(estimate(second))
    else:
        facts["clear"] = True
    return Finding("rule_change", f"compare_{metric}", facts)


def _nearest(e: Estimate) -> float:
    """The size of the interval's end nearest 0 (0 when it holds 0)."""
    return 0.0 if e.low <= 0 <= e.high else min(abs(e.low), abs(e.high))


def _farthest(e: Estimate) -> float:
    """The size of the interval's end farthest from 0."""
    return max(abs(e.low), abs(e.high))


def swap_findings(values: pd.DataFrame) -> list[Finding]:
    """The kind worth most by the swap experiment at the smallest and the largest table
    ([`unosim.analysis.SwapResult`][unosim.analysis.SwapResult] ``.values``)."""
    counts = sorted(int(p) for p in values["players"].unique())
    out = []
    for players in dict.fromkeys([counts[0], counts[-1]]):
        g = values[values["players"] == players].sort_values("swap_value", ascending=False, kind="stable")
        top = g.iloc[0]
        value = Estimate(float(top["swap_value"]), float(top["swap_low"]), float(top["swap_high"]),
                         bool(top["swap_low"] > 0 or top["swap_high"] < 0))
        facts: dict[str, Any] = {"players": players, "kind": str(top["kind"]), "value": value, "clear": True}
        if len(g) > 1:
            second = g.iloc[1]
            facts["runner_up"] = {"kind": str(second["kind"]), "value": Estimate(
                float(second["swap_value"]), float(second["swap_low"]), float(second["swap_high"]))}
            facts["clear"] = bool(top["swap_low"] > second["swap_high"])
        out.append(Finding("swap_value", "card_value_swap", facts))
    return out


def tournament_findings(leaderboard: pd.DataFrame, head_to_head: pd.DataFrame, fair_share: float) -> list[Finding]:
    """A tournament's leader: its win rate against the fair share, and its share of the wins against the runner-up."""
    board = leaderboard.sort_values("rank", kind="stable")
    top = board.iloc[0]
    win = Estimate(float(top["win_rate"]), float(top["win_rate_lo"]), float(top["win_rate_hi"]),
                   bool(top["win_rate_lo"] > fair_share or top["win_rate_hi"] < fair_share))
    facts: dict[str, Any] = {"strategy": str(top["strategy"]), "win_rate": win, "fair_share": float(fair_share),
                             "strategies": len(board)}
    if len(board) > 1:
        second = str(board.iloc[1]["strategy"])
        pair = head_to_head[(head_to_head["strategy"] == top["strategy"]) & (head_to_head["opponent"] == second)]
        if len(pair):
            r = pair.iloc[0]
            facts["runner_up"] = second
            facts["beat"] = Estimate(float(r["beat"]), float(r["beat_lo"]), float(r["beat_hi"]),
                                     bool(r["beat_lo"] > 0.5 or r["beat_hi"] < 0.5))
    return [Finding("leader", "leaderboard", facts)]
