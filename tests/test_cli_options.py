"""Every option of the command line means one thing: two commands that take an option of the
same name declare it alike (type, help, flags, metavar, repeatable, and, but for the options of
``COMMAND_DEFAULTS``, the default)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from unosim.cli import app
from unosim.cli.base import help_text
from unosim.cli.options import COMMAND_DEFAULTS


def _declarations(application: typer.Typer) -> dict[str, dict[str, tuple[Any, ...]]]:
    """For each option flag, each command's declaration of it (everything but the default) and its default."""
    group = typer.main.get_command(application)
    found: dict[str, dict[str, tuple[Any, ...]]] = {}
    for name in group.list_commands(None):  # type: ignore[attr-defined, arg-type]
        for param in group.commands[name].params:  # type: ignore[attr-defined]
            if param.param_type_name != "option":
                continue
            declared = (param.bare_type(), param.help, tuple(param.opts), tuple(param.secondary_opts), param.metavar,
                        param.multiple, param.is_flag, param.show_default)
            for flag in param.opts + param.secondary_opts:
                found.setdefault(flag, {})[name] = (declared, (param.default, param.required))
    return found


def differences(application: typer.Typer) -> list[str]:
    """Every option flag two commands declare differently, as ``--flag: cmd1 ≠ cmd2 (what)``."""
    found = []
    for flag, by_command in sorted(_declarations(application).items()):
        (first, (declared, default)), *others = by_command.items()
        for name, (other, other_default) in others:
            if other != declared:
                found.append(f"{flag}: {first} ≠ {name} (declaration)")
            elif other_default != default and flag not in COMMAND_DEFAULTS:
                found.append(f"{flag}: {first} ≠ {name} (default {default[0]!r} ≠ {other_default[0]!r})")
    return found


def test_every_option_is_declared_alike_in_every_command() -> None:
    assert not differences(app), "\n".join(differences(app))


def test_jobs_and_chunk_size_mean_one_thing() -> None:
    declarations = _declarations(app)
    assert {default for _, default in declarations["--jobs"].values()} == {(None, False)}  # every core, everywhere
    assert len(declarations["--jobs"]) >= 8 and {"try", "cardvalue-swap"} <= set(declarations["--jobs"])
    help_texts = {declared[1] for declared, _ in declarations["--chunk-size"].values()}
    assert help_texts == {"Games per chunk file. Default: 50,000 (less for small runs)."}


def test_a_differing_declaration_is_caught() -> None:
    # the check itself can fail: a command declaring --jobs with another default, and one with another help
    planted = typer.Typer()

    @planted.command()
    def one(jobs: Annotated[int | None, typer.Option("--jobs")] = None) -> None:
        """One."""

    @planted.command()
    def two(jobs: Annotated[int | None, typer.Option("--jobs")] = 1) -> None:
        """Two."""

    @planted.command()
    def three(jobs: Annotated[int | None, typer.Option("--jobs", help="Other.")] = None) -> None:
        """Three."""

    found = differences(planted)
    assert found == ["--jobs: one ≠ two (default None ≠ 1)", "--jobs: one ≠ three (declaration)"]


def test_a_commands_help_wraps_its_paragraphs_and_keeps_its_examples() -> None:
    doc = """Play the games.

    The first paragraph's second line
    goes on here. Example: not one, mid-line.
    Example: unosim simulate --games 10
    [dim]Example: unosim simulate --games 20[/]

    \bkept
    as written
    """
    assert help_text(doc).split("\n\n") == [
        "Play the games.",
        "The first paragraph's second line goes on here. Example: not one, mid-line.\n"
        "Example: unosim simulate --games 10\n[dim]Example: unosim simulate --games 20[/]",
        "\bkept\nas written",
    ]
