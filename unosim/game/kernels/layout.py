"""Layout of the batch state: every array's first axis is the game slot.

Per-slot scalars live in one ``int32`` array ``slot[B, N_FIELDS]`` whose columns
are the ``F_*`` constants below (one row per game slot keeps a slot's scalars in
one cache line or two). The other arrays:

===============  =====================  ==============================================
array            shape, dtype           meaning
===============  =====================  ==============================================
``slot``         ``[B, N_FIELDS]`` i32  per-slot scalars, columns ``F_*``
``game``         ``[B]`` i64            global index of the game (or match) in the slot
``keys``         ``[B]`` u64            the game's random-stream key (see ``rng``)
``hands``        ``[B, P, K]`` i8       cards of each type held by each seat
``hsize``        ``[B, P]`` i32         cards held by each seat
``piles``        ``[B, 3, K]`` i8       per-type counts of the draw pile (``DRAW``),
                                        the discard pile below its top card
                                        (``DISC``) and the mini pile (``MINI``)
``seat_strat``   ``[B, P]`` i32         strategy index playing each seat
``seat_ctr``     ``[B, P]`` i32         counter of each seat's strategy random stream
``seat_dec``     ``[B, P]`` i32         multi-actor decision (catch flag; vote target; UNO forgotten
                                        with a jump-in)
``seat_w``       ``[B, P]`` f64         jump-in reaction weight of each seat (0: no jump-in)
``opening``      ``[B, P, H]`` i8       opening hand of each seat (card types)
===============  =====================  ==============================================

The counters ``ctr[N_CTR]`` (i64) of a batch: ``CT_NEXT`` next game to deal,
``CT_END`` one past the last game, ``CT_ROUNDS`` round records written,
``CT_WAIT`` (set to 1 when a round waited for room; matches only), and for
tracing ``CT_TRACE_ROOM`` and ``CT_PAUSED``: once the event log holds more than
``CT_TRACE_ROOM`` events, a slot that has no decision row to read pauses between
two phases (``CT_PAUSED`` is set, it writes no row) and goes on in the next call,
after Python has saved the events. Python keeps room for one phase step of every
slot above ``CT_TRACE_ROOM`` (``engine.TraceLog``), so no event is lost.

Multi-round matches (``cfg[C_MATCH]``, E-3/E-4, S-4): a slot plays a whole
match; ``F_ROUND`` numbers its rounds from 0. Each finished round is written
as record row ``ctr[CT_ROUNDS]`` (``rec``, ``rec_points``, ``rec_open``;
``rec[:, R_MATCH]`` is its match, ``game - first``), the running totals live
in ``match_scores[game - first, seat]`` (i32) and the match winner's seat in
``match_scores[game - first, P]``. When the record buffers are full a finished
round waits in ``PH_END`` (``ctr[CT_WAIT] = 1``) until Python grows them.
``F_ALIVE`` is the bit mask of the seats still in the match: every seat
(``(1 << P) - 1``) from ``new_game`` on, and it stays so except in elimination
matches (``cfg[C_ELIMINATION]`` with penalty scoring, E-4), where ``end_round``
drops the seats whose total reached the target. An eliminated seat is dealt
nothing (its ``opening`` row is -1), and ``seat_at`` skips it (a fast path
keeps the plain modular step while every seat is alive); it takes no turn,
does not vote or catch, cannot be pointed at, linked or jump in, and the
2-player rules (A-2) count only the seats left (``finish.n_alive``).

Besides ``dec`` (int32), the decision buffers hold ``dec_w[2, R]`` (f64): the
reaction weight answered on a jump-in row, scattered into ``seat_w``.

``K = N_TYPES`` card types (``unosim.game.cards``), ``P`` players, ``H`` hand size.
The top card of the discard pile is ``slot[:, F_TOP]``, not part of ``DISC``.

The kernels take these arrays grouped in the named records of ``unosim.game.kernels.state``
(``Games``, ``Seats``, ``Rows``, ``Records``, ``Work``).

Phases (``slot[:, F_PHASE]``): decision phases ask a strategy; the others are
passed through inside one ``advance`` call.
"""

__all__ = [
    "C_ALL_COMPILED", "C_AUTO_DRAWN", "C_CHECK", "C_DEALER", "C_DRAW_UNTIL", "C_ELIMINATION", "C_FIRST_CARD", "C_FIRST_WILD",
    "C_FORCED0", "C_HAND", "C_LAST_DRAWS", "C_LINK_PILEUP", "C_LINK_VOLUNTARY", "C_MATCH", "C_MAX_TURNS", "C_N_STRATS",
    "C_NO_CHALLENGE", "C_PILEUP_REFUSE", "C_PILEUP_WILDS", "C_PLAYERS", "C_POLICY0", "C_PT_CAP", "C_PT_LINK_FIRST", "C_JUMP_ACTIONS",
    "C_NO_ACTION_OUT", "C_RELINK_DIFFER", "C_REV2_SKIPS", "C_SCORING", "C_SEVEN_ZERO", "C_SPEED", "C_STACKING", "C_SPEED_ERR_PPM",
    "C_SYMBOL_MATCH", "C_TARGET", "C_TRACE", "C_UNO_PENALTY", "C_WD4_CHALLENGE", "C_WD4_WHEN", "CT_END", "CT_NEXT", "CT_PAUSED",
    "CT_ROUNDS", "CT_TRACE_ROOM", "CT_WAIT", "D_A", "D_B", "D_CARD", "D_COLOUR", "D_FLAG", "D_FORGET", "DISC", "DR_CHALLENGE",
    "DR_DRAW_TWO", "DR_ECHO", "DR_LAST", "DR_POINT_TAKEN", "DR_START", "DR_TURN", "DR_UNO", "DR_WD4", "DR_WRONG_JUMP", "DRAW",
    "EV_CATCH", "EV_CHALLENGE", "EV_COLOUR", "EV_DEAL", "EV_DRAW", "EV_EMPTY", "EV_KEEP", "EV_LINK", "EV_LINK_END", "EV_NO_CHALLENGE",
    "EV_PILE_ADD", "EV_PILE_AS_WILD", "EV_PILE_FLIP", "EV_PILE_TAKE", "EV_PLAY", "EV_RESHUFFLE", "EV_RETURN", "EV_REVERSE", "EV_SKIP",
    "EV_START", "EV_TRUNCATE", "EV_TURN", "EV_UNO_FORGET", "EV_PASS", "EV_STACK", "EV_SWAP", "EV_VOTE", "EV_WIN", "EV_WRONG_JUMP",
    "F_ACTION_JUMP_INS", "F_ACTOR", "F_BLOCKED", "F_CHAIN", "F_ALIVE", "F_BLUFF", "F_CHALLENGES", "F_CHALLENGES_WON", "F_COLOUR",
    "F_DEALER", "F_DIR", "F_DISC_N", "F_DRAW_N", "F_DRAWN", "F_FORGOT", "F_JUMP_INS", "F_JUMPERS", "F_KIND0", "F_LAST_PLAYER",
    "F_LINK_A", "F_LINK_B", "F_LINK_ECHO_DRAWS", "F_MINI_COLOUR", "F_MINI_N", "F_NEXT", "F_PENDING", "F_PHASE", "F_PILEUP_CARDS",
    "F_PILEUPS", "F_PLAYED", "F_POINT_TAKEN_DRAWS", "F_RNG", "F_ROUND", "F_ROW", "F_SEAT", "F_SEVEN_SWAPS", "F_STACK",
    "F_STACK_CARDS", "F_STACK_MAX", "F_STACKS", "F_TOP", "F_TRUNCATED", "F_TURN", "F_TURNS", "F_UNO_PENALTIES", "F_WINNER",
    "F_WRONG_JUMP_INS", "F_ZERO_PASSES", "HOUSE_OFF", "HOUSE_ON", "I_ARG", "I_BLUFFABLE", "I_COLOUR", "I_DIR", "I_DRAWN", "I_HSIZE",
    "I_MAY_TAKE", "I_NLEGAL", "I_PENALTY", "I_PHASE", "I_TOP", "I_TURN", "MAX_ROUNDS", "MINI", "MULTI_ACTOR", "N_CFG", "N_FLAGS",
    "N_RULES", "N_CTR", "N_DEC",
    "N_DECISION_PHASES", "N_EV_COLS", "N_FIELDS", "N_INFO", "N_REC", "PH_CATCH", "PH_CHALLENGE", "PH_COLOUR", "PH_DRAWN",
    "PH_EFFECTS", "PH_END", "PH_IDLE", "PH_JUMPIN", "PH_NEWGAME", "PH_PILEUP", "PH_ROUND", "PH_STACK", "PH_START_TURN", "PH_SWAP",
    "PH_TURN", "PH_VOTE", "PH_WIN", "PH_WINDOW", "PHASE_NAMES", "PROGRAMS_OFF", "PROGRAMS_ON",
    "R_ACTION_JUMP_INS", "R_BLOCKED", "R_CHALLENGES", "R_CHALLENGES_WON",
    "R_DEALER", "R_DRAWN", "R_JUMP_INS", "R_KIND0", "R_LINK_ECHO_DRAWS", "R_MATCH", "R_PILEUP_CARDS", "R_PILEUPS", "R_PLAYED",
    "R_POINT_TAKEN_DRAWS", "R_ROUND", "R_SEVEN_SWAPS", "R_STACK_CARDS", "R_STACK_MAX", "R_STACKS", "R_TRUNCATED", "R_TURNS",
    "R_UNO_PENALTIES", "R_WINNER", "R_WRONG_JUMP_INS", "R_ZERO_PASSES", "REASON_NAMES", "ROW_AUTO", "ROW_HELD",
]

# ---- decision phases (a strategy acts) -----------------------------------
PH_TURN = 0  # the player whose turn it is plays a card or draws (T-1..T-4)
PH_DRAWN = 1  # play the card just drawn, or keep it (T-3/T-4)
PH_COLOUR = 2  # choose the active colour for a wild start card (S-2/S-3)
PH_CHALLENGE = 3  # the victim of a Wild Draw Four challenges it or not (W-2)
PH_CATCH = 4  # every other player may catch a forgotten UNO call (U-1)
PH_PILEUP = 5  # the holder adds a card to the mini pile or takes it (P-5)
PH_VOTE = 6  # everyone points at another player for a Point Taken
PH_JUMPIN = 7  # players holding an identical card may jump in (P-1/P-2, H-3)
PH_STACK = 8  # the victim of a pending penalty stacks a card on it or takes the total (H-1)
PH_SWAP = 9  # the player of a 7 chooses whom to swap hands with (H-2)
N_DECISION_PHASES = 10
# ---- internal phases -----------------------------------------------------
PH_NEWGAME = 10  # deal a new game into the slot
PH_IDLE = 11  # no game left for this slot
PH_EFFECTS = 12  # apply the effect of the card just played (F_PENDING by F_SEAT)
PH_START_TURN = 13  # give the turn to F_NEXT (or stop the round past max_turns); skipped by pass_turn when untraced below max_turns
PH_WIN = 14  # F_WINNER has no card left: last-card draws, then the end
PH_END = 15  # record the finished game (round), then PH_NEWGAME (or PH_ROUND)
PH_ROUND = 16  # deal the next round of the match in the slot (S-4)
PH_WINDOW = 17  # the card on top (played by F_SEAT) is resolved: open the jump-in window, then F_NEXT plays (P-1, H-3)
PHASE_NAMES = (
    "turn", "drawn", "colour", "challenge", "catch", "pileup", "vote", "jumpin", "stack", "swap",
    "newgame", "idle", "effects", "start_turn", "win", "end", "round", "window",
)
MULTI_ACTOR = (PH_CATCH, PH_VOTE, PH_JUMPIN)

# ---- pile rows -------------------------------------------------------------
DRAW, DISC, MINI = 0, 1, 2

# ---- slot fields (the hot ones first: they share the first cache lines) ----
F_PHASE = 0
F_ROW = 1  # observation row of the pending decision (-1: none yet)
F_ACTOR = 2  # acting seat of a single-actor phase
F_TURN = 3  # seat whose turn it is
F_DIR = 4  # +1 clockwise (increasing seat), -1 counter-clockwise
F_TOP = 5  # card type on top of the discard pile
F_COLOUR = 6  # active colour 0..3
F_TURNS = 7  # T-7 turns so far
F_PLAYED = 8  # cards played onto the discard pile by players
F_DRAWN = 9  # cards drawn into hands (any reason)
F_DRAW_N = 10  # cards in the draw pile
F_DISC_N = 11  # cards in the discard pile below the top card
F_RNG = 12  # counter of the game's engine random stream
F_PENDING = 13  # the drawn card awaiting PH_DRAWN / the card whose effect awaits
F_SEAT = 14  # the seat that played the pending card
F_NEXT = 15  # seat to get the next turn (PH_START_TURN)
F_LINK_A = 16  # linked seats (-1: no link) (P-6/P-7)
F_LINK_B = 17
F_MINI_N = 18  # cards in the mini pile
F_MINI_COLOUR = 19
F_FORGOT = 20  # seat that forgot to call UNO, -1 if none
F_LAST_PLAYER = 21  # seat whose play made the top card
F_BLUFF = 22  # 1 when the last Wild Draw Four was played illegally
F_DEALER = 23
F_WINNER = 24  # -1 until someone wins
F_TRUNCATED = 25
F_CHALLENGES = 26
F_CHALLENGES_WON = 27
F_UNO_PENALTIES = 28
F_JUMP_INS = 29
F_WRONG_JUMP_INS = 30
F_PILEUPS = 31
F_PILEUP_CARDS = 32
F_POINT_TAKEN_DRAWS = 33
F_LINK_ECHO_DRAWS = 34
F_ROUND = 35  # round number within a match, from 0 (0 for single rounds)
F_ALIVE = 36  # bit mask of seats still in the match (all but in elimination matches, E-4)
F_JUMPERS = 37  # bit mask of the seats that may jump in (PH_JUMPIN, P-1/P-2)
F_KIND0 = 38  # F_KIND0 + kind: cards of each kind played
F_STACK = F_KIND0 + 9  # H-1: penalty of the pending chain, the card on top included (0: none)
F_CHAIN = F_STACK + 1  # H-1: penalty cards in the pending chain
F_STACKS = F_STACK + 2  # H-1: stacking plays
F_STACK_MAX = F_STACK + 3  # H-1: largest total drawn at the end of a chain
F_STACK_CARDS = F_STACK + 4  # H-1: cards drawn from chains of two or more cards
F_SEVEN_SWAPS = F_STACK + 5  # H-2
F_ZERO_PASSES = F_STACK + 6  # H-2
F_ACTION_JUMP_INS = F_STACK + 7  # H-3: jump-ins with an action card
F_BLOCKED = F_STACK + 8  # H-4: turns a lone action card or wild could not be played out
N_FIELDS = F_STACK + 9

# ---- observation row info columns -----------------------------------------
I_TOP = 0
I_COLOUR = 1
I_DIR = 2
I_TURN = 3  # seat whose turn it is (PH_JUMPIN: the seat whose turn comes next)
I_DRAWN = 4  # the card just drawn (PH_DRAWN), else -1
I_ARG = 5  # phase argument: forgetful seat (PH_CATCH), player of the card (PH_CHALLENGE, PH_VOTE, PH_JUMPIN),
#             mini pile colour (PH_PILEUP)
I_BLUFFABLE = 6  # 1 if a Wild Draw Four may be played now as a bluff
I_PHASE = 7
I_HSIZE = 8  # cards the acting seat holds
I_NLEGAL = 9  # legal physical cards held (PH_TURN)
I_MAY_TAKE = 10  # 1 if the mini pile may be taken now (PH_PILEUP: nothing may be added, or C_PILEUP_REFUSE)
I_PENALTY = 11  # PH_STACK: the total the victim draws on taking (H-1); else 0
N_INFO = 12

# ---- record columns (int32 per game) ----------------------------------------
R_DEALER = 0
R_WINNER = 1
R_TURNS = 2
R_PLAYED = 3
R_DRAWN = 4
R_TRUNCATED = 5
R_CHALLENGES = 6
R_CHALLENGES_WON = 7
R_UNO_PENALTIES = 8
R_JUMP_INS = 9
R_WRONG_JUMP_INS = 10
R_PILEUPS = 11
R_PILEUP_CARDS = 12
R_POINT_TAKEN_DRAWS = 13
R_LINK_ECHO_DRAWS = 14
R_ROUND = 15
R_MATCH = 16  # matches: the round's match, game - first
R_KIND0 = 17
R_STACKS = R_KIND0 + 9  # H-1
R_STACK_MAX = R_STACKS + 1
R_STACK_CARDS = R_STACKS + 2
R_SEVEN_SWAPS = R_STACKS + 3  # H-2
R_ZERO_PASSES = R_STACKS + 4
R_ACTION_JUMP_INS = R_STACKS + 5  # H-3
R_BLOCKED = R_STACKS + 6  # H-4
N_REC = R_STACKS + 7

# ---- batch counters: ctr[CT_*] (int64) -------------------------------------------
CT_NEXT = 0  # next game to deal into a free slot
CT_END = 1  # one past the last game of the batch
CT_ROUNDS = 2  # round records written (matches)
CT_WAIT = 3  # 1 when a finished round waited for room in the record buffers
CT_TRACE_ROOM = 4  # tracing: a slot with no decision to read pauses once more events than this are logged
CT_PAUSED = 5  # 1 when a slot paused for room in the trace buffer
N_CTR = 6

MAX_ROUNDS = 10_000  # a match stops after this many rounds (only reachable when rounds truncate, E-5)

# ---- trace events: rows (game, event, seat, card, a, b) -------------------------
EV_DEAL = 0  # seat, -, -, -  (the opening hand is in the record)
EV_START = 1  # -, card, colour, first seat
EV_TURN = 2  # seat starts a turn
EV_PLAY = 3  # seat, card, colour, 1 if a jump-in (P-1)
EV_DRAW = 4  # seat, card, reason (DR_*), -
EV_KEEP = 5  # seat keeps the drawn card
EV_SKIP = 6  # seat loses its turn
EV_REVERSE = 7  # -, -, new direction
EV_COLOUR = 8  # seat chooses colour a
EV_CHALLENGE = 9  # challenger, -, 1 if the play was a bluff, player who played it
EV_UNO_FORGET = 10  # seat forgot to call UNO
EV_CATCH = 11  # seat caught by a
EV_RESHUFFLE = 12  # -, -, cards reshuffled
EV_EMPTY = 13  # seat had to draw, both piles empty
EV_WIN = 14  # seat wins; a = winner's points
EV_TRUNCATE = 15
EV_RETURN = 16  # start card put back (card)
EV_NO_CHALLENGE = 17  # victim accepts the Wild Draw Four
EV_VOTE = 18  # seat points at seat a (Point Taken, A-4)
EV_LINK = 19  # seat links seats a and b (Wild Drawn Together, P-6)
EV_LINK_END = 20  # the link of seats a and b ends (Point Taken, A-4)
EV_PILE_FLIP = 21  # -, card turned up for a mini pile, a = 1 if it went to the mini pile (0: discard)
EV_PILE_ADD = 22  # seat adds card to the mini pile
EV_PILE_TAKE = 23  # seat takes the mini pile: a cards, b = its colour
EV_PILE_AS_WILD = 24  # no non-wild could be turned up: the Wild Pile Up acts as a Wild
EV_WRONG_JUMP = 25  # seat jumps in with a card that is not identical (P-3); its draw follows
EV_SWAP = 26  # seat (who played a 7) swaps hands with seat a (H-2)
EV_PASS = 27  # seat played a 0: every hand goes to the next player in direction a (H-2)
EV_STACK = 28  # seat stacks card on the pending penalty, which is now a cards (H-1)
N_EV_COLS = 6

DR_TURN = 0  # drew for the turn (T-3/T-4)
DR_DRAW_TWO = 1
DR_WD4 = 2
DR_CHALLENGE = 3
DR_UNO = 4
DR_POINT_TAKEN = 5
DR_ECHO = 6
DR_START = 7  # Draw Two as first card (S-3)
DR_LAST = 8  # last card Draw Two / Wild Draw Four (E-2)
DR_WRONG_JUMP = 9
REASON_NAMES = ("turn", "draw two", "wild draw four", "challenge", "UNO penalty", "point taken",
                "link echo", "start card", "last card", "wrong jump-in")

# ---- the configuration vector cfg[C_*] (int32): three parts, concatenated by the engine --------
# 1. the rules: derived from the RuleSet and the player count alone (game.encoding.encode_rules)
C_PLAYERS = 0
C_HAND = 1
C_FIRST_CARD = 2  # 0 apply_actions, 1 reflip_actions, 2 ignore_effect
C_FIRST_WILD = 3  # 0 first_player_chooses, 1 reflip
C_DEALER = 4  # -1 random, else seat
C_SYMBOL_MATCH = 5
C_DRAW_UNTIL = 6
C_REV2_SKIPS = 7
C_PT_CAP = 8
C_PT_LINK_FIRST = 9
C_WD4_WHEN = 10  # 0 no_color_match_incl_wilds, 1 no_color_match, 2 no_color_or_number_match, 3 always,
#                  4 no_color_match_incl_plain_wilds
C_WD4_CHALLENGE = 11
C_PILEUP_WILDS = 12  # 0 discard, 1 mini_pile
C_PILEUP_REFUSE = 13
C_LINK_PILEUP = 14
C_RELINK_DIFFER = 15
C_LINK_VOLUNTARY = 16
C_SPEED = 17
C_SPEED_ERR_PPM = 18  # speed_play_error_rate in parts per million
C_UNO_PENALTY = 19
C_LAST_DRAWS = 20
C_SCORING = 21  # 0 winner_takes, 1 penalty
C_TARGET = 22
C_ELIMINATION = 23
C_MAX_TURNS = 24
C_STACKING = 25  # 0 none, 1 same_face, 2 mixed, 3 plus4_on_plus2 (H-1)
C_SEVEN_ZERO = 26  # H-2
C_JUMP_ACTIONS = 27  # 1: jump_in_cards=numbers_and_actions (H-3)
C_NO_ACTION_OUT = 28  # 1: go_out_on_action=false (H-4)
N_RULES = 29
# 2. the run's flags (game.encoding.encode_flags)
C_MATCH = 29
C_TRACE = 30
C_CHECK = 31  # verify card conservation after every step
N_FLAGS = 3
# 3. the line-up: which strategy decides how (engine.driver.Engine.set_strategies, from the strategies' declarations);
# the compiled rule programs (engine.rule_programs) follow cfg[N_CFG:], each policy id pointing at its program
C_N_STRATS = 32
C_AUTO_DRAWN = 33  # bit k: strategy k always plays a legal drawn card and never forgets UNO
C_NO_CHALLENGE = 34  # bit k: strategy k never challenges a Wild Draw Four (W-2)
C_POLICY0 = 35  # C_POLICY0 + k: compiled policy of strategy k (0: ask Python), k < 16
C_ALL_COMPILED = C_POLICY0 + 16  # 1: every strategy of the line-up has a compiled policy
C_FORCED0 = C_ALL_COMPILED + 1  # C_FORCED0 + k: 0 ask; u + 1: strategy k draws on a turn with nothing to play, after u uniforms
N_CFG = C_FORCED0 + 16

# ---- the house rules' copy of the kernels -------------------------------------
# ``advance`` and every kernel with house-rule code take a ``house`` argument, whose *type* selects the
# compiled copy, not its value: numba compiles a function once per argument type, and in the copy for
# None it prunes every branch on ``house is not None``, so the official games neither compile nor run
# the house rules' code (a shorter cold compile). game.encoding.copy_flags picks one of the two.
HOUSE_OFF = None  # every house rule off: the official games' copy
HOUSE_ON = 1  # a house rule on (H-1..H-4): the copy with their code (any int64 would select it)
# In the same way ``programs`` selects whether the copy carries the compiled rule interpreter
# (kernels.rule_policy): a line-up with no rule strategy runs on the copy for None, which neither
# compiles nor runs the interpreter (a shorter cold compile, in less memory).
# game.encoding.copy_flags picks one of the two; the house rules' copy always carries it.
PROGRAMS_OFF = None  # no strategy of the line-up is a rule program
PROGRAMS_ON = 1  # a rule strategy plays (or a house rule is on): the copy with the rule interpreter

ROW_AUTO = -2  # F_ROW of a decision the strategy declared in advance: PH_DRAWN play the card, PH_TURN draw
ROW_HELD = -3
"""``F_ROW <= ROW_HELD``: the slot's row ``ROW_HELD - F_ROW`` (a single-seat phase) is answered only in part, its
follow-ups still asked outside the engine (an environment's learner answers the colour or the UNO call as
steps of its own); ``advance`` keeps the row, moved into the rows it writes, and plays the slot on once
``F_ROW`` names the row again."""

# ---- decision columns of the row decision buffer dec[R, N_DEC] (int32) --------
D_CARD = 0  # card to play / add, -1 = draw / take
D_COLOUR = 1
D_FLAG = 2  # play drawn / challenge / catch / vote target / UNO forgotten with a jump-in / swap target (H-2)
D_FORGET = 3
D_A = 4  # link pair
D_B = 5
N_DEC = 6
