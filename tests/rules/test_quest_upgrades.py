"""Upgrades and quest cards in Quest 1607 (U1–U5), every effect immediate."""

from __future__ import annotations

import pytest

from shipmate.rules import HOST, InvalidAction, apply, view_for
from tests.rules.helpers import p, refused
from tests.rules.quest import (
    act,
    empty,
    events,
    game,
    give,
    lobby,
    patch_ship,
    resources,
    rolled,
    ship,
)


def ready(**have: int) -> dict:
    """Return a game where p1 has rolled and holds exactly `have`."""
    state = empty(rolled(game(2)), "p1")
    return give(state, "p1", **have) if have else state


def test_u1_crew_costs_1_food_and_1_wood_or_cotton_of_choice() -> None:
    state = ready(food=2, wood=1, cotton=1)
    state = act(state, {"type": "upgrade", "ship": 1, "part": "crew", "pay_with": "cotton"},
                p("p1"))
    assert ship(state, "p1")["crew"] == 4 and resources(state, "p1") == {"food": 1, "wood": 1}
    state = act(state, {"type": "upgrade", "ship": 1, "part": "crew"}, p("p1"))
    assert ship(state, "p1")["crew"] == 5 and resources(state, "p1") == {}
    refused(state, {"type": "upgrade", "ship": 1, "part": "crew"}, p("p1"), "U1")


def test_u2_crew_7_launches_ship_2_with_1_1_1_and_resets_the_old_crew() -> None:
    state = patch_ship(ready(food=1, wood=1), "p1", crew=6)
    happened = events(state, {"type": "upgrade", "ship": 1, "part": "crew"}, p("p1"))
    assert [e["type"] for e in happened] == ["CrewUpgraded", "ShipLaunched"]
    state = act(state, {"type": "upgrade", "ship": 1, "part": "crew"}, p("p1"))
    assert ship(state, "p1")["crew"] == 1
    assert ship(state, "p1", 2) == {"number": 2, "cannons": 1, "sails": 1, "crew": 1,
                                    "sail_hits": 0, "goods": []}


def test_u2_the_fleet_stops_at_3_ships_by_house_default() -> None:
    state = patch_ship(ready(food=1, wood=1), "p1", crew=6)
    ships = state["players"]["p1"]["ships"]
    fleet = [ships[0], {**ships[0], "number": 2, "crew": 1}, {**ships[0], "number": 3, "crew": 1}]
    full = {**state, "players": {**state["players"],
                                 "p1": {**state["players"]["p1"], "ships": fleet}}}
    error = refused(full, {"type": "upgrade", "ship": 1, "part": "crew"}, p("p1"), "U2")
    assert "3 ships" in error.message["en"]


def test_u3_sails_cost_3_cotton_and_1_wood() -> None:
    state = ready(cotton=3, wood=1)
    state = act(state, {"type": "upgrade", "ship": 1, "part": "sails"}, p("p1"))
    assert ship(state, "p1")["sails"] == 3 and resources(state, "p1") == {}
    error = refused(give(state, "p1", cotton=2, wood=1),
                    {"type": "upgrade", "ship": 1, "part": "sails"}, p("p1"), "U3")
    assert error.message["en"] == "Sails +1 costs 3 cotton + 1 wood; you have 2 cotton"
    assert error.message["nl"] == "Zeilen +1 kost 3 katoen + 1 hout; je hebt 2 katoen"


def test_u3_sails_stop_at_6_by_house_default() -> None:
    state = patch_ship(ready(cotton=3, wood=1), "p1", sails=6)
    refused(state, {"type": "upgrade", "ship": 1, "part": "sails"}, p("p1"), "U3")


def test_u4_cannons_cost_2_coal_and_2_iron_and_stop_at_6() -> None:
    state = ready(coal=2, iron=2)
    state = act(state, {"type": "upgrade", "ship": 1, "part": "cannons"}, p("p1"))
    assert ship(state, "p1")["cannons"] == 2 and resources(state, "p1") == {}
    capped = patch_ship(give(state, "p1", coal=2, iron=2), "p1", cannons=6)
    refused(capped, {"type": "upgrade", "ship": 1, "part": "cannons"}, p("p1"), "U4")


def test_u4_a_house_cap_is_a_setting() -> None:
    state = act(lobby(2, {"house_rules": {"caps": {"cannons": 2}}}), {"type": "start"}, HOST)
    state = give(empty(rolled(state), "p1"), "p1", coal=4, iron=4)
    state = act(state, {"type": "upgrade", "ship": 1, "part": "cannons"}, p("p1"))
    refused(state, {"type": "upgrade", "ship": 1, "part": "cannons"}, p("p1"), "U4")


def test_upgrades_name_real_ships_and_parts() -> None:
    state = ready(coal=2, iron=2)
    for bad in ({"ship": 2, "part": "sails"}, {"ship": 1, "part": "hull"},
                {"ship": 1, "part": "sails", "pay_with": "wood"}):
        with pytest.raises(InvalidAction):
            apply(state, {"type": "upgrade", **bad}, p("p1"))


def test_u5_a_quest_card_of_any_level_costs_wood_food_iron_cotton() -> None:
    state = ready(wood=1, food=1, iron=1, cotton=1)
    bought = events(state, {"type": "buy_quest", "level": "gold"}, p("p1"))[0]
    assert bought["type"] == "QuestBought" and bought["draw"] == state["counters"]["draws"]
    state = act(state, {"type": "buy_quest", "level": "gold"}, p("p1"))
    assert resources(state, "p1") == {}
    assert [q["level"] for q in state["players"]["p1"]["quests"]] == ["bronze", "gold"]
    assert view_for(state, p("p2"))["players"][0]["quest_count"] == 2
    refused(state, {"type": "buy_quest", "level": "gold"}, p("p1"), "U5")
