"""Playthroughs: a round of an environment written as text, one line per step.

Each line holds what a learner gets and gives at one step: the agent and the decision asked,
the observation vector (its non-zero entries, block by block, as ``block=index:value``, the
value left out when it is 1), the legal actions of the mask, the action taken (drawn from the
mask by a seeded generator) and the reward. ``experiments/env_playthroughs.py`` writes the
playthroughs of every preset, house rules included, to ``tests/playthroughs/``, and
``tests/test_env_playthroughs.py`` plays them again and compares: a change of encoding or of
behaviour shows as a readable diff.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from . import encoding as E
from .multi import UnoAECEnv
from .single import UnoEnv

__all__ = ["aec_playthrough", "choose", "describe_observation", "single_playthrough"]


def describe_observation(spaces: E.Spaces, vector: NDArray[np.integer]) -> str:
    """The non-zero entries of an observation vector, block by block (``hand=3,7:2 top=7``)."""
    parts = []
    for name, block in spaces.blocks.items():
        values = vector[block]
        nz = np.flatnonzero(values).tolist()
        if nz:
            parts.append(f"{name}=" + ",".join(str(i) if values[i] == 1 else f"{i}:{int(values[i])}" for i in nz))
    return " ".join(parts)


def choose(mask: NDArray[np.integer], rng: np.random.Generator) -> int:
    """The action of a playthrough: a card when one is legal (a round then ends soon), or play a
    drawn card; else any legal action, each drawn at random by ``rng``."""
    if mask[E.PLAY_DRAWN]:
        return E.PLAY_DRAWN
    legal = np.flatnonzero(mask)
    cards = legal[legal < E.DRAW]
    return int(rng.choice(cards if len(cards) else legal))


def _line(spaces: E.Spaces, n: int, agent: str, decision: Any, obs: dict[str, NDArray[Any]], action: int | None,
          reward: float) -> str:
    legal = np.flatnonzero(obs["action_mask"]).tolist()
    taken = "-" if action is None else f"{action} ({spaces.action_name(action)})"
    return (f"{n:4d} {agent} {decision or '-'} | {describe_observation(spaces, obs['observation'])} | "
            f"legal {','.join(map(str, legal)) or '-'} | action {taken} | reward {reward:g}")


def aec_playthrough(rules: Any, players: int, seed: int, overrides: Any = None) -> str:
    """Round 0 of the run seeded ``seed`` in [`UnoAECEnv`][unosim.env.UnoAECEnv], every seat's steps (actions: `choose`)."""
    env = UnoAECEnv(rules, players, overrides=overrides)
    sp = env.game.spaces
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    lines = [f"UnoAECEnv players={players} seed={seed} encoding_version={E.VERSION}"]
    for n, agent in enumerate(env.agent_iter()):
        obs, reward, term, trunc, info = env.last()
        action = None if term or trunc else choose(obs["action_mask"], rng)
        lines.append(_line(sp, n, agent, info.get("decision"), obs, action, reward))
        env.step(action)
    return "\n".join(lines) + "\n"


def single_playthrough(rules: Any, players: int, seed: int, opponents: Any = "random", overrides: Any = None) -> str:
    """Round 0 of the run seeded ``seed`` in [`UnoEnv`][unosim.env.UnoEnv] (seat 0; actions: `choose`)."""
    env = UnoEnv(rules, players, opponents, overrides=overrides)
    sp = env.game.spaces
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    lines = [f"UnoEnv players={players} seed={seed} opponents={opponents} encoding_version={E.VERSION}"]
    done, n, reward = False, 0, 0.0
    while not done:
        action = choose(obs["action_mask"], rng)
        lines.append(_line(sp, n, "seat_0", info["decision"], obs, action, reward))
        obs, paid, done, _, info = env.step(action)
        reward = float(paid)
        n += 1
    lines.append(_line(sp, n, "seat_0", None, obs, None, reward) + f" | winner {info['winner']}")
    return "\n".join(lines) + "\n"
