"""The application object, its consoles and the handling of bad input shared by every command."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from rich.console import Console, ConsoleDimensions
from rich.text import Text

from ..runs.progress import PrintableConsole

__all__ = ["EXIT_USAGE", "PIPE_WIDTH", "app", "err_console", "main", "os_error_message", "out_console", "user_errors"]

EXIT_USAGE = 2
"""Exit code of a refused command (bad option value, unplayable table, ...)."""

app = typer.Typer(
    name="unosim",
    help="Fast Monte Carlo simulation of UNO and UNO Party!.",
    rich_markup_mode="rich",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
def _show_flags_as_flags() -> None:
    """Typer's help gives a flag (``--quiet``, ``--help``) a type column (``<bool>``), as if it took a
    value; leave that column empty for flags."""
    from typer.core import TyperOption

    shown = getattr(TyperOption, "display_type_rich", None)
    if shown is None or getattr(shown, "flags_as_flags", False):
        return

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        return None if getattr(self, "is_flag", False) else shown(self, ctx)

    display_type_rich.flags_as_flags = True  # type: ignore[attr-defined]
    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


_show_flags_as_flags()
err_console = PrintableConsole(stderr=True)
PIPE_WIDTH = 400
"""Width of standard output written to a file or a pipe: tables never cut a name there."""


class _StdoutConsole(PrintableConsole):
    """Standard output: the terminal's width on a terminal (long names wrap in their column);
    at least :data:`PIPE_WIDTH` columns when written to a log, a file or a pipe."""

    @property
    def size(self) -> ConsoleDimensions:
        dims = Console.size.fget(self)  # type: ignore[attr-defined]
        if not self.is_terminal:  # COLUMNS (a CI's 80) does not narrow a log
            return ConsoleDimensions(max(PIPE_WIDTH, dims.width), dims.height)
        return dims

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)  # type: ignore[attr-defined]


out_console = _StdoutConsole()


def _print_version(value: bool) -> None:
    if value:
        from ..version import __version__

        out_console.print(f"unosim {__version__}", highlight=False)
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", callback=_print_version, is_eager=True)
    ] = False,
) -> None:
    """Fast Monte Carlo simulation of UNO and UNO Party!."""


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn a ``ValueError`` (bad input) or an ``OSError`` (a full disk, a permission, a path that
    is a file; see :func:`os_error_message`) into ``error: <message>`` on stderr and exit code 2,
    and a :class:`~unosim.engine.driver.StrategyError` (a strategy broke the rules mid-run) into
    the same message and exit code 1.

    A Ctrl-C (also one numba reports as a ``SystemError`` caused by the ``KeyboardInterrupt``, when it
    arrives inside a compiled function) is one line on stderr and exit code 130.

    Usable as ``with user_errors(): ...`` or as a decorator ``@user_errors()``.
    """
    try:
        yield
    except KeyboardInterrupt:
        _interrupted()
    except SystemError as exc:
        if not _from_ctrl_c(exc) or os.environ.get("UNOSIM_DEBUG"):
            raise
        _interrupted()
    except ValueError as exc:
        if os.environ.get("UNOSIM_DEBUG"):
            raise
        err_console.print(Text("error: ", style="bold red") + Text(str(exc)), soft_wrap=True)
        raise typer.Exit(EXIT_USAGE) from None
    except OSError as exc:
        if os.environ.get("UNOSIM_DEBUG"):
            raise
        err_console.print(Text("error: ", style="bold red") + Text(os_error_message(exc)), soft_wrap=True)
        raise typer.Exit(EXIT_USAGE) from None
    except RuntimeError as exc:
        # only a command that imported the engine can raise its StrategyError: commands that do
        # not play (report) skip importing numba (about 1-2 s)
        engine = sys.modules.get("unosim.engine")
        if engine is None or not isinstance(exc, engine.StrategyError) or os.environ.get("UNOSIM_DEBUG"):
            raise
        err_console.print(Text("error: ", style="bold red") + Text(str(exc)), soft_wrap=True)
        raise typer.Exit(1) from None


EXIT_INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT, as a shell reports a process it interrupted)."""


def _from_ctrl_c(exc: BaseException) -> bool:
    """Whether ``exc`` was raised because of a ``KeyboardInterrupt`` (its cause or context, at any depth)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def _interrupted() -> None:
    err_console.print(Text("stopped by Ctrl-C", style="bold red") + Text(
        "; the files written so far are kept: a run, a tournament or a tuning run continues from them when the same "
        "command is run again with the same --out."), soft_wrap=True)
    raise typer.Exit(EXIT_INTERRUPTED) from None


_OS_ADVICE = {
    errno.ENOSPC: "free some space (or give --out on another disk), then run the same command again: the chunks "
                  "already written are kept and the run resumes from them",
    errno.EDQUOT: "free some of your quota, then run the same command again: the run resumes from what is written",
    errno.EACCES: "choose a path you may write (--out) or change its permissions",
    errno.EPERM: "choose a path you may write (--out) or change its permissions",
    errno.EROFS: "the file system is read-only: give --out on a writable disk",
    errno.ENOTDIR: "a part of the path is a file, not a directory: give a directory path",
    errno.EISDIR: "the path is a directory where a file was expected: give a file path",
    errno.EEXIST: "a file of that name is in the way: remove it or give another path",
    errno.ENOENT: "check the path: a file or directory named in it does not exist",
}


def os_error_message(exc: OSError) -> str:
    """One paragraph for an operating-system error: what failed, on which path, and what to change.

    Parameters
    ----------
    exc : OSError
        The error (its ``errno``, ``strerror`` and ``filename`` are used when set).

    Returns
    -------
    str
        The message, without the ``error:`` prefix.
    """
    code = exc.errno
    what = exc.strerror or str(exc) or type(exc).__name__
    name = errno.errorcode.get(code, "") if code is not None else ""
    where = f" on {exc.filename}" if exc.filename else ""
    if exc.filename2:
        where += f" and {exc.filename2}"
    advice = _OS_ADVICE.get(code if code is not None else -1, "fix the cause above and run the same command again")
    return f"{what}{f' ({name})' if name else ''}{where}: {advice}."


def main() -> None:
    """Entry point of the ``unosim`` console script."""
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # like ``python -m``: --strategies mymodule:Class finds ./mymodule.py
    app()
