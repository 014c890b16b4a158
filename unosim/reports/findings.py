"""The words of a report's opening "Findings": one sentence per finding of
`unosim.analysis.findings`, each with its numbers, their 95 % intervals and a link to the
figure or table that shows it.

A sentence says only what its interval supports: a change or a ranking that is not clear (see
`unosim.analysis.findings`) is stated as not clear. Numbers are rounded to the precision
their interval allows (`rounded`). Links are Markdown (``[figure](#name)``): the report
writer points them at the figure or the table (`unosim.reports.dataset_report`).
"""

from __future__ import annotations

import math

from ..analysis.findings import Estimate, Finding
from ..game.names import code_span

__all__ = ["FINDINGS_TITLE", "FINDINGS_TEXT", "anchor", "decimals", "findings_text", "rounded", "sentence", "sentences"]

FINDINGS_TITLE = "Findings"
"""Title of the opening section of every report."""
FINDINGS_TEXT = (
    "What these games showed, with 95 % intervals in brackets. A change is called clear when it differs "
    "from 0 after Holm's adjustment over the finding's comparisons (family-wise 5 %); a ranking is clear "
    "when the first interval lies wholly beyond the runner-up's."
)
"""The line under the title: how to read the sentences."""


def anchor(name: str) -> str:
    """The HTML id (and Markdown link target) of a figure name or a table caption."""
    out = "".join(c if c.isalnum() or c in "_-" else "-" for c in name.lower())
    return "-".join(p for p in out.split("-") if p) or "section"


def decimals(e: Estimate) -> int:
    """Decimals that show an estimate's interval to two significant digits of its half-width (0 to 3)."""
    half = (e.high - e.low) / 2
    if not math.isfinite(half) or half <= 0:
        return 2
    return max(0, min(3, 1 - math.floor(math.log10(half))))


def _num(v: float, d: int, sign: bool) -> str:
    text = f"{v:+,.{d}f}" if sign else f"{v:,.{d}f}"
    return text.replace("-", "−")


def rounded(e: Estimate, unit: str = "", *, sign: bool = False) -> str:
    """``+4.12 turns [+3.90, +4.34]``: the value, its unit and its interval, at `decimals`."""
    d = decimals(e)
    unit = f" {unit}" if unit else ""
    return f"{_num(e.value, d, sign)}{unit} [{_num(e.low, d, sign)}, {_num(e.high, d, sign)}]"


def _link(target: str, what: str = "figure") -> str:
    return f"([{what}](#{anchor(target)}))"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _rules(items: list[dict]) -> str:
    return _and([code_span(i['rules']) for i in items])


def _kind(kind: str) -> str:
    return kind.replace("_", " ")


def _metric(metric: str, skill: str) -> str:
    return {"turns": "game length", "first_player_edge": "the first player's edge", "truncated": "the truncated share",
            "skill_edge": f"the skill edge of {skill} against random"}.get(metric, metric)


def _unit(metric: str) -> str:
    return {"turns": "turns", "first_player_edge": "pp", "truncated": "pp", "skill_edge": "pp"}.get(metric, "")


def _growth(f: Finding) -> str:
    items = f.facts["per_rules"]
    named = len(items) > 1 or items[0]["rules"] != "all"
    where = (lambda r: f" in {code_span(r)}") if named else (lambda r: "")
    longer = [f"{rounded(i['estimate'], 'turns', sign=True)}{where(i['rules'])}" for i in items]
    span = f"From {items[0]['from']} to {items[0]['to']} players"
    up = [i for i in items if i["estimate"].clear and i["estimate"].value > 0]
    down = [i for i in items if i["estimate"].clear and i["estimate"].value < 0]
    flat = [i for i in items if not i["estimate"].clear]
    if len(up) == len(items):
        head = "every added player makes a game longer by"
    elif len(down) == len(items):
        head = "every added player makes a game shorter by"
    else:
        head = "each added player changes game length by"
    text = f"{span}, {head} {_and(longer)} {_link(f.target)}"
    tails = []
    if up and len(up) < len(items):
        tails.append(f"it clearly grows in {_rules(up)}")
    if down and len(down) < len(items):
        tails.append(f"it clearly shrinks in {_rules(down)}")
    if flat:
        tails.append("it does not clearly change" + (f" in {_rules(flat)}" if named else ""))
    return text + ("; " + "; ".join(tails) if tails and len(up) < len(items) and len(down) < len(items) else "") + "."


def _cell(rules: str, players: int, several: bool) -> str:
    return f"{code_span(rules)} at {players} players" if several else f"{players} players"


def _shortest(f: Finding) -> str:
    x, r = f.facts, f.facts["runner_up"]
    several = x["several_rules"]
    text = f"Games are shortest in {_cell(x['rules'], x['players'], several)}: {rounded(x['turns'], 'turns')}"
    if x["clear"]:
        text += f", clearly shorter than the next, {_cell(r['rules'], r['players'], several)} ({rounded(r['turns'])})"
    else:
        text += (f", though not clearly shorter than {_cell(r['rules'], r['players'], several)} "
                 f"({rounded(r['turns'])})")
    return f"{text} {_link(f.target)}."


def _length(f: Finding) -> str:
    x = f.facts
    rules = "" if x["rules"] == "all" else f" of {code_span(x['rules'])}"
    return f"A game{rules} at {x['players']} players lasts {rounded(x['turns'], 'turns')} on average {_link(f.target, 'table')}."


def _first_player(f: Finding) -> str:
    items = f.facts["per_rules"]
    named = len(items) > 1 or items[0]["rules"] != "all"
    where = (lambda r: f" in {code_span(r)}") if named else (lambda r: "")
    if "to" not in items[0]:
        parts = [f"{rounded(i['at_from'], 'pp', sign=True)}{where(i['rules'])}" for i in items]
        clear = [i for i in items if i["at_from"].clear]
        text = (f"The first player's edge (win rate above a fair 1/P) at {items[0]['from']} players is {_and(parts)}")
        if len(clear) == len(items):
            text += ": clearly not a fair share"
        elif not clear:
            text += ": not clearly different from a fair share"
        else:
            text += f": clearly not a fair share only in {_rules(clear)}"
        return f"{text} {_link(f.target)}."
    parts = [f"{rounded(i['at_from'], 'pp', sign=True)} at {i['from']} players to "
             f"{rounded(i['at_to'], 'pp', sign=True)} at {i['to']}{where(i['rules'])}" for i in items]
    text = f"The first player's edge (win rate above a fair 1/P) goes from {_and(parts)}"
    groups: dict[str, list[str]] = {"clearly shrinks": [], "clearly grows": [], "does not clearly change": []}
    for i in items:
        c = i["change"]
        key = "does not clearly change" if not c.clear else "clearly grows" if c.value > 0 else "clearly shrinks"
        groups[key].append(code_span(i['rules']))
    said = [f"it {k}" + (f" in {_and(v)}" if named else "") + (f" ({rounded(items[0]['change'], 'pp', sign=True)})"
                                                                 if not named else "")
            for k, v in groups.items() if v]
    fair = [i for i in items if not i["at_to"].clear]
    tail = ""
    if fair:
        tail = (f"; at {items[0]['to']} players it is not clearly different from a fair share"
                + (f" in {_rules(fair)}" if named else ""))
    return f"{text}: {'; '.join(said)}{tail} {_link(f.target)}."


def _seats(f: Finding) -> str:
    x = f.facts
    def seat(k: int) -> str:
        return ("the first player (offset 1 from the dealer)" if k == 1 else "the dealer" if k == x["players"]
                else f"the seat at offset {k} from the dealer")

    text = (f"Of the {x['players']} seats, {seat(x['best'])} wins most "
            f"({rounded(x['at_best'], 'pp', sign=True)} above a fair share) and {seat(x['worst'])} least "
            f"({rounded(x['at_worst'], 'pp', sign=True)})")
    count = x["clear"]
    text += ("; no seat clearly differs from a fair share" if count == 0 else
             f"; {count} of the {x['players']} clearly differ from a fair share")
    return f"{text} {_link(f.target)}."


def _card_value(f: Finding) -> str:
    x = f.facts
    named = len(x["per_rules"]) > 1
    parts = []
    for i in x["per_rules"]:
        part = f"{_kind(i['kind'])}" + (f" in {code_span(i['rules'])}" if named else "") + f" ({rounded(i['value'], 'pp', sign=True)}"
        if "runner_up" in i:
            r = i["runner_up"]
            part += (f", clearly ahead of {_kind(r['kind'])}" if i["clear"] else
                     f", not clearly ahead of {_kind(r['kind'])} at {rounded(r['value'], sign=True)}")
        if not i["value"].clear:
            part += ", and not clearly above a number card"
        parts.append(part + ")")
    return (f"At {x['players']} players the card kind worth most (win probability per card, against a number card) "
            f"is {_and(parts)} {_link(f.target)}.")


def _rule_change(f: Finding, skill: str) -> str:
    x = f.facts
    metric = _metric(x["metric"], skill)
    d = x["diff"]
    at = f"At {x['players']} players" if not x["over_all_players"] else f"Over every player count (largest at {x['players']})"
    text = (f"{at}, {code_span(x['variant'])} moves {metric} most: {rounded(d, _unit(x['metric']), sign=True)} against "
            f"{code_span(x['baseline'])}")
    if not d.clear:
        text += ", and even that is not a clear change"
    elif "runner_up" in x:
        r = x["runner_up"]
        where = f" at {r['players']} players" if x["over_all_players"] else ""
        text += (f", clearly more than the next, {code_span(r['variant'])}{where} ({rounded(r['diff'], sign=True)})" if x["clear"]
                 else f", though not clearly more than {code_span(r['variant'])}{where} ({rounded(r['diff'], sign=True)})")
    return f"{text} {_link(f.target)}."


def _no_change(f: Finding, skill: str) -> str:
    x = f.facts
    counts = x["players"]
    span = f"{counts[0]} players" if len(counts) == 1 else f"any player count from {counts[0]} to {counts[-1]}"
    return f"No variant clearly changes {_metric(x['metric'], skill)} at {span} {_link(f.target)}."


def _swap_value(f: Finding) -> str:
    x = f.facts
    text = (f"By the swap experiment, the card kind worth most at {x['players']} players is {_kind(x['kind'])}: "
            f"{rounded(x['value'], 'pp', sign=True)} of win probability")
    if "runner_up" in x:
        r = x["runner_up"]
        text += (f", clearly ahead of {_kind(r['kind'])} ({rounded(r['value'], sign=True)})" if x["clear"] else
                 f", though not clearly ahead of {_kind(r['kind'])} ({rounded(r['value'], sign=True)})")
    if not x["value"].clear:
        text += "; not clearly worth more than the number card it replaced"
    return f"{text} {_link(f.target)}."


def _leader(f: Finding) -> str:
    x = f.facts
    w = x["win_rate"]
    pct = Estimate(100 * w.value, 100 * w.low, 100 * w.high, w.clear)
    text = (f"{code_span(x['strategy'])} leads the {x['strategies']} strategies: it wins {rounded(pct, '%')} of its seat-games "
            f"against a fair share of {100 * x['fair_share']:.1f} %")
    text += "" if w.clear else ", not clearly more than a fair share"
    if "beat" in x:
        b = x["beat"]
        share = Estimate(100 * b.value, 100 * b.low, 100 * b.high, b.clear)
        text += (f"; of the games won by it or {code_span(x['runner_up'])}, the runner-up, it wins {rounded(share, '%')}"
                 + ("" if b.clear else ", not clearly more than half"))
    return f"{text} {_link(f.target)}."


def sentence(finding: Finding, skill: str = "greedy") -> str:
    """One finding as a Markdown sentence with its numbers, intervals and link.

    Parameters
    ----------
    finding : Finding
        From `unosim.analysis.findings`.
    skill : str
        The skilled strategy of a comparison (named in its skill-edge sentence).
    """
    kind = finding.kind
    if kind == "growth":
        return _growth(finding)
    if kind == "shortest":
        return _shortest(finding)
    if kind == "length":
        return _length(finding)
    if kind == "first_player":
        return _first_player(finding)
    if kind == "seats":
        return _seats(finding)
    if kind == "card_value":
        return _card_value(finding)
    if kind == "rule_change":
        return _rule_change(finding, skill)
    if kind == "no_change":
        return _no_change(finding, skill)
    if kind == "swap_value":
        return _swap_value(finding)
    if kind == "leader":
        return _leader(finding)
    raise ValueError(f"no words for a finding of kind {kind!r}")


def sentences(findings: list[Finding], skill: str = "greedy") -> list[str]:
    """Every finding as a sentence (`sentence`), in order."""
    return [sentence(f, skill) for f in findings]


def findings_text(findings: list[Finding], skill: str = "greedy") -> str:
    """The Findings section's text: the sentences as a Markdown list, then how to read them."""
    lines = [f"- {s}" for s in sentences(findings, skill)] or ["- These games show nothing clear."]
    return "\n".join(lines) + "\n\n" + FINDINGS_TEXT

