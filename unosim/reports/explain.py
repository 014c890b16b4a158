"""Words for a report's flags: the rule (``docs/rules.md``) and the option behind the value of a
card kind's first and second copy, in the reading the rule set played.
"""

from __future__ import annotations

from typing import Any

from ..game.names import code_span

__all__ = ["KIND_RULES", "copies_note"]

KIND_RULES: dict[str, tuple[str, tuple[str, ...], str]] = {
    "skip": ("A-1, T-1", ("action_symbol_match",),
             "a Skip matches by colour or, with `action_symbol_match=true`, by symbol; a second Skip mostly waits "
             "for a turn the first already took"),
    "reverse": ("A-2, T-1", ("reverse_two_players_skips", "action_symbol_match"),
                "a Reverse turns the direction (a Skip with two players under `reverse_two_players_skips=true`); "
                "two Reverses in a row undo each other"),
    "draw_two": ("A-3, E-2", ("last_card_draws", "action_symbol_match"),
                 "a Draw Two makes the next player draw two; `last_card_draws` sets whether a last one still does"),
    "point_taken": ("A-4", ("point_taken_cap", "point_taken_breaks_link_first"),
                    "a Point Taken makes the players pointed at draw, at most `point_taken_cap` each"),
    "wild": ("W-1, W-2", ("wd4_legal_when",),
             "a Wild is playable on anything; under `wd4_legal_when=no_color_match_incl_wilds` or "
             "`no_color_match_incl_plain_wilds` it also blocks a Wild Draw Four held with it"),
    "wild_pile_up": ("P-5", ("pileup_flipped_wilds", "pileup_may_refuse", "link_shares_pileup"),
                     "a Wild Pile-Up starts a mini pile that someone must take"),
    "wild_drawn_together": ("P-6, P-7", ("relink_must_differ", "link_echoes_voluntary_draws"),
                            "a Wild Drawn Together links two players, who then draw together"),
}
"""Per card kind: the rule ids that play it, the options that change it and what it does."""

_WD4 = {
    "no_color_match_incl_wilds":
        "under `wd4_legal_when=no_color_match_incl_wilds` (W-2, the party reading of \"wild cards count as "
        "matching\") a Wild Draw Four may not be played while its holder has any other wild, so two Wild Draw "
        "Fours block each other until one is played as a bluff or the other wilds are gone; "
        "`--set wd4_legal_when=no_color_match_incl_plain_wilds` tries the other reading (only a plain Wild blocks)",
    "no_color_match_incl_plain_wilds":
        "under `wd4_legal_when=no_color_match_incl_plain_wilds` (W-2) a plain Wild in the hand blocks a Wild Draw "
        "Four but a second Wild Draw Four does not",
    "no_color_match":
        "under `wd4_legal_when=no_color_match` (W-2) a Wild Draw Four may be played only without a card of the "
        "active colour, so a second one waits for the same moments as the first",
    "no_color_or_number_match":
        "under `wd4_legal_when=no_color_or_number_match` (W-2) a Wild Draw Four may be played only without a card "
        "of the active colour or of the top card's number, so a second one waits for the same moments",
    "always":
        "under `wd4_legal_when=always` (W-2) a Wild Draw Four is always playable; a second one is an extra attack",
}


def copies_note(kind: str, rules: dict[str, Any] | None) -> tuple[str, str]:
    """The rule and option behind a kind's first- and second-copy values, and what they do.

    Parameters
    ----------
    kind : str
        A card kind (`unosim.game.cards.KIND_NAMES`).
    rules : dict or None
        The rule set played ([`unosim.RuleSet.to_dict`][unosim.RuleSet.to_dict]), if known.

    Returns
    -------
    rule : str
        Rule ids and the options (with the values played) that change the kind.
    note : str
        One sentence on why a second copy can be worth other than the first.
    """
    rules = rules or {}
    if kind == "wild_draw_four":
        when = rules.get("wd4_legal_when")
        rule = "W-2: " + (f"`wd4_legal_when={when}`" if when else "`wd4_legal_when`") + (
            f", `wd4_challenge={str(rules['wd4_challenge']).lower()}`" if "wd4_challenge" in rules else "")
        return rule, _WD4.get(str(when), "`wd4_legal_when` (W-2) sets when a Wild Draw Four may be played")
    if kind not in KIND_RULES:
        return "—", "a number-like placebo kind: no rule makes a second copy differ"
    ids, options, does = KIND_RULES[kind]
    shown = ", ".join(code_span(f"{o}={_text(rules[o])}") if o in rules else code_span(o) for o in options)
    return f"{ids}: {shown}", f"{does}; a player plays one card a turn, so a second copy is often held, not used"


def _text(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)
