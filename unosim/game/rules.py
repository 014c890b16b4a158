"""The rule configuration: every option of the rule book (``docs/rules.md``) in one frozen dataclass.

Each field names the rule id it belongs to (``docs/rules.md``). Three presets ship:
``classic``, ``classic-house`` and ``party`` (``PRESETS``); any field can
be overridden with ``RuleSet.replace`` or, from text (CLI ``--set``), with
``RuleSet.with_overrides``. Validation happens once, at construction, and
an invalid value or combination raises ``ValueError`` naming the option,
the value and what is allowed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, fields
from typing import Any, Literal, get_args, get_origin, get_type_hints

from .cards import DRAW_TWO, FACES_PER_COLOUR, WILD_DRAW_FOUR, Deck, load_deck
from .errors import UnosimInputError

__all__ = [
    "CHOICES", "MAX_DECK_COPIES", "MAX_PLAYERS", "MIN_PLAYERS", "PRESETS", "choice_code", "FirstCard", "FirstWild",
    "JumpInCards", "option_names", "options_markdown", "parse_option", "PileupFlippedWilds", "RuleSet", "Scoring", "Stacking",
    "Wd4LegalWhen",
]

FirstCard = Literal["apply_actions", "reflip_actions", "ignore_effect"]
FirstWild = Literal["first_player_chooses", "reflip"]
Wd4LegalWhen = Literal[
    "no_color_match_incl_wilds", "no_color_match", "no_color_or_number_match", "always", "no_color_match_incl_plain_wilds",
]
PileupFlippedWilds = Literal["discard", "mini_pile"]
Stacking = Literal["none", "same_face", "mixed", "plus4_on_plus2"]
JumpInCards = Literal["numbers", "numbers_and_actions"]
Scoring = Literal["winner_takes", "penalty"]

MAX_DECK_COPIES = 6
MIN_PLAYERS, MAX_PLAYERS = 2, 16


def _opt(default: Any, rule: str, doc: str, example: str) -> Any:
    """A rule option: its default, rule id, one-line description and an example ``--set`` value
    with what it does. A ``Literal`` type lists the choices in their declared order, which is
    also their code in the kernels (``choice_code``)."""
    return field(default=default, metadata={"rule": rule, "doc": doc, "example": example})


@dataclass(frozen=True)
class RuleSet:
    """All rule options of the rule book. Build from a preset: ``RuleSet.preset("party")``.

    The docstring of each option is in ``RuleSet.describe()``; the rule id it
    implements is in the field metadata. The rule book, ``docs/rules.md`` in the
    repository, states every rule id, the engine's readings and the option that
    flips each one.
    """

    name: str = _opt("classic", "-", "preset this rule set started from (informational)",
        "`name=my-house`: the rule set is labelled so in run metadata")
    deck: str = _opt("classic", "§1", "deck composition: shipped name or path of a deck TOML file",
        "`deck=party`: the classic rules played with the 224-card UNO Party! deck")
    deck_copies: int = _opt(1, "§1", "number of copies of the deck shuffled together",
        "`deck_copies=2`: 216 classic cards, enough to deal 16 players")
    hand_size: int = _opt(7, "S-1", "cards dealt to each player",
        "`hand_size=10`: ten cards each")
    first_card: FirstCard = _opt("apply_actions", "S-2/S-3", "what happens with the first card of the discard pile",
        "`reflip_actions`: a Skip turned up first goes under the pile and another card is turned")
    first_wild: FirstWild = _opt("first_player_chooses", "S-3", "a Wild as first card: first player chooses the colour, or reflip",
        "`reflip`: a Wild turned up first goes back into the deck and another card is turned")
    dealer: str | int = _opt("random", "S-4", "'random' (uniform seat) or a fixed seat number",
        "`dealer=0`: seat 0 always deals, so seat 1 always starts")
    action_symbol_match: bool = _opt(True, "T-1", "Skip/Reverse/Draw Two/Point Taken may match by symbol",
        "`false`: a red Skip cannot go on a blue Skip")
    draw_until_playable: bool = _opt(False, "T-3/T-4", "a player who draws keeps drawing until a card is playable",
        "`true`: with nothing playable, draw until a card can be played (not just one)")
    reverse_two_players_skips: bool = _opt(True, "A-2", "with two players a Reverse acts as a Skip",
        "`false`: with two players a Reverse only turns the direction; the other player goes next")
    point_taken_cap: int = _opt(5, "A-4", "most cards one player draws from a Point Taken",
        "`point_taken_cap=2`: five players pointing at one player make them draw 2")
    point_taken_breaks_link_first: bool = _opt(True, "A-4", "Point Taken ends the link before its draws",
        "`false`: a linked player's Point Taken draws are echoed by the partner, then the link ends")
    wd4_legal_when: Wd4LegalWhen = _opt("no_color_match", "W-2", "when a Wild Draw Four may be played",
        "`always`: a Wild Draw Four may be played whatever the hand holds; "
        "`no_color_match_incl_plain_wilds`: a plain Wild blocks it, a second Wild Draw Four does not")
    wd4_challenge: bool = _opt(True, "W-2", "a Wild Draw Four may be challenged (and so bluffed)",
        "`false`: no challenges, and a Wild Draw Four is never bluffed")
    pileup_flipped_wilds: PileupFlippedWilds = _opt("discard", "P-5", "where wilds turned up to start a mini pile go",
        "`mini_pile`: a Wild turned up while starting a mini pile goes into it (and to whoever takes it)")
    pileup_may_refuse: bool = _opt(False, "P-5", "a player able to add to the mini pile may take it instead",
        "`true`: a player holding a card of the pile's colour may still take the pile")
    link_shares_pileup: bool = _opt(False, "P-5/P-7", "taking a mini pile counts as drawing for a link",
        "`true`: a linked player taking a 6-card mini pile makes the partner draw 6")
    relink_must_differ: bool = _opt(False, "P-6", "a new link must not share a player with the old one",
        "`true`: with seats 1 and 2 linked, the next Wild Drawn Together links two of the others")
    link_echoes_voluntary_draws: bool = _opt(False, "P-7", "a draw chosen while holding a playable card is echoed",
        "`true`: a linked player drawing by choice while able to play makes the partner draw too")
    speed_play: bool = _opt(False, "P-1..P-4", "out-of-turn jump-ins with identical number cards",
        "`false`: a player holding the identical red 5 waits for their turn to play it")
    speed_play_error_rate: float = _opt(0.0, "P-3", "chance per number card that a player without a match jumps in wrongly",
        "`0.05`: after each number card, each player without it jumps in wrongly 5 % of the time and draws 1")
    uno_penalty: int = _opt(2, "U-2", "cards drawn by a player caught not calling UNO",
        "`uno_penalty=4`: a player caught not calling UNO draws 4")
    last_card_draws: bool = _opt(True, "E-2", "a last Draw Two / Wild Draw Four still makes the next player draw",
        "`false`: going out on a Draw Two ends the round; the next player draws nothing")
    scoring: Scoring = _opt("winner_takes", "E-3/E-4", "'winner_takes' (highest total wins) or 'penalty' (own hand, lowest wins)",
        "`penalty`: every player adds their own hand's points; the lowest total wins the match")
    target_score: int = _opt(500, "E-3/E-4", "score that ends a match",
        "`target_score=200`: with `--match`, a match ends when someone reaches 200")
    elimination: bool = _opt(False, "E-4", "penalty scoring: players reaching the target drop out",
        "`true` (with `scoring=penalty`): players reaching the target drop out until one remains")
    stacking: Stacking = _opt("none", "H-1", "a Draw Two / Wild Draw Four penalty may be passed on by playing a stacking card",
        "`same_face`: a player facing a Draw Two plays their own Draw Two and the next player faces 4; "
        "`mixed`: a Wild Draw Four also goes on a Draw Two; `plus4_on_plus2`: a Wild Draw Four goes on a Draw Two and ends the chain")
    seven_zero: bool = _opt(False, "H-2", "a 7 swaps hands with a chosen player; a 0 passes every hand on in the direction of play",
        "`true`: playing a red 7 with 5 cards left, the player swaps hands with the player holding 2")
    jump_in_cards: JumpInCards = _opt("numbers", "H-3", "which identical cards may be jumped in with (needs speed_play)",
        "`numbers_and_actions`: an identical red Skip may be jumped in too, and skips the player after the jumper")
    go_out_on_action: bool = _opt(True, "H-4", "a player may go out on an action card or a wild",
        "`false`: a player holding only a Wild must draw instead of playing it")
    max_turns: int = _opt(5000, "E-5/T-7", "turns after which a round is stopped and recorded as truncated",
        "`max_turns=1000`: a round still going after 1,000 turns stops and is recorded as truncated")

    # ------------------------------------------------------------------ build
    def __post_init__(self) -> None:
        _validate(self)

    @classmethod
    def preset(cls, name: str) -> RuleSet:
        """Return the named preset (``classic``, ``classic-house``, ``party``)."""
        if name not in PRESETS:
            raise UnosimInputError(f"unknown rules preset {name!r}; choose one of: {', '.join(PRESETS)}.")
        return PRESETS[name]

    def replace(self, **changes: Any) -> RuleSet:
        """Return a copy with ``changes`` applied (validated)."""
        unknown = set(changes) - set(option_names())
        if unknown:
            raise UnosimInputError(_unknown_option_message(sorted(unknown)[0]))
        return dataclasses.replace(self, **changes)

    def with_overrides(self, assignments: list[str] | dict[str, str]) -> RuleSet:
        """Apply textual ``OPTION=VALUE`` overrides (as given to ``--set``): a list of such strings (one string
        alone is one override) or a dict of option to value.

        Raises
        ------
        UnosimInputError
            For overrides of another type, an item that is not ``OPTION=VALUE`` text, an empty value, an
            unknown option or a value it does not take.
        """
        if isinstance(assignments, str):
            assignments = [assignments]
        if isinstance(assignments, dict):
            pairs = [(str(k), (v if isinstance(v, str) else str(v)).strip()) for k, v in assignments.items()]
        elif isinstance(assignments, (list, tuple)):
            pairs = []
            for item in assignments:
                if not isinstance(item, str) or "=" not in item:
                    raise UnosimInputError(f"--set {item!r} is not OPTION=VALUE; e.g. --set wd4_challenge=false.")
                key, value = item.split("=", 1)
                pairs.append((key.strip(), value.strip()))
        else:
            raise UnosimInputError(
                f"overrides = {assignments!r:.80} ({type(assignments).__name__}); give rule overrides as a list of "
                "'OPTION=VALUE' strings (['max_turns=300']) or a dict ({'max_turns': 300}).")
        for key, value in pairs:
            if value == "":
                raise UnosimInputError(f"--set {key}= gives option {key!r} no value; write OPTION=VALUE "
                                       f"({_example(key)}), or leave the option out to keep its value.")
        return self.replace(**{k: parse_option(k, v) for k, v in pairs})

    # ------------------------------------------------------------------ views
    def load_deck(self) -> Deck:
        """The deck composition this rule set plays."""
        return load_deck(self.deck)

    def to_dict(self) -> dict[str, Any]:
        """Every option as a plain dict (for metadata)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Inverse of [`to_dict`][unosim.game.RuleSet.to_dict]."""
        return cls(**data)

    @staticmethod
    def describe() -> list[dict[str, str]]:
        """Option name, rule id, type, one-line description and example, for docs and errors."""
        return [
            {"option": f.name, "rule": f.metadata["rule"], "type": _type_text(f.name, f.type), "doc": f.metadata["doc"],
             "example": f.metadata["example"]}
            for f in fields(RuleSet)
        ]

    def copies_needed(self, players: int) -> int:
        """The fewest deck copies that deal ``players`` hands and leave a card to start the discard pile (§1)."""
        return max(1, -(-(players * self.hand_size + 1) // self.load_deck().size))

    def check_table(self, players: int) -> None:
        """Refuse a player count outside 2–16, a fixed dealer who is not a seat of the table, or a table the deck cannot deal."""
        if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise UnosimInputError(
                f"players = {players!r}; unosim plays {MIN_PLAYERS} to {MAX_PLAYERS} players. "
                f"Choose a number in that range."
            )
        if self.dealer != "random" and int(self.dealer) >= players:
            raise UnosimInputError(
                f"dealer = {self.dealer}, but a table of {players} players has seats 0 to {players - 1} (S-4). "
                f"Choose one of those seats, or dealer=random."
            )
        size = self.load_deck().size * self.deck_copies
        need = players * self.hand_size + 1
        if need > size:
            fix = self.copies_needed(players)
            hint = (
                f"Use deck_copies={fix} (--set deck_copies={fix}), fewer players or a smaller hand_size."
                if fix <= MAX_DECK_COPIES
                else "Use fewer players or a smaller hand_size."
            )
            raise UnosimInputError(
                f"{players} players × {self.hand_size} cards = {players * self.hand_size} cards, but the "
                f"{self.deck!r} deck × {self.deck_copies} holds {size}, which leaves no card to start the "
                f"discard pile. {hint}"
            )


def options_markdown() -> str:
    """The rule-options page (``docs/rule_options.md``): every option, rule id, default per preset, an example."""
    lines = [
        "# Rule options",
        "",
        "Every option of `unosim.RuleSet`, the rule id of the [rule book](rules.md) it implements, its default in each preset,",
        "what it changes, with an example. Override any of them with `--set OPTION=VALUE` on the command line,",
        "`overrides=[...]` in Python, or `[overrides]` in an experiment file.",
        "Generated by `unosim.game.rules.options_markdown()`; a test keeps it in step with the code.",
        "",
        "| option | rule | " + " | ".join(PRESETS) + " | what it changes | example | allowed |",
        "|---|---|" + "---|" * len(PRESETS) + "---|---|---|",
    ]
    for row in RuleSet.describe():
        values = " | ".join(f"`{getattr(preset, row['option'])!r}`" for preset in PRESETS.values())
        allowed = row["type"].replace(" | ", " or ")
        lines.append(f"| `{row['option']}` | {row['rule']} | {values} | {row['doc']} | {row['example']} | {allowed} |")
    return "\n".join(lines) + "\n"


def option_names() -> list[str]:
    """Names of every rule option."""
    return [f.name for f in fields(RuleSet)]


def _type_text(name: str, tp: Any) -> str:
    if name in CHOICES:
        return " | ".join(repr(a) for a in CHOICES[name])
    return tp if isinstance(tp, str) else getattr(tp, "__name__", str(tp))


CHOICES: dict[str, tuple[str, ...]] = {
    name: get_args(tp) for name, tp in get_type_hints(RuleSet).items() if get_origin(tp) is Literal
}
"""Every choice option (a ``Literal`` field of ``RuleSet``) and its values in their declared
order. That order is the one place a value's code comes from: the encoder (``unosim.engine.driver``)
and the kernels' named constants both take it from ``choice_code``."""


def choice_code(option: str, value: str) -> int:
    """The kernels' integer code of ``value`` of the choice option ``option``: its index in the ``Literal``.

    Raises
    ------
    ValueError
        If ``option`` is not a choice option or ``value`` is not one of its values.
    """
    if option not in CHOICES:
        raise UnosimInputError(f"{option!r} is not a choice option; the choice options are: {', '.join(CHOICES)}.")
    if value not in CHOICES[option]:
        raise UnosimInputError(f"{option}={value!r} is not allowed; allowed: {', '.join(CHOICES[option])}.")
    return CHOICES[option].index(value)


def _example(name: str) -> str:
    """The example of option ``name`` (``--set deck=party``), or of any option for an unknown name."""
    examples = {f.name: f.metadata["example"].split("`")[1] for f in fields(RuleSet)}
    return f"e.g. --set {examples.get(name, examples['hand_size'])}"


def _unknown_option_message(name: str) -> str:
    import difflib

    close = difflib.get_close_matches(name, option_names(), n=2, cutoff=0.6)
    hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return f"unknown rule option {name!r}; the options are: {', '.join(option_names())}.{hint}"


def parse_option(name: str, text: str) -> Any:
    """Parse the text ``text`` as a value of option ``name``."""
    types = {f.name: f.type for f in fields(RuleSet)}
    if name not in types:
        raise UnosimInputError(_unknown_option_message(name))
    tp = types[name]
    low = text.lower()
    if tp == "bool":
        if low in ("true", "1", "yes", "on"):
            return True
        if low in ("false", "0", "no", "off"):
            return False
        raise UnosimInputError(f"{name}={text!r}: expected true or false.")
    if tp == "int":
        try:
            return int(text)
        except ValueError:
            raise UnosimInputError(f"{name}={text!r}: expected a whole number.") from None
    if tp == "float":
        try:
            return float(text)
        except ValueError:
            raise UnosimInputError(f"{name}={text!r}: expected a number.") from None
    if tp == "str | int":
        return int(text) if text.lstrip("-").isdigit() else text
    return text


def _validate(r: RuleSet) -> None:
    def bad(name: str, allowed: str) -> ValueError:
        return ValueError(f"rule option {name}={getattr(r, name)!r} is not allowed; {allowed}.")

    for f in fields(RuleSet):
        value = getattr(r, f.name)
        if f.type == "bool" and not isinstance(value, bool):
            raise bad(f.name, "use true or false")
        if f.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            raise bad(f.name, "use a whole number")
        if f.type == "float" and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise bad(f.name, "use a number")
        if f.name in CHOICES and value not in CHOICES[f.name]:
            raise bad(f.name, "allowed: " + ", ".join(CHOICES[f.name]))
    if not 1 <= r.deck_copies <= MAX_DECK_COPIES:
        raise bad("deck_copies", f"use 1 to {MAX_DECK_COPIES}")
    if not 1 <= r.hand_size <= 30:
        raise bad("hand_size", "use 1 to 30")
    if not (r.dealer == "random" or (isinstance(r.dealer, int) and not isinstance(r.dealer, bool) and 0 <= r.dealer < MAX_PLAYERS)):
        raise bad("dealer", f"use 'random' or a seat number from 0 to {MAX_PLAYERS - 1}")
    if not 1 <= r.point_taken_cap <= MAX_PLAYERS:
        raise bad("point_taken_cap", f"use 1 to {MAX_PLAYERS}")
    if not 0.0 <= r.speed_play_error_rate <= 1.0:
        raise bad("speed_play_error_rate", "use a probability from 0 to 1")
    if r.speed_play_error_rate > 0 and not r.speed_play:
        raise bad("speed_play_error_rate", "a wrong jump-in needs speed play: also set speed_play=true, or keep the rate 0")
    if not 0 <= r.uno_penalty <= 20:
        raise bad("uno_penalty", "use 0 to 20")
    if not 1 <= r.target_score <= 100_000:
        raise bad("target_score", "use 1 to 100000")
    if not 1 <= r.max_turns <= 1_000_000:
        raise bad("max_turns", "use 1 to 1000000")
    if r.elimination and r.scoring != "penalty":
        raise bad("elimination", "elimination needs penalty scoring (E-4): also set scoring=penalty, or elimination=false")
    deck = r.load_deck()  # a bad deck name or file is refused here
    if r.jump_in_cards == "numbers_and_actions" and not r.speed_play:
        raise UnosimInputError(
            "rule option jump_in_cards=numbers_and_actions needs speed_play=true (H-3: jump-ins are part of speed play); "
            "set speed_play=true or keep jump_in_cards=numbers."
        )
    counts = deck.counts
    if r.stacking != "none" and counts[WILD_DRAW_FOUR] == 0 and all(counts[c * FACES_PER_COLOUR + DRAW_TWO] == 0 for c in range(4)):
        raise UnosimInputError(
            f"rule option stacking={r.stacking!r} stacks Draw Twos and Wild Draw Fours (H-1), but deck={r.deck!r} holds "
            "neither; set stacking=none or play a deck with Draw Twos or Wild Draw Fours (deck=classic)."
        )
    if r.seven_zero and all(counts[c * FACES_PER_COLOUR + f] == 0 for c in range(4) for f in (0, 7)):
        raise UnosimInputError(
            f"rule option seven_zero=true acts on 7s and 0s (H-2), but deck={r.deck!r} holds no 7 and no 0; "
            "set seven_zero=false or play a deck with 7s or 0s (deck=classic)."
        )


PRESETS: dict[str, RuleSet] = {
    "classic": RuleSet(name="classic"),
    "classic-house": RuleSet(
        name="classic-house",
        first_wild="reflip",
        action_symbol_match=False,
        draw_until_playable=True,
        wd4_legal_when="no_color_or_number_match",
        wd4_challenge=False,
        uno_penalty=4,
        scoring="penalty",
    ),
    "party": RuleSet(
        name="party",
        deck="party",
        first_card="reflip_actions",
        wd4_legal_when="no_color_match_incl_wilds",
        wd4_challenge=True,
        speed_play=True,
        last_card_draws=False,
        scoring="winner_takes",
    ),
}
"""The shipped presets (``docs/rules.md``, 'Presets')."""
