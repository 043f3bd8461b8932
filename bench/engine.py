"""Measure the Quest 1607 engine: decide+evolve per action, and replaying a 2,000-event game.

Run from the repository root: ``python bench/engine.py``. Targets: < 50 µs per action and
< 50 ms per replay.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shipmate.rules import HOST, Event, State, Viewer, apply, replay
from tests.rules.quest_play import candidates, new_game, try_move

EVENTS = 2_000


def recorded_game(seed: int) -> tuple[list[tuple[State, dict, Viewer]], list[Event]]:
    """Play random-but-sensible moves until the game has 2,000 events; keep the accepted moves.

    Nobody sails to the edge (V1), so that one game runs long enough, and the host does not undo:
    at a real table an undo is rare, and each one restores a whole state (measured apart).
    """
    rng = random.Random(seed)
    state, log = new_game(4, {"quests_per_level": 3}, f"{seed:064x}")
    moves: list[tuple[State, dict, Viewer]] = []
    while len(log) < EVENTS:
        options = [m for m in candidates(state) if m[0]["type"] not in ("reach_edge", "undo")]
        action, actor = rng.choice(options)
        new, happened = try_move(state, (action, actor))
        if happened:
            moves.append((state, action, actor))
            log += happened
        state = new
    return moves, log[:EVENTS]


def per_action(moves: list[tuple[State, dict, Viewer]], rounds: int = 5) -> float:
    """Return the median µs of decide+evolve over the recorded actions (best of a few rounds)."""
    medians = []
    for _ in range(rounds):
        timings = []
        for state, action, actor in moves:
            start = time.perf_counter()
            apply(state, action, actor)
            timings.append(time.perf_counter() - start)
        medians.append(statistics.median(timings))
    return min(medians) * 1e6


def per_replay(log: list[Event], rounds: int = 21) -> float:
    """Return the median ms of replaying the whole event stream."""
    timings = []
    for _ in range(rounds):
        start = time.perf_counter()
        replay(log)
        timings.append(time.perf_counter() - start)
    return statistics.median(timings) * 1e3


def per_undo(moves: list[tuple[State, dict, Viewer]]) -> float:
    """Return the median µs of the host's undo over the recorded states where it is allowed."""
    timings = []
    for state, action, actor in moves:
        after = apply(state, action, actor)[0]
        if after["_undo"] and not after["_undo"]["rolled"]:
            start = time.perf_counter()
            apply(after, {"type": "undo"}, HOST)
            timings.append(time.perf_counter() - start)
    return statistics.median(timings) * 1e6


def main() -> None:
    """Print the two figures and whether they meet the targets."""
    moves, log = recorded_game(7)
    action_us = per_action(moves)
    replay_ms = per_replay(log)
    undo_us = per_undo(moves)
    print(f"decide+evolve: median {action_us:.1f} µs/action over {len(moves)} actions "
          f"(target < 50 µs) {'OK' if action_us < 50 else 'SLOW'}")
    print(f"replay: median {replay_ms:.1f} ms for {len(log)} events "
          f"(target < 50 ms) {'OK' if replay_ms < 50 else 'SLOW'}")
    print(f"undo: median {undo_us:.1f} µs (restores a whole state; rare at a table)")


if __name__ == "__main__":
    main()
