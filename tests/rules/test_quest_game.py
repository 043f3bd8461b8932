"""Whole games of Quest 1607: a scripted 3-player game to a winner (V1) and random play (property)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shipmate.games.quest1607.ruleset import rules_for
from shipmate.rules import PUBLIC, State, replay, verify, view_for
from tests.rules.quest import SEED
from tests.rules.quest_play import candidates, new_game, play_turn, try_move


def test_v1_a_scripted_three_player_game_with_one_quest_per_level_ends_with_a_winner() -> None:
    state, log = new_game(3, {"quests_per_level": 1}, SEED)
    turns = 0
    while state["phase"] != "finished":
        state, happened = play_turn(state)
        log += happened
        turns += 1
        assert turns < 300, "the game should end"
    winner = state["players"][state["winner"]]
    assert winner["level"] == "done"
    assert winner["completed"] == {"bronze": 1, "silver": 1, "gold": 1}
    assert log[-1]["type"] == "GameWon"
    assert replay(log) == state
    assert view_for(state, PUBLIC)["seed"] == SEED
    assert verify(log, SEED).ok


def check_invariants(state: State) -> None:
    """No resource or level below zero, and ship levels within the caps."""
    caps = rules_for(state["rules_key"]).data["caps"]
    for player in state["players"].values():
        assert all(n >= 0 for n in player["resources"].values()), player["resources"]
        assert 1 <= len(player["ships"]) <= caps["ships"]
        for ship in player["ships"]:
            assert 0 <= ship["cannons"] <= caps["cannons"]
            assert 0 <= ship["sails"] <= caps["sails"]
            assert 0 <= ship["crew"] < 7
            assert ship["sail_hits"] >= 0
        assert all(n >= 0 for n in player["completed"].values())


HOUSE_RULES = [
    {},
    {"caps": {"ships": 2, "sails": 4}, "offers_lapse": False},
    {"surrender_by": "defender", "trade_with_active_player": False},
    {"hit_table": {"1": {"3": 2}}, "hit_bounds": {"min": 1, "max": 5}, "sunk_crew": 2,
     "keep_divisor": 3},
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), per_level=st.sampled_from([1, 2, 3]),
       house=st.sampled_from(HOUSE_RULES), seed=st.binary(min_size=32, max_size=32),
       picks=st.lists(st.integers(0, 10_000), min_size=20, max_size=300))
def test_random_play_keeps_every_invariant(players: int, per_level: int, house: dict,
                                           seed: bytes, picks: list[int]) -> None:
    options = {"quests_per_level": per_level, "house_rules": house}
    state, log = new_game(players, options, seed.hex())
    for pick in picks:
        if state["phase"] == "finished":
            break
        moves = candidates(state)
        before = json.dumps(state, sort_keys=True)
        new, happened = try_move(state, moves[pick % len(moves)])
        # a refusal changes nothing, and evolve never mutates the state it folds into
        assert json.dumps(state, sort_keys=True) == before
        assert happened or new is state
        log += happened
        state = new
        check_invariants(state)
        assert replay(log) == state
