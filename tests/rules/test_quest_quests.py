"""Quests and events in Quest 1607 (Q1–Q3, E1): requirements, levels, trade goods, the event deck."""

from __future__ import annotations

from shipmate.rules import draw, view_for
from tests.rules.helpers import p, refused
from tests.rules.quest import (
    SEED,
    act,
    empty,
    events,
    game,
    give,
    next_dice,
    patch_player,
    patch_ship,
    resources,
    rolled,
    ship,
    with_quest,
)


def holding(card: str, quests_per_level: int = 2) -> dict:
    """Return a game where p1 has rolled, holds nothing and holds only quest `card` (id "qx")."""
    state = patch_player(game(2, {"quests_per_level": quests_per_level}), "p1", quests=[])
    return with_quest(empty(rolled(state), "p1"), "p1", card)


def test_q1_a_delivery_quest_takes_its_resources_when_handed_in() -> None:
    state = holding("bronze-1")  # 2 wood + 1 food
    error = refused(state, {"type": "complete_quest", "quest_id": "qx"}, p("p1"), "Q1")
    assert "2 wood + 1 food" in error.message["en"]
    state = give(state, "p1", wood=2, food=1)
    happened = events(state, {"type": "complete_quest", "quest_id": "qx"}, p("p1"))
    assert [e["type"] for e in happened] == ["QuestCompleted", "EventDrawn"]
    state = act(state, {"type": "complete_quest", "quest_id": "qx"}, p("p1"))
    player = state["players"]["p1"]
    assert player["completed"]["bronze"] == 1 and player["quests"] == []


def test_q1_the_level_is_done_after_the_set_number_of_quests() -> None:
    state = give(holding("bronze-1", quests_per_level=1), "p1", wood=2, food=1)
    state = act(state, {"type": "complete_quest", "quest_id": "qx"}, p("p1"))
    assert state["players"]["p1"]["level"] == "silver"
    state = give(holding("bronze-1", quests_per_level=2), "p1", wood=2, food=1)
    state = act(state, {"type": "complete_quest", "quest_id": "qx"}, p("p1"))
    assert state["players"]["p1"]["level"] == "bronze"


def test_q1_ship_level_fleet_and_fight_requirements_are_checked() -> None:
    state = holding("bronze-6")  # a ship with Sails 3
    refused(state, {"type": "complete_quest", "quest_id": "qx"}, p("p1"), "Q1")
    act(patch_ship(state, "p1", sails=3), {"type": "complete_quest", "quest_id": "qx"}, p("p1"))
    fight = holding("bronze-5")
    error = refused(fight, {"type": "complete_quest", "quest_id": "qx"}, p("p1"), "Q1")
    assert "sea fight" in error.message["en"]


def test_q1_a_visit_is_a_step_on_the_board() -> None:
    state = holding("bronze-4")
    state = act(state, {"type": "quest_step", "quest_id": "qx", "step": 0, "ship": 1}, p("p1"))
    assert state["players"]["p1"]["quests"][0]["progress"] == [{"done": True}]
    refused(state, {"type": "quest_step", "quest_id": "qx", "step": 0, "ship": 1}, p("p1"), "Q1")
    act(state, {"type": "complete_quest", "quest_id": "qx"}, p("p1"))


def test_q1_a_visit_needs_no_ship() -> None:
    state = holding("bronze-4")
    visited = events(state, {"type": "quest_step", "quest_id": "qx", "step": 0}, p("p1"))
    assert [e["type"] for e in visited] == ["PlaceVisited"] and "ship" not in visited[0]
    state = act(state, {"type": "quest_step", "quest_id": "qx", "step": 0}, p("p1"))
    assert state["players"]["p1"]["quests"][0]["progress"] == [{"done": True}]
    act(state, {"type": "complete_quest", "quest_id": "qx"}, p("p1"))


def test_q2_only_current_level_quests_are_carried_out() -> None:
    state = holding("silver-3")
    refused(state, {"type": "quest_step", "quest_id": "qx", "step": 0, "ship": 1}, p("p1"), "Q2")
    refused(state, {"type": "complete_quest", "quest_id": "qx"}, p("p1"), "Q2")


def test_q3_trade_goods_ride_on_the_ship_that_loaded_them() -> None:
    state = holding("bronze-3")  # pepper from Daeventra to Pearl Bay
    ships = state["players"]["p1"]["ships"]
    state = patch_player(state, "p1", ships=[*ships, {**ships[0], "number": 2}])
    state = act(state, {"type": "quest_step", "quest_id": "qx", "step": 0, "ship": 1}, p("p1"))
    assert ship(state, "p1")["goods"] == [{"quest": "qx", "step": 0, "good": "pepper"}]
    refused(state, {"type": "complete_quest", "quest_id": "qx"}, p("p1"), "Q1")
    refused(state, {"type": "quest_step", "quest_id": "qx", "step": 0, "ship": 2}, p("p1"), "Q3")
    state = act(state, {"type": "quest_step", "quest_id": "qx", "step": 0, "ship": 1}, p("p1"))
    assert ship(state, "p1")["goods"] == []
    act(state, {"type": "complete_quest", "quest_id": "qx"}, p("p1"))


def test_q3_goods_are_loaded_on_a_named_ship_and_delivered_by_the_ship_they_ride_on() -> None:
    state = holding("bronze-3")  # pepper from Daeventra to Pearl Bay
    error = refused(state, {"type": "quest_step", "quest_id": "qx", "step": 0}, p("p1"), "Q3")
    assert "which ship" in error.message["en"]
    state = act(state, {"type": "quest_step", "quest_id": "qx", "step": 0, "ship": 1}, p("p1"))
    delivered = events(state, {"type": "quest_step", "quest_id": "qx", "step": 0}, p("p1"))
    assert [(e["type"], e["ship"]) for e in delivered] == [("GoodsDelivered", 1)]
    state = act(state, {"type": "quest_step", "quest_id": "qx", "step": 0}, p("p1"))
    assert ship(state, "p1")["goods"] == []
    act(state, {"type": "complete_quest", "quest_id": "qx"}, p("p1"))


def test_e1_a_completed_quest_draws_an_event_that_holds_until_the_next() -> None:
    state = give(holding("bronze-1"), "p1", wood=2, food=1)
    drawn = events(state, {"type": "complete_quest", "quest_id": "qx"}, p("p1"))[1]
    assert drawn["draw"] == state["counters"]["draws"]
    state = act(state, {"type": "complete_quest", "quest_id": "qx"}, p("p1"))
    assert state["event"] == drawn["event"]
    assert view_for(state, p("p2"))["event"]["id"] == drawn["event"]


def with_event(state: dict, event_id: str) -> dict:
    """Return the state with event `event_id` active."""
    return {**state, "event": event_id}


def test_e1_events_change_costs_rates_and_dice() -> None:
    state = give(empty(rolled(game(2)), "p1"), "p1", coal=3, cotton=3, wood=1)
    refused(state, {"type": "market", "give": "coal", "get": "food"}, p("p1"), "M2")
    booming = act(with_event(state, "G7"), {"type": "market", "give": "coal", "get": "food"},
                  p("p1"))
    assert resources(booming, "p1")["food"] == 1  # G7: the market takes 3
    refused(with_event(state, "G5"), {"type": "upgrade", "ship": 1, "part": "sails"}, p("p1"),
            "U3")  # G5: sails cost a second wood
    harvest = with_event(game(2), "G4")
    assert len(events(harvest, {"type": "roll"}, p("p1"))[0]["dice"]["white"]) == 3


def test_e1_an_event_can_forbid_fights_and_trade() -> None:
    state = with_event(rolled(game(2)), "G3")
    refused(state, {"type": "attack", "ship": 1, "target": "p2", "target_ship": 1}, p("p1"), "E1")
    embargo = with_event(rolled(game(2)), "G16")
    refused(embargo, {"type": "offer", "to": "p2", "give": {}, "get": {"wood": 1}}, p("p1"), "E1")


def test_e1_a_white_face_can_change_and_movement_can_shift() -> None:
    state = with_event(next_dice(game(2), 4, 1, 1), "G13")  # a 1 gives food, not wood
    assert events(state, {"type": "roll"}, p("p1"))[0]["gains"] == {"food": 2}
    windy = with_event(rolled(game(2)), "G1")
    move = windy["turn"]["dice"]["move"]["value"]
    assert view_for(windy, p("p1"))["turn"]["allowance"] == max(move, 2) + 2


def drawing(state: dict, event_id: str) -> dict:
    """Return the state with the draw counter moved to where the seed draws `event_id` next."""
    ids = [f"G{i}" for i in range(1, 21) if f"G{i}" != state["event"]]
    n = next(n for n in range(2000) if ids[draw(SEED, n, len(ids))] == event_id)
    return {**state, "counters": {**state["counters"], "draws": n}}


def test_e1_a_gift_reaches_every_player_at_once() -> None:
    state = drawing(give(holding("bronze-1"), "p1", wood=2, food=1), "G9")  # 1 food each
    state = act(state, {"type": "complete_quest", "quest_id": "qx"}, p("p1"))
    assert state["event"] == "G9"
    assert resources(state, "p1") == {"food": 1}
    assert resources(state, "p2")["food"] == resources(rolled(game(2)), "p2").get("food", 0) + 1


def test_e1_a_loss_takes_only_what_is_left_after_paying_for_the_quest() -> None:
    state = drawing(give(holding("bronze-2"), "p1", cotton=2, iron=1, wood=1), "G10")
    state = act(state, {"type": "complete_quest", "quest_id": "qx"}, p("p1"))
    assert state["event"] == "G10" and resources(state, "p1") == {}
