"""Independent, deliberately simple pure-Python reference engine for UNO / UNO Party!

Written from the rule book alone (``docs/rules.md``; rule ids S-, T-, A-, W-, P-, U-, E-
are cited in comments).  It plays one game at a time with explicit lists: each
hand is a list of cards, the draw pile is a real shuffled list (top = end of
the list), the discard pile a list (top = end), the mini pile a list.  It only
uses the standard library.  Its purpose is to be obviously right, not fast: the
statistical tests compare it with the fast ``unosim`` engine.

Public API
----------
``PRESETS``                                   option dicts "classic", "classic-house", "party"
``play_game(options, players, strategies, seed) -> dict``   one round
``play_match(options, players, strategies, seed) -> dict``  rounds until E-3/E-4 ends the match

Seats are 0..P-1, clockwise = increasing seat index, the player to the dealer's
left is seat (dealer + 1) % P.  One ``random.Random(seed)`` drives everything.

Cards are ``Card(colour, face)``: colour is one of ``COLOURS`` or ``None`` for a
wild; face is an int 0-9 or one of "skip", "reverse", "draw_two",
"point_taken", "wild", "wild_draw_four", "wild_pile_up", "wild_drawn_together".

Places where the rule book is ambiguous or contradicts itself
-------------------------------------------------------------
1. T-7 "one action (a play or a draw) of the player whose turn it is": a turn in
   which the player draws (T-3/T-4) and then plays the drawn card could be one
   or two actions.  Chosen: ONE turn (it is one turn of that player; T-3 says
   the drawn card is played within the turn).  A turn whose draw takes nothing
   (both piles empty, T-5) still counts as a turn (so max_turns always ends a
   blocked round).
2. S-3 Reverse as first card with exactly two players: "counts as played"
   together with A-2 (acts as Skip with two players) would make the dealer
   start, while S-3 also says plainly "the player to the dealer's right starts".
   Chosen: the explicit sentence -- the player to the dealer's right
   ((dealer - 1) % P) starts, direction counter-clockwise, for every P (with
   two players that is the non-dealer, i.e. the same player as usual).
3. The party preset: "without [the alternative scoring] UNO Party! is a single
   round" but ``scoring`` only offers "winner_takes" | "penalty".  Chosen: the
   party preset carries scoring="winner_takes" (its optional alternative
   scoring, E-3), which only matters for ``play_match``.
4. S-3 "a Wild Draw Four goes back into the middle of the deck": chosen
   literally, it is inserted at index len(draw_pile) // 2 of the draw pile and
   the (new) top card is flipped.  If no card in the draw pile could ever be
   accepted, the card stays on top without effect (never loops).
5. W-2 `no_color_or_number_match`: "the same number as the top card" -- chosen
   literally: only when the top card is a number card, a card in hand with that
   number makes the Wild Draw Four illegal (same action symbol does not).
6. T-1/`action_symbol_match`: the option speaks of Skip, Reverse, Draw Two; the
   Party-only Point Taken is treated the same way (any coloured non-number face).
7. T-4 "keeps drawing until a card is playable": "playable" means playable
   without bluffing (a Wild Draw Four only when its wd4_legal_when condition
   holds), since the drawn card is what the player may play.  Link echo (P-7)
   for a T-4 draw: the partner draws the total number drawn, once, after the
   drawing stops and before the drawn card is played.
8. P-2/P-3 wrong jump-ins: every player except the one whose card is on top who
   does not hold an identical card tries a wrong jump-in with probability
   speed_play_error_rate; all decisions are simultaneous; the wrong attempts are
   penalised (draw 1, a forced penalty draw, so it echoes over a link) before
   the race winner's card is played.  A wrong jump-in costs no turn.
9. E-5 "passes max_turns turns": at most max_turns turns are taken; when the
   round is not over and another turn would start (or the turn player would win
   a jump-in race, which would be a turn) while turns == max_turns, the round is
   truncated; ``turns`` is then max_turns.
10. A-4 Point Taken: every player points after the card has left the
   player's hand (greedy compares current hand sizes then).  A Point Taken
   face-up as first card under apply_actions has no effect (S-3 names only
   Wild Draw Four, Wild, Reverse, Skip, Draw Two); Wild Pile Up and Wild Drawn
   Together as first card under apply_actions go back into the deck like a
   Wild Draw Four; `first_wild` only applies under apply_actions.
11. E-2 last card Wild Draw Four: the next player simply draws 4 (no challenge
   of a card that ended the round).  Only Draw Two and Wild Draw Four act.
12. P-5 the active colour becomes the mini pile's colour when the pile is taken;
   with pileup_flipped_wilds="mini_pile" the wilds turned up are in the mini
   pile and are taken with it.  If no non-wild card exists in the draw pile or
   the discard pile under the top, the Wild Pile Up acts as a Wild (the player
   chooses a colour) and ``pileups`` is not counted.  With link_shares_pileup
   the partner draws as many cards from the draw pile as were taken.
13. P-6 relink_must_differ=True is read as "the new pair shares no member with
   the old pair"; if no such pair exists the old link simply ends.
14. U-1 the forgotten-call check is made at once when the player goes down to
   one card (still "before the next turn starts").
15. Matches: a truncated round scores nothing.  Penalty scoring ties for the
   lowest total (and winner_takes ties for the highest) are broken uniformly at
   random.  `elimination` only applies to penalty scoring; if all remaining
   players reach the target in the same round, the lowest total among them
   wins.  The dealer moves to the next remaining seat to the left.  A match is
   stopped after 10,000 rounds (only reachable when every round truncates).
16. Options missing from an ``options`` dict are filled from the party preset.
17. §9 says classic "above 14 players needs deck_copies=2", but by §1's own
   criterion (players x hand_size must leave at least one card) 15 players x 7
   = 105 < 108 can be dealt.  Chosen: the §1 criterion; 16 players (112 cards)
   is refused, 15 is played.

House rules (§10, H-1..H-4), read from the rule book:

18. H-1 a chain is played out in ``Game.chain``: each victim first may challenge a
   Wild Draw Four on top (W-2, judged on the stacker's hand and the active colour
   when it was stacked), then stacks or takes.  Every stack is one turn (T-7);
   taking the total, like a lost challenge, is the victim's lost turn, not a
   counted one (as a Draw Two's draw in the plain game), so a chain nobody stacks
   on has the plain game's turn count.  A victim offered a stack once max_turns
   turns are taken ends the round as truncated (E-5).  The start
   card (S-3) starts no chain.  Records: ``stack_max`` is the most cards actually
   drawn by the player ending a chain (a chain of one card included; a lost
   challenge's total + 2; a last card's total under E-2); ``stack_cards`` the
   cards so drawn at the end of chains of two cards or more; all 0 with
   stacking="none".  greedy stacks a Draw Two (uniform physical card) when it
   can, else a Wild Draw Four; random picks uniformly among "take" and each
   distinct stacking card (two copies of the blue Draw Two are one choice).
19. H-2 the exchange (7) or passing (0) is made after the UNO check of the card's
   player, before the jump-in window; ``seven_swaps`` / ``zero_passes`` count them.
   greedy exchanges with the player with fewest cards, ties to the nearest in the
   direction of play; random with a uniform other player.
20. H-3 a jump-in window opens after every play (turn play, drawn card, jump-in,
   stack) once its effect is complete, on the card then on top, when it is a
   number card or (numbers_and_actions) a coloured action card; the player who put
   it there cannot jump in.  ``jump_ins`` counts every jump-in, ``action_jump_ins``
   those with an action card.  Wrong jump-ins (P-3) only after number cards.
21. H-4 a lone non-number card is not a legal play, jump-in, stack, nor mini-pile
   addition.  ``blocked_finishes`` counts turns on which the lone card would
   otherwise have been a legal play (a chain's take is no turn).
"""

import random
from collections import Counter, namedtuple
from dataclasses import dataclass

COLOURS = ("red", "yellow", "green", "blue")
COLOURED_ACTIONS = ("skip", "reverse", "draw_two", "point_taken")
WILD_FACES = ("wild", "wild_draw_four", "wild_pile_up", "wild_drawn_together")
KINDS = ("number",) + COLOURED_ACTIONS + WILD_FACES

Card = namedtuple("Card", "colour face")


def kind_of(card):
    """Kind name of a card: "number" or its face."""
    return "number" if isinstance(card.face, int) else card.face


def is_wild(card):
    return card.colour is None


def points(card):
    """Section 1: number = its number, coloured action = 20, any wild = 50."""
    if isinstance(card.face, int):
        return card.face
    if card.colour is None:
        return 50
    return 20


def hand_points(hand):
    return sum(points(c) for c in hand)


# ---------------------------------------------------------------- decks (§1)

def build_deck(deck, copies=1):
    """The deck as a list of cards, from the tables of docs/rules.md §1."""
    cards = []
    if deck == "classic":
        for colour in COLOURS:
            cards.append(Card(colour, 0))
            for n in range(1, 10):
                cards += [Card(colour, n)] * 2
            for face in ("skip", "reverse", "draw_two"):
                cards += [Card(colour, face)] * 2
        for face in ("wild", "wild_draw_four"):
            cards += [Card(None, face)] * 4
    elif deck == "party":
        for colour in COLOURS:
            cards += [Card(colour, 0)] * 2
            for n in range(1, 10):
                cards += [Card(colour, n)] * 4
            for face in ("skip", "reverse", "draw_two"):
                cards += [Card(colour, face)] * 4
            cards += [Card(colour, "point_taken")] * 2
        for face in WILD_FACES:
            cards += [Card(None, face)] * 4
    elif isinstance(deck, dict):
        # a deck given as data, in the deck-file layout: copies per colour of each
        # coloured face ("0".."9", skip, ...), copies in total of each wild face
        for colour in COLOURS:
            for face, n in deck.get("per_colour", {}).items():
                cards += [Card(colour, int(face) if face.isdigit() else face)] * n
        for face, n in deck.get("wild", {}).items():
            cards += [Card(None, face)] * n
    else:
        raise ValueError(f"unknown deck {deck!r}; use 'classic', 'party' or a dict")
    return cards * copies


# ---------------------------------------------------------------- presets

PARTY = {
    "hand_size": 7,
    "deck": "party",
    "deck_copies": 1,
    "first_card": "reflip_actions",        # S-2 default for party
    "first_wild": "first_player_chooses",  # only used under apply_actions
    "dealer": "random",                    # S-4
    "action_symbol_match": True,           # T-1 [P]
    "draw_until_playable": False,          # T-3
    "reverse_two_players_skips": True,
    "point_taken_cap": 5,
    "point_taken_breaks_link_first": True,
    "wd4_legal_when": "no_color_match_incl_wilds",  # W-2 party
    "wd4_challenge": True,                 # W-2 [P]
    "pileup_flipped_wilds": "discard",     # P-5
    "pileup_may_refuse": False,            # P-5
    "link_shares_pileup": False,           # P-5
    "relink_must_differ": False,           # P-6
    "link_echoes_voluntary_draws": False,  # P-7
    "speed_play": True,                    # P-4
    "speed_play_error_rate": 0.0,          # P-3
    "uno_penalty": 2,                      # U-2
    "last_card_draws": False,              # E-2 party
    "scoring": "winner_takes",             # E-3 (ambiguity 3)
    "target_score": 500,
    "elimination": False,
    "max_turns": 5000,                     # E-5
    # §10 house rules, off in every preset
    "stacking": "none",                    # H-1
    "seven_zero": False,                   # H-2
    "jump_in_cards": "numbers",            # H-3
    "go_out_on_action": True,              # H-4
}

STACKING = ("none", "same_face", "mixed", "plus4_on_plus2")
PENALTY = {"draw_two": 2, "wild_draw_four": 4}
# H-1: which stacking cards may go on which top card, per `stacking` value
STACKS_ON = {
    "none": {"draw_two": (), "wild_draw_four": ()},
    "same_face": {"draw_two": ("draw_two",), "wild_draw_four": ("wild_draw_four",)},
    "mixed": {"draw_two": ("draw_two", "wild_draw_four"), "wild_draw_four": ("wild_draw_four",)},
    "plus4_on_plus2": {"draw_two": ("draw_two", "wild_draw_four"), "wild_draw_four": ()},
}

CLASSIC = dict(
    PARTY,
    deck="classic",
    first_card="apply_actions",            # S-3
    first_wild="first_player_chooses",     # S-3 [official]
    action_symbol_match=True,
    draw_until_playable=False,
    wd4_legal_when="no_color_match",       # W-2 [official]
    wd4_challenge=True,
    speed_play=False,                      # P-4
    uno_penalty=2,
    last_card_draws=True,                  # E-2
    scoring="winner_takes",                # E-3
)

CLASSIC_HOUSE = dict(
    CLASSIC,
    first_wild="reflip",                   # S-3 classic-house
    action_symbol_match=False,             # T-1 [003]
    draw_until_playable=True,              # T-4
    wd4_legal_when="no_color_or_number_match",  # W-2 [003]
    wd4_challenge=False,                   # W-2 [003]
    uno_penalty=4,                         # U-2 [003]
    scoring="penalty",                     # E-4
)

PRESETS = {"classic": CLASSIC, "classic-house": CLASSIC_HOUSE, "party": PARTY}


# ---------------------------------------------------------------- strategies

@dataclass
class Strategy:
    """A "random" or "greedy" player.  Neither bluffs, challenges, refuses a
    mini pile or draws by choice; forget_prob/catch_prob implement U-1."""

    name: str
    forget_prob: float = 0.0
    catch_prob: float = 1.0
    reaction_weight: float = 1.0
    challenge_prob: float = 0.0

    def __post_init__(self):
        if self.name not in ("random", "greedy"):
            raise ValueError(f"unknown strategy {self.name!r}; known: 'random', 'greedy'")

    def _pick_cards(self, rng, cards):
        """random: uniform physical card; greedy: highest points, ties uniform."""
        if self.name == "random":
            return rng.choice(cards)
        best = max(points(c) for c in cards)
        return rng.choice([c for c in cards if points(c) == best])

    def choose_play(self, game, seat, playable):
        return self._pick_cards(game.rng, playable)

    def choose_addition(self, game, seat, able):
        return self._pick_cards(game.rng, able)

    def choose_colour(self, game, seat):
        rng = game.rng
        if self.name == "random":
            return rng.choice(COLOURS)
        held = Counter(c.colour for c in game.hands[seat] if c.colour is not None)
        if not held:
            return rng.choice(COLOURS)
        most = max(held.values())
        return rng.choice([col for col in COLOURS if held[col] == most])

    def choose_point_target(self, game, seat):
        others = [q for q in range(game.P) if q != seat]
        if self.name == "random":
            return game.rng.choice(others)
        fewest = min(len(game.hands[q]) for q in others)
        return game.rng.choice([q for q in others if len(game.hands[q]) == fewest])

    def choose_link(self, game, seat, allowed):
        """Two distinct players from ``allowed`` (None if impossible)."""
        rng = game.rng
        if len(allowed) < 2:
            return None
        if self.name == "random":
            return tuple(rng.sample(allowed, 2))
        others = [q for q in allowed if q != seat]
        rng.shuffle(others)  # random tie order, then stable sort by hand size
        others.sort(key=lambda q: len(game.hands[q]))
        if len(others) >= 2:
            return (others[0], others[1])
        if others and seat in allowed:
            return (seat, others[0])  # two players: the two players
        return None

    def choose_stack(self, game, seat, options):
        """H-1: a stacking card from ``options`` (physical cards), or None to take the total.
        random: uniform over "take" and each kind of card (colour and face) it could
        stack; greedy: always stacks, a Draw Two (uniform physical card) when it can,
        else a Wild Draw Four."""
        if self.name == "random":
            return game.rng.choice(list(dict.fromkeys(options)) + [None])
        twos = [c for c in options if c.face == "draw_two"]
        return game.rng.choice(twos or list(options))

    def choose_swap(self, game, seat):
        """H-2: the other player to exchange hands with after a 7.  random: uniform;
        greedy: fewest cards, ties to the nearest in the direction of play."""
        others = [game.next_seat(seat, i) for i in range(1, game.P)]
        if self.name == "random":
            return game.rng.choice(others)
        fewest = min(len(game.hands[q]) for q in others)
        return next(q for q in others if len(game.hands[q]) == fewest)

    def wants_jump_in(self, game, seat):
        if self.name == "greedy":
            return True
        return game.rng.random() < 0.5

    def refuses_pileup(self, game, seat):
        return False

    def challenges(self, game, seat):
        return self.challenge_prob > 0 and game.rng.random() < self.challenge_prob

    def forgets_uno(self, game, seat):
        return self.forget_prob > 0 and game.rng.random() < self.forget_prob

    def catches(self, game, seat):
        return self.catch_prob >= 1 or game.rng.random() < self.catch_prob


# ---------------------------------------------------------------- the game

class Game:
    """One round of UNO; ``run()`` plays it and returns the result dict."""

    def __init__(self, options, strategies, rng, dealer):
        self.o = options
        self.strats = strategies
        self.P = len(strategies)
        self.rng = rng
        self.dealer = dealer
        self.hands = [[] for _ in range(self.P)]
        self.draw_pile = build_deck(options["deck"], options["deck_copies"])
        self.total_cards = len(self.draw_pile)
        self.discard = []
        self.mini = []
        self.colour = None          # active colour
        self.direction = 1          # +1 clockwise, -1 counter-clockwise
        self.current = None         # seat whose turn is next
        self.link = None            # (a, b) or None
        self.over = False
        self.winner = None
        self.truncated = False
        self.turns = 0
        self.cards_played = 0
        self.cards_drawn = 0
        self.pileup_additions = 0
        self.played_by_kind = {k: 0 for k in KINDS}
        self.counts = {k: 0 for k in (
            "jump_ins", "wrong_jump_ins", "pileups", "pileup_cards_taken",
            "point_taken_draws", "link_echo_draws", "challenges",
            "challenges_won", "uno_penalties",
            "stacks", "stack_max", "stack_cards", "seven_swaps", "zero_passes",
            "action_jump_ins", "blocked_finishes")}
        self.top_player = None      # who put the top card of the discard pile there
        self.after_turn_hook = None  # tests may install a checker

    # ---- helpers
    def next_seat(self, seat, steps=1):
        return (seat + self.direction * steps) % self.P

    def top(self):
        return self.discard[-1]

    def reshuffle(self):
        """T-5: the discard pile except its top becomes the new draw pile."""
        if len(self.discard) > 1:
            new = self.discard[:-1]
            self.discard = [self.discard[-1]]
            self.rng.shuffle(new)
            self.draw_pile = new

    def take_cards(self, seat, n):
        """Move up to n cards from the draw pile into a hand (T-5: reshuffle
        when a card is next needed; both piles empty -> nothing)."""
        got = []
        for _ in range(n):
            if not self.draw_pile:
                self.reshuffle()
            if not self.draw_pile:
                break
            card = self.draw_pile.pop()
            self.hands[seat].append(card)
            got.append(card)
        self.cards_drawn += len(got)
        return got

    def echo(self, seat, n, voluntary=False):
        """P-7: a linked player's draw is echoed by the partner (not back)."""
        if n <= 0 or self.link is None or seat not in self.link:
            return
        if voluntary and not self.o["link_echoes_voluntary_draws"]:
            return
        a, b = self.link
        partner = b if seat == a else a
        got = self.take_cards(partner, n)
        self.counts["link_echo_draws"] += len(got)

    def draw(self, seat, n, voluntary=False):
        """A draw the rules impose (or a voluntary one), with its link echo."""
        got = self.take_cards(seat, n)
        self.echo(seat, n, voluntary)
        return got

    # ---- legality (T-1, W-2)
    def wd4_legal(self, seat, card):
        rule = self.o["wd4_legal_when"]
        if rule == "always":
            return True
        others = list(self.hands[seat])
        others.remove(card)
        if any(c.colour == self.colour for c in others):
            return False
        if rule == "no_color_match_incl_wilds":
            # "wild cards count as matching the current colour" [P]
            if any(c.colour is None for c in others):
                return False
        elif rule == "no_color_match_incl_plain_wilds":
            # only a plain Wild counts as matching; a second Wild Draw Four does not
            if any(c.colour is None and c.face == "wild" for c in others):
                return False
        elif rule == "no_color_or_number_match":
            top = self.top()
            if top.colour is not None and isinstance(top.face, int):
                if any(c.face == top.face for c in others):
                    return False
        elif rule != "no_color_match":
            raise ValueError(f"unknown wd4_legal_when {rule!r}")
        return True

    def last_card_blocked(self, seat):
        """H-4: with go_out_on_action off, a lone card that is not a number card cannot go."""
        hand = self.hands[seat]
        return (not self.o["go_out_on_action"] and len(hand) == 1
                and not isinstance(hand[0].face, int))

    def playable(self, seat, card, house=True):
        """T-1, without bluffing: a Wild Draw Four only when legal (W-2); H-4 unless
        ``house`` is false."""
        if house and self.last_card_blocked(seat):
            return False
        if card.colour is None:
            if card.face == "wild_draw_four":
                return self.wd4_legal(seat, card)
            return True
        if card.colour == self.colour:
            return True
        top = self.top()
        if top.colour is None:          # a wild offers no face to match
            return False
        if card.face == top.face:
            if isinstance(card.face, int):
                return True
            return self.o["action_symbol_match"]
        return False

    # ---- set-up (S-1 .. S-4)
    def start_reinserts(self, card):
        """S-3 under apply_actions: which first cards go back into the deck."""
        if card.face in ("wild_draw_four", "wild_pile_up", "wild_drawn_together"):
            return True
        return card.face == "wild" and self.o["first_wild"] == "reflip"

    def setup(self):
        o, P, rng = self.o, self.P, self.rng
        rng.shuffle(self.draw_pile)
        for _ in range(o["hand_size"]):                      # S-1
            for i in range(P):
                self.hands[(self.dealer + 1 + i) % P].append(self.draw_pile.pop())
        first = (self.dealer + 1) % P                         # S-4
        self.current = first
        mode = o["first_card"]
        if mode == "reflip_actions":                          # S-2 default
            card = self.draw_pile.pop()
            self.discard.append(card)
            while not isinstance(card.face, int) and self.draw_pile:
                card = self.draw_pile.pop()
                self.discard.append(card)
            # (ran out without a number card: stays on top without effect)
        elif mode == "ignore_effect":                         # S-2
            card = self.draw_pile.pop()
            self.discard.append(card)
        elif mode == "apply_actions":                         # S-3
            while True:
                card = self.draw_pile.pop()
                if self.start_reinserts(card) and any(
                        not self.start_reinserts(c) for c in self.draw_pile):
                    self.draw_pile.insert(len(self.draw_pile) // 2, card)
                    continue
                break
            self.discard.append(card)
        else:
            raise ValueError(f"unknown first_card {mode!r}")
        if card.colour is None:
            self.colour = self.strats[first].choose_colour(self, first)
        else:
            self.colour = card.colour
        if mode == "apply_actions":
            if card.face == "skip":             # S-3: first player is skipped
                self.current = (self.dealer + 2) % P
            elif card.face == "reverse":        # S-3: dealer's right starts (ambiguity 2)
                self.direction = -1
                self.current = (self.dealer - 1) % P
            elif card.face == "draw_two":       # S-3: first player draws 2, loses turn
                self.draw(first, 2)
                self.current = (self.dealer + 2) % P

    # ---- main loop
    def run(self):
        self.setup()
        while not self.over:
            if self.turns >= self.o["max_turns"]:       # E-5
                self.truncated = True
                break
            self.take_turn(self.current)
            if self.after_turn_hook:
                self.after_turn_hook(self)
        return self.result()

    def take_turn(self, p):
        """T-2..T-4, T-6: play a playable card, else draw."""
        self.turns += 1                                     # T-7
        hand = self.hands[p]
        playable = [c for c in hand if self.playable(p, c)]
        if playable:
            self.play(p, self.strats[p].choose_play(self, p, playable))
            return
        if self.last_card_blocked(p) and self.playable(p, hand[0], house=False):
            self.counts["blocked_finishes"] += 1            # H-4
        if not self.o["draw_until_playable"]:               # T-3
            got = self.draw(p, 1)
            if got and self.playable(p, got[0]):
                self.play(p, got[0])
            else:
                self.current = self.next_seat(p)
            return
        drawn = []                                          # T-4
        while True:
            got = self.take_cards(p, 1)
            if not got:
                break
            drawn.append(got[0])
            if self.playable(p, got[0]):
                break
        self.echo(p, len(drawn))                            # P-7 (ambiguity 7)
        if drawn and self.playable(p, drawn[-1]):
            self.play(p, drawn[-1])
        else:
            self.current = self.next_seat(p)

    def check_uno(self, seat):
        """U-1/U-2: going down to one card without calling UNO."""
        if len(self.hands[seat]) != 1:
            return
        if not self.strats[seat].forgets_uno(self, seat):
            return
        caught = any(self.strats[q].catches(self, q) for q in range(self.P) if q != seat)
        if caught:
            self.counts["uno_penalties"] += 1
            self.draw(seat, self.o["uno_penalty"])

    def put_on_discard(self, seat, card):
        self.hands[seat].remove(card)
        self.discard.append(card)
        self.top_player = seat
        self.cards_played += 1
        self.played_by_kind[kind_of(card)] += 1
        if card.colour is not None:
            self.colour = card.colour

    def play(self, p, card):
        """A turn play of ``card`` by seat p, with its effect, then the jump-in window."""
        self.play_card(p, card)
        if self.o["speed_play"]:
            self.speed_play()

    def play_card(self, p, card):
        """``card`` played by seat p (a turn play or a jump-in), with its full effect."""
        legal = None
        if card.face == "wild_draw_four":
            legal = self.wd4_legal(p, card)     # judged on the hand before the play
        self.put_on_discard(p, card)
        if not self.hands[p]:                   # E-1
            self.win(p)
            if self.o["last_card_draws"] and card.face in PENALTY:   # E-2
                got = self.draw(self.next_seat(p), PENALTY[card.face])
                if self.o["stacking"] != "none":
                    self.end_chain(len(got), 1)                      # H-1 records
            return
        self.check_uno(p)
        face = card.face
        if isinstance(face, int):
            if self.o["seven_zero"] and face == 7:      # H-2
                q = self.strats[p].choose_swap(self, p)
                self.hands[p], self.hands[q] = self.hands[q], self.hands[p]
                self.counts["seven_swaps"] += 1
            elif self.o["seven_zero"] and face == 0:    # H-2: every hand to the next player
                new = [None] * self.P
                for q in range(self.P):
                    new[self.next_seat(q)] = self.hands[q]
                self.hands = new
                self.counts["zero_passes"] += 1
            self.current = self.next_seat(p)
        elif face == "skip":
            self.current = self.next_seat(p, 2)
        elif face == "reverse":
            self.direction = -self.direction
            if self.P == 2 and self.o["reverse_two_players_skips"]:
                self.current = p
            else:
                self.current = self.next_seat(p)
        elif face == "draw_two" and self.o["stacking"] != "none":
            self.chain(p, card, None)           # H-1
        elif face == "draw_two":
            victim = self.next_seat(p)
            self.draw(victim, 2)
            self.current = self.next_seat(victim)
        elif face == "point_taken":
            self.point_taken(p)
        elif face == "wild":                    # W-1
            self.colour = self.strats[p].choose_colour(self, p)
            self.current = self.next_seat(p)
        elif face == "wild_draw_four" and self.o["stacking"] != "none":
            self.colour = self.strats[p].choose_colour(self, p)
            self.chain(p, card, legal)          # H-1
        elif face == "wild_draw_four":          # W-2
            self.colour = self.strats[p].choose_colour(self, p)
            victim = self.next_seat(p)
            if self.o["wd4_challenge"] and self.strats[victim].challenges(self, victim):
                self.counts["challenges"] += 1
                if legal:                       # challenger draws 6, loses turn
                    self.draw(victim, 6)
                    self.current = self.next_seat(victim)
                else:                           # bluff caught: player draws 4
                    self.counts["challenges_won"] += 1
                    self.draw(p, 4)
                    self.current = victim       # challenger takes a normal turn
            else:
                self.draw(victim, 4)
                self.current = self.next_seat(victim)
        elif face == "wild_pile_up":            # P-5
            self.pile_up(p)
        elif face == "wild_drawn_together":     # P-6
            self.colour = self.strats[p].choose_colour(self, p)
            if self.o["relink_must_differ"] and self.link is not None:
                allowed = [q for q in range(self.P) if q not in self.link]
            else:
                allowed = list(range(self.P))
            self.link = self.strats[p].choose_link(self, p, allowed)
            self.current = self.next_seat(p)
        else:
            raise AssertionError(face)

    # ---- stacking (H-1)
    def stack_options(self, seat):
        """The stacking cards seat may play on the top card (H-1, H-4)."""
        if self.last_card_blocked(seat):
            return []
        allowed = STACKS_ON[self.o["stacking"]][self.top().face]
        return [c for c in self.hands[seat] if c.face in allowed]

    def end_chain(self, drawn, length):
        """H-1 records for a chain whose end made a player draw ``drawn`` cards."""
        self.counts["stack_max"] = max(self.counts["stack_max"], drawn)
        if length >= 2:
            self.counts["stack_cards"] += drawn

    def chain(self, p, card, legal):
        """A Draw Two / Wild Draw Four just played by p (not its last card) starts a
        chain; each victim may challenge the Wild Draw Four on top (W-2), stack, or
        take the total.  ``legal``: the W-2 legality of a Wild Draw Four on top."""
        total, length, top_player = PENALTY[card.face], 1, p
        while True:
            victim = self.next_seat(top_player)
            top = self.top()
            if (top.face == "wild_draw_four" and self.o["wd4_challenge"]
                    and self.strats[victim].challenges(self, victim)):
                self.counts["challenges"] += 1
                if legal:                       # lost: the total + 2, the turn lost
                    got = self.draw(victim, total + 2)
                    self.end_chain(len(got), length)
                    self.current = self.next_seat(victim)
                else:                           # won: the bluffer draws the total
                    self.counts["challenges_won"] += 1
                    got = self.draw(top_player, total)
                    self.end_chain(len(got), length)
                    self.current = victim       # a normal turn follows
                return
            options = self.stack_options(victim)
            if options and self.turns >= self.o["max_turns"]:   # E-5: a stack offered past max_turns
                self.truncated = True
                self.over = True
                return
            choice = self.strats[victim].choose_stack(self, victim, options) if options else None
            if choice is None:                  # take the total: the turn lost, not counted
                got = self.draw(victim, total)
                self.end_chain(len(got), length)
                self.current = self.next_seat(victim)
                return
            self.counts["stacks"] += 1
            self.turns += 1                     # a stack is the victim's turn (T-7)
            legal = self.wd4_legal(victim, choice) if choice.face == "wild_draw_four" else None
            self.put_on_discard(victim, choice)
            total += PENALTY[choice.face]
            length += 1
            if not self.hands[victim]:          # E-1, E-2: nobody stacks on a last card
                self.win(victim)
                if self.o["last_card_draws"]:
                    got = self.draw(self.next_seat(victim), total)
                    self.end_chain(len(got), length)
                return
            self.check_uno(victim)
            if choice.face == "wild_draw_four":
                self.colour = self.strats[victim].choose_colour(self, victim)
            top_player = victim

    def win(self, seat):
        self.winner = seat
        self.over = True

    # ---- speed play (P-1 .. P-3, H-3)
    def jumpable(self, card):
        """P-1 / H-3: the cards a jump-in window opens on."""
        if isinstance(card.face, int):
            return True
        return card.colour is not None and self.o["jump_in_cards"] == "numbers_and_actions"

    def speed_play(self):
        """After a play, once its effect is complete: jump-ins on the card on top."""
        rate = self.o["speed_play_error_rate"]
        while not self.over:
            card = self.top()
            if not self.jumpable(card):
                return
            last = self.top_player
            candidates, wrong = [], []
            for i in range(1, self.P):
                q = self.next_seat(last, i)
                if card in self.hands[q] and not self.last_card_blocked(q):
                    if self.strats[q].wants_jump_in(self, q):
                        candidates.append(q)
                elif card not in self.hands[q] and isinstance(card.face, int) and (
                        rate > 0 and self.rng.random() < rate):
                    wrong.append(q)                 # P-3: after number cards only
            for q in wrong:                         # P-3: draw 1 (a penalty)
                self.counts["wrong_jump_ins"] += 1
                self.draw(q, 1)
            if not candidates:
                return
            weights = [self.strats[q].reaction_weight for q in candidates]
            winner = self.rng.choices(candidates, weights)[0]
            if winner == self.current:              # T-7: it is their turn
                if self.turns >= self.o["max_turns"]:
                    self.truncated = True
                    self.over = True
                    return
                self.turns += 1
            self.counts["jump_ins"] += 1
            if not isinstance(card.face, int):
                self.counts["action_jump_ins"] += 1
            self.play_card(winner, card)            # P-1, H-3: full effect, play goes on from them

    # ---- Point Taken
    def point_taken(self, p):
        if self.o["point_taken_breaks_link_first"]:
            self.link = None
        targets = [self.strats[q].choose_point_target(self, q) for q in range(self.P)]
        pointed = Counter(targets)
        cap = self.o["point_taken_cap"]
        for i in range(self.P):                     # from p, in current direction
            q = self.next_seat(p, i)
            n = min(pointed[q], cap)
            if n:
                got = self.draw(q, n)
                self.counts["point_taken_draws"] += len(got)
        self.link = None                            # P-7: Point Taken ends the link
        self.current = self.next_seat(p)

    # ---- Wild Pile Up (P-5)
    def pile_up(self, p):
        if not any(not is_wild(c) for c in self.draw_pile + self.discard[:-1]):
            # no non-wild can be turned up: acts as a Wild
            self.colour = self.strats[p].choose_colour(self, p)
            self.current = self.next_seat(p)
            return
        self.counts["pileups"] += 1
        mini = self.mini = []
        while True:
            if not self.draw_pile:
                self.reshuffle()                    # T-5
            card = self.draw_pile.pop()             # turned up, not a draw
            if is_wild(card):
                if self.o["pileup_flipped_wilds"] == "discard":
                    self.discard.insert(len(self.discard) - 1, card)  # under the top
                else:
                    mini.append(card)
                continue
            mini.append(card)
            pile_colour = card.colour
            break
        q = self.next_seat(p)
        while True:
            hand = self.hands[q]
            able = [c for c in hand if c.colour == pile_colour or c.colour is None]
            if self.last_card_blocked(q):           # H-4: not even into a mini pile
                able = []
            if able and not (self.o["pileup_may_refuse"]
                             and self.strats[q].refuses_pileup(self, q)):
                card = self.strats[q].choose_addition(self, q, able)
                hand.remove(card)
                mini.append(card)
                self.pileup_additions += 1
                if not hand:                        # empties hand into the mini pile
                    self.win(q)
                    return
                self.check_uno(q)
                q = self.next_seat(q)
                continue
            hand.extend(mini)                       # takes the whole mini pile
            taken = len(mini)
            self.counts["pileup_cards_taken"] += taken
            self.mini = []
            if self.o["link_shares_pileup"]:
                self.echo(q, taken)
            self.colour = pile_colour
            self.current = self.next_seat(q)
            return

    # ---- result
    def result(self):
        hp = [hand_points(h) for h in self.hands]
        if self.winner is None:
            offset, wpoints = None, 0
        else:
            offset = (self.winner - self.dealer) % self.P or self.P
            wpoints = sum(hp) - hp[self.winner]
        res = {
            "dealer": self.dealer,
            "winner": self.winner,
            "winner_offset": offset,
            "truncated": self.truncated,
            "turns": self.turns,
            "cards_played": self.cards_played,
            "cards_drawn": self.cards_drawn,
            "hand_points": hp,
            "winner_points": wpoints,
            "played_by_kind": dict(self.played_by_kind),
        }
        res.update(self.counts)
        return res


# ---------------------------------------------------------------- public API

def _full_options(options):
    unknown = set(options) - set(PARTY)
    if unknown:
        raise ValueError(f"unknown option(s) {sorted(unknown)}; known: {sorted(PARTY)}")
    opts = dict(PARTY)
    opts.update(options)
    _check_house_rules(opts)
    return opts


def _check_house_rules(opts):
    """§10: values, and the combinations refused before any game."""
    if opts["stacking"] not in STACKING:
        raise ValueError(f"stacking={opts['stacking']!r}; use one of {STACKING}")
    if opts["jump_in_cards"] not in ("numbers", "numbers_and_actions"):
        raise ValueError(f"jump_in_cards={opts['jump_in_cards']!r}; use 'numbers' or 'numbers_and_actions'")
    if opts["jump_in_cards"] == "numbers_and_actions" and not opts["speed_play"]:
        raise ValueError("jump_in_cards=numbers_and_actions needs speed_play=true; set speed_play=true "
                         "or keep jump_in_cards=numbers")
    faces = {c.face for c in build_deck(opts["deck"])}
    if opts["stacking"] != "none" and not faces & set(PENALTY):
        raise ValueError(f"stacking={opts['stacking']} needs a deck with a Draw Two or a Wild Draw Four; "
                         "choose such a deck or keep stacking=none")
    if opts["seven_zero"] and not faces & {0, 7}:
        raise ValueError("seven_zero=true needs a deck with a 7 or a 0; choose such a deck or keep seven_zero=false")


def _check_table(opts, players, strategies):
    if not isinstance(players, int) or not 2 <= players <= 16:
        raise ValueError(f"players={players!r}: the engine plays 2-16 players (§9)")
    if len(strategies) != players:
        raise ValueError(f"{len(strategies)} strategies given for {players} players")
    total = len(build_deck(opts["deck"], opts["deck_copies"]))
    if players * opts["hand_size"] >= total:
        raise ValueError(
            f"cannot deal: {players} players x hand_size {opts['hand_size']} = "
            f"{players * opts['hand_size']} cards, but the {opts['deck']} deck x "
            f"deck_copies {opts['deck_copies']} has only {total}; at least one card "
            f"must start the discard pile (raise deck_copies)")


def _make_strategies(strategies):
    return [s if isinstance(s, Strategy) else Strategy(s) for s in strategies]


def _first_dealer(opts, players, rng):
    if opts["dealer"] == "random":
        return rng.randrange(players)
    dealer = int(opts["dealer"])
    if not 0 <= dealer < players:
        raise ValueError(f"dealer={dealer} is not a seat of a {players}-player table")
    return dealer


def _new_game(options, players, strategies, seed):
    """The Game object (not yet run) -- used by play_game and by the tests."""
    opts = _full_options(options)
    _check_table(opts, players, strategies)
    rng = random.Random(seed)
    dealer = _first_dealer(opts, players, rng)
    return Game(opts, _make_strategies(strategies), rng, dealer)


def play_game(options, players, strategies, seed):
    """Play one round; ``strategies[i]`` is the strategy name of seat i."""
    return _new_game(options, players, strategies, seed).run()


def _pick(rng, seats, key):
    best = min(key(s) for s in seats)
    return rng.choice([s for s in seats if key(s) == best])


def play_match(options, players, strategies, seed, max_rounds=10_000):
    """Play rounds (dealer +1 each round) until E-3 / E-4 ends the match."""
    opts = _full_options(options)
    _check_table(opts, players, strategies)
    rng = random.Random(seed)
    strats = _make_strategies(strategies)
    target = opts["target_score"]
    penalty = opts["scoring"] == "penalty"
    if opts["scoring"] not in ("winner_takes", "penalty"):
        raise ValueError(f"unknown scoring {opts['scoring']!r}")
    elimination = penalty and opts["elimination"]
    scores = [0] * players
    active = list(range(players))
    dealer = _first_dealer(opts, players, rng)
    rounds = 0
    match_winner = None
    while match_winner is None:
        rounds += 1
        local_dealer = active.index(dealer)
        game = Game(opts, [strats[s] for s in active], rng, local_dealer)
        res = game.run()
        if not res["truncated"]:                        # ambiguity 15
            if penalty:                                 # E-4
                for i, s in enumerate(active):
                    scores[s] += res["hand_points"][i]
            else:                                       # E-3
                scores[active[res["winner"]]] += res["winner_points"]
        reached = [s for s in active if scores[s] >= target]
        if elimination:
            if len(active) - len(reached) == 1:
                match_winner = next(s for s in active if s not in reached)
            elif len(reached) == len(active):
                match_winner = _pick(rng, active, lambda s: scores[s])
            elif reached:
                active = [s for s in active if s not in reached]
        elif reached:
            if penalty:
                match_winner = _pick(rng, active, lambda s: scores[s])
            else:
                match_winner = _pick(rng, active, lambda s: -scores[s])
        if match_winner is None and rounds >= max_rounds:
            key = (lambda s: scores[s]) if penalty else (lambda s: -scores[s])
            match_winner = _pick(rng, active, key)
        if match_winner is None:
            # S-4: the dealer moves one seat to the left (next remaining seat)
            dealer = next((dealer + k) % players for k in range(1, players + 1)
                          if (dealer + k) % players in active)
    return {"rounds": rounds, "scores": scores, "match_winner": match_winner}
