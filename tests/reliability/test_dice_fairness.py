"""Dice actually rolled by a live server are fair: chi-square over every die of many games.

(The derivation alone is tests/rules/test_dice.py; `shipmate verify` failing on a tampered log is
tests/cli/test_verify.py::test_a_changed_die_fails.)
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.api.client import Game
from tests.fixtures_server import TEST_LIMITS, StartServer

GAMES = 144
TURNS = 140  # roll + end_turn; each roll is 3 dice (1 movement, 2 white): 144 × 140 × 3 = 60,480
CRITICAL = 20.515  # chi-square, 5 degrees of freedom, p = 0.001


def play(base: str) -> list[int]:
    """Play TURNS turns of a two-player game on `base`; return its dice read from the event stream."""
    game = Game.create(base)
    game.seat(2)
    for turn in range(TURNS):
        token = game.players[f"p{turn % 2 + 1}"]
        game.ok(token, {"type": "roll"})
        game.ok(token, {"type": "end_turn"})
    values = []
    for event in game.events():
        if event["type"] == "DiceRolled":
            dice = event["dice"]
            values += [dice["move"]["value"], *(d["value"] for d in dice["white"])]
    return values


@pytest.mark.slow
def test_dice_rolled_through_live_games_pass_chi_square(start_server: StartServer) -> None:
    servers = [start_server(**TEST_LIMITS) for _ in range(2)]
    with ThreadPoolExecutor(max_workers=24) as pool:
        rolled = [v for values in pool.map(play, [servers[i % 2] for i in range(GAMES)]) for v in values]
    assert len(rolled) == GAMES * TURNS * 3
    counts = [rolled.count(face) for face in range(1, 7)]
    expected = len(rolled) / 6
    chi_square = sum((c - expected) ** 2 / expected for c in counts)
    print(f"\n{len(rolled)} dice from {GAMES} live games: {counts}, chi-square {chi_square:.2f}")
    assert chi_square < CRITICAL, counts
