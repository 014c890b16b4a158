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
``piles``        ``[B, 3, K]`` i16      per-type counts of the draw pile (``DRAW``),
                                        the discard pile below its top card
                                        (``DISC``) and the mini pile (``MINI``)
``seat_strat``   ``[B, P]`` i32         strategy index playing each seat
``seat_ctr``     ``[B, P]`` i32         counter of each seat's strategy random stream
``seat_dec``     ``[B, P]`` i32         multi-actor decision (vote target, catch flag)
``seat_w``       ``[B, P]`` f64         jump-in reaction weight (0: no jump-in)
``opening``      ``[B, P, H]`` i8       opening hand of each seat (card types)
``scores``       ``[B, P]`` i32         match scores (multi-round matches)
===============  =====================  ==============================================

``K = N_TYPES`` card types (``unosim.cards``), ``P`` players, ``H`` hand size.
The top card of the discard pile is ``slot[:, F_TOP]``, not part of ``DISC``.

Phases (``slot[:, F_PHASE]``): decision phases ask a strategy; the others are
passed through inside one ``advance`` call.
"""

# ---- decision phases (a strategy acts) -----------------------------------
PH_TURN = 0  # the player whose turn it is plays a card or draws (T-1..T-4)
PH_DRAWN = 1  # play the card just drawn, or keep it (T-3/T-4)
PH_COLOUR = 2  # choose the active colour for a wild start card (S-2/S-3)
PH_CHALLENGE = 3  # the victim of a Wild Draw Four challenges it or not (W-2)
PH_CATCH = 4  # every other player may catch a forgotten UNO call (U-1)
PH_PILEUP = 5  # the holder adds a card to the mini pile or takes it (P-5)
PH_VOTE = 6  # everyone points at another player for a Point Taken
PH_JUMPIN = 7  # players holding an identical card may jump in (P-1/P-2)
N_DECISION_PHASES = 8
# ---- internal phases -----------------------------------------------------
PH_NEWGAME = 8  # deal a new game into the slot
PH_IDLE = 9  # no game left for this slot
PHASE_NAMES = ("turn", "drawn", "colour", "challenge", "catch", "pileup", "vote", "jumpin", "newgame", "idle")
MULTI_ACTOR = (PH_CATCH, PH_VOTE, PH_JUMPIN)

# ---- pile rows -------------------------------------------------------------
DRAW, DISC, MINI = 0, 1, 2

# ---- slot fields -----------------------------------------------------------
F_PHASE = 0
F_HAS_DEC = 1  # 1 when the slot's decision has been scattered into F_DEC_*
F_ACTOR = 2  # acting seat of a single-actor phase
F_TURN = 3  # seat whose turn it is
F_DIR = 4  # +1 clockwise (increasing seat), -1 counter-clockwise
F_TOP = 5  # card type on top of the discard pile
F_COLOUR = 6  # active colour 0..3
F_DEALER = 7
F_TURNS = 8  # T-7 turns so far
F_PLAYED = 9  # cards played onto the discard pile by players
F_DRAWN = 10  # cards drawn into hands (any reason)
F_DRAW_N = 11  # cards in the draw pile
F_DISC_N = 12  # cards in the discard pile below the top card
F_MINI_N = 13  # cards in the mini pile
F_RNG = 14  # counter of the game's engine random stream
F_PENDING = 15  # the drawn card awaiting PH_DRAWN / the card whose effect awaits
F_BLUFF = 16  # 1 when the last Wild Draw Four was played illegally
F_SEAT = 17  # the seat that played the pending card
F_LINK_A = 18  # linked seats (-1: no link) (P-6/P-7)
F_LINK_B = 19
F_MINI_COLOUR = 20
F_FORGOT = 21  # seat that forgot to call UNO, -1 if none
F_LAST_PLAYER = 22  # seat whose play made the top card
F_WINNER = 23  # -1 until someone wins
F_TRUNCATED = 24
F_CHALLENGES = 25
F_CHALLENGES_WON = 26
F_UNO_PENALTIES = 27
F_JUMP_INS = 28
F_WRONG_JUMP_INS = 29
F_PILEUPS = 30
F_PILEUP_CARDS = 31
F_POINT_TAKEN_DRAWS = 32
F_LINK_ECHO_DRAWS = 33
F_DEC_CARD = 34  # scattered single-actor decision: card (-1 draw/take)
F_DEC_COLOUR = 35
F_DEC_FLAG = 36  # play drawn / challenge
F_DEC_FORGET = 37  # 1: forgot to call UNO with this play
F_DEC_A = 38  # link pair
F_DEC_B = 39
F_ROUND = 40  # round number within a match (0 for single rounds)
F_ALIVE = 41  # bit mask of seats still in the match (elimination)
F_KIND0 = 42  # F_KIND0 + kind: cards of each kind played
N_FIELDS = F_KIND0 + 9

# ---- observation row info columns -----------------------------------------
I_TOP = 0
I_COLOUR = 1
I_DIR = 2
I_TURN = 3
I_DRAWN = 4  # the card just drawn (PH_DRAWN), else -1
I_ARG = 5  # phase argument: forgetful seat (PH_CATCH), played card (PH_CHALLENGE), mini pile colour
I_BLUFFABLE = 6  # 1 if a Wild Draw Four may be played now as a bluff
I_PHASE = 7
N_INFO = 8

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
R_KIND0 = 16
N_REC = R_KIND0 + 9

# ---- trace events: rows (game, event, seat, card, a, b) -------------------------
EV_DEAL = 0  # seat, -, -, -  (the opening hand is in the record)
EV_START = 1  # -, card, colour, first seat
EV_TURN = 2  # seat starts a turn
EV_PLAY = 3  # seat, card, colour, 1 if out of turn
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

# ---- rule parameters: cfg[C_*] (int32) ----------------------------------------
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
C_WD4_WHEN = 10  # 0 no_color_match_incl_wilds, 1 no_color_match, 2 no_color_or_number_match, 3 always
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
C_DECK_SIZE = 25
C_MATCH = 26
C_TRACE = 27
C_CHECK = 28  # verify card conservation after every step
C_N_STRATS = 29
N_CFG = 30
