"""The application object, its consoles and the handling of bad input shared by every command."""

from __future__ import annotations

import errno
import inspect
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console, ConsoleDimensions
from rich.text import Text
from typer.core import TyperCommand, TyperGroup

from ..runs.progress import PrintableConsole

__all__ = [
    "EXIT_USAGE", "PIPE_WIDTH", "app", "command", "err_console", "help_text", "main", "os_error_message", "out_console", "user_errors",
]

EXIT_USAGE = 2
"""Exit code of a refused command (bad option value, unplayable table, ...)."""

_F = TypeVar("_F", bound=Callable[..., Any])


class _FlagsAsFlags:
    """Help that shows a flag (``--quiet``, ``--help``) as a flag: Typer gives it a type column
    (``<bool>``) as if it took a value; an empty metavar leaves that column empty."""

    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            if getattr(param, "is_flag", False) and param.metavar is None:
                param.metavar = ""
        return params


class _Command(_FlagsAsFlags, TyperCommand):
    """A command of `app`."""


class _Group(_FlagsAsFlags, TyperGroup):
    """The ``unosim`` group."""


def command(name: str | None = None) -> Callable[[_F], _F]:
    """Register a command on `app` (as ``app.command``, with flags shown as flags and its docstring
    as `help_text`)."""

    def register(func: _F) -> _F:
        return app.command(name, cls=_Command, help=help_text(func.__doc__))(func)

    return register


def help_text(doc: str | None) -> str:
    """A command's docstring as its help: each paragraph's lines joined for the terminal to wrap (rich
    markup keeps a docstring's line breaks, which would cut a sentence where the source line ends),
    except before a line that starts an example (``Example:``, in markup or not); a paragraph that
    starts with ``\\b`` keeps its lines."""

    def joined(paragraph: str) -> str:
        if paragraph.startswith("\b"):
            return paragraph
        text = ""
        for line in paragraph.splitlines():
            starts_example = line.removeprefix("[dim]").startswith("Example")
            text += ("\n" if starts_example else " ") + line.strip() if text else line.strip()
        return text

    return "\n\n".join(joined(p) for p in inspect.cleandoc(doc or "").split("\n\n"))


app = typer.Typer(
    cls=_Group,
    name="unosim",
    help="Fast Monte Carlo simulation of UNO and UNO Party!.",
    rich_markup_mode="rich",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
err_console = PrintableConsole(stderr=True)
PIPE_WIDTH = 400
"""Width of standard output written to a file or a pipe: tables never cut a name there."""


class _StdoutConsole(PrintableConsole):
    """Standard output: the terminal's width on a terminal (long names wrap in their column);
    at least `PIPE_WIDTH` columns when written to a log, a file or a pipe."""

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
    """Turn bad input into ``error: <message>`` on stderr and exit code 2: a
    [`UnosimInputError`][unosim.UnosimInputError] (a value the command cannot take) or an
    ``OSError`` (a full disk, a permission, a path that is a file; see `os_error_message`).
    A [`StrategyError`][unosim.engine.StrategyError] (a strategy broke the rules mid-run) gives
    the same message and exit code 1. Any other exception is a bug: it is reported as one, with
    its traceback, and exits with code 1.

    A Ctrl-C (also one numba reports as a ``SystemError`` caused by the ``KeyboardInterrupt``, when it
    arrives inside a compiled function) is one line on stderr and exit code 130.

    Usable as ``with user_errors(): ...`` or as a decorator ``@user_errors()``.
    """
    from ..game.errors import UnosimInputError, caused_by

    try:
        yield
    except KeyboardInterrupt:
        _interrupted()
    except SystemError as exc:
        if caused_by(exc, (KeyboardInterrupt,)) is None or os.environ.get("UNOSIM_DEBUG"):
            raise
        _interrupted()
    except UnosimInputError as exc:
        _refuse(str(exc), EXIT_USAGE)
    except OSError as exc:
        _refuse(os_error_message(exc), EXIT_USAGE)
    except (typer.Exit, typer.Abort):
        raise
    except Exception as exc:
        # only a command that imported the engine can raise its StrategyError: commands that do
        # not play (report) skip importing numba (about 1-2 s)
        engine = sys.modules.get("unosim.engine")
        if engine is not None and isinstance(exc, engine.StrategyError):
            _refuse(str(exc), 1)
        err_console.print(Text("bug: ", style="bold red") + Text(
            f"unosim stopped on {type(exc).__name__}, which no input should cause; please report it with the command "
            "and the traceback below."), soft_wrap=True)
        raise


def _refuse(message: str, code: int) -> NoReturn:
    """Print ``error: message`` and exit with ``code`` (with ``UNOSIM_DEBUG`` set: raise on, for the traceback)."""
    if os.environ.get("UNOSIM_DEBUG"):
        raise
    err_console.print(Text("error: ", style="bold red") + Text(message), soft_wrap=True)
    raise typer.Exit(code) from None


EXIT_INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT, as a shell reports a process it interrupted)."""


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
