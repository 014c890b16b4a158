"""One place per rule option: the order of a choice's values in its ``RuleSet``
``Literal`` is the only place its codes come from. The encoder and the kernels' named
constants must follow it; these tests fail when they drift.

How to add a value to a choice (say ``wd4_legal_when``): add it to the ``Literal`` in
``unosim/game/rules.py`` and, in the kernel that plays it, define
``WD4_LEGAL_WHEN_<VALUE> = choice_code("wd4_legal_when", "<value>")`` and use it. Nothing
else changes: the encoder, the validation, ``RuleSet.describe`` and the docs read the
``Literal``. :func:`test_every_choice_value_has_a_kernel_constant` fails until the kernel
names the value.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import pkgutil
from pathlib import Path

import numpy as np
import pytest

import unosim.game.kernels
from unosim.game.cards import N_COLOURED, N_TYPES
from unosim.game.encoding import encode_rules
from unosim.game.kernels import layout as L
from unosim.game.rules import CHOICES, RuleSet, choice_code

KERNEL_DIR = Path(unosim.game.kernels.__file__).parent
KERNEL_MODULES = sorted(p for p in KERNEL_DIR.glob("*.py") if p.name != "__init__.py")
CHOICE_CASES = [(option, value) for option, values in CHOICES.items() for value in values]


def _encode(rules: RuleSet) -> np.ndarray:
    return encode_rules(rules, 4)


BASE = RuleSet.preset("classic").replace(speed_play=True)
"""The rule set the choice codes are read from: classic with speed play, which every choice value allows
(``jump_in_cards=numbers_and_actions`` needs it, H-3)."""


def _choice_slots() -> dict[str, int]:
    """The cfg slot each choice option is written to, found by changing the option alone."""
    base = BASE
    slots = {}
    for option, values in CHOICES.items():
        other = next(v for v in values if v != getattr(base, option))
        changed = np.flatnonzero(_encode(base) != _encode(base.replace(**{option: other})))
        assert len(changed) == 1, f"{option}: changing it alone changed cfg slots {changed.tolist()}"
        slots[option] = int(changed[0])
    return slots


def _other_value(rules: RuleSet, option: str) -> object:
    """A value of ``option`` other than ``rules``'s (a valid one)."""
    value = getattr(rules, option)
    if option in CHOICES:
        return next(v for v in CHOICES[option] if v != value)
    if isinstance(value, bool):
        return not value
    if option == "dealer":
        return 0 if value == "random" else "random"
    if option == "name":
        return "renamed"
    if option == "deck":
        return "party" if value != "party" else "classic"
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return 0.25 if value != 0.25 else 0.5
    raise AssertionError(f"{option}: no other value known for {value!r}")


NEEDS = {"speed_play_error_rate": {"speed_play": True}, "elimination": {"scoring": "penalty"}, "jump_in_cards": {"speed_play": True}}
"""Options that matter only beside another one: both sides of the comparison set it."""

LABELS = {"name"}
"""Options that only name a rule set (reports, metadata) and change no game."""


@pytest.mark.parametrize("preset", ["classic", "party"])
@pytest.mark.parametrize("option", [f.name for f in dataclasses.fields(RuleSet)])
def test_every_rule_option_reaches_the_kernels(preset: str, option: str) -> None:
    # changing one option from the preset's value changes the encoded rules or the dealt deck
    base = RuleSet.preset(preset).replace(**NEEDS.get(option, {}))
    changed = base.replace(**{option: _other_value(base, option)})
    rules_differ = not np.array_equal(encode_rules(base, 4), encode_rules(changed, 4))
    deck_differs = not np.array_equal(base.load_deck().array(base.deck_copies), changed.load_deck().array(changed.deck_copies))
    if option in LABELS:
        assert not rules_differ and not deck_differs, f"{option} only names a rule set but changed the encoding"
    else:
        assert rules_differ or deck_differs, f"rule option {option} changed neither the encoded rules nor the deck"


def test_the_rules_encoding_holds_no_line_up_or_run_flags() -> None:
    assert encode_rules(RuleSet.preset("party"), 6).shape == (L.N_RULES,)
    assert L.N_RULES + L.N_FLAGS == L.C_N_STRATS  # the line-up follows the flags
    assert not hasattr(L, "C_DECK_SIZE")


def test_choices_are_the_literal_fields_of_ruleset() -> None:
    assert set(CHOICES) == {"first_card", "first_wild", "wd4_legal_when", "pileup_flipped_wilds", "scoring", "stacking", "jump_in_cards"}
    assert CHOICES["wd4_legal_when"][choice_code("wd4_legal_when", "always")] == "always"
    with pytest.raises(ValueError, match=r"wd4_legal_when='on_tuesdays' is not allowed; allowed: no_color_match_incl_wilds"):
        choice_code("wd4_legal_when", "on_tuesdays")


@pytest.mark.parametrize(("option", "value"), CHOICE_CASES)
def test_the_encoder_writes_the_declared_code(option: str, value: str) -> None:
    slot = _choice_slots()[option]
    cfg = _encode(BASE.replace(**{option: value}))
    assert cfg[slot] == choice_code(option, value) == CHOICES[option].index(value)


def _kernel_constants() -> dict[str, tuple[str, object]]:
    found: dict[str, tuple[str, object]] = {}
    for info in pkgutil.iter_modules(unosim.game.kernels.__path__):
        module = importlib.import_module(f"unosim.game.kernels.{info.name}")
        for name, value in vars(module).items():
            if name.isupper() and getattr(module, "__name__", "") and name not in found:
                found[name] = (info.name, value)
    return found


@pytest.mark.parametrize(("option", "value"), CHOICE_CASES)
def test_every_choice_value_has_a_kernel_constant(option: str, value: str) -> None:
    name = f"{option}_{value}".upper()
    constants = _kernel_constants()
    assert name in constants, (
        f"choice {option}={value!r} has no named constant {name} in unosim.game.kernels: define it in the kernel "
        f"that plays it as {name} = choice_code({option!r}, {value!r}) and use it there"
    )
    assert constants[name][1] == choice_code(option, value)


def _trees() -> list[tuple[str, ast.Module]]:
    return [(p.name, ast.parse(p.read_text())) for p in KERNEL_MODULES]


def test_kernels_compare_choice_slots_with_named_constants_only() -> None:
    slot_names = {name for name in dir(L) if name.startswith("C_") and getattr(L, name) in _choice_slots().values()}
    assert len(slot_names) == len(CHOICES)
    offences = []
    for file, tree in _trees():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            reads_choice = any(isinstance(s, ast.Subscript) and isinstance(s.slice, ast.Name) and s.slice.id in slot_names
                               for s in sides)
            if reads_choice and any(isinstance(s, ast.Constant) for s in sides):
                offences.append(f"{file}:{node.lineno}")
    assert not offences, f"choice slots compared with raw integers (use the named constants): {offences}"


def test_kernels_use_named_card_ids() -> None:
    """Card ids (the wilds 56..59, the 56 coloured types, the 60 types) come from the one table
    (``kernels/tables.py``, re-exporting ``unosim.game.cards``), never as literals."""
    card_ids = set(range(N_COLOURED, N_TYPES + 1))
    offences = [f"{file}:{node.lineno}: {node.value}" for file, tree in _trees() if file not in ("layout.py", "rng.py")
                for node in ast.walk(tree) if isinstance(node, ast.Constant) and type(node.value) is int
                and node.value in card_ids]
    assert not offences, f"raw card ids in the kernels: {offences}"


def test_no_constant_is_defined_twice() -> None:
    """A module-level constant is assigned in one module only (the others import it)."""
    where: dict[str, list[str]] = {}
    for path in [*KERNEL_MODULES, KERNEL_DIR.parent / "cards.py", KERNEL_DIR.parent / "rules.py"]:
        for node in ast.parse(path.read_text()).body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name) and name.id.isupper():
                        where.setdefault(name.id, []).append(path.name)
    twice = {name: files for name, files in where.items() if len(files) > 1}
    assert not twice, f"constants defined in more than one place: {twice}"
