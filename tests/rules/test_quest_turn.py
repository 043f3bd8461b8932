"""A turn of Quest 1607 (T1–T5): roll, resources, movement, free actions, and passing on."""

from __future__ import annotations

import pytest

from shipmate.rules import DICE, HOST, PUBLIC, Forbidden, apply, die, view_for
from tests.rules.helpers import p, refused
from tests.rules.quest import (
    SEED,
    act,
    events,
    game,
    give,
    patch_player,
    patch_ship,
    resources,
    rolled,
)


def test_t1_the_roll_is_three_dice_one_coloured_and_two_white() -> None:
    rolled_ = events(game(2), {"type": "roll"}, p("p1"))[0]
    assert rolled_["type"] == "DiceRolled"
    assert rolled_["dice"]["move"] == {"index": 0, "value": die(SEED, 0)}
    assert rolled_["dice"]["white"] == [{"index": i, "value": die(SEED, i)} for i in (1, 2)]


def test_t1_every_extra_ship_adds_a_white_die() -> None:
    state = game(2)
    ships = state["players"]["p1"]["ships"]
    state = patch_player(state, "p1", ships=[*ships, {**ships[0], "number": 2}])
    assert len(events(state, {"type": "roll"}, p("p1"))[0]["dice"]["white"]) == 3


def test_t1_the_table_dice_device_rolls_for_the_active_player_with_the_host_token() -> None:
    state = act(game(2), {"type": "roll"}, HOST)
    assert state["turn"]["rolled"] and state["turn"]["player"] == "p1"
    assert resources(state, "p1") == resources(rolled(game(2)), "p1")
    refused(state, {"type": "roll"}, HOST, "T1")


def test_t1_a_linked_dice_device_rolls_for_the_active_player_and_does_nothing_else() -> None:
    state = act(game(2), {"type": "roll"}, DICE)
    assert state["turn"]["rolled"] and state["turn"]["player"] == "p1"
    assert resources(state, "p1") == resources(rolled(game(2)), "p1")
    refused(state, {"type": "roll"}, DICE, "T1")
    for action in ({"type": "end_turn"}, {"type": "market", "give": "wood", "get": "iron"},
                   {"type": "adjust", "player": "p1", "resources": {"wood": 1}, "reason": "x"},
                   {"type": "undo"}):
        with pytest.raises(Forbidden):
            apply(state, action, DICE)
    assert view_for(state, DICE) == view_for(state, PUBLIC) | {"host": False}
    assert all(p["quests"] is None for p in view_for(state, DICE)["players"])


def test_t1_nothing_happens_before_the_roll_and_a_turn_has_one_roll() -> None:
    state = give(game(2), "p1", coal=4)
    refused(state, {"type": "sail", "ship": 1, "squares": 1}, p("p1"), "T1")
    refused(state, {"type": "market", "give": "coal", "get": "wood"}, p("p1"), "T1")
    refused(state, {"type": "end_turn"}, p("p1"), "T1")
    refused(rolled(state), {"type": "roll"}, p("p1"), "T1")


def test_t2_white_dice_give_wood_cotton_iron_coal_food_or_the_land_resource() -> None:
    state = game(2)
    faces = {1: "wood", 2: "cotton", 3: "iron", 4: "coal", 5: "food", 6: "spices"}
    expected: dict[str, int] = {}
    for i in (1, 2):
        face = faces[die(SEED, i)]
        expected[face] = expected.get(face, 0) + 1
    assert resources(rolled(state), "p1") == expected


def test_t3_a_ship_sails_up_to_the_die_but_always_its_sails_level() -> None:
    state = rolled(game(2))
    move = state["turn"]["dice"]["move"]["value"]
    state = patch_ship(state, "p1", sails=6)
    state = act(state, {"type": "sail", "ship": 1, "squares": 6}, p("p1"))
    refused(state, {"type": "sail", "ship": 1, "squares": 1}, p("p1"), "T3")
    low = patch_ship(rolled(game(2)), "p1", sails=1)
    refused(low, {"type": "sail", "ship": 1, "squares": max(move, 1) + 1}, p("p1"), "T3")


def test_t3_the_lowest_sails_among_the_fleet_sets_the_minimum_for_every_ship() -> None:
    state = rolled(game(2))
    ships = state["players"]["p1"]["ships"]
    state = patch_player(state, "p1", ships=[{**ships[0], "sails": 5},
                                             {**ships[0], "number": 2, "sails": 3}])
    move = state["turn"]["dice"]["move"]["value"]
    assert view_for(state, p("p1"))["turn"]["allowance"] == max(move, 3)


def test_t4_after_the_roll_actions_come_in_any_order() -> None:
    state = give(rolled(game(2)), "p1", coal=4, cotton=3, wood=1)
    state = act(state, {"type": "upgrade", "ship": 1, "part": "sails"}, p("p1"))
    state = act(state, {"type": "market", "give": "coal", "get": "iron"}, p("p1"))
    state = act(state, {"type": "sail", "ship": 1, "squares": 1}, p("p1"))
    assert state["players"]["p1"]["ships"][0]["sails"] == 3


def test_t5_the_turn_passes_clockwise_and_out_of_turn_moves_are_refused() -> None:
    state = game(3)
    refused(state, {"type": "roll"}, p("p2"), "T5")
    state = act(rolled(state), {"type": "end_turn"}, p("p1"))
    assert (state["turn"]["player"], state["round"]) == ("p2", 1)
    for pid in ("p2", "p3"):
        state = act(rolled(state), {"type": "end_turn"}, p(pid))
    assert (state["turn"]["player"], state["round"]) == ("p1", 2)


def test_t5_a_player_who_must_skip_is_passed_over_once() -> None:
    state = patch_player(game(3), "p2", skip_turns=1)
    ended = events(rolled(state), {"type": "end_turn"}, p("p1"))[0]
    assert ended["type"] == "TurnEnded" and ended["skipped"] == ["p2"]
    state = act(rolled(state), {"type": "end_turn"}, p("p1"))
    assert state["turn"]["player"] == "p3" and state["players"]["p2"]["skip_turns"] == 0
