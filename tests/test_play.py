"""``unosim play`` in a pseudo-terminal: scripted key presses play a game to its end (or Ctrl-C ends it),
a key that is not a legal move is answered with the legal ones, and the game written agrees with
replaying it, move by move under the referee, and with its viewer."""

from __future__ import annotations

import re
import signal
import sys
from pathlib import Path

import numpy as np
import pexpect
import pytest
from referee import RECORDS, check_game
from typer.testing import CliRunner
from unosim.strategies.person import PersonStrategy, decode, encode

import unosim
from unosim.cli import app
from unosim.engine.config import RunConfig
from unosim.engine.trace import replay
from unosim.game.kernels import layout as L
from unosim.reports.viewer import game_steps
from unosim.runs.files import read_metadata

UNOSIM = str(Path(sys.executable).with_name("unosim"))

PROMPTS = [
    r"Your move> ", r"\[p\] play it, \[k\] keep it> ", r"Colour: .*?> ", r"Enter: pass> ", r"Enter: let go> ", r"\[a\] accept> ",
    r"point at a seat \(([\d, ]+)\)> ", r"Link two seats, e.g. '(\d+ \d+)'.*?> ", r"Add to the pile> ", r"Winner: ",
    r"\(too late: you pass\)",
]


def _as_in_a_terminal() -> None:
    """Ctrl-C interrupts the game as in a terminal's foreground job: the child does not inherit an
    ignored SIGINT from the test process (ignored signals survive ``exec``, and a library in the
    same test worker may have ignored it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def play(tmp_path: Path, args: list[str], *, bad_key_at: int = 3, interrupt_at: int | None = None,
         ignore_jump: bool = False, leave: str = "ctrl-c") -> tuple[str, int, Path]:
    """Run ``unosim play`` in a pseudo-terminal answering every prompt with its first legal key; return the output,
    the exit status and the run directory. At move ``interrupt_at`` the person leaves (``leave``: ``ctrl-c``,
    ``ctrl-d`` for the end of the input, ``hangup`` for a closed terminal)."""
    out = tmp_path / "game"
    child = pexpect.spawn(UNOSIM, ["play", *args, "--out", str(out)], encoding="utf-8", timeout=300, dimensions=(60, 220),
                          preexec_fn=_as_in_a_terminal)
    log: list[str] = []
    keys: list[str] = []
    moves = 0
    ignored = False
    while True:
        i = child.expect(PROMPTS + [pexpect.EOF])
        log.append(child.before + (child.after if isinstance(child.after, str) else ""))
        if i == 0 or i == 8:
            keys = re.findall(r"\[(\w)\] ", child.before) or keys
            moves += 1
            if interrupt_at is not None and moves == interrupt_at:
                if leave == "ctrl-c":
                    child.sendintr()
                elif leave == "ctrl-d":
                    child.sendeof()
                else:
                    child.kill(signal.SIGHUP)
                continue
            child.sendline("zz" if moves == bad_key_at else keys[0])
        elif i == 1:
            child.sendline("p")
        elif i == 2:
            child.sendline("g")
        elif i == 3:
            if ignore_jump and not ignored:
                ignored = True  # let the window close
            else:
                child.sendline("j")
        elif i in (4, 5):
            child.sendline("c")
        elif i == 6:
            child.sendline(child.match.group(1).split(",")[0].strip())
        elif i == 7:
            child.sendline(child.match.group(1))
        elif i == 10:
            continue
        else:
            child.expect(pexpect.EOF)
            log.append(child.before)
            break
    child.close()
    return "".join(log), child.exitstatus, out


def check_written(out: Path) -> tuple[RunConfig, dict]:
    """The written game is a one-game run whose row is its replay's record, refereed move by move."""
    meta = read_metadata(out)
    assert meta["kind"] == "run"
    config = RunConfig.from_dict(meta["config"])
    row = unosim.runs.reading.read_table(out).to_pylist()[0]
    trace = replay(config, 0)
    for key in ("winner", "turns", "cards_played", "cards_drawn", "hand_points", "jump_ins", "pileups"):
        assert trace.record[key] == row[key], key
    rec = np.zeros(L.N_REC, np.int32)
    rec[L.R_TURNS], rec[L.R_WINNER] = row["turns"], row["winner"] if row["winner"] is not None else -1
    for name, col in RECORDS.items():  # the counts the referee keeps itself
        rec[col] = row[name]
    check_game(config.rules, config.players, trace.events, trace.opening, rec, np.array(row["hand_points"]))
    steps = game_steps(trace)  # what unosim view shows
    assert steps[-1]["turns"] == row["turns"]
    return config, row


def test_a_classic_game_played_by_keys_to_the_end(tmp_path: Path) -> None:
    text, status, out = play(tmp_path, ["--rules", "classic", "--players", "3", "--strategies", "random", "--seed", "5",
                                        "--window", "0"])
    assert status == 0, text[-2000:]
    assert "'zz' is not a legal move here. Legal keys: " in text and "Traceback" not in text
    assert "Your hand: " in text and "Winner: " in text and f"unosim view --run {out} --game 0" in text
    config, row = check_written(out)
    spec = config.strategies[0]
    assert spec.name.endswith("person:PersonStrategy") and [str(s) for s in config.strategies[1:]] == ["random", "random"]
    answers = decode(dict(spec.params)["answers"])
    # one play per prompt (the refused key asked again) and per turn with nothing to play
    assert sum(1 for d, _ in answers if d == "play") == text.count("Your move> ") - 1 + text.count("Nothing to play: you draw.")
    page = tmp_path / "view.html"  # the viewer of the written run (it checks its last state against the row)
    done = CliRunner().invoke(app, ["view", "--run", str(out), "--game", "0", "--seat", "0", "--out", str(page)])
    assert done.exit_code == 0, done.output
    assert page.stat().st_size > 10_000


def test_a_party_game_with_jump_ins_and_a_missed_window(tmp_path: Path) -> None:
    text, status, out = play(tmp_path, ["--rules", "party", "--players", "8", "--set", "speed_play=true", "--strategies",
                                        "random(forget_uno_rate=0.5)", "--seed", "1", "--window", "1"], ignore_jump=True)
    assert status == 0, text[-2000:]
    assert "(too late: you pass)" in text
    config, row = check_written(out)
    trace = replay(config, 0)
    mine = [r for r in trace.events if r[1] == L.EV_PLAY and r[5] == 1 and r[2] == 0]
    answers = decode(dict(config.strategies[0].params)["answers"])
    jumped = [v for d, v in answers if d == "jump_in"]
    assert jumped and jumped[0] == 0 and any(v == 1 for v in jumped)  # the missed window passed, a later one jumped
    assert len(mine) >= 1 and row["jump_ins"] >= len(mine)


def test_ctrl_c_ends_the_game_and_keeps_what_was_played(tmp_path: Path) -> None:
    text, status, out = play(tmp_path, ["--rules", "classic", "--players", "4", "--strategies", "greedy", "--seed", "2",
                                        "--window", "0"], bad_key_at=0, interrupt_at=3)
    assert status == 0, text[-2000:]
    left = re.search(r"You left after (\d+) decisions \(Ctrl-C\)", text)
    assert left and "Traceback" not in text
    config, row = check_written(out)
    answers = decode(dict(config.strategies[0].params)["answers"])
    assert len(answers) == int(left.group(1)) and [d for d, _ in answers].count("play") == 2


@pytest.mark.parametrize(("leave", "how"), [("ctrl-d", "the input ended"), ("hangup", "the terminal closed")])
def test_the_end_of_the_input_or_a_closed_terminal_keeps_what_was_played(tmp_path: Path, leave: str, how: str) -> None:
    text, status, out = play(tmp_path, ["--rules", "classic", "--players", "3", "--strategies", "greedy", "--seed", "2",
                                        "--window", "0"], bad_key_at=0, interrupt_at=3, leave=leave)
    assert status == 0, text[-2000:]
    left = re.search(r"You left after (\d+) decisions \(([^)]*)\)", text)
    assert left and left.group(2) == how, text[-2000:]
    assert "Traceback" not in text and "error" not in text.lower()
    config, row = check_written(out)
    answers = decode(dict(config.strategies[0].params)["answers"])
    assert len(answers) == int(left.group(1)) and [d for d, _ in answers].count("play") == 2


def test_recorded_answers_replay_and_refuse_another_game() -> None:
    assert decode(encode([("play", 12), ("choose_link", (3, 5)), ("jump_in", 1.0)])) == [("play", 12), ("choose_link", (3, 5)),
                                                                                         ("jump_in", 1)]
    with pytest.raises(ValueError, match="is not a decision"):
        PersonStrategy(answers="dance:1")
