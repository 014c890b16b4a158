"""The strategy API: one method per decision, each over a batch of games.

A strategy subclasses [`Strategy`][unosim.Strategy], declares its parameters as
keyword-only constructor arguments that it stores unchanged (scikit-learn
style, so [`Strategy.get_params`][unosim.Strategy.get_params] describes it), and overrides only the
decisions it cares about: every method has a sensible default here.

Every method receives an [`Observation`][unosim.strategy.Observation] of ``n``
rows and returns one value per row as an array of shape ``(n,)`` (``(n, 2)``
for `choose_link`). Randomness must come from ``obs.random()``, which
draws from per-game streams, so results never depend on the batch size.
Returned values are checked; an illegal or ill-shaped answer stops the run with
an error naming the strategy, the decision and the game.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from ..game.cards import CARD_POINTS, DRAW_TWO, FACES_PER_COLOUR, N_TYPES, WILD_DRAW_FOUR
from . import parameters
from .observation import Observation
from .primitives import CARD_SCORE_POINTS, argmax_ties, colour_counts, sample_best, sample_counts

DRAW = -1
"""Decision value of [`Strategy.play`][unosim.Strategy.play]: draw a card instead of playing."""
TAKE = -1
"""Decision value of [`Strategy.add_to_pile`][unosim.Strategy.add_to_pile] (take the mini pile) and
[`Strategy.stack`][unosim.Strategy.stack] (take the pending penalty, H-1)."""


class _ChecksParameters(type):
    """Metaclass: calls [`Strategy.check_params`][unosim.Strategy.check_params] once the whole constructor has run,
    so a subclass may store its parameters before or after calling ``super().__init__``."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        strategy = super().__call__(*args, **kwargs)
        strategy.check_params()
        return strategy


class Strategy(metaclass=_ChecksParameters):
    """Base class of all strategies; the defaults play sensibly.

    Parameters
    ----------
    forget_uno_rate : float
        Probability of forgetting to call UNO when going down to one card (U-1).
    catch_uno_rate : float
        Probability of catching another player's forgotten UNO call (U-1).

    Notes
    -----
    Declare what each constructor parameter allows in the class attribute
    ``parameter_constraints`` (see `unosim.strategy.parameters`); the declarations
    of the parent classes are inherited. [`check_params`][unosim.Strategy.check_params] checks them all
    when the object is built and refuses a bad value with a message naming
    the strategy, the parameter and what is allowed.
    """

    name = "base"

    parameter_constraints: ClassVar[dict[str, Any]] = {
        "forget_uno_rate": (float, 0.0, 1.0),
        "catch_uno_rate": (float, 0.0, 1.0),
    }
    """Allowed values of each constructor parameter (``(float, low, high)``, ``(int, low, high)``, ...)."""

    compiled: ClassVar[str | None] = None
    """The in-kernel transcription that plays exactly like this class, by name (``"random"``,
    ``"greedy"``, ``"rules"``: the compiled rule interpreter), or ``None``. The engine trusts it only
    on the class that declares it — a subclass, even one that overrides nothing, is asked through
    Python unless it declares a transcription itself — and only while [`compiled_covers`][unosim.Strategy.compiled_covers] says
    the instance's parameters are the ones transcribed."""

    restated_by: ClassVar[str | None] = None
    """With ``compiled = "rules"``: the shipped rule file (``strategies/rules/NAME.toml``) that
    decides every decision as this class does, drawing the same uniforms."""

    def compiled_covers(self) -> bool:
        """Whether the transcription named by `compiled` plays these parameters exactly.

        The default: every parameter at its default, ``catch_uno_rate`` aside (UNO catches are
        always asked through Python).
        """
        mine, default = self.get_params(), type(self)().get_params()
        mine.pop("catch_uno_rate", None)
        default.pop("catch_uno_rate", None)
        return bool(mine == default)

    def __init__(self, *, forget_uno_rate: float = 0.0, catch_uno_rate: float = 1.0) -> None:
        self.forget_uno_rate = forget_uno_rate
        self.catch_uno_rate = catch_uno_rate

    def check_params(self) -> None:
        """Check every declared parameter constraint (called once the constructor has run).

        Raises
        ------
        ValueError
            For the first parameter whose value is not allowed, e.g.
            ``strategy 'wild-saver': k=-1 is not allowed; use a whole number from 0 to 108.``
        TypeError
            When the constructor did not store a declared parameter as an attribute of that name.
        """
        constraints: dict[str, Any] = {}
        for cls in reversed(type(self).__mro__):
            constraints.update(getattr(cls, "parameter_constraints", None) or {})
        names = set(self.param_names())
        declared = {k: v for k, v in constraints.items() if k in names}
        missing = [k for k in declared if not hasattr(self, k)]
        if missing:
            raise TypeError(
                f"strategy {self.label!r}: the constructor stores no attribute {missing[0]!r}; store every keyword "
                f"parameter unchanged as self.{missing[0]} (get_params() reads it back)."
            )
        parameters.check(self.label, {k: getattr(self, k) for k in declared}, declared)

    @property
    def label(self) -> str:
        """The strategy's registered name, or its class name when it sets no ``name``."""
        return self.name if self.name != Strategy.name else type(self).__name__

    # ------------------------------------------------------------ description
    @classmethod
    def param_names(cls) -> list[str]:
        """Names of the keyword parameters of the constructor."""
        return parameters.signature_params(cls)

    def get_params(self) -> dict[str, Any]:
        """The parameters this strategy was built with."""
        return {k: getattr(self, k) for k in self.param_names()}

    def describe(self) -> dict[str, Any]:
        """Name, class entry point and parameters (written into run metadata)."""
        cls = type(self)
        return {"name": self.name, "class": f"{cls.__module__}:{cls.__qualname__}", "params": self.get_params()}

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({params})"

    @property
    def never_forgets_uno(self) -> bool:
        """Declared shortcut: [`forget_uno`][unosim.Strategy.forget_uno] always answers no (the engine then skips asking).

        Trusted only while ``forget_uno`` is the method of the class declaring this
        property (see `unosim.engine.fast_paths`): a subclass overriding
        ``forget_uno`` is always asked.
        """
        return self.forget_uno_rate == 0.0

    @property
    def always_catches_uno(self) -> bool:
        """Declared shortcut: [`catch_uno`][unosim.Strategy.catch_uno] always answers yes, drawing nothing (the
        engine and the learning environments' compiled step then answer it without asking).

        Trusted only while ``catch_uno`` is the method of the class declaring this
        property (see `unosim.engine.fast_paths`): a subclass overriding
        ``catch_uno`` is always asked.
        """
        return self.catch_uno_rate == 1.0

    @property
    def never_challenges(self) -> bool:
        """Declared shortcut: [`challenge`][unosim.Strategy.challenge] always answers no (the engine then skips asking).

        Trusted only while ``challenge`` is the method of the class declaring
        this property (see `unosim.engine.fast_paths`): a subclass overriding
        ``challenge`` is always asked.
        """
        return True

    @property
    def plays_legal_drawn_card(self) -> bool:
        """Declared shortcut: [`play_drawn`][unosim.Strategy.play_drawn] plays a legal drawn card and never bluffs.

        The engine then plays a legal drawn card (other than a wild needing a
        colour) without asking: the same decision, one round trip less. Trusted
        only while ``play_drawn`` is the method of the class declaring this
        property (see `unosim.engine.fast_paths`).
        """
        return True

    @property
    def forced_draw_uniforms(self) -> int | None:
        """Declared shortcut: on a turn with nothing to play, [`play`][unosim.Strategy.play] draws this many uniforms per
        row from ``obs.random()`` and answers `DRAW` (``None``: no declaration, always asked).

        "Nothing to play": no legal card held and no Wild Draw Four to play as a bluff
        (``obs.n_legal == 0`` and not ``obs.bluffable``), so `DRAW` is the only legal answer.
        The engine then draws for the strategy without asking, advancing the row's random stream
        by the same number of uniforms: the same games, one round trip less. Trusted only while
        ``play`` is the method of the class declaring this property (see `unosim.engine.fast_paths`).
        The default ``play`` draws one uniform (`sample_counts`).
        """
        return 1

    # ------------------------------------------------------------ decisions
    def play(self, obs: Observation) -> NDArray[np.integer]:
        """Card type to play, or `DRAW` (T-1..T-3). Default: a random playable physical card."""
        return sample_counts(obs.hand, obs.legal, obs.random(), obs.n_legal)

    def play_drawn(self, obs: Observation) -> NDArray[np.bool_]:
        """Play the card just drawn (``obs.drawn``)? Default: yes when legal (never bluff)."""
        return obs.legal[np.arange(len(obs)), obs.drawn]

    def choose_colour(self, obs: Observation, cards: NDArray[np.integer]) -> NDArray[np.integer]:
        """Active colour after playing wild ``cards`` (-1 rows: a wild start card).

        Default: the colour held most among the cards left, ties at random.
        """
        return argmax_ties(colour_counts(obs.hand), obs.random())

    def challenge(self, obs: Observation) -> NDArray[np.bool_]:
        """Challenge the Wild Draw Four played by ``obs.target`` (W-2)? Default: never."""
        return np.zeros(len(obs), bool)

    def forget_uno(self, obs: Observation) -> NDArray[np.bool_]:
        """Forget to call UNO with this play (U-1)? Default: at ``forget_uno_rate``."""
        if self.forget_uno_rate == 0.0:
            return np.zeros(len(obs), bool)
        return obs.random() < self.forget_uno_rate

    def catch_uno(self, obs: Observation) -> NDArray[np.bool_]:
        """Catch ``obs.target``, who forgot to call UNO (U-1)? Default: at ``catch_uno_rate``."""
        if self.catch_uno_rate == 1.0:
            return np.ones(len(obs), bool)
        return obs.random() < self.catch_uno_rate

    # ------------------------------------------------------------ party decisions
    def point_at(self, obs: Observation) -> NDArray[np.integer]:
        """Seat to point at for a Point Taken (A-4): another seat still in the match (``obs.alive``).
        Default: the other player with fewest cards."""
        sizes = -obs.hand_sizes.astype(np.float64)
        others = obs.alive.copy()
        others[np.arange(len(obs)), obs.seat] = False
        return argmax_ties(sizes, obs.random(), others)

    def choose_link(self, obs: Observation) -> NDArray[np.integer]:
        """Two seats to link with a Wild Drawn Together (P-6), shape ``(n, 2)``.

        Both must be in ``obs.link_choices``. Default: the two other players
        with fewest cards (the player too when fewer than two others may be
        linked, e.g. with two players).
        """
        n = len(obs)
        sizes = -obs.hand_sizes.astype(np.float64)
        allowed = obs.link_choices
        others = allowed.copy()
        others[np.arange(n), obs.seat] = False
        few = others.sum(axis=1) < 2
        others[few] = allowed[few]
        first = argmax_ties(sizes, obs.random(), others)
        others[np.arange(n), first] = False
        second = argmax_ties(sizes, obs.random(), others)
        return np.stack([first, second], axis=1)

    def add_to_pile(self, obs: Observation) -> NDArray[np.integer]:
        """Card to add to the mini pile, or `TAKE` (P-5; allowed where ``obs.may_take``). Default: highest points."""
        return sample_best(obs.hand, obs.legal, CARD_SCORE_POINTS, obs.random())

    def jump_in(self, obs: Observation) -> NDArray[np.floating]:
        """Reaction weight for jumping in with the identical card (P-1/P-2); 0 = don't.

        Asked, after a number card is played, of every other seat holding the
        identical card (``obs.top``; ``obs.target`` played it, ``obs.turn``
        would play next). Among the seats answering a positive weight, one wins
        the race with probability proportional to its weight and plays the card
        at once; play goes on after them. Default: always jump in, weight 1.
        """
        return np.ones(len(obs), np.float64)

    # ------------------------------------------------------------ house-rule decisions
    def stack(self, obs: Observation, options: NDArray[np.bool_]) -> NDArray[np.integer] | None:
        """Stack a card on the pending penalty, or take it (H-1, rule option ``stacking``).

        Asked of a player facing a Draw Two or Wild Draw Four chain (``obs.penalty`` cards, the card
        on top played by ``obs.target``) who holds a card that may be stacked on it.

        Parameters
        ----------
        obs : Observation
            The ``stack`` phase rows.
        options : ndarray of bool, shape (n, N_TYPES)
            The card types each row may stack (the same as ``obs.legal``).

        Returns
        -------
        ndarray of int, shape (n,), or None
            The card type to stack (one of ``options``), or `TAKE` (-1) to draw the whole
            total and lose the turn; ``None`` takes in every row. A Wild Draw Four's colour is then
            asked of [`choose_colour`][unosim.Strategy.choose_colour]. Default: always stack, with a Draw Two when one may be
            stacked (the Wild Draw Four is kept), at random by copies.
        """
        return sample_counts(obs.hand, stack_preferred(options), obs.random())

    def swap_with(self, obs: Observation) -> NDArray[np.integer]:
        """The seat to swap hands with after playing a 7 (H-2, rule option ``seven_zero``).

        Parameters
        ----------
        obs : Observation
            The ``swap`` phase rows (``obs.target``: the seat whose turn comes next).

        Returns
        -------
        ndarray of int, shape (n,)
            Another seat still in the match (``obs.alive``). Default: the other player with fewest
            cards, ties to the nearest in the direction of play (no random number drawn).
        """
        return fewest_next(obs.hand_sizes, obs.seat, obs.direction, obs.alive)


def stack_preferred(options: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The stacking options a strategy that keeps its Wild Draw Fours picks from (H-1): the Draw Twos
    of each row that may stack one, else its options (the Wild Draw Four)."""
    draw_twos = np.logical_and(options, _DRAW_TWOS[None, :])
    has = np.asarray(draw_twos.any(axis=1))
    return np.where(has[:, None], draw_twos, options)


def fewest_next(hand_sizes: NDArray[np.integer], seat: NDArray[np.integer], direction: NDArray[np.integer],
                alive: NDArray[np.bool_]) -> NDArray[np.int64]:
    """Per row, the other seat still in the match with fewest cards, ties to the nearest from ``seat``
    in ``direction`` (the default target of [`Strategy.swap_with`][unosim.Strategy.swap_with], H-2)."""
    n, players = hand_sizes.shape
    rows = np.arange(n)
    steps = np.arange(1, players)
    order = (seat[:, None] + direction[:, None] * steps[None, :]) % players  # [n, players - 1] the others, nearest first
    sizes = np.where(alive[rows[:, None], order], hand_sizes[rows[:, None], order].astype(np.int64), np.iinfo(np.int64).max)
    return order[rows, sizes.argmin(axis=1)].astype(np.int64)


_DRAW_TWOS = np.zeros(N_TYPES, bool)
_DRAW_TWOS[[c * FACES_PER_COLOUR + DRAW_TWO for c in range(4)]] = True
_DRAW_TWOS.flags.writeable = False


__all__ = ["CARD_POINTS", "DRAW", "TAKE", "WILD_DRAW_FOUR", "Strategy", "fewest_next", "stack_preferred"]
