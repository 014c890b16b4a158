"""Seat-fair tournaments: a balanced design of tables, every deal replayed under every rotation
(common random numbers), win rates with deal-clustered intervals, head-to-head shares and
Bradley–Terry ratings.

The package follows the seams below: `unosim.analysis.tournament.design` (the tables),
`unosim.analysis.tournament.settings` (a request, validated),
`unosim.analysis.tournament.plan` (the dataset's chunks and resuming),
`unosim.analysis.tournament.run` (the run loop and [`TournamentResult`][unosim.analysis.TournamentResult]) and
`unosim.analysis.tournament.statistics` (the estimates).

Design
------
The strategies ``S[0..n-1]`` (distinct specs) are placed at tables of ``P`` seats:

* **n = P**: one table, the strategies in the order given.
* **n < P** (fewer strategies than seats): strategies repeat. If ``n`` divides ``P``
  one table holds the list repeated in order (``S[s % n]`` at seat ``s``; e.g. 2
  strategies at 6 seats alternate ``A B A B A B``). Otherwise ``n`` tables are
  used, table ``t`` holding ``S[(s + t) % n]`` at seat ``s``, so that over the
  tables every strategy holds exactly ``P`` seats (e.g. 4 strategies at 6 seats:
  ``ABCDAB``, ``BCDABC``, ``CDABCD``, ``DABCDA``). Every pair meets in every game.
* **n > P** (more strategies than seats): a balanced incomplete block design. All
  ``C(n, P)`` combinations when there are at most `MAX_TABLES` of them
  (every strategy in ``C(n-1, P-1)`` tables, every pair in ``C(n-2, P-2)``);
  otherwise a cyclic design: the ``n`` translates ``B + t (mod n)`` of a base
  block ``B``, every strategy in exactly ``P`` tables, and pairs as even as the
  base block allows (a pair ``{i, j}`` meets as many times as ``j - i`` occurs
  as a difference in ``B``; a perfect difference set gives every pair the same
  count; otherwise the block with the smallest spread found by a fixed search is
  used and `Design.pair_meetings` shows the counts).

Every table is played in all its distinct **rotations**: in rotation ``r`` seat
``s`` holds the table's entry ``(s + r) % P``. A table whose line-up repeats
with period ``k`` (``A B A B A B``: ``k = 2``) has ``k`` distinct rotations,
otherwise ``P``; over them every strategy holds every seat equally often (a
repeated rotation would replay identical games). Each (table, rotation) is one
**cell**, and every cell plays the same deals
``0 .. D-1`` with the tournament seed. The engine keys all randomness of a game
by (seed, game index), so the same index is the same deal — the same dealer
and the same opening hand at every seat — in every cell: each deal is replayed
under every rotation of every table (common random numbers). Within one deal
each strategy therefore holds every seat, and so every seat offset from the
dealer, equally often: neither seat luck nor card luck favours anyone.
``--games N`` asks for about ``N`` games in all: ``D = ceil(N / cells)`` deals,
``D × cells`` games.

Estimates
---------
Per strategy, over its seat-games (a strategy holding two seats of a game counts
twice; the fair share is ``1/P``): **win rate** (truncated games are won by
nobody), **points won** (E-3: the points the seat scored, 0 when it did not win;
matches: its final total) and **points left in hand** (matches: per round). The
games of one deal are dependent, so every interval treats the deal as the
cluster: a ratio estimator ``sum(y_d) / sum(m_d)`` over deals ``d`` with the
cluster-robust (CR1) variance ``G/(G-1) · sum((y_d - r m_d)^2) / (sum m_d)^2`` —
the same as ordinary least squares on a constant with standard errors clustered
by deal — and a normal 95 % interval.

**Head-to-head**, for each ordered pair (A, B), over the games in which both
played: the share A won, the share B won, and A's share of the games won by one
of the two (``beat``; 0.5 = even), each with a deal-clustered interval.

**Ratings**: a Bradley–Terry (Luce) model fitted with `choix.ilsr_pairwise_dense`
to the comparisons "the winner beat every other seat's strategy" (top-1 rank
breaking, consistent for the Luce model of who wins a table:
``P(i wins) ∝ exp(rating_i)``); ratings are log-strengths centred on 0. The 95 %
interval is the percentile interval of a bootstrap over deals (resampled in up to
`BOOTSTRAP_BLOCKS` blocks of consecutive deals, which are independent).

Precision mode
--------------
``precision=h`` plays in rounds: after each round the widest win-rate half-width
``w`` is computed and, while ``w > h`` and the games stay within ``max_games``,
the deals are extended (to about ``D (w/h)^2``, at least one chunk more). Rounds
extend the same dataset; a run interrupted and started again resumes.

Dataset
-------
An experiment dataset (`unosim.runs.files`) with one cell per (table,
rotation); the metadata has a ``tournament`` entry (strategies, design, deals,
settings) and every row the columns ``cell``, ``table`` and ``rotation`` first.
``game`` is the deal: rows with the same ``game`` share the deal; ``strategies``
names the strategy of each seat.
"""

from .design import Design, make_design
from .run import TournamentResult, is_tournament, load_tournament, run_tournament
from .settings import make_settings
from .statistics import Z95, analyse, bradley_terry, cluster_ratio

__all__ = [
    "Design", "TournamentResult", "Z95", "analyse", "bradley_terry", "cluster_ratio", "is_tournament", "load_tournament",
    "make_design", "make_settings", "run_tournament",
]
