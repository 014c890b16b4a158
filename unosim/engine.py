"""STUB — being replaced by the real engine driver (lead developer owns this file).

``play_range(config, first_game, n_games)`` returns one row per game, in game
order, as a ``pyarrow.Table`` with at least the column ``game`` (int64, the
global game index). Results depend only on (config, game index).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from .config import RunConfig


def play_range(config: RunConfig, first_game: int, n_games: int) -> pa.Table:
    """Play games ``first_game .. first_game + n_games - 1`` of the run ``config``."""
    games = np.arange(first_game, first_game + n_games, dtype=np.int64)
    rng = (games * 6364136223846793005 + config.seed) % 1000
    return pa.table({"game": games, "turns": rng.astype(np.int32), "winner": (rng % config.players).astype(np.int8)})
