"""A posterior over the 2-player opponent's hand, as groups of cards taken at the same time (``block_posterior``).

Against an opponent that never draws while holding a legal card and always plays a legal drawn card
(``random``, ``tunable``), each card it holds is a uniform draw from the cards this seat has not seen,
except that every time it drew since the card came into its hand, its hand answered nothing on the table
it faced: the card is none of those answers; and every time it played from its hand, a hand with fewer
answers to that table was the likelier (it picks one of its legal cards at random). So the hand splits
into groups, the cards taken together (the deal, each draw), each with its own weight per card type: 0
for the answers of every table faced with a draw since, `PLAY_TILT` for each table played on since.
`advance` keeps the groups of each game up to date from what the opponent did between two of this
seat's turns (the cards it put on the discard pile, the cards it took: see `advance` for how a turn
is reconstructed); `answer_chances` gives the chance that it holds no answer to a card, a product
over the groups of hypergeometric chances on the weighted counts. A card played from the hand leaves the
group most likely to have held it. Groups with the same weights merge; when all `GROUPS` are in
use, the two smallest merge, keeping the larger weight of each card type. Wild Draw Fours are taken to be
always legal (``wd4_legal_when=always``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unosim.game.cards import FACES_PER_COLOUR, N_COLOURED, N_COLOURS, N_TYPES, WILD_DRAW_FOUR

__all__ = ["advance", "answer_chances", "forget", "GROUPS", "PLAY_TILT"]

GROUPS = 8
"""Groups kept per game."""
PLAY_TILT = 0.7
"""Factor on the weight of the answers to a table the opponent played on from its hand: it plays one of its
legal cards at random, so hands with fewer of them are likelier (fitted on the log-loss against the true
hands; 0.5, 0.6, 0.8 and 1 did worse)."""
_SKIP_FACE = 10
_DRAW_TWO_FACE = 12
_MAX_PLAYS = 16


@njit(cache=True)
def _continues(t):  # pragma: no cover - compiled
    """Whether playing ``t`` at 2 players gives its player another turn (Skip, Reverse, Draw Two, Wild Draw Four)."""
    return t == WILD_DRAW_FOUR or (0 <= t < N_COLOURED and _SKIP_FACE <= t % FACES_PER_COLOUR <= _DRAW_TWO_FACE)


@njit(cache=True)
def _legal(t, top, colour):  # pragma: no cover - compiled
    """Whether card type ``t`` may be played on ``top`` with active ``colour``."""
    if t >= N_COLOURED:
        return True
    return t // FACES_PER_COLOUR == colour or (top < N_COLOURED and t % FACES_PER_COLOUR == top % FACES_PER_COLOUR)


@njit(cache=True)
def _tilt(size, weight, i, top, colour, factor):  # pragma: no cover - compiled
    """Multiply by ``factor`` the weight of the answers to ``top`` with ``colour`` (-1: unknown, nothing
    learnt) in every group of entry ``i``: 0 when its hand answered nothing there."""
    if colour < 0:
        return
    for g in range(size.shape[1]):
        if size[i, g] > 0:
            for t in range(N_TYPES):
                if _legal(t, top, colour):
                    weight[i, g, t] *= factor


@njit(cache=True)
def _add(size, weight, i, k, top, colour):  # pragma: no cover - compiled
    """A new group of ``k`` cards (none answering ``top`` with ``colour`` when ``colour`` >= 0) for entry ``i``;
    False when there is no free group."""
    for g in range(size.shape[1]):
        if size[i, g] == 0:
            size[i, g] = k
            for t in range(N_TYPES):
                weight[i, g, t] = 0.0 if colour >= 0 and _legal(t, top, colour) else 1.0
            return True
    return False


@njit(cache=True)
def _held(size, weight, i, card):  # pragma: no cover - compiled
    """Whether a group of entry ``i`` may hold ``card``."""
    for g in range(size.shape[1]):
        if size[i, g] > 0 and weight[i, g, card] > 0:
            return True
    return False


@njit(cache=True)
def _take(size, weight, i, card, pool):  # pragma: no cover - compiled
    """Remove ``card`` (played from the hand) from the group of entry ``i`` most likely to have held it: the
    most cards times the card's share of the weighted ``pool`` (the largest group when none may hold it)."""
    best = -1
    score = -1.0
    for g in range(size.shape[1]):
        if size[i, g] == 0:
            continue
        allowed = 0.0
        for t in range(N_TYPES):
            allowed += weight[i, g, t] * pool[t]
        s = size[i, g] * weight[i, g, card] / max(allowed, 1e-9) if weight[i, g, card] > 0 else -0.5 + size[i, g] / 1000.0
        if s > score:
            score = s
            best = g
    if best < 0:
        return False
    size[i, best] -= 1
    return True


@njit(cache=True)
def _tidy(size, weight, i):  # pragma: no cover - compiled
    """Merge the groups of entry ``i`` with the same weights; keep one free group (merging the two smallest,
    each weight the larger of the two)."""
    n_groups = size.shape[1]
    for g in range(n_groups):
        if size[i, g] == 0:
            continue
        for h in range(g + 1, n_groups):
            if size[i, h] > 0 and (weight[i, g] == weight[i, h]).all():
                size[i, g] += size[i, h]
                size[i, h] = 0
    while (size[i] > 0).all():
        a = -1
        b = -1
        for g in range(n_groups):
            if a < 0 or size[i, g] < size[i, a]:
                b = a
                a = g
            elif b < 0 or size[i, g] < size[i, b]:
                b = g
        size[i, a] += size[i, b]
        size[i, b] = 0
        for t in range(N_TYPES):
            weight[i, a, t] = max(weight[i, a, t], weight[i, b, t])


@njit(cache=True)
def forget(size, weight, idx, rows, held):  # pragma: no cover - compiled
    """Nothing known: entry ``idx[r]`` of each ``r`` in ``rows`` holds one group of ``held[r]`` uniform cards."""
    for r in rows:
        size[idx[r], :] = 0
        weight[idx[r], :, :] = 1.0
        size[idx[r], 0] = held[r]


@njit(cache=True)
def advance(size, weight, idx, rows, pool, played, held, took, turn, top, colour, final_colour, play_tilt):  # pragma: no cover
    """Update the groups of each row over the opponent's moves since this seat's last move; the rows where
    the reconstruction failed (the caller resets those).

    For row ``r`` in ``rows`` (entry ``idx[r]``): ``pool`` the cards this seat has not seen (now, plus the
    cards played since), ``played`` the cards the opponent put on the discard pile since, ``held`` its hand
    size now, ``took`` the cards it took in all, ``turn`` whether it had a turn (else ``took`` are the cards
    this seat's Draw Two or Wild Draw Four gave it), ``top`` / ``colour`` the table it faced,
    ``final_colour`` the active colour now.

    A turn is reconstructed as: the cards that give another turn first (each legal on the one before when
    possible), then the one that ends the turn, if any; without one, the turn ended with a card drawn and
    kept (its hand and that card answered nothing on the last table). The other cards it took were drawn
    and played at once: the cards played that no group may hold, then the first ones played (this seat's
    own move is the table most often unanswerable); before each, its hand answered nothing.
    """
    failed = np.zeros(rows.shape[0], np.bool_)
    order = np.zeros(_MAX_PLAYS, np.int64)
    drawn = np.zeros(_MAX_PLAYS, np.bool_)
    left = np.zeros(N_TYPES, np.int64)
    for j in range(rows.shape[0]):
        r = rows[j]
        i = idx[r]
        if not turn[r]:
            n_played = 0
            for t in range(N_TYPES):
                n_played += played[r, t]
            if n_played > 0 or (took[r] > 0 and not _add(size, weight, i, took[r], 0, -1)):
                failed[j] = True
                continue
        else:
            n = 0
            ending = -1
            for t in range(N_TYPES):
                left[t] = played[r, t]
                if played[r, t] > 0 and not _continues(t):
                    ending = t if ending < 0 and played[r, t] == 1 else -2
                n += played[r, t]
            if ending == -2 or n > _MAX_PLAYS:
                failed[j] = True
                continue
            if ending >= 0:
                left[ending] -= 1
            t_top = top[r]
            t_col = colour[r]
            for k in range(n - (ending >= 0)):
                pick = -1
                for t in range(N_TYPES):
                    if left[t] > 0 and (pick < 0 or (_legal(t, t_top, t_col) and not _legal(pick, t_top, t_col))):
                        pick = t
                order[k] = pick
                left[pick] -= 1
                t_top = pick
                t_col = pick // FACES_PER_COLOUR if pick < N_COLOURED else -1
            if ending >= 0:
                order[n - 1] = ending
            passes = 1 if ending < 0 else 0
            drawn_played = took[r] - passes
            if drawn_played < 0 or drawn_played > n:
                failed[j] = True
                continue
            # drawn and played: the cards no group may hold, then the first ones
            drawn[:] = False
            for k in range(n):
                drawn[k] = not _held(size, weight, i, order[k])
                drawn_played -= drawn[k]
            for k in range(n):
                if drawn_played > 0 and not drawn[k]:
                    drawn[k] = True
                    drawn_played -= 1
            if drawn_played < 0:
                failed[j] = True
                continue
            t_top = top[r]
            t_col = colour[r]
            ok = True
            for k in range(n):
                card = order[k]
                if drawn[k]:
                    _tilt(size, weight, i, t_top, t_col, 0.0)
                elif _take(size, weight, i, card, pool[r]):
                    _tilt(size, weight, i, t_top, t_col, play_tilt)
                else:
                    ok = False
                    break
                t_top = card
                if card < N_COLOURED:
                    t_col = card // FACES_PER_COLOUR
                elif k == n - 1:
                    t_col = final_colour[r]
                else:  # a wild within the turn: the colour of the next card, if coloured
                    t_col = order[k + 1] // FACES_PER_COLOUR if order[k + 1] < N_COLOURED else -1
            if ok and passes:
                _tilt(size, weight, i, t_top, t_col, 0.0)
                ok = _add(size, weight, i, 1, t_top, t_col)
            if not ok:
                failed[j] = True
                continue
        total = 0
        for g in range(size.shape[1]):
            total += size[i, g]
        if total != held[r]:
            failed[j] = True
            continue
        _tidy(size, weight, i)
    return failed


@njit(cache=True)
def _none_of(pool, legal, held):  # pragma: no cover - compiled
    """Chance that ``held`` cards drawn at random from ``pool`` cards include none of ``legal`` of them (the
    hypergeometric, continued to weighted counts)."""
    p = 1.0
    for k in range(held):
        if pool - k <= 0.0:
            return 0.0
        p *= max(pool - legal - k, 0.0) / (pool - k)
        if p == 0.0:
            return 0.0
    return p


@njit(cache=True)
def answer_chances(size, weight, idx, unseen):  # pragma: no cover - compiled
    """Chance that each row's opponent holds no answer to each coloured card type (``[n, N_COLOURED]``: no
    card of its colour, none of its face, no wild) and to a wild naming each colour (``[n, 4]``): a product
    over its groups, each ``size`` cards drawn from ``unseen`` weighted by its ``weight`` (the hypergeometric
    chance, with the weighted counts)."""
    n = idx.shape[0]
    coloured = np.ones((n, N_COLOURED))
    named = np.ones((n, N_COLOURS))
    by_colour = np.zeros(N_COLOURS)
    by_face = np.zeros(FACES_PER_COLOUR)
    for r in range(n):
        i = idx[r]
        for g in range(size.shape[1]):
            k = size[i, g]
            if k <= 0:
                continue
            by_colour[:] = 0
            by_face[:] = 0
            wilds = 0.0
            pool = 0.0
            for t in range(N_TYPES):
                c = weight[i, g, t] * unseen[r, t]
                pool += c
                if t < N_COLOURED:
                    by_colour[t // FACES_PER_COLOUR] += c
                    by_face[t % FACES_PER_COLOUR] += c
                else:
                    wilds += c
            for t in range(N_COLOURED):
                c = weight[i, g, t] * unseen[r, t]
                coloured[r, t] *= _none_of(pool, by_colour[t // FACES_PER_COLOUR] + by_face[t % FACES_PER_COLOUR] - c + wilds, k)
            for c in range(N_COLOURS):
                named[r, c] *= _none_of(pool, by_colour[c] + wilds, k)
    return coloured, named
