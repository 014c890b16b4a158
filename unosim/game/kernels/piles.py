"""Drawing cards (T-3, T-5), link echoes (P-7) and the trace log."""

from numba import int64

from .blocks import block_nth, colour_block
from .jit import kernel, leaf, leaf_for, rule
from .layout import (
    C_TRACE,
    DISC,
    DR_ECHO,
    DRAW,
    EV_DRAW,
    EV_EMPTY,
    EV_RESHUFFLE,
    F_DISC_N,
    F_DRAW_N,
    F_DRAWN,
    F_LINK_A,
    F_LINK_B,
    F_LINK_ECHO_DRAWS,
    F_MINI_N,
    F_TOP,
    MINI,
)
from .rng import rand_below
from .tables import FACES_PER_COLOUR, N_COLOURS

__all__ = ["cards_accounted", "draw_one", "echo", "forced_draw", "give", "log", "nth_card"]


@leaf_for("void(int32[::1], int32[:, ::1], int64[::1], int64, int64, int64, int64, int64, int64)")
def log(cfg, ev, nev, g, kind, seat, card, a, b):
    """Append one trace event (only when tracing).

    Compiled once for one signature and called, not inlined: the call costs even when it
    returns at once, so the per-turn call sites test ``cfg[C_TRACE]`` themselves (4 % of
    the games per second at classic, 4 players)."""
    if cfg[C_TRACE]:
        i = nev[0]
        if i < ev.shape[0]:
            ev[i, 0] = g
            ev[i, 1] = kind
            ev[i, 2] = seat
            ev[i, 3] = card
            ev[i, 4] = a
            ev[i, 5] = b
        nev[0] = i + 1


@leaf
def nth_card(counts, a, b, x):
    """The type of card ``x`` (from 0) of the row ``counts[a, b]`` with its cards in type order:
    the four colour blocks' totals (``blocks.colour_block``) are read at once and the card's block
    is counted, not searched (a comparison per block, no branch to mispredict), then the card is
    found in its block by prefix sums (``blocks.block_nth``); the wilds, or a row with a block of
    more than 127 cards, are scanned. ``x`` must be below the row's total."""
    k0 = colour_block(counts, a, b, int64(0))
    k1 = colour_block(counts, a, b, int64(FACES_PER_COLOUR))
    k2 = colour_block(counts, a, b, int64(2 * FACES_PER_COLOUR))
    k3 = colour_block(counts, a, b, int64(3 * FACES_PER_COLOUR))
    first = 0
    if (k0 | k1 | k2 | k3) <= 127:
        p2 = k0 + k1
        p3 = p2 + k2
        if x < p3 + k3:
            past0 = int64(x >= k0)
            past1 = int64(x >= p2)
            past2 = int64(x >= p3)
            before = past0 * k0 + past1 * k1 + past2 * k2
            return block_nth(counts, a, b, (past0 + past1 + past2) * FACES_PER_COLOUR, x - before)
        x -= p3 + k3
        first = N_COLOURS * FACES_PER_COLOUR
    for t in range(first, counts.shape[2]):
        x -= counts[a, b, t]
        if x < 0:
            return t
    return -1


@rule
def draw_one(s, slot, game, keys, piles, cfg, ev, nev):
    """Take one uniformly random card from the draw pile; -1 if both piles are empty.

    T-5: the discard pile below its top card becomes the draw pile at the
    moment a card is needed and the draw pile is empty.
    """
    n = slot[s, F_DRAW_N]
    if n == 0:
        m = slot[s, F_DISC_N]
        if m == 0:
            return -1
        for t in range(piles.shape[2]):
            piles[s, DRAW, t] += piles[s, DISC, t]
            piles[s, DISC, t] = 0
        slot[s, F_DRAW_N] = m
        slot[s, F_DISC_N] = 0
        n = m
        log(cfg, ev, nev, game[s], EV_RESHUFFLE, -1, -1, m, 0)
    card = nth_card(piles, s, int64(DRAW), rand_below(keys, slot, s, n))
    piles[s, DRAW, card] -= 1
    slot[s, F_DRAW_N] = n - 1
    return card


@kernel
def give(s, seat, n, reason, slot, game, keys, hands, hsize, piles, cfg, ev, nev):
    """``seat`` draws ``n`` cards (fewer if both piles run out); returns how many."""
    got = 0
    for _ in range(n):
        card = draw_one(s, slot, game, keys, piles, cfg, ev, nev)
        if card < 0:
            log(cfg, ev, nev, game[s], EV_EMPTY, seat, -1, reason, 0)
            break
        hands[s, seat, card] += 1
        got += 1
        if cfg[C_TRACE]:  # hot: the call is not inlined
            log(cfg, ev, nev, game[s], EV_DRAW, seat, card, reason, 0)
    hsize[s, seat] += got
    slot[s, F_DRAWN] += got
    return got


@kernel
def echo(s, seat, n, slot, game, keys, hands, hsize, piles, cfg, ev, nev):
    """P-7: the linked partner of ``seat`` draws ``n`` too (the echo does not echo)."""
    if n <= 0:
        return
    a = slot[s, F_LINK_A]
    b = slot[s, F_LINK_B]
    partner = -1
    if a == seat and b != seat:
        partner = b
    elif b == seat and a != seat:
        partner = a
    if partner >= 0:
        got = give(s, partner, n, int64(DR_ECHO), slot, game, keys, hands, hsize, piles, cfg, ev, nev)
        slot[s, F_LINK_ECHO_DRAWS] += got


@kernel
def forced_draw(s, seat, n, reason, slot, game, keys, hands, hsize, piles, cfg, ev, nev):
    """A draw the rules force: the cards, then the link echo (P-7)."""
    got = give(s, seat, n, reason, slot, game, keys, hands, hsize, piles, cfg, ev, nev)
    echo(s, seat, got, slot, game, keys, hands, hsize, piles, cfg, ev, nev)
    return got


@kernel
def cards_accounted(s, hands, hsize, piles, slot, deck, n_players):
    """Every card of the deck is in a hand, a pile or on top, and counts agree."""
    top = slot[s, F_TOP]
    total_draw = 0
    total_disc = 0
    total_mini = 0
    for t in range(deck.shape[0]):
        c = piles[s, DRAW, t] + piles[s, DISC, t] + piles[s, MINI, t]
        total_draw += piles[s, DRAW, t]
        total_disc += piles[s, DISC, t]
        total_mini += piles[s, MINI, t]
        if piles[s, DRAW, t] < 0 or piles[s, DISC, t] < 0 or piles[s, MINI, t] < 0:
            return False
        for p in range(n_players):
            if hands[s, p, t] < 0:
                return False
            c += hands[s, p, t]
        if t == top:
            c += 1
        if c != deck[t]:
            return False
    if total_draw != slot[s, F_DRAW_N] or total_disc != slot[s, F_DISC_N] or total_mini != slot[s, F_MINI_N]:
        return False
    for p in range(n_players):
        h = 0
        for t in range(deck.shape[0]):
            h += hands[s, p, t]
        if h != hsize[s, p]:
            return False
    return True
