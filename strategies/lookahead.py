"""Decision-time search for 2-player games: sampled worlds, short playouts (``tunable``'s ``look_*`` parameters).

Each candidate move of a decision row (a legal card type held; a wild once per colour worth naming: each
colour held, or all four when none is) is scored by `best_moves` over ``rollouts`` sampled worlds:

1. **A world.** The opponent's hand is drawn from the posterior over it
   (`unosim.strategies.hand_groups`: groups of cards taken together, each drawn from the unseen cards
   in proportion to its weight per card type); the other unseen cards are the draw pile, shuffled.
2. **A playout.** The candidate is played, then both seats play on for ``depth`` turns (T-7): the opponent
   as ``random`` does (a uniform legal physical card, a uniform colour, drawing only with nothing legal and
   playing a legal drawn card, never challenging), this seat by `_own_pick` (a simple policy of
   card-kind scores, calm and with the opponent close to going out, a colour-share weight and wild saving:
   `POLICY_NAMES`; it names the colour it holds most).
3. **A value.** A seat that empties its hand wins (1 or 0); otherwise the position reached is worth the
   chance of winning from it, a logistic in the hand sizes: ``1 / (1 + exp(-(v[0] + v[1] * (this seat
   moves) + v[2] * ln(own cards) + v[3] * ln(opponent's cards))))``.

The candidates are played out in the same worlds with the same random numbers (common random numbers: the
same opponent's hand, the same order of the draw pile, the same stream for the playouts' own choices), so
their comparison is paired. Within a budget of ``rollouts`` × candidates playouts they are compared by
sequential halving: in each of ⌈log2 candidates⌉ rounds, the candidates left share the round's playouts in
fresh worlds, and the better half (by total value) goes on; the best of the last round wins, ties to the
first in type order. The randomness of each row comes from one uniform of the row's own (game, seat) stream
(its ``seeds``), so results do not depend on batching.

The rules the playouts follow are the 2-player rules of the classic presets, with the options that can
change a playout read from the rule set (`model`): the Wild Draw Four's legality (W-2), matching
action cards by symbol (T-1) and Reverse as Skip (A-2). `model` returns ``None`` where the playouts
would not follow the rules (more than two players, party cards in the deck, speed play, drawing until
playable, a deck other than whole classic decks); the strategy then decides without searching.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from unosim.game.cards import CARD_KIND, FACES_PER_COLOUR, KIND_NAMES, N_COLOURED, N_COLOURS, N_TYPES, WILD, WILD_DRAW_FOUR

__all__ = ["best_moves", "model", "HAND_VALUE_DEFAULTS", "POLICY_DEFAULTS", "POLICY_NAMES", "TABLE_VALUE_DEFAULTS", "VALUE_DEFAULTS",
           "WD4_RULES"]

WD4_RULES = ("always", "no_color_match", "no_color_match_incl_wilds", "no_color_or_number_match")
"""``wd4_legal_when`` values, in the order of their code in `model`'s array."""
VALUE_DEFAULTS = (0.107, 0.165, -0.552, 0.659)
"""Coefficients of the value of a position (bias, this seat to move, ln own cards, ln opponent's cards),
fitted by maximum likelihood to 200,000 games of the playout policy against ``random`` (classic, Wild
Draw Four always legal)."""
TABLE_VALUE_DEFAULTS = (-1.549, 0.218, 0.183, 0.059)
"""Coefficients of the chance that each seat wins, for any number of seats (the ``value='table'`` of
`strategies/search.py`): seat ``j`` wins with probability ``exp(u_j) / sum_k exp(u_k)``, ``u_j`` the sum of
these times ln cards of ``j``, its Wild and Wild Draw Four cards, whether it moves next and whether it moves
after that; a conditional logit fitted by maximum likelihood to positions of 6-player ``random`` games
(classic, Wild Draw Four always legal, no challenges) by ``experiments/fit_table_value.py``."""
HAND_VALUE_DEFAULTS = (0.378, 0.169, -0.653, 0.915, 0.542, -0.300, 0.192, -0.212, 0.502, -0.209)
"""Coefficients of the chance that the searching seat wins (the ``value='hand'`` of `strategies/search.py`, its terms
``HAND_VALUE_NAMES`` there): a logistic fitted by maximum likelihood to 271,727 positions of 2-player games of
``rules:lookahead`` against ``random`` (classic, Wild Draw Four always legal, no challenges) by
``experiments/fit_table_value.py --model hand``."""
POLICY_NAMES = ("number", "action", "wild", "wild_draw_four", "number_close", "action_close", "wild_close",
                "wild_draw_four_close", "colour_share", "wild_keep", "close_at")
"""This seat's playout policy (`_own_pick`): card scores, calm and with the opponent close to going out."""
POLICY_DEFAULTS = (1.0, 3.2, -2.0, -1.0, 1.0, 5.2, -2.0, 5.0, 1.5, 2.0, 2.0)
_PARTY_KINDS = [KIND_NAMES.index(k) for k in ("point_taken", "wild_pile_up", "wild_drawn_together")]
_SKIP, _REVERSE, _DRAW_TWO = 10, 11, 12
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MAX_CANDIDATES = 64
_LN = np.log(np.maximum(np.arange(512), 1)).astype(np.float64)


def model(rules: Any, players: int, deck_counts: NDArray[np.integer]) -> NDArray[np.int64] | None:
    """The playouts' rule model for ``rules`` at ``players`` (``[wd4 rule, action symbol match, reverse skips]``),
    or None where the playouts do not follow the rules (see the module doc)."""
    counts = np.asarray(deck_counts)
    party = any(counts[CARD_KIND == k].sum() for k in _PARTY_KINDS)
    if players != 2 or party or rules.speed_play or rules.draw_until_playable or rules.wd4_legal_when not in WD4_RULES:
        return None
    return np.array([WD4_RULES.index(rules.wd4_legal_when), rules.action_symbol_match, rules.reverse_two_players_skips],
                    np.int64)


@njit(cache=True, inline='always')
def _mix(z):  # pragma: no cover - compiled
    """splitmix64's finaliser."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline='always')
def _uniform(state):  # pragma: no cover - compiled
    """The next uniform in [0, 1) of the stream ``state`` (a one-element counter array)."""
    state[0] += _GOLDEN
    return float(_mix(state[0]) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline='always')
def _below(state, n):  # pragma: no cover - compiled
    """A uniform whole number in ``0 .. n - 1``."""
    return min(int(_uniform(state) * n), n - 1)


@njit(cache=True, inline='always')
def _legal(t, top, colour, hands, seat, rule):  # pragma: no cover - compiled
    """Whether seat ``seat`` of ``hands`` may play card type ``t`` on ``top`` with ``colour`` (T-1, W-2; ``rule``
    from `model`). The hands are rows of one array (a row taken as a view would cost a reference count
    per call)."""
    if t >= N_COLOURED:
        if t != WILD_DRAW_FOUR or rule[0] == 0:
            return True
        for f in range(FACES_PER_COLOUR):
            if hands[seat, colour * FACES_PER_COLOUR + f] > 0:
                return False
        if rule[0] == 2 and hands[seat, WILD] > 0 or rule[0] == 2 and hands[seat, WILD_DRAW_FOUR] > 1:
            return False
        if rule[0] == 3 and top < N_COLOURED and top % FACES_PER_COLOUR < 10:
            for c in range(N_COLOURS):
                if hands[seat, c * FACES_PER_COLOUR + top % FACES_PER_COLOUR] > 0:
                    return False
        return True
    if t // FACES_PER_COLOUR == colour:
        return True
    if top >= N_COLOURED or t % FACES_PER_COLOUR != top % FACES_PER_COLOUR:
        return False
    return t % FACES_PER_COLOUR < 10 or rule[1] != 0


@njit(cache=True, inline='always')
def _answers(top, colour, rule, out):  # pragma: no cover - compiled
    """Fill ``out`` with the card types that may answer ``top`` with ``colour`` by T-1 (the active colour's, the
    same face in the other colours, the two classic wilds: the Wild Draw Four subject to `_legal`), in
    type order within each group; their number."""
    m = 0
    for f in range(FACES_PER_COLOUR):
        out[m] = colour * FACES_PER_COLOUR + f
        m += 1
    if top < N_COLOURED and (top % FACES_PER_COLOUR < 10 or rule[1] != 0):
        for c in range(N_COLOURS):
            if c != colour:
                out[m] = c * FACES_PER_COLOUR + top % FACES_PER_COLOUR
                m += 1
    out[m] = WILD
    out[m + 1] = WILD_DRAW_FOUR
    return m + 2


@njit(cache=True, inline='always')
def _draw(order, disc, pile, rng, shuffled):  # pragma: no cover - compiled
    """The next card of the draw pile (-1 when it and the discard pile are empty).

    The draw pile is ``order[pile[0], pile[1]:pile[2]]``, card types in the order they will be drawn: row 0
    the world's pile, shuffled as far as any playout has drawn (``shuffled[0]`` positions, a Fisher–Yates
    shuffle from the front continued with the world's stream ``rng[:1]``, so every candidate draws the same
    cards), row 1 a discard pile turned over (T-5) when row 0 ran out (stream ``rng[1:]``). ``disc`` counts
    the discard pile below the top card."""
    if pile[1] == pile[2]:
        n = 0
        for t in range(N_TYPES):
            for _ in range(disc[t]):
                order[1, n] = t
                n += 1
            disc[t] = 0
        pile[0], pile[1], pile[2] = 1, 0, n
        if n == 0:
            return -1
        for k in range(n - 1):
            j = k + _below(rng[1:], n - k)
            order[1, k], order[1, j] = order[1, j], order[1, k]
    k = pile[1]
    if pile[0] == 0 and k == shuffled[0]:
        j = k + _below(rng, pile[2] - k)
        order[0, k], order[0, j] = order[0, j], order[0, k]
        shuffled[0] += 1
    pile[1] += 1
    return order[pile[0], k]


@njit(cache=True, inline='always')
def _random_pick(hands, seat, top, colour, rule, answers, m, state):  # pragma: no cover - compiled
    """``random``'s card: uniform over the legal physical cards held (-1: none); ``answers[:m]`` from `_answers`."""
    n = 0
    for j in range(m):
        t = answers[j]
        if hands[seat, t] > 0 and (t != WILD_DRAW_FOUR or _legal(t, top, colour, hands, seat, rule)):
            n += hands[seat, t]
    if n == 0:
        return -1
    k = _below(state, n)
    for j in range(m):
        t = answers[j]
        if hands[seat, t] > 0 and (t != WILD_DRAW_FOUR or _legal(t, top, colour, hands, seat, rule)):
            if k < hands[seat, t]:
                return t
            k -= hands[seat, t]
    return -1


@njit(cache=True, inline='always')
def _colour_held(hands, seat, c):  # pragma: no cover - compiled
    """Cards of colour ``c`` held by ``seat``."""
    n = 0
    for f in range(FACES_PER_COLOUR):
        n += hands[seat, c * FACES_PER_COLOUR + f]
    return n


@njit(cache=True, inline='always')
def _most_held(hands, seat, state):  # pragma: no cover - compiled
    """The colour held most, ties to the first from a random colour on."""
    first = _below(state, N_COLOURS)
    best = first
    score = -1
    for k in range(N_COLOURS):
        c = (first + k) % N_COLOURS
        s = _colour_held(hands, seat, c)
        if s > score:
            score = s
            best = c
    return best


@njit(cache=True, inline='always')
def _own_pick(hands, size, top, colour, opponent, rule, answers, m, policy):  # pragma: no cover - compiled
    """This seat's (seat 0 of ``hands``) card in a playout (-1: none legal): the highest score among the legal cards held, ties to the
    first in ``answers[:m]`` (from `_answers`). ``policy`` (`POLICY_NAMES`): a number card scores
    ``number``, an action card ``action``, a Wild ``wild``, a Wild Draw Four ``wild_draw_four``, or the
    ``*_close`` weights when the opponent holds at most ``close_at`` cards; a coloured card adds
    ``colour_share`` times its colour's share of the hand; wilds are held while a coloured card is legal and
    more than ``wild_keep`` non-wild cards are held."""
    coloured_legal = False
    for j in range(m - 2):
        if hands[0, answers[j]] > 0:
            coloured_legal = True
            break
    non_wild = size - hands[0, WILD] - hands[0, WILD_DRAW_FOUR]
    close = 4 if opponent <= policy[10] else 0
    best = -1
    score = -1e9
    for j in range(m):
        t = answers[j]
        if hands[0, t] == 0:
            continue
        if t >= N_COLOURED:
            if (coloured_legal and non_wild > policy[9]) or not _legal(t, top, colour, hands, 0, rule):
                continue
            s = policy[close + (2 if t == WILD else 3)]
        else:
            s = policy[close + (0 if t % FACES_PER_COLOUR < 10 else 1)]
            s += policy[8] * _colour_held(hands, 0, t // FACES_PER_COLOUR) / size
        if s > score:
            score = s
            best = t
    return best


@njit(cache=True, inline='always')
def _effect(t, mover, hands, sizes, order, disc, pile, rng, shuffled, rule):  # pragma: no cover - compiled
    """Apply card ``t`` just played by ``mover`` (A-1..A-3, W-2 at two players); the seat to move next."""
    other = 1 - mover
    give = 0
    if t < N_COLOURED:
        f = t % FACES_PER_COLOUR
        if f == _SKIP or (f == _REVERSE and rule[2] != 0):
            return mover
        if f == _DRAW_TWO:
            give = 2
    elif t == WILD_DRAW_FOUR:
        give = 4
    if give == 0:
        return other
    for _ in range(give):
        c = _draw(order, disc, pile, rng, shuffled)
        if c >= 0:
            hands[other, c] += 1
            sizes[other] += 1
    return mover


@njit(cache=True, inline='always')
def _playout(hands, sizes, order, disc, pile, rng, shuffled, top, colour, mover, depth, rule, value, policy, answers,
             state):  # pragma: no cover
    """Play ``depth`` turns from the position (seat 0: this seat); seat 0's chance of winning at the end.
    ``answers``: scratch for `_answers`."""
    for _ in range(depth):
        m = _answers(top, colour, rule, answers)
        if mover == 0:
            t = _own_pick(hands, sizes[0], top, colour, sizes[1], rule, answers, m, policy)
        else:
            t = _random_pick(hands, 1, top, colour, rule, answers, m, state)
        if t < 0:
            c = _draw(order, disc, pile, rng, shuffled)
            if c >= 0:
                hands[mover, c] += 1
                sizes[mover] += 1
                if _legal(c, top, colour, hands, mover, rule):
                    t = c
        if t < 0:
            mover = 1 - mover
            continue
        hands[mover, t] -= 1
        sizes[mover] -= 1
        disc[top] += 1
        top = t
        if t >= N_COLOURED:
            colour = _most_held(hands, 0, state) if mover == 0 else _below(state, N_COLOURS)
        else:
            colour = t // FACES_PER_COLOUR
        if sizes[mover] == 0:
            return 1.0 if mover == 0 else 0.0
        mover = _effect(t, mover, hands, sizes, order, disc, pile, rng, shuffled, rule)
    z = value[0] + value[1] * (mover == 0) + value[2] * _LN[min(sizes[0], 511)] + value[3] * _LN[min(sizes[1], 511)]
    return 1.0 / (1.0 + np.exp(-z))


@njit(cache=True, inline='always')
def _sample_hand(size, weight, i, held, unseen, state, opp, rest, gw):  # pragma: no cover - compiled
    """Draw the opponent's ``held`` cards into ``opp`` from the groups of entry ``i`` (``i < 0``: one uniform
    group; cards beyond the groups' sizes: uniform), each card in proportion to its group's weight times the
    copies left (uniform where no card has weight); ``rest``: the unseen cards left (the draw pile); ``gw``:
    scratch for one group's weights."""
    for t in range(N_TYPES):
        rest[t] = unseen[t]
        opp[t] = 0
    left = held
    n_groups = size.shape[1] if i >= 0 else 0
    for g in range(n_groups + 1):
        k = left if g == n_groups else min(size[i, g], left)
        if k <= 0:
            continue
        total = 0.0
        for t in range(N_TYPES):
            gw[t] = weight[i, g, t] if g < n_groups else 1.0
            total += gw[t] * rest[t]
        for _ in range(k):
            if total <= 1e-9:  # nothing left with a weight: uniform
                total = 0.0
                for t in range(N_TYPES):
                    gw[t] = 1.0
                    total += rest[t]
                if total <= 0.0:
                    return
            x = _uniform(state) * total
            pick = -1
            for t in range(N_TYPES):
                w = gw[t] * rest[t]
                if w > 0.0:
                    pick = t  # the last type with a positive weight, should rounding leave x >= 0
                    x -= w
                    if x < 0.0:
                        break
            rest[pick] -= 1
            opp[pick] += 1
            total -= gw[pick]
            left -= 1


@njit(cache=True, inline='always')
def _keep_best(alive, live, keep, scores):  # pragma: no cover - compiled
    """Drop the lowest-scoring of the ``live`` candidates ``alive[:live]`` (ties: the later one) until ``keep``
    remain, keeping their order; ``keep``."""
    while live > keep:
        worst = 0
        for a in range(1, live):
            if scores[alive[a]] <= scores[alive[worst]]:
                worst = a
        for a in range(worst, live - 1):
            alive[a] = alive[a + 1]
        live -= 1
    return live


@njit(cache=True)
def best_moves(hand, legal, unseen, discard, top, colour, held, size, weight, idx, seeds, only, rule, rollouts, depth,
               value, policy):  # pragma: no cover - compiled
    """The best candidate (card, colour) of each row by ``rollouts`` sampled worlds and ``depth``-turn playouts.

    Parameters
    ----------
    hand, legal : ``[n, N_TYPES]`` this seat's cards and the legal ones (``only`` < 0: the candidates)
    unseen : ``[n, N_TYPES]`` the cards this seat has not seen (the opponent's hand and the draw pile)
    discard : ``[n, N_TYPES]`` the discard pile, top card included
    top, colour, held : ``[n]`` the table, and the opponent's hand size
    size, weight, idx : the posterior's groups (`unosim.strategies.hand_groups`) and each row's entry
        (-1: nothing known, a uniform hand)
    seeds : ``[n]`` uint64, each row's stream
    only : ``[n]`` -1: choose among the legal cards; else the card already chosen, whose colour is asked
    rule : `model`'s array
    rollouts, depth : worlds per decision, turns per playout
    value : the value coefficients (`VALUE_DEFAULTS`)
    policy : this seat's playout policy (`POLICY_NAMES`, `_own_pick`)

    Returns
    -------
    cards, colours : ``[n]`` the card to play (-1 where nothing is legal) and the colour to name (-1 for a
        coloured card)
    """
    n = hand.shape[0]
    cards = np.full(n, -1, np.int64)
    colours = np.full(n, -1, np.int64)
    cand_card = np.empty(_MAX_CANDIDATES, np.int64)
    cand_colour = np.empty(_MAX_CANDIDATES, np.int64)
    scores = np.empty(_MAX_CANDIDATES, np.float64)
    alive = np.empty(_MAX_CANDIDATES, np.int64)
    own = np.empty(N_TYPES, np.int64)
    opp = np.empty(N_TYPES, np.int64)
    rest = np.empty(N_TYPES, np.int64)
    hands = np.empty((2, N_TYPES), np.int64)
    sizes = np.empty(2, np.int64)
    gw = np.empty(N_TYPES, np.float64)
    disc = np.empty(N_TYPES, np.int64)
    pile = np.empty(3, np.int64)
    rng = np.empty(2, np.uint64)
    shuffled = np.empty(1, np.int64)
    order = np.empty((2, int(unseen.sum(axis=1).max()) + int(discard.sum(axis=1).max()) + 1 if n else 1), np.int64)
    state = np.empty(1, np.uint64)
    play_state = np.empty(1, np.uint64)
    answers = np.empty(FACES_PER_COLOUR + N_COLOURS + 2, np.int64)
    for r in range(n):
        m = 0
        for t in range(N_TYPES):
            own[t] = hand[r, t]
            if (only[r] < 0 and own[t] > 0 and legal[r, t]) or t == only[r]:
                if t < N_COLOURED:
                    cand_card[m] = t
                    cand_colour[m] = t // FACES_PER_COLOUR
                    m += 1
                else:
                    named = 0
                    for c in range(N_COLOURS):
                        if _colour_held(hand, r, c) > 0:
                            cand_card[m] = t
                            cand_colour[m] = c
                            m += 1
                            named += 1
                    if named == 0:
                        for c in range(N_COLOURS):
                            cand_card[m] = t
                            cand_colour[m] = c
                            m += 1
        if m == 0:
            continue
        cards[r] = cand_card[0]
        colours[r] = cand_colour[0] if cand_card[0] >= N_COLOURED else -1
        if m == 1:
            continue
        scores[:m] = 0.0
        state[0] = _mix(seeds[r])
        own_size = 0
        for t in range(N_TYPES):
            own_size += own[t]
        live = m
        for j in range(m):
            alive[j] = j
        rounds = 0
        while (1 << rounds) < m:
            rounds += 1
        for k in range(rounds):  # sequential halving: each round the better half of the candidates goes on
            for _ in range(max(1, rollouts * m // rounds // live)):
                _sample_hand(size, weight, idx[r], held[r], unseen[r], state, opp, rest, gw)
                n_rest = 0
                n_opp = 0
                for t in range(N_TYPES):
                    for _ in range(rest[t]):
                        order[0, n_rest] = t
                        n_rest += 1
                    n_opp += opp[t]
                rng[0] = _mix(state[0] ^ np.uint64(0x5851F42D4C957F2D))  # the pile's shuffle
                shuffled[0] = 0
                turn_over = _mix(rng[0] ^ np.uint64(0x2545F4914F6CDD1D))  # turning the discard pile over
                seed = _mix(turn_over ^ np.uint64(0x9E3779B97F4A7C15))  # the playouts' own choices
                for a in range(live):
                    j = alive[a]
                    t = cand_card[j]
                    for u in range(N_TYPES):
                        hands[0, u] = own[u]
                        hands[1, u] = opp[u]
                        disc[u] = discard[r, u]  # the old top goes under the card played
                    hands[0, t] -= 1
                    sizes[0] = own_size - 1
                    sizes[1] = n_opp
                    pile[0], pile[1], pile[2] = 0, 0, n_rest
                    play_state[0] = seed
                    rng[1] = turn_over
                    if sizes[0] == 0:
                        scores[j] += 1.0
                        continue
                    mover = _effect(t, 0, hands, sizes, order, disc, pile, rng, shuffled, rule)
                    scores[j] += _playout(hands, sizes, order, disc, pile, rng, shuffled, t, cand_colour[j], mover, depth,
                                          rule, value, policy, answers, play_state)
            if k < rounds - 1:
                live = _keep_best(alive, live, (live + 1) // 2, scores)
        best = alive[0]
        for a in range(1, live):
            if scores[alive[a]] > scores[best]:
                best = alive[a]
        cards[r] = cand_card[best]
        colours[r] = cand_colour[best] if cand_card[best] >= N_COLOURED else -1
    return cards, colours
