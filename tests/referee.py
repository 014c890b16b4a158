"""A referee that re-plays a traced game from its event log and opening hands.

It keeps its own hands, top card, colour, direction and turn order, written
from the rule book (docs/rules.md) directly (not from the engine), and checks that every play was
legal (T-1, W-2), that every turn went to the right seat (T-6, S-3, A-1..A-3,
W-2 outcomes), that forced draws had the right size, and that the final hands
agree with the record. Classic rules, plus Point Taken (A-4), Wild Drawn
Together with its link echoes (P-6, P-7), Wild Pile Up (P-5) and speed play
(P-1..P-3): a jump-in only with the identical card, only right after a number
card was played (not by its player), play going on after the jumper, and the
turn player's jump-in counted as their turn.

It also follows the piles as far as the trace shows them: the discard pile
under the top card is known card by card (plays, start cards left under it,
wilds turned up for a mini pile), the mini pile too, and the draw pile is the
rest of the deck. Every card drawn or turned up must be in the draw pile
(T-5), a reshuffle must come when the draw pile is empty and move exactly the
cards under the top, and "both piles empty" must be true. A caught player
(U-1) must have forgotten to call UNO since the last turn began, and be caught
at most once for it.

The house rules (§10): H-1 stacking — a stack only by the victim of the
pending chain, only with a card the ``stacking`` value allows on the card on
top and never past ``max_turns``; the total grows by 2 or 4 and the first
victim who does not stack draws it and loses the turn, a challenge of the Wild
Draw Four on top settles the whole chain, a last card draws the chain too
(E-2), nobody jumps in on a pending chain. H-2 seven-zero — a 7's exchange
with another seat of the round, a 0's passing of every hand in the direction of
play, both before any jump-in window and not after a last card; the hands
follow, and a hand received has no UNO to call. H-3 — jump-ins with identical
coloured action cards under ``jump_in_cards = "numbers_and_actions"``, each
window opening once the card's effect is complete. H-4 — a lone action card or
wild is no legal play, jump-in, stack or mini pile addition. The records
``stacks``, ``stack_max``, ``stack_cards``, ``seven_swaps``, ``zero_passes``,
``jump_ins``, ``action_jump_ins`` and ``blocked_finishes`` are counted too.

Rounds of elimination matches (E-4): the seats without an opening hand are out
of the match; the others play as a smaller table (turn order, the 2-player
Reverse, votes, links, jump-ins and catches only among them).
:func:`check_played_matches` referees every round of a traced match run.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import numpy as np

from unosim.game.cards import load_deck
from unosim.game.kernels import layout as L
from unosim.game.rules import RuleSet

WILDS = {56, 57, 58, 59}
WD4 = 57
DRAW_TWO = 12
STACKS_ON = {  # H-1: the cards that may be stacked on a Draw Two (12) or a Wild Draw Four (57) on top
    "same_face": {DRAW_TWO: {DRAW_TWO}, WD4: {WD4}},
    "mixed": {DRAW_TWO: {DRAW_TWO, WD4}, WD4: {WD4}},
    "plus4_on_plus2": {DRAW_TWO: {DRAW_TWO, WD4}, WD4: set()},
}
POINTS = [f if f < 10 else 20 for c in range(4) for f in range(14)] + [50] * 4


def colour(card: int) -> int:
    return -1 if card >= 56 else card // 14


def face(card: int) -> int:
    return card - 42 if card >= 56 else card % 14


def penalty_face(card: int) -> int | None:
    """12 for a Draw Two, 57 for a Wild Draw Four, None for any other card."""
    if card == WD4:
        return WD4
    return DRAW_TWO if card < 56 and face(card) == DRAW_TWO else None


def is_number(card: int) -> bool:
    return card < 56 and face(card) <= 9


@lru_cache(maxsize=8)
def deck_counts(deck: str, copies: int) -> Counter:
    """The cards of ``copies`` copies of the deck, by type (read once per deck, not once per game)."""
    counts = load_deck(deck).array(copies)
    return Counter({t: int(n) for t, n in enumerate(counts) if n})


class Referee:
    def __init__(self, rules: RuleSet, players: int, opening: np.ndarray) -> None:
        self.r = rules
        self.P = players
        self.hands = [Counter(int(c) for c in opening[p] if c >= 0) for p in range(players)]
        self.deck = deck_counts(rules.deck, rules.deck_copies)
        self.draw = self.deck.copy()  # the draw pile: the deck less the opening hands (S-1)
        for hand in self.hands:
            self.draw.subtract(hand)
        assert all(n >= 0 for n in self.draw.values()), "the opening hands hold cards the deck does not have"
        self.under: Counter = Counter()  # the discard pile below its top card (T-5)
        self.forgot: int | None = None  # the seat that forgot to call UNO since the last turn began (U-1)
        self.alive = [p for p in range(players) if len(opening[p]) and opening[p][0] >= 0]  # E-4 elimination
        self.top = -1
        self.colour = -1
        self.dir = 1
        self.expect_turn: int | None = None
        self.turn = -1
        self.drawn_this_turn: int | None = None
        self.pending: list[tuple[int, int, int]] = []  # expected forced draws: (seat, n, reason)
        self.turns = 0
        self.dealer = -1
        self.bluff: bool | None = None
        self.wd4_player = -1
        self.await_challenge: int | None = None
        self.winner: int | None = None
        self.link: tuple[int, int] | None = None
        self.votes: list[int] = []
        self.vote_player = -1
        self.turn_draw: list[int] | None = None  # [seat, cards drawn, echoes?] of an open turn draw
        self.link_must_end = False  # a Point Taken ends any link
        self.mini: Counter = Counter()  # the mini pile (P-5)
        self.mini_colour = -1
        self.pile_actor: int | None = None
        self.pile_player = -1
        self.jump_from: int | None = None  # player of the card on top while it may be jumped on (P-1/P-2, H-3)
        self.chain: dict | None = None  # the pending H-1 chain: victim, total, cards, player of the card on top
        self.stacked: int | None = None  # the card of an EV_STACK, whose play comes next
        self.await_swap: int | None = None  # the player of a 7 who must now exchange hands (H-2)
        self.await_pass: int | None = None  # the player of a 0 whose passing of the hands comes next (H-2)
        self.may_forget: int | None = None  # the seat whose play just left it one card (U-1)
        self.counts: Counter = Counter()  # the house rules' records, as the rule book defines them (§10)

    def take_from_draw_pile(self, card: int, what: str, seat: int = -1) -> None:
        """``what`` (with ``{seat}`` in it for a draw) is formatted only if the card is missing."""
        assert self.draw[card] > 0, f"{what.format(seat=seat)} {card}, which is not in the draw pile (T-5)"
        self.draw[card] -= 1

    def cards_accounted_for(self) -> None:
        """Draw pile, discard pile, mini pile and hands together are exactly the deck."""
        held = self.draw + self.under + self.mini + Counter({self.top: 1} if self.top >= 0 else {})
        for hand in self.hands:
            held += hand
        assert held == +self.deck, f"cards missing {+(self.deck - held)}, extra {+(held - self.deck)}"

    def seat(self, base: int, steps: int) -> int:
        """The seat ``steps`` places from ``base`` in the current direction, among the seats in the match."""
        order = self.alive
        return order[(order.index(base) + steps * self.dir) % len(order)]

    def matches(self, card: int) -> bool:
        if card in WILDS:
            return True
        if colour(card) == self.colour:
            return True
        if self.top < 56 and face(card) == face(self.top):
            return self.r.action_symbol_match or face(card) <= 9
        return False

    def wd4_legal(self, seat: int) -> bool:
        h = self.hands[seat]
        when = self.r.wd4_legal_when
        if when == "always":
            return True
        if any(h[self.colour * 14 + f] for f in range(14)) if self.colour >= 0 else False:
            return False
        if when == "no_color_match_incl_wilds" and h[56] + h[57] - 1 + h[58] + h[59] > 0:
            return False
        if when == "no_color_match_incl_plain_wilds" and h[56] > 0:
            return False
        if when == "no_color_or_number_match" and self.top < 56 and face(self.top) <= 9:
            if any(h[c * 14 + face(self.top)] for c in range(4)):
                return False
        return True

    def forced(self, seat: int, n: int, reason: int, chain_cards: int = 0) -> None:
        """``chain_cards`` > 0: this draw ends an H-1 chain of that many cards (its records)."""
        if n > 0:
            self.pending.append([seat, n, reason, 0, chain_cards])

    def partner(self, seat: int) -> int | None:
        if self.link and seat in self.link:
            return self.link[1] if self.link[0] == seat else self.link[0]
        return None

    def echo(self, seat: int, got: int) -> None:
        """P-7: the linked partner draws as many, right after (an echo does not echo)."""
        partner = self.partner(seat)
        if partner is not None and got > 0:
            self.pending.insert(0, [partner, got, L.DR_ECHO, 0, 0])

    def take_draw(self, seat: int, reason: int, got: bool) -> None:
        assert self.pending, f"unexpected forced draw by seat {seat} (reason {reason})"
        entry = self.pending[0]
        assert (entry[0], entry[2]) == (seat, reason), f"forced draw by seat {seat} reason {reason}, expected {entry}"
        entry[3] += got
        if got and entry[1] > 1:
            entry[1] -= 1
            return
        self.pending.pop(0)
        if entry[4]:  # the end of an H-1 chain
            self.counts["stack_max"] = max(self.counts["stack_max"], entry[3])
            if entry[4] >= 2:
                self.counts["stack_cards"] += entry[3]
        if reason not in (L.DR_ECHO, L.DR_LAST):
            self.echo(seat, entry[3])

    def blocked_last(self, seat: int, card: int) -> bool:
        """H-4: under ``go_out_on_action = false`` a last card that is not a number card cannot be played."""
        return not self.r.go_out_on_action and self.hands[seat].total() == 1 and not is_number(card)

    def has_legal(self, seat: int) -> bool:
        return any(n and not self.blocked_last(seat, c) and (self.wd4_legal(seat) if c == 57 else self.matches(c))
                   for c, n in self.hands[seat].items())

    def may_stack(self, seat: int, card: int) -> bool:
        """H-1: ``card`` may be stacked on the card on top by ``seat``."""
        allowed = STACKS_ON.get(self.r.stacking, {}).get(penalty_face(self.top), set())
        return penalty_face(card) in allowed and not self.blocked_last(seat, card)

    def can_stack(self, seat: int) -> bool:
        return any(n and self.may_stack(seat, c) for c, n in self.hands[seat].items())

    def open_window(self, seat: int) -> None:
        """The effect of the card ``seat`` put on top is complete: it may be jumped on (P-2, H-3)."""
        if self.r.speed_play and self.winner is None and self.top < 56:
            if face(self.top) <= 9 or self.r.jump_in_cards == "numbers_and_actions":
                self.jump_from = seat

    def take_chain(self, seat: int, reason: int) -> None:
        """H-1: the victim who does not stack draws the whole total and loses the turn."""
        chain, self.chain = self.chain, None
        assert seat == chain["victim"], f"seat {seat} took the chain of seat {chain['victim']} (H-1)"
        assert self.await_challenge is None, "the chain was taken before the challenge was decided (W-2, H-1)"
        assert reason == (L.DR_WD4 if self.top == WD4 else L.DR_DRAW_TWO), f"chain taken with draw reason {reason}"
        assert self.turns < self.r.max_turns or not self.can_stack(seat), \
            "a victim offered a stack past max_turns took the total instead of the round stopping (H-1, E-5)"
        self.forced(seat, chain["total"], reason, chain["cards"])
        self.expect_turn = self.seat(seat, 1)
        self.open_window(chain["player"])

    def close_turn_draw(self) -> None:
        if self.turn_draw is not None:
            seat, got, echoes = self.turn_draw
            self.turn_draw = None
            if echoes:
                self.echo(seat, got)

    def after_play(self, seat: int, card: int) -> None:
        """Expected consequences of a play (effects, next turn, the jump-in window)."""
        self.jump_from = None
        self.may_forget = seat if self.hands[seat].total() == 1 else None
        chained = self.r.stacking != "none" and penalty_face(card) is not None
        if not self.hands[seat].total():
            self.winner = seat
            if self.r.last_card_draws and penalty_face(card) is not None:  # E-2, with the chain (H-1)
                chain = self.chain or {"total": 0, "cards": 0}
                n = (4 if card == WD4 else 2) + chain["total"]
                self.forced(self.seat(seat, 1), n, L.DR_LAST, chain["cards"] + 1 if chained else 0)
            self.chain = None
            return
        nxt = self.seat(seat, 1)
        f = face(card)
        if chained:  # H-1: the chain starts or grows; its victim stacks, takes, or first challenges
            chain = self.chain or {"total": 0, "cards": 0}
            self.chain = {"victim": nxt, "total": chain["total"] + (4 if card == WD4 else 2),
                          "cards": chain["cards"] + 1, "player": seat}
            if card == WD4 and self.r.wd4_challenge:
                self.await_challenge = nxt
            self.expect_turn = None
            return
        if self.r.seven_zero and card < 56 and f == 7:  # H-2: the exchange comes first
            self.await_swap, self.expect_turn = seat, None
            return
        if self.r.seven_zero and card < 56 and f == 0:
            self.await_pass = seat
        if card < 56 and f == 10:
            nxt = self.seat(seat, 2)
        elif card < 56 and f == 11:
            self.dir = -self.dir
            nxt = seat if len(self.alive) == 2 and self.r.reverse_two_players_skips else self.seat(seat, 1)
        elif card < 56 and f == 12:
            self.forced(nxt, 2, L.DR_DRAW_TWO)
            nxt = self.seat(seat, 2)
        elif card < 56 and f == 13:
            self.vote_player, self.votes = seat, []
            self.expect_turn = None
            return
        elif card == 58:
            self.pile_player, self.pile_actor = seat, None
            self.expect_turn = None
            return
        elif card == 57:
            if self.r.wd4_challenge:
                self.await_challenge = nxt
                self.expect_turn = None
                return
            self.forced(nxt, 4, L.DR_WD4)
            nxt = self.seat(seat, 2)
        self.expect_turn = nxt
        if self.await_pass is None:
            self.open_window(seat)

    def event(self, ev: int, seat: int, card: int, a: int, b: int) -> None:
        P = self.P
        assert self.stacked is None or ev == L.EV_PLAY, f"event {ev} between a stack and its play (H-1)"
        if ev in (L.EV_TURN, L.EV_PLAY, L.EV_DRAW, L.EV_EMPTY, L.EV_WIN, L.EV_STACK, L.EV_VOTE, L.EV_PILE_FLIP):
            assert self.await_swap is None or ev in (L.EV_DRAW, L.EV_EMPTY) and self.pending, \
                f"event {ev} before the player of the 7 exchanged hands (H-2)"
            assert self.await_pass is None or ev in (L.EV_DRAW, L.EV_EMPTY) and self.pending, \
                f"event {ev} before the hands were passed on the 0 (H-2)"
        if self.turn_draw is not None and ev != L.EV_RESHUFFLE and not (ev in (L.EV_DRAW, L.EV_EMPTY) and a == L.DR_TURN):
            self.close_turn_draw()  # a reshuffle between the draws of one turn (T-4, T-5) does not stop the drawing
        if ev == L.EV_DEAL:
            assert seat in self.alive and a in self.alive
            self.dealer = a
        elif ev == L.EV_RETURN:  # a start card turned up: left under the pile (S-2) or put back (S-3)
            self.take_from_draw_pile(card, "start card")
            if a:
                self.under[card] += 1
            else:
                self.draw[card] += 1
        elif ev == L.EV_START:
            self.take_from_draw_pile(card, "start card")
            self.top, self.colour = card, colour(card)
            first = self.seat(self.dealer, 1)
            assert b == first
            self.expect_turn = first
            if card < 56 and self.r.first_card == "apply_actions":
                f = face(card)
                if f == 10:
                    self.expect_turn = self.seat(self.dealer, 2)
                elif f == 11:
                    self.dir = -1
                    self.expect_turn = self.seat(self.dealer, 1)
                elif f == 12:
                    self.forced(first, 2, L.DR_START)
                    self.expect_turn = self.seat(self.dealer, 2)
            elif card >= 56:
                assert card == 56 and self.r.first_wild == "first_player_chooses" or self.r.first_card == "ignore_effect"
        elif ev == L.EV_COLOUR:
            if self.turns == 0:  # a wild start card: the first player names the colour, then plays
                assert seat == self.seat(self.dealer, 1) and self.top >= 56
            else:  # a Wild Pile Up that acts as a Wild: its player names the colour; the next one plays
                assert self.top == 58 and seat == self.pile_player
                self.pile_player = -1
                self.expect_turn = self.seat(seat, 1)
            self.colour = a
        elif ev == L.EV_TURN:
            assert not self.pending, f"turn started with forced draws outstanding: {self.pending}"
            assert self.expect_turn is not None and seat == self.expect_turn, f"turn of seat {seat}, expected {self.expect_turn}"
            if self.link_must_end:
                assert self.link is None, "a Point Taken did not end the link"
                self.link_must_end = False
            assert self.colour >= 0
            self.turn, self.drawn_this_turn = seat, None
            self.forgot = None  # the chance to catch a forgotten call ends when the next turn starts (U-1)
            self.may_forget = None
            self.turns += 1
            self.jump_from = None
        elif ev == L.EV_PLAY and b:  # a jump-in (P-1/P-2)
            assert self.r.speed_play and self.jump_from is not None, "a jump-in with no card open to one (P-2, H-3)"
            assert card == self.top and seat != self.jump_from, f"seat {seat} jumped in with {card} on {self.top}"
            assert self.hands[seat][card] > 0 and not self.pending
            assert self.chain is None, "a jump-in on a pending chain (H-1)"
            assert not self.blocked_last(seat, card), f"seat {seat} jumped in with its last card {card}, not a number card (H-4)"
            if seat == self.expect_turn:  # their jump-in is their turn (T-7)
                self.turns += 1
            self.counts["jump_ins"] += 1
            self.counts["action_jump_ins"] += not is_number(card)
            self.hands[seat][card] -= 1
            self.under[self.top] += 1
            self.after_play(seat, card)
        elif ev == L.EV_WRONG_JUMP:  # P-3
            assert self.r.speed_play_error_rate > 0 and self.jump_from is not None and seat != self.jump_from
            assert is_number(self.top), f"a wrong jump-in on {self.top}, not a number card (P-3, H-3)"
            assert seat in self.alive
            assert card == self.top and self.hands[seat][card] == 0
            self.forced(seat, 1, L.DR_WRONG_JUMP)
        elif ev == L.EV_PLAY:
            assert seat == self.turn, f"seat {seat} played out of turn (turn of {self.turn})"
            assert self.hands[seat][card] > 0, f"seat {seat} played {card} it does not hold"
            assert not self.blocked_last(seat, card), f"seat {seat} went out on {card}, not a number card (H-4)"
            stacked, self.stacked = self.stacked, None
            if stacked is not None:  # the play of a stack: stacking is its own permission (H-1)
                assert card == stacked, f"seat {seat} stacked {stacked} but played {card}"
            elif self.drawn_this_turn is not None:
                assert card == self.drawn_this_turn, "after drawing only the drawn card may be played (T-3)"
            if card == 57:
                legal = self.wd4_legal(seat)
                assert legal or self.r.wd4_challenge or stacked is not None, "illegal Wild Draw Four without challenges (W-2)"
                self.bluff, self.wd4_player = not legal, seat
            elif stacked is None:
                assert self.matches(card), f"seat {seat} played {card} on top {self.top} colour {self.colour} (T-1)"
            self.hands[seat][card] -= 1
            self.under[self.top] += 1
            self.top = card
            self.colour = colour(card) if card < 56 else a
            assert 0 <= self.colour < 4 or card == 58
            self.turn = -1
            self.after_play(seat, card)
        elif ev in (L.EV_DRAW, L.EV_EMPTY):
            got = ev == L.EV_DRAW
            if got:
                self.take_from_draw_pile(card, "seat {seat} drew", seat)
            else:
                assert self.draw.total() == 0 and self.under.total() == 0, "a draw found 'both piles empty' when they were not"
            if a == L.DR_TURN:
                assert seat == self.turn
                if self.turn_draw is None and self.hands[seat].total() == 1:
                    (last,) = +self.hands[seat]
                    would = self.wd4_legal(seat) if last == WD4 else self.matches(last)
                    self.counts["blocked_finishes"] += self.blocked_last(seat, last) and would
                if self.turn_draw is None:
                    voluntary = self.has_legal(seat) and not self.r.link_echoes_voluntary_draws
                    self.turn_draw = [seat, 0, not voluntary]
                self.turn_draw[1] += got
                if self.r.draw_until_playable and self.drawn_this_turn is not None:
                    assert not self.matches(self.drawn_this_turn) or self.drawn_this_turn == 57
                self.drawn_this_turn = card if got else None
            else:
                if self.chain is not None and not self.pending:
                    self.take_chain(seat, a)
                self.take_draw(seat, a, got)
            if got:
                self.hands[seat][card] += 1
            if a == L.DR_TURN and (not got or not self.r.draw_until_playable or self.playable_drawn(seat, card)):
                if not got or not self.playable_drawn(seat, card):
                    self.expect_turn = self.seat(seat, 1)
        elif ev == L.EV_KEEP:
            assert seat == self.turn and card == self.drawn_this_turn
            self.expect_turn = self.seat(seat, 1)
        elif ev == L.EV_SKIP:
            pass
        elif ev == L.EV_REVERSE:
            assert a == self.dir
        elif ev == L.EV_CHALLENGE:
            assert seat == self.await_challenge, f"seat {seat} challenged with no Wild Draw Four facing it (W-2)"
            assert b == self.wd4_player, \
                f"seat {seat} challenged the Wild Draw Four of seat {b}, the one on top is seat {self.wd4_player}'s"
            assert bool(a) == self.bluff, f"a challenge found bluff={a}, but the Wild Draw Four was {'' if self.bluff else 'not '}a bluff"
            self.await_challenge = None
            chain, self.chain = self.chain, None  # H-1: a challenge settles the whole chain
            total, cards = (chain["total"], chain["cards"]) if chain else (4, 0)
            if self.bluff:
                self.forced(b, total, L.DR_CHALLENGE, cards)
                self.expect_turn = seat
            else:
                self.forced(seat, total + 2, L.DR_CHALLENGE, cards)
                self.expect_turn = self.seat(seat, 1)
        elif ev == L.EV_NO_CHALLENGE:
            assert seat == self.await_challenge
            self.await_challenge = None
            if self.chain is None:
                self.forced(seat, 4, L.DR_WD4)
                self.expect_turn = self.seat(seat, 1)
        elif ev == L.EV_STACK:  # H-1: the victim plays a stacking card on the chain; EV_PLAY follows
            chain = self.chain
            assert chain is not None and seat == chain["victim"], f"seat {seat} stacked with no chain facing it (H-1)"
            assert self.await_challenge is None and not self.pending
            assert self.may_stack(seat, card), f"seat {seat} stacked {card} on {self.top} (H-1, stacking={self.r.stacking})"
            assert self.hands[seat][card] > 0, f"seat {seat} stacked {card} it does not hold"
            assert a == chain["total"] + (4 if card == WD4 else 2), f"chain total {a} after a stack on {chain['total']}"
            assert self.turns < self.r.max_turns, "a stack past max_turns (H-1, E-5)"
            self.turns += 1  # a stack is its player's turn (T-7)
            self.turn, self.drawn_this_turn, self.stacked = seat, None, card
            self.forgot = self.may_forget = None
            self.counts["stacks"] += 1
        elif ev == L.EV_SWAP:  # H-2: the player of a 7 and another seat of the round exchange hands
            assert seat == self.await_swap, f"seat {seat} exchanged hands without playing a 7 (H-2)"
            assert a != seat and a in self.alive, f"seat {seat} exchanged hands with seat {a} (H-2)"
            assert not self.pending
            self.await_swap = None
            self.hands[seat], self.hands[a] = self.hands[a], self.hands[seat]
            self.forgot = self.may_forget = None  # a hand received has no UNO to call
            self.counts["seven_swaps"] += 1
            self.expect_turn = self.seat(seat, 1)
            self.open_window(seat)
        elif ev == L.EV_PASS:  # H-2: every hand of the round goes to the next seat in the direction of play
            assert seat == self.await_pass, f"seat {seat} passed the hands without playing a 0 (H-2)"
            assert a == self.dir, f"the hands passed in direction {a}, the direction of play is {self.dir} (H-2)"
            assert not self.pending
            self.await_pass = None
            old = {p: self.hands[p] for p in self.alive}
            for p in self.alive:
                self.hands[self.seat(p, 1)] = old[p]
            self.forgot = self.may_forget = None
            self.counts["zero_passes"] += 1
            self.open_window(seat)
        elif ev == L.EV_UNO_FORGET:
            assert self.hands[seat].total() == 1 and seat == self.may_forget, f"seat {seat} forgot a call it did not have (U-1)"
            self.forgot = seat
        elif ev == L.EV_CATCH:
            assert a != seat and a in self.alive
            assert self.forgot == seat, f"seat {seat} was caught not calling UNO, but it did not forget to call (U-1)"
            self.forgot = None
            if self.r.uno_penalty > 0:
                self.pending.insert(0, [seat, self.r.uno_penalty, L.DR_UNO, 0, 0])
        elif ev == L.EV_RESHUFFLE:
            assert self.draw.total() == 0, "a reshuffle while the draw pile still holds cards (T-5)"
            assert a == self.under.total(), f"{a} cards reshuffled, but {self.under.total()} lay under the top card (T-5)"
            self.draw += self.under
            self.under.clear()
        elif ev == L.EV_WIN:
            assert self.winner == seat and not self.pending
            assert a == sum(self.points(p) for p in range(P) if p != seat)
        elif ev == L.EV_PILE_FLIP:
            assert self.top == 58 and self.pile_player >= 0
            self.take_from_draw_pile(card, "turned up for the mini pile")
            if card < 56:
                self.mini[card] += 1
                self.mini_colour = colour(card)
                self.pile_actor = self.seat(self.pile_player, 1)
            elif a:
                self.mini[card] += 1
            else:
                self.under[card] += 1
        elif ev == L.EV_PILE_AS_WILD:
            assert seat == self.pile_player and self.pile_actor is None
            self.mini.clear()
        elif ev == L.EV_PILE_ADD:
            assert seat == self.pile_actor, f"seat {seat} added to the mini pile, expected {self.pile_actor}"
            assert self.hands[seat][card] > 0 and (card >= 56 or colour(card) == self.mini_colour)
            assert not self.blocked_last(seat, card), f"seat {seat} added its last card {card}, not a number card (H-4)"
            self.hands[seat][card] -= 1
            self.mini[card] += 1
            self.may_forget = seat if self.hands[seat].total() == 1 else None
            if not self.hands[seat].total():
                self.winner = seat
            self.pile_actor = self.seat(seat, 1)
        elif ev == L.EV_PILE_TAKE:
            assert seat == self.pile_actor and a == self.mini.total() and b == self.mini_colour
            able = any(n and (c >= 56 or colour(c) == self.mini_colour) and not self.blocked_last(seat, c)
                       for c, n in self.hands[seat].items())
            assert not able or self.r.pileup_may_refuse, "a player able to add took the mini pile (P-5)"
            self.hands[seat].update(self.mini)
            self.mini.clear()
            if self.r.link_shares_pileup:
                self.echo(seat, a)
            self.colour = self.mini_colour
            self.pile_player, self.pile_actor = -1, None
            self.expect_turn = self.seat(seat, 1)
        elif ev == L.EV_LINK:
            assert self.top == 59
            old = set(self.link) if self.link and self.r.relink_must_differ else set()
            if a == -1:  # nobody can be linked (relink_must_differ): the old link ends
                assert b == -1 and len(set(self.alive) - old) < 2
                self.link = None
            else:
                assert a != b and a in self.alive and b in self.alive and not {a, b} & old, (a, b, old)
                self.link = (a, b)
        elif ev == L.EV_LINK_END:
            assert self.link == (a, b), (self.link, a, b)
            self.link = None
        elif ev == L.EV_VOTE:
            assert self.vote_player >= 0 and seat == self.alive[len(self.votes)] and a != seat and a in self.alive
            self.votes.append(a)
            if len(self.votes) == len(self.alive):
                player, self.vote_player = self.vote_player, -1
                self.link_must_end = True
                for i in range(len(self.alive)):
                    p = self.seat(player, i)
                    self.forced(p, min(self.votes.count(p), self.r.point_taken_cap), L.DR_POINT_TAKEN)
                self.expect_turn = self.seat(player, 1)
                self.open_window(player)
        elif ev == L.EV_TRUNCATE:
            assert self.turns == self.r.max_turns
            if self.chain is not None:  # H-1: only a victim offered a stack stops the round
                assert self.await_challenge is None and self.can_stack(self.chain["victim"]), \
                    "a round stopped on a chain whose victim could not stack (H-1, E-5)"
        else:
            raise AssertionError(f"unknown event {ev}")

    def playable_drawn(self, seat: int, card: int) -> bool:
        if card == 57:
            return self.wd4_legal(seat) or self.r.wd4_challenge
        return self.matches(card)

    def points(self, seat: int) -> int:
        return sum(POINTS[c] * n for c, n in self.hands[seat].items())


RECORDS = {"stacks": L.R_STACKS, "stack_max": L.R_STACK_MAX, "stack_cards": L.R_STACK_CARDS,
           "seven_swaps": L.R_SEVEN_SWAPS, "zero_passes": L.R_ZERO_PASSES, "jump_ins": L.R_JUMP_INS,
           "action_jump_ins": L.R_ACTION_JUMP_INS, "blocked_finishes": L.R_BLOCKED}


def check_game(rules: RuleSet, players: int, events: np.ndarray, opening: np.ndarray, rec: np.ndarray, points: np.ndarray) -> None:
    """Re-play one game's events; raise AssertionError at the first disagreement."""
    ref = Referee(rules, players, opening)
    for row in events:
        ref.event(*(int(x) for x in row[1:]))
    assert not ref.pending, f"forced draws never made: {ref.pending}"
    assert ref.await_swap is None and ref.await_pass is None, "a 7 or 0 played and no hands exchanged or passed (H-2)"
    ref.cards_accounted_for()
    assert ref.turns == rec[L.R_TURNS], (ref.turns, rec[L.R_TURNS])
    for name, col in RECORDS.items():
        assert ref.counts[name] == rec[col], f"{name}: referee {ref.counts[name]}, record {rec[col]}"
    winner = rec[L.R_WINNER]
    assert (ref.winner if ref.winner is not None else -1) == winner
    for p in range(players):
        assert ref.points(p) == points[p], f"seat {p}: referee {ref.points(p)} points, record {points[p]}"
    if winner >= 0:
        assert ref.hands[winner].total() == 0


def check_played(rules: RuleSet, players: int, played) -> int:
    """Referee every game of a traced :class:`~unosim.engine.driver.Played`; return how many."""
    events = played.events
    order = np.argsort(events[:, 0], kind="stable")
    events = events[order]
    bounds = np.searchsorted(events[:, 0], np.arange(played.first, played.first + len(played.rec) + 1))
    for i in range(len(played.rec)):
        ev = events[bounds[i] : bounds[i + 1]]
        try:
            check_game(rules, players, ev, played.opening[i], played.rec[i], played.points[i])
        except AssertionError as exc:
            raise AssertionError(f"game {played.first + i}: {exc}") from exc
    return len(played.rec)


def check_played_matches(rules: RuleSet, players: int, played) -> int:
    """Referee every round of a traced match run (rounds are cut at their deals); return how many."""
    events = played.events
    events = events[np.argsort(events[:, 0], kind="stable")]
    rec = played.rec
    order = np.lexsort((rec[:, L.R_ROUND], played.round_game))
    bounds = np.searchsorted(events[:, 0], np.arange(played.first, played.first + len(played.match_winner) + 1))
    done = 0
    for m in range(len(played.match_winner)):
        ev = events[bounds[m] : bounds[m + 1]]
        deal = ev[:, 1] == L.EV_DEAL
        starts = np.flatnonzero(deal & ~np.concatenate([[False], deal[:-1]]))
        rows = order[played.round_game[order] == played.first + m]
        assert len(starts) == len(rows), f"match {played.first + m}: {len(starts)} deals, {len(rows)} rounds"
        ends = np.append(starts[1:], len(ev))
        for k, i in enumerate(rows):
            try:
                check_game(rules, players, ev[starts[k] : ends[k]], played.opening[i], rec[i], played.points[i])
            except AssertionError as exc:
                raise AssertionError(f"match {played.first + m} round {k}: {exc}") from exc
            done += 1
    return done
