"""The end is final in every game: once it is over, no action is taken, the host's undo and corrections too.

The end reveals the seed every die derives from, so a game that went on would roll dice everyone
could know in advance. Each game is played to its own end (Quest 1607: V1, Serenissima: SE19,
Voyagers' Venture: VV19), and each action after it is refused citing that rule, changing nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from shipmate.rules import HOST, PUBLIC, LobbyConflict, State, Viewer, apply, view_for
from tests.rules import test_serenissima as serenissima
from tests.rules import test_voyagers as voyagers
from tests.rules.helpers import p, refused
from tests.rules.quest import SEED
from tests.rules.quest_play import new_game, play_turn

Moves = list[tuple[dict[str, Any], Viewer]]


def quest_ended() -> tuple[State, Moves]:
    """Play Quest 1607 to its winner (V1); return the state and actions to try after the end."""
    state, _ = new_game(2, {"quests_per_level": 1}, SEED)
    for _turn in range(300):
        if state["phase"] == "finished":
            break
        state, _ = play_turn(state)
    winner = state["winner"]
    return state, [
        ({"type": "adjust", "player": winner, "resources": {"wood": 1}, "reason": "late"}, HOST),
        ({"type": "end_turn"}, p(winner)),
        ({"type": "roll"}, p(winner)),
        ({"type": "reach_edge", "ship": 1}, p(winner)),
    ]


def serenissima_ended() -> tuple[State, Moves]:
    """Let the host end a game of Serenissima in phase 2 (SE19)."""
    table = serenissima.in_phase_2()
    table.do({"type": "end_game"}, HOST)
    return table.state, [
        ({"type": "end_game"}, HOST),
        ({"type": "finish_phase"}, p("p1")),
        ({"type": "buy", "port": "venice", "good": "salt", "count": 1}, p("p1")),
    ]


def voyagers_ended() -> tuple[State, Moves]:
    """Play Voyagers' Venture's six years and the count to its ranking (VV19)."""
    table = voyagers._after_round_6(2)
    table.do({"type": "close_purchases"}, HOST)
    table.do(voyagers._score("p1", tips=3), p("p1"))
    table.do(voyagers._score("p2", tips=1), HOST)
    return table.state, [
        ({"type": "set_gold", "player": "p1", "gold": 9}, HOST),
        (voyagers._score("p1", tips=30), p("p1")),
        ({"type": "play_cards", "cards": []}, p("p2")),
    ]


ENDS: dict[str, tuple[Callable[[], tuple[State, Moves]], str]] = {
    "quest1607": (quest_ended, "V1"),
    "serenissima": (serenissima_ended, "SE19"),
    "voyagers": (voyagers_ended, "VV19"),
}


@pytest.mark.parametrize("game", ENDS)
def test_every_action_after_the_end_is_refused_citing_the_end_rule(game: str) -> None:
    ended, rule = ENDS[game]
    state, moves = ended()
    assert state["phase"] == "finished" and view_for(state, PUBLIC)["seed"] is not None
    assert state["_undo"] == {"version": state["version"], "rolled": False,
                              "restore": state["_undo"]["restore"]}  # the end itself rolled nothing
    for action, actor in [({"type": "undo"}, HOST), *moves]:
        error = refused(state, action, actor, rule)
        assert "seed" in error.message["en"] and "zaad" in error.message["nl"], error.message


@pytest.mark.parametrize("game", ENDS)
def test_a_late_join_is_the_lobbys_conflict_as_in_any_started_game(game: str) -> None:
    state, _ = ENDS[game][0]()
    join = {"type": "join", "name": "Late", "character": state["players"]["p1"]["character"]}
    with pytest.raises(LobbyConflict):
        apply(state, join, Viewer())


@pytest.mark.parametrize("game", ENDS)
def test_the_host_is_not_offered_an_undo_after_the_end(game: str) -> None:
    state, _ = ENDS[game][0]()
    assert view_for(state, HOST)["can_undo"] is False
