"""Hostile names for the page, file-name and terminal tests: markup that runs script when a page
puts it in unescaped, a path that leads out of its folder, terminal escape codes; and a strategy
whose spec carries such a name (``hostile_names:Labelled(text=...)``)."""

from __future__ import annotations

from unosim.strategy.base import Strategy

SCRIPT_NAMES = (
    '<img src=x onerror="window.pwned=1;document.title=1">',
    "</script><script>window.pwned=2;document.title=2</script>",
    "x' autofocus onfocus='window.pwned=3' y='",
    'x" autofocus onfocus="window.pwned=4" y="',
    "'><svg onload=window.pwned=5>",
    "<!--<script>",
)
"""Names that run script (setting ``window.pwned``) in a page that does not escape them."""

SCRIPT_NAME = "</title></textarea>'\"><img src=x onerror=window.pwned=6></script><script>window.pwned=7</script><!--"
"""One name that breaks out of a title, a text, an attribute or a script: for fields that take one value."""

LEAVING_NAME = "a/../../../OUTSIDE"
"""A name that, joined to a folder as a file name, leads out of it."""

ESCAPE_NAME = "evil\x1b]0;pwned\x07\x1b[2J\x1b[31mred"
"""A name with terminal escape codes: sets the window title, clears the screen, turns text red."""


class Labelled(Strategy):
    """The default strategy; its ``text`` parameter is any text, shown wherever the spec is."""

    def __init__(self, *, text: str = "") -> None:
        super().__init__()
        self.text = text
