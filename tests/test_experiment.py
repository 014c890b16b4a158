"""Experiment files: validation naming key, value and what is allowed; cells; one resumable dataset."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

import unosim
from unosim.engine.config import RunConfig
from unosim.engine.driver import play_tables
from unosim.runs import reading
from unosim.runs.experiment import load_experiment, parse_experiment, run_experiment
from unosim.runs.runner import run
from unosim.strategy.registry import REGISTRY, installed

KNOWN = ", ".join(sorted({*REGISTRY, *installed()}))
"""Every registered strategy name, as error messages list them."""

REPO = Path(__file__).resolve().parents[1]
GOOD = """
name = "tiny"
seed = 5
games = 500
chunk_size = 200
presets = ["classic", "classic-house"]
players = [2, 3]
strategies = "random"
"""


@pytest.fixture(scope="module", autouse=True)
def warm_engine() -> None:
    """Compile (or load from cache) the engine in this process first."""
    play_tables(RunConfig.build(players=2, games=1), 0, 2)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "exp.toml"
    path.write_text(text)
    return path


def test_shipped_player_count_experiment() -> None:
    exp = load_experiment(REPO / "experiments" / "player_count.toml")
    assert len(exp.cells) == 30 and exp.games == 100_000
    assert [(c.preset, c.players) for c in exp.cells[:2]] == [("classic", 2), ("classic", 3)]
    assert {c.preset for c in exp.cells} == {"classic", "party"}
    assert sorted({c.players for c in exp.cells}) == list(range(2, 17))
    copies = {(c.preset, c.players): c.config.rules.deck_copies for c in exp.cells}
    assert copies[("classic", 15)] == 1 and copies[("classic", 16)] == 2
    assert all(str(s) == "random" for c in exp.cells for s in c.config.strategies)
    assert len({c.config.seed for c in exp.cells}) == 30
    assert exp.out == Path("runs/player_count")


def test_cell_seeds_come_from_seed_sequence() -> None:
    import numpy as np

    exp = parse_experiment({"seed": 9, "games": 10, "presets": ["classic", "classic-house"], "players": [2, 4]})
    for cell in exp.cells:
        child = np.random.SeedSequence(9).spawn(4)[cell.cell].spawn(2)[0]
        assert cell.config.seed == int(child.generate_state(1, np.uint64)[0] >> np.uint64(1))
    paired = parse_experiment(
        {"seed": 9, "games": 10, "presets": ["classic", "classic-house"], "players": [2, 4], "common_seeds": True}
    )
    seeds = [c.config.seed for c in paired.cells]
    assert seeds[:2] == seeds[2:] and seeds[0] != seeds[1]


def test_pool_lineups_are_balanced_and_reproducible() -> None:
    data = {"seed": 1, "games": 10, "presets": "classic", "players": [3, 6],
            "strategies": {"pool": ["random", "greedy"], "seatings": 3}}  # fmt: skip
    exp = parse_experiment(data)
    assert len(exp.cells) == 6 and exp.pool
    lineups = [[s.name for s in c.config.strategies] for c in exp.cells]
    assert all(Counter(line) == Counter({"random": 2, "greedy": 1}) for line in lineups[:3])
    assert all(Counter(line) == Counter({"random": 3, "greedy": 3}) for line in lineups[3:])
    assert len({tuple(line) for line in lineups[3:]}) > 1  # seatings differ
    assert lineups == [[s.name for s in c.config.strategies] for c in parse_experiment(data).cells]


def test_run_experiment_one_resumable_dataset(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD + f'out = "{tmp_path / "out"}"\n')
    result = unosim.run_experiment(path, jobs=2, quiet=True)
    out = tmp_path / "out"
    assert result.path == out and result.chunks == 4 * 3 and result.games == 2_000
    frame = unosim.load(out)
    assert list(frame.columns[:3]) == ["cell", "rules", "players"]
    assert frame.groupby("cell")[["rules", "players"]].first().values.tolist() == [
        ["classic", 2], ["classic", 3], ["classic-house", 2], ["classic-house", 3]
    ]  # fmt: skip

    exp = load_experiment(path)
    cell = exp.cells[3]
    alone = run(cell.config, None, jobs=1, chunk_size=200, quiet=True).table
    got = reading.read_table(out).filter(reading.read_table(out).column("cell").to_numpy() == 3)
    assert got.drop_columns(["cell", "rules"]).select(alone.column_names).equals(alone)

    reference = reading.read_table(out)
    (out / "cell-002-part-00001.parquet").unlink()
    again = run_experiment(path, jobs=1, quiet=True)
    assert again.chunks_played == 1
    assert reading.read_table(out).equals(reference)

    changed = write(tmp_path, GOOD.replace("seed = 5", "seed = 6") + f'out = "{out}"\n')
    with pytest.raises(ValueError, match="other settings"):
        run_experiment(changed, jobs=1, quiet=True)


def test_pool_experiment_gets_a_seating_column() -> None:
    data = {"seed": 2, "games": 40, "presets": "classic", "players": 3,
            "strategies": {"pool": ["random", "greedy"], "seatings": 2}}  # fmt: skip
    frame = run_experiment(parse_experiment(data), jobs=1, quiet=True).to_pandas()
    assert list(frame.columns[:4]) == ["cell", "rules", "players", "seating"]
    assert sorted(set(frame["seating"])) == [0, 1]


BAD = [
    # (changed lines, fragments the message must contain: key, value, allowed)
    ("foo = 3", ["unknown key 'foo'", "= 3", "allowed keys are: name"]),
    ('presets = ["classic", "nosuch"]', ["presets = ", '"nosuch"', "classic, classic-house, party"]),
    ("players = [1, 4]", ["players = [1, 4]", "from 2 to 16"]),
    ("players = [4, 4]", ["players = [4, 4]", "at most once"]),
    ("players = 16", ["players = 16", "cell 0", "deck_copies", '"auto"']),
    ("games = 0", ["games = 0", "≥ 1"]),
    ("games = 1.5", ["games = 1.5", "whole number"]),
    ("seed = -1", ["seed = -1", "≥ 0"]),
    ('seed = "x"', ['seed = "x"', "whole number"]),
    ('match = "yes"', ['match = "yes"', "true or false"]),
    ("batch_size = 0", ["batch_size = 0", "1 to 1048576"]),
    ('strategies = "nosuch"', ['strategies = "nosuch"', "known strategies: " + KNOWN]),
    ('strategies = "random(speed=2)"', ["strategies = ", "no parameter 'speed'", "forget_uno_rate"]),
    ('strategies = ["random", "greedy", "random"]', ["strategies = [", "one strategy per seat"]),
    ("strategies = { pool = [] }", ["strategies.pool = []", "non-empty list"]),
    ('strategies = { pool = ["random"], seats = 2 }', ["strategies.seats = 2", "pool and seatings"]),
    ('strategies = { pool = ["random"], seatings = 0 }', ["strategies.seatings = 0", "from 1 to 1000"]),
    ("strategies = 3", ["strategies = 3", "a strategy for every seat"]),
    ('overrides = { wd4_challenge = "maybe" }', ['overrides.wd4_challenge = "maybe"', "true or false"]),
    ('overrides = { deck_copies = "many" }', ['overrides.deck_copies = "many"', '"auto"']),
    ("overrides = { deck_copies = 9 }", ["overrides.deck_copies = 9", "use 1 to 6"]),
    ("overrides = { nosuch_option = 1 }", ["overrides.nosuch_option = 1", "the options are: name, deck"]),
    ("overrides = 3", ["overrides = 3", "a table of rule options"]),
    ('out = ""', ['out = ""', "directory path"]),
]


def _edit(line: str) -> str:
    key = line.split("=")[0].strip()
    kept = [ln for ln in GOOD.splitlines() if not ln.startswith(key + " ")]
    return "\n".join(kept) + "\n" + line + "\n"


@pytest.mark.parametrize(("line", "fragments"), BAD, ids=[b[0] for b in BAD])
def test_bad_file_is_refused_naming_key_value_and_allowed(tmp_path: Path, line: str, fragments: list[str]) -> None:
    path = write(tmp_path, _edit(line))
    with pytest.raises(ValueError) as info:
        run_experiment(path, tmp_path / "out", quiet=True)
    message = str(info.value)
    assert message.startswith(str(path))
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    assert not (tmp_path / "out").exists()


def test_missing_key_and_bad_toml(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("games = 500\n", ""))
    with pytest.raises(ValueError, match="the key 'games' is missing; set it to a whole number ≥ 1"):
        load_experiment(path)
    path = write(tmp_path, "seed = = 3")
    with pytest.raises(ValueError, match="not valid TOML"):
        load_experiment(path)
    with pytest.raises(ValueError, match="cannot read the experiment file"):
        load_experiment(tmp_path / "nowhere.toml")


def test_every_error_of_a_file_is_reported_at_once(tmp_path: Path) -> None:
    text = _edit("games = -1").replace("seed = ", "nosuch = 1\nseed = ") + 'overrides = { wd4_challenge = "maybe" }\n'
    path = write(tmp_path, text)
    with pytest.raises(ValueError) as info:
        load_experiment(path)
    message = str(info.value)
    assert message.startswith(f"{path} has 3 problems:")
    lines = message.splitlines()[1:]
    assert len(lines) == 3 and all(line.startswith(f"- {path}: ") for line in lines)
    assert "unknown key 'nosuch'" in lines[0] and "games = -1" in lines[1] and "overrides.wd4_challenge" in lines[2]


def test_named_variants_are_the_rule_sets_of_an_experiment(tmp_path: Path) -> None:
    from unosim.runs.experiment import parse_experiment

    data = {"seed": 3, "games": 300, "players": [2, 4], "common_seeds": True,
            "variants": {"the official game": {}, "stacking + 7-0": {"stacking": "mixed", "seven_zero": True},
                         "party as shipped": {"rules": "party"}}}
    exp = parse_experiment(data)
    assert [(c.preset, c.players) for c in exp.cells] == [
        ("the official game", 2), ("the official game", 4), ("stacking + 7-0", 2), ("stacking + 7-0", 4),
        ("party as shipped", 2), ("party as shipped", 4)]
    rules = exp.cells[2].config.rules
    assert rules.stacking == "mixed" and rules.seven_zero and rules.name == "stacking + 7-0"
    assert exp.cells[4].config.rules.point_taken_cap == unosim.RuleSet.preset("party").point_taken_cap
    assert exp.cells[0].config.seed == exp.cells[2].config.seed  # common seeds: the same deals per table
    unosim.run_experiment(exp, tmp_path / "v", jobs=1, quiet=True)
    unosim.report(tmp_path / "v")
    md = (tmp_path / "v" / "report" / "report.md").read_text()
    assert "`stacking + 7-0` (from preset `classic`) with `seven_zero=true`, `stacking=mixed`" in md
    found = md.split("## Findings", 1)[1].split("\n## ", 1)[0]
    assert "in `stacking + 7-0`" in found
    from urllib.parse import unquote

    links = re.findall(r"\]\(([^)#]+\.png)\)", found)
    assert any("seat_advantage_heatmap_party" in link for link in links)  # a name with spaces, linked to its file
    assert all((tmp_path / "v" / "report" / unquote(link)).is_file() for link in links), links
    with pytest.raises(ValueError, match="variant 'bad' is not allowed"):
        parse_experiment({**data, "variants": {"bad": {"stacking": "sideways"}}})
    with pytest.raises(ValueError, match="the key 'presets' is missing"):
        parse_experiment({k: v for k, v in data.items() if k != "variants"})
