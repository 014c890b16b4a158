"""A person at the table: one game against unosim strategies, in the terminal or in a page.

A face, beside `unosim.cli` and `unosim.api` (it may import every layer):
`unosim.play.terminal` reads keys in the terminal, `unosim.play.web` serves a
local page; both play through `play_and_write`, which writes
the game as an ordinary run whose replay is the game.
"""

from .terminal import PlayResult, play_and_write, play_game
from .web import serve_game

__all__ = ["PlayResult", "play_and_write", "play_game", "serve_game"]
