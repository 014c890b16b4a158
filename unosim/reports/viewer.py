"""A self-contained HTML viewer of one game, built from the engine's trace.

`game_steps` follows a `GameTrace` event by
event and keeps the whole table after each one: every hand, the discard pile
(its top card and how many lie below), the active colour, the draw pile's
size, the direction, the mini pile, the link, the votes of a Point Taken, whose
turn it is, and for each move who made it, the narration line, the reason a
rule strategy gave, and the cards that were legal at that moment.
`render_viewer` embeds these states as JSON in one HTML page (the
template ``templates/viewer.html.j2``) whose script only draws them: cards
are inline SVG, steps are taken with buttons, the arrow keys, a slider, or by
jumping to the next event of a kind. The page needs no network.

The last state is checked against the game's record (winner, turns, cards
played and drawn, points left in each hand) before anything is written, so a
viewer always shows the game as it was played. The rendered page exposes its
current step as ``document.body.dataset.step`` and its states as
``window.unosimViewer``.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any

from ..engine.config import RunConfig
from ..engine.trace import GameTrace, replay
from ..game.cards import (
    CARD_COLOUR,
    CARD_FACE,
    CARD_NAMES,
    CARD_POINTS,
    COLOUR_NAMES,
    DRAW_TWO,
    N_COLOURED,
    WILD_DRAW_FOUR,
    load_deck,
)
from ..game.errors import UnosimInputError
from ..game.kernels import layout as L
from ..game.names import script_json

__all__ = ["KINDS", "game_steps", "legal_cards", "load_game", "page_template", "render_viewer", "stack_cards", "write_viewer"]

KINDS = {
    L.EV_DEAL: "deal", L.EV_START: "start", L.EV_TURN: "turn", L.EV_PLAY: "play", L.EV_DRAW: "draw", L.EV_KEEP: "keep",
    L.EV_SKIP: "skip", L.EV_REVERSE: "reverse", L.EV_COLOUR: "colour", L.EV_CHALLENGE: "challenge",
    L.EV_UNO_FORGET: "uno-forget", L.EV_CATCH: "catch", L.EV_RESHUFFLE: "reshuffle", L.EV_EMPTY: "empty", L.EV_WIN: "win",
    L.EV_TRUNCATE: "truncate", L.EV_RETURN: "return", L.EV_NO_CHALLENGE: "no-challenge", L.EV_VOTE: "vote",
    L.EV_LINK: "link", L.EV_LINK_END: "link-end", L.EV_PILE_FLIP: "pile-flip", L.EV_PILE_ADD: "pile-add",
    L.EV_PILE_TAKE: "pile-take", L.EV_PILE_AS_WILD: "pile-as-wild", L.EV_WRONG_JUMP: "wrong-jump",
    L.EV_STACK: "stack", L.EV_SWAP: "swap", L.EV_PASS: "pass",
}
"""The kind name of each event (a jump-in is a ``play`` with ``jump_in`` set; the page names it ``jump-in``)."""


def _face(card: int) -> int:
    return int(CARD_FACE[card])


def _last_card_blocked(hand: list[int], config: RunConfig) -> bool:
    """H-4: under ``go_out_on_action=false``, ``hand`` is one card that is not a number card (an action card or a wild)."""
    return not config.rules.go_out_on_action and len(hand) == 1 and _face(hand[0]) > 9


def legal_cards(hand: list[int], top: int, colour: int, config: RunConfig) -> tuple[list[int], list[int]]:
    """The cards of ``hand`` that may be played on ``top`` in ``colour`` (T-1, W-2, H-4).

    Parameters
    ----------
    hand : list of int
        The card types held (one entry per card).
    top, colour : int
        The top card of the discard pile and the active colour.
    config : RunConfig
        The run (its rules say whether action symbols match, when a Wild Draw Four is legal, and whether a
        player may go out on an action card or a wild).

    Returns
    -------
    legal : list of int
        The distinct card types that may be played without bluffing, in order; none when the only card held is
        an action card or a wild under ``go_out_on_action=false`` (H-4: its holder must draw).
    bluff : list of int
        ``[WILD_DRAW_FOUR]`` when it is held and may be played only as a bluff (challenges on), else empty.
    """
    r = config.rules
    if _last_card_blocked(hand, config):
        return [], []
    legal: list[int] = []
    for card in sorted(set(hand)):
        if card >= N_COLOURED:
            ok = True
        elif int(CARD_COLOUR[card]) == colour:
            ok = True
        elif top < N_COLOURED and _face(card) == _face(top):
            ok = bool(r.action_symbol_match) or _face(card) <= 9
        else:
            ok = False
        if ok:
            legal.append(card)
    bluff: list[int] = []
    if WILD_DRAW_FOUR in legal and not _wd4_legal(hand, top, colour, config):
        legal.remove(WILD_DRAW_FOUR)
        if r.wd4_challenge:
            bluff.append(WILD_DRAW_FOUR)
    return legal, bluff


def stack_cards(hand: list[int], top: int, config: RunConfig) -> list[int]:
    """The cards of ``hand`` that may be stacked on a pending Draw Two or Wild Draw Four ``top`` (H-1, H-4).

    Parameters
    ----------
    hand : list of int
        The card types the victim of the chain holds (one entry per card).
    top : int
        The top card of the discard pile, the last card of the chain.
    config : RunConfig
        The run (its rules say which stacking, if any, is played and whether a player may go out on an
        action card or a wild).

    Returns
    -------
    list of int
        The distinct card types that may be stacked, in order: with ``stacking`` ``same_face`` a Draw Two
        (any colour) on a Draw Two and a Wild Draw Four on a Wild Draw Four; ``mixed`` a Draw Two on a Draw
        Two and a Wild Draw Four on either; ``plus4_on_plus2`` a Draw Two or a Wild Draw Four on a Draw Two
        and nothing on a Wild Draw Four. Empty with ``stacking=none``, when ``top`` is no penalty card, and
        when the one card held would be the last under ``go_out_on_action=false``. Stacking is its own
        permission: ``wd4_legal_when`` does not apply.
    """
    how = config.rules.stacking
    if how == "none" or (not config.rules.go_out_on_action and len(hand) == 1):
        return []
    held = set(hand)
    if top == WILD_DRAW_FOUR:
        return [WILD_DRAW_FOUR] if how != "plus4_on_plus2" and WILD_DRAW_FOUR in held else []
    if not (top < N_COLOURED and _face(top) == DRAW_TWO):
        return []
    cards = sorted(c for c in held if c < N_COLOURED and _face(c) == DRAW_TWO)
    if how != "same_face" and WILD_DRAW_FOUR in held:
        cards.append(WILD_DRAW_FOUR)
    return cards


def _wd4_legal(hand: list[int], top: int, colour: int, config: RunConfig) -> bool:
    when = config.rules.wd4_legal_when
    if when == "always":
        return True
    if colour >= 0 and any(c < N_COLOURED and int(CARD_COLOUR[c]) == colour for c in hand):
        return False
    if when == "no_color_match_incl_wilds" and sum(1 for c in hand if c >= N_COLOURED) > 1:
        return False
    if when == "no_color_or_number_match" and top < N_COLOURED and _face(top) <= 9:
        if any(c < N_COLOURED and _face(c) == _face(top) for c in hand):
            return False
    return True


def game_steps(trace: GameTrace) -> list[dict[str, Any]]:
    """The table after the deal and after every later event of ``trace``.

    Parameters
    ----------
    trace : GameTrace
        A replayed game (`unosim.engine.trace.replay`).

    Returns
    -------
    list of dict
        One state per step, JSON-ready: ``event`` (index of the last event row applied), ``kind``, ``jump_in``,
        ``seat`` (who acted, -1 for the table), ``text`` and ``why`` (narration, a rule strategy's reason),
        ``legal`` and ``bluff`` (cards legal for the seat on turn, on turn, play and draw steps; on the stack,
        play and draw steps of a penalty chain, the cards the seat could stack, H-1), ``hands`` (card
        types per seat, sorted), ``top``, ``colour``, ``draw_n``, ``under_n`` (cards under the top card),
        ``dir``, ``mini`` and ``mini_colour``, ``link`` ([a, b] or null), ``votes`` ([voter, target] pairs of
        the last Point Taken), ``forgot`` (seat that has not called UNO, or -1), ``turn`` (seat on turn),
        ``turns``, ``winner`` (-1 until someone wins), ``truncated``, ``played``, ``drawn``.

    Raises
    ------
    ValueError
        If the cards stop adding up to the deck (a card leaves a hand that does not hold it, or the
        table holds more or fewer cards than the deck): a strategy of the run changed the table
        outside the rules, and the game cannot be shown.
    """
    cfg = trace.config
    P = cfg.players
    deck_total = int(load_deck(cfg.rules.deck).array(cfg.rules.deck_copies).sum())
    hands = [sorted(int(c) for c in trace.opening[p] if c >= 0) for p in range(P)]
    lines: dict[int, tuple[str, str]] = {}
    for i, line, why in trace.narrate_events():
        if i >= 0:
            text, reason = lines.get(i, ("", ""))
            lines[i] = ((text + "\n" if text else "") + line.strip(), reason or why)
    st: dict[str, Any] = {
        "top": -1, "colour": -1, "draw_n": deck_total - sum(len(h) for h in hands), "under_n": 0, "dir": 1, "mini": [],
        "mini_colour": -1, "link": None, "votes": [], "forgot": -1, "turn": -1, "turns": 0, "winner": -1,
        "truncated": False, "played": 0, "drawn": 0,
    }
    last_player = -1
    turn_legal: tuple[list[int], list[int]] = ([], [])
    chain_reasons = (L.DR_DRAW_TWO, L.DR_WD4) if cfg.rules.stacking != "none" else ()  # with stacking, only a chain's take
    taker = -1  # the seat taking a chain (H-1), while its draws last
    steps: list[dict[str, Any]] = []
    events = [tuple(int(x) for x in row[1:]) for row in trace.events]
    n_deal = 0
    while n_deal < len(events) and events[n_deal][0] == L.EV_DEAL:
        n_deal += 1
    dealer = events[0][3] if n_deal else -1
    deal_text = "\n".join(lines.get(i, ("", ""))[0] for i in range(n_deal))

    def snapshot(i: int, kind: str, seat: int, jump: bool, legal: tuple[list[int], list[int]] | None) -> None:
        text, why = lines.get(i, ("", "")) if i >= n_deal else (deal_text, "")
        held = sum(len(h) for h in hands) + len(st["mini"]) + st["under_n"] + st["draw_n"] + (st["top"] >= 0)
        if held != deck_total:
            raise _unsound(trace, i, f"{held} cards are on the table, and the deck has {deck_total}")
        steps.append({
            "event": i, "kind": kind, "jump_in": jump, "seat": seat, "text": text, "why": why,
            "legal": legal[0] if legal else [], "bluff": legal[1] if legal else [],
            "hands": [list(h) for h in hands], **{k: (list(v) if isinstance(v, list) else v) for k, v in st.items()},
            "dealer": dealer,
        })

    snapshot(n_deal - 1, "deal", -1, False, None)
    for i in range(n_deal, len(events)):
        ev, seat, card, a, b = events[i]
        legal: tuple[list[int], list[int]] | None = None
        jump = False
        if ev == L.EV_START:
            st["draw_n"] -= 1
            st["top"], st["colour"] = card, int(CARD_COLOUR[card])
            st["turn"] = b
        elif ev == L.EV_RETURN:
            if a:
                st["draw_n"] -= 1
                st["under_n"] += 1
        elif ev == L.EV_TURN:
            st["turn"], st["turns"], st["forgot"] = seat, a + 1, -1
            turn_legal = legal_cards(hands[seat], st["top"], st["colour"], cfg)
            legal = turn_legal
        elif ev == L.EV_PLAY:
            jump = bool(b)
            _take(trace, hands, i, seat, card)
            st["under_n"] += 1
            st["played"] += 1
            if jump:
                if seat == _step(last_player, st["dir"], P):  # a jump-in by the seat whose turn came next is its turn (T-7)
                    st["turns"] += 1
                st["turn"] = seat
            else:
                st["top"] = card
                st["colour"] = int(CARD_COLOUR[card]) if card < N_COLOURED else a
                legal = turn_legal
                st["votes"] = []
            last_player = seat
        elif ev == L.EV_DRAW:
            if a in chain_reasons:  # H-1: the victim takes the chain rather than stack on it
                if taker != seat:
                    taker, turn_legal = seat, (stack_cards(hands[seat], st["top"], cfg), [])
                legal = turn_legal
            hands[seat].append(card)
            hands[seat].sort()
            st["draw_n"] -= 1
            st["drawn"] += 1
            if a == L.DR_TURN:
                legal = turn_legal
        elif ev == L.EV_SKIP:
            taker = -1
        elif ev == L.EV_REVERSE:
            st["dir"] = a
        elif ev == L.EV_COLOUR:
            st["colour"] = a
        elif ev == L.EV_UNO_FORGET:
            st["forgot"] = seat
        elif ev == L.EV_CATCH:
            st["forgot"] = -1
        elif ev == L.EV_RESHUFFLE:
            st["draw_n"] += a
            st["under_n"] -= a
        elif ev == L.EV_WIN:
            st["winner"] = seat
        elif ev == L.EV_TRUNCATE:
            st["truncated"] = True
        elif ev == L.EV_VOTE:
            st["votes"].append([seat, a])
        elif ev == L.EV_LINK:
            st["link"] = None if a < 0 else [a, b]
        elif ev == L.EV_LINK_END:
            st["link"] = None
        elif ev == L.EV_PILE_FLIP:
            st["draw_n"] -= 1
            if card < N_COLOURED:
                st["mini"].append(card)
                st["mini_colour"] = int(CARD_COLOUR[card])
            elif a:
                st["mini"].append(card)
            else:
                st["under_n"] += 1
        elif ev == L.EV_PILE_AS_WILD:
            st["under_n"] += len(st["mini"])
            st["mini"] = []
        elif ev == L.EV_PILE_ADD:
            _take(trace, hands, i, seat, card)
            st["mini"].append(card)
            legal = ([c for c in sorted(set(hands[seat] + [card])) if c >= N_COLOURED or int(CARD_COLOUR[c]) == st["mini_colour"]], [])
        elif ev == L.EV_STACK:  # H-1: a stack is the stacker's turn (T-7), its play follows
            st["turns"] += 1
            st["turn"] = seat
            turn_legal = (stack_cards(hands[seat], st["top"], cfg), [])
            legal = turn_legal
        elif ev == L.EV_SWAP:  # H-2
            hands[seat], hands[a] = hands[a], hands[seat]
        elif ev == L.EV_PASS:  # H-2: every hand moves one seat on in direction a
            hands[:] = [hands[(p - a) % P] for p in range(P)]
        elif ev == L.EV_PILE_TAKE:
            hands[seat].extend(st["mini"])
            hands[seat].sort()
            st["drawn"] += len(st["mini"])
            st["mini"], st["colour"], st["mini_colour"] = [], b, -1
        kind = "jump-in" if jump else KINDS.get(ev, f"event-{ev}")
        snapshot(i, kind, seat, jump, legal)
    return steps


def _unsound(trace: GameTrace, i: int, what: str) -> ValueError:
    return ValueError(
        f"game {trace.game} cannot be shown: at event {i} {what}. The cards of its replay do not add up, so a strategy "
        "of this run changed the table outside the rules (`unosim check STRATEGY` tests a strategy for this).")


def _take(trace: GameTrace, hands: list[list[int]], i: int, seat: int, card: int) -> None:
    """Take ``card`` out of ``seat``'s hand; a card the hand does not hold is a game that cannot be shown."""
    if not 0 <= seat < len(hands) or card not in hands[seat]:
        name = CARD_NAMES[card] if 0 <= card < len(CARD_NAMES) else f"card {card}"
        raise _unsound(trace, i, f"seat {seat} plays {name}, which its hand does not hold")
    hands[seat].remove(card)


def _step(seat: int, direction: int, players: int) -> int:
    return (seat + direction) % players if seat >= 0 else -1


def check_final(steps: list[dict[str, Any]], row: dict[str, Any]) -> None:
    """Check the last state against the game's record row.

    Raises
    ------
    ValueError
        If winner, turns, cards played, cards drawn or any hand's points differ.
    """
    last = steps[-1]
    winner = row["winner"] if row["winner"] is not None else -1
    points = [int(sum(int(CARD_POINTS[c]) for c in hand)) for hand in last["hands"]]
    ours = {"winner": last["winner"], "turns": last["turns"], "cards_played": last["played"], "hand_points": points}
    theirs = {"winner": winner, "turns": row["turns"], "cards_played": row["cards_played"], "hand_points": list(row["hand_points"])}
    if ours != theirs:
        raise UnosimInputError(f"the viewer's last state {ours} differs from the game's record {theirs}.")


def load_game(run_dir: str | Path, game: int, cell: int | None = None) -> tuple[RunConfig, dict[str, Any]]:
    """The configuration and record row of game ``game`` of a dataset (of cell ``cell`` of an experiment).

    Raises
    ------
    UnosimInputError
        If the dataset holds matches, or the game or cell is not in it.
    """
    import pyarrow.compute as pc

    from ..runs.files import has_rounds, read_metadata
    from ..runs.reading import read_table

    meta = read_metadata(run_dir)
    if has_rounds(meta):
        raise UnosimInputError(f"{run_dir} holds matches; a game is replayed and viewed from single rounds only.")
    if meta.get("kind") == "experiment":
        cells = meta.get("cells", [])
        if cell is None or not 0 <= cell < len(cells):
            listing = "; ".join(f"{i}: {c.get('rules')}, {c.get('players')} players" for i, c in enumerate(cells[:8]))
            more = f"; … ({len(cells)} cells)" if len(cells) > 8 else ""
            given = "" if cell is None else f"--cell {cell} is not a cell of it; "
            raise UnosimInputError(f"{run_dir} holds an experiment of {len(cells)} cells; {given}pick one with --cell 0 to "
                                   f"{len(cells) - 1} ({listing}{more}) and a game with --game.")
        config = RunConfig.from_dict(cells[cell]["config"])
    else:
        if cell not in (None, 0):
            raise UnosimInputError(f"--cell {cell}: {run_dir} holds a single run (no cells); leave --cell out.")
        config = RunConfig.from_dict(meta["config"])
        cell = None
    if not 0 <= game < config.games:
        where = "" if cell is None else f" cell {cell}"
        raise UnosimInputError(f"--game {game} is not a game of {run_dir}{where}; it holds games 0 to {config.games - 1}.")
    table = read_table(run_dir)
    mask = pc.equal(table["game"], game)
    if cell is not None:
        mask = pc.and_(mask, pc.equal(table["cell"], cell))
    rows = table.filter(mask).to_pylist()
    if not rows:
        raise UnosimInputError(f"game {game} has no row in {run_dir}.")
    return config, rows[0]


def _label(spec: str) -> str:
    """A seat's strategy as the page names it: a person's seat without its recorded answers."""
    return "person" if spec.split("(")[0].endswith(":PersonStrategy") else spec


def _player_view(steps: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The steps as seat ``seat`` saw them: other hands as card counts, their draws and reasons hidden."""
    out = []
    for s in steps:
        s = dict(s)
        s["hands"] = [h if p == seat else [-1] * len(h) for p, h in enumerate(s["hands"])]
        if s["seat"] != seat:
            s["legal"], s["bluff"], s["why"] = [], [], ""
            if s["kind"] in ("draw", "deal", "pile-take", "keep"):
                s["text"] = s["text"].split(" draws ")[0] + " draws a card." if s["kind"] == "draw" else s["text"]
                if s["kind"] == "deal":
                    s["text"] = "\n".join(x for x in s["text"].split("\n") if " holds: " not in x or x.startswith(f"seat {seat} "))
                if s["kind"] == "keep":
                    s["text"] = s["text"].split(" keeps ")[0] + " keeps the drawn card."
        out.append(s)
    return out


def page_template(name: str) -> Any:
    """The page template ``templates/NAME`` with every ``{{ value }}`` HTML-escaped (jinja2 autoescape).

    A value marked ``| safe`` in a template must be made safe before: JSON in a script by
    `script_json`.
    """
    import jinja2

    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    return env.from_string(files("unosim.reports").joinpath(f"templates/{name}").read_text(encoding="utf-8"))


def render_viewer(trace: GameTrace, row: dict[str, Any] | None = None, *, seat: int | None = None, title: str | None = None) -> str:
    """The viewer page of ``trace`` as one HTML string.

    Parameters
    ----------
    trace : GameTrace
        The replayed game.
    row : dict, optional
        The game's record row in its dataset; by default the replay's own record. The last state must agree with it.
    seat : int, optional
        Show only this seat's hand (a player's view); by default every hand (the analyst's view).
    title : str, optional
        The page title.
    """
    cfg = trace.config
    if seat is not None and not 0 <= seat < cfg.players:
        raise UnosimInputError(f"--seat {seat} is not a seat of this game; seats are 0 to {cfg.players - 1}.")
    steps = game_steps(trace)
    check_final(steps, row if row is not None else trace.record)
    for spec in {str(s) for s in cfg.strategies if _label(str(s)) != str(s)}:
        for step in steps:
            step["text"] = step["text"].replace(spec, _label(spec))
    if seat is not None:
        steps = _player_view(steps, seat)
    data = {
        "title": title or f"Game {trace.game} · {cfg.rules.name} · {cfg.players} players · seed {cfg.seed}",
        "players": cfg.players,
        "seat": seat,
        "strategies": [_label(str(s)) for s in cfg.strategies],
        "card_names": list(CARD_NAMES),
        "colour_names": list(COLOUR_NAMES),
        "record": {k: v for k, v in (row or trace.record).items() if k != "opening_hand"},
        "steps": steps,
    }
    template = page_template("viewer.html.j2")
    return template.render(title=data["title"], data=script_json(data))


def write_viewer(
    config: RunConfig, game: int, out: str | Path, *, row: dict[str, Any] | None = None, seat: int | None = None
) -> Path:
    """Replay game ``game`` of ``config`` and write its viewer page to ``out``; return the path."""
    trace = replay(config, game)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_viewer(trace, row, seat=seat), encoding="utf-8")
    return out
