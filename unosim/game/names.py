"""Names people give (rule sets, decks, strategies, labels, option values) made safe where they go.

A name comes from a user or from a shared file, so it may hold anything: markup, path
separators, terminal escape codes. Every writer passes it through one of these on its way out:

- `file_stem`: a file name inside its folder (no separator, no ``..``, no control character);
- `printable`: text for a terminal (control characters shown as escapes, never sent);
- `text_line`: one line of a text file (Markdown, CSV): every control character escaped,
  line breaks and tabs too (`text_cells`: every text cell of a table); `code_span`: that
  line as a Markdown code span no name can close;
- `script_json`: JSON to embed in a page's ``<script>`` (no ``<``, ``>``, ``&`` to end it).

HTML text and attributes are escaped by the pages' templates (jinja2 with autoescape) and by
`html.escape` in pages built by hand.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

__all__ = ["code_span", "file_stem", "printable", "script_json", "text_cells", "text_line"]

_UNSAFE_FILE = re.compile(r"[^\w.+=,@-]+")
_MAX_STEM = 120


def file_stem(name: str) -> str:
    """``name`` as a file name (without extension) that stays inside its folder.

    Letters (of any script), digits and ``. _ + = , @ -`` are kept; every other run of characters (path
    separators, spaces, control characters, quotes, markup) becomes one ``_``. Leading dots
    are dropped (no ``..``, no hidden file) and the result is at most 120 characters.

    Parameters
    ----------
    name : str
        Any name.

    Returns
    -------
    str
        A non-empty file stem; ``"_"`` when nothing of ``name`` is left.

    Examples
    --------
    >>> file_stem("a/../../../OUTSIDE")
    'a_.._.._.._OUTSIDE'
    >>> file_stem("..")
    '_'
    """
    stem = _UNSAFE_FILE.sub("_", unicodedata.normalize("NFKC", str(name))).lstrip(".")
    return stem[:_MAX_STEM] or "_"


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every control character shown as an escape (``\\x1b``) instead of sent.

    C0 and C1 control characters (ESC, BEL, carriage return, ...), DEL, the line and paragraph
    separators and the bidirectional overrides are escaped; line feeds and tabs are kept.

    Examples
    --------
    >>> printable("evil\x1b[2J")
    'evil\\\\x1b[2J'
    """
    return _CONTROL.sub(_escape, str(text))


_LINE_BREAKS = re.compile("[\t\n]")


def text_line(text: str) -> str:
    """``text`` as one line of a text file: `printable`, and line feeds and tabs escaped too.

    Examples
    --------
    >>> text_line("a\nb\x1b")
    'a\\x0ab\\x1b'
    """
    return _LINE_BREAKS.sub(_escape, printable(text))


def text_cells(frame: Any) -> Any:
    """A copy of the pandas DataFrame ``frame`` whose text cells are `text_line` (for a CSV file)."""
    frame = frame.copy()
    for column in frame.columns:
        if frame[column].dtype.kind not in "biufcmM":  # text of any dtype (object, string)
            frame[column] = frame[column].map(lambda v: text_line(v) if isinstance(v, str) else v)
    return frame


_BACKTICKS = re.compile("`+")


def code_span(text: str) -> str:
    """``text`` (through `text_line`) as a Markdown code span that shows it whole: fenced by one
    backtick more than its longest run of backticks, padded with a space when it starts or ends with one
    (CommonMark), so no name can close the span early.

    Examples
    --------
    >>> code_span("greedy")
    '`greedy`'
    >>> code_span("a`b")
    '``a`b``'
    """
    line = text_line(text)
    fence = "`" * (1 + max((len(m) for m in _BACKTICKS.findall(line)), default=0))
    pad = " " if line.startswith("`") or line.endswith("`") else ""
    return f"{fence}{pad}{line}{pad}{fence}"


def script_json(value: Any) -> str:
    """``value`` as JSON that is safe inside an HTML ``<script>`` element.

    ``<``, ``>`` and ``&`` are written as ``\\u003c``, ``\\u003e`` and ``\\u0026`` (no ``</script>``
    or ``<!--`` can end or change the script), and U+2028 / U+2029 as escapes too; the value
    reads back unchanged with ``JSON.parse`` or as a JavaScript literal.
    """
    text = json.dumps(value, separators=(",", ":"))
    for char, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escaped)
    return text
