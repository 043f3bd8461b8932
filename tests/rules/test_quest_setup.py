"""Quest 1607 setup (S1–S6): characters, the ship card, Daeventra, the free quest, seats, options."""

from __future__ import annotations

import pytest

from shipmate.rules import (
    HOST,
    Forbidden,
    InvalidAction,
    LobbyConflict,
    Viewer,
    apply,
    create,
    ruleset,
)
from shipmate.rules.table import NAME_MAX
from tests.rules.helpers import p, refused
from tests.rules.quest import (
    SEED,
    act,
    events,
    game,
    lobby,
)


def test_s1_each_player_picks_a_land_with_its_colour_and_land_resource() -> None:
    state = lobby(2)
    assert [state["players"][pid]["character"] for pid in state["order"]] == [
        "netherlands", "england"]
    assert state["players"]["p1"]["land_resource"] == "spices"
    joined = events(state, {"type": "join", "name": " Cato ", "character": "spain"}, Viewer())
    assert joined[0]["type"] == "PlayerJoined"
    assert (joined[0]["player_id"], joined[0]["name"]) == ("p3", "Cato")


def test_s1_a_land_that_is_taken_cannot_be_picked_twice() -> None:
    with pytest.raises(LobbyConflict):
        apply(lobby(2), {"type": "join", "name": "Cato", "character": "england"}, Viewer())


def test_s1_unknown_lands_and_empty_or_long_names_are_invalid() -> None:
    state = lobby(1)
    for action in ({"name": "Cato", "character": "atlantis"}, {"name": "  ", "character": "spain"},
                   {"name": "x" * (NAME_MAX + 1), "character": "spain"}):
        with pytest.raises(InvalidAction):
            apply(state, {"type": "join", **action}, Viewer())


def test_s1_a_full_table_or_a_started_game_takes_no_more_players() -> None:
    with pytest.raises(LobbyConflict):
        apply(lobby(6), {"type": "join", "name": "Gijs", "character": "spain"}, Viewer())
    with pytest.raises(LobbyConflict):
        apply(game(2), {"type": "join", "name": "Cato", "character": "spain"}, Viewer())


def test_s1_start_needs_two_players_and_the_host() -> None:
    refused(lobby(1), {"type": "start"}, HOST, "S1")
    with pytest.raises(Forbidden):
        apply(lobby(2), {"type": "start"}, p("p1"))


def test_s2_the_ship_card_starts_at_ship_1_cannons_1_sails_2_crew_3() -> None:
    ship = game(2)["players"]["p1"]["ships"]
    assert ship == [{"number": 1, "cannons": 1, "sails": 2, "crew": 3, "sail_hits": 0,
                     "goods": []}]


def test_s3_every_ship_starts_at_daeventra() -> None:
    started = events(lobby(2), {"type": "start"}, HOST)[0]
    assert started["at"] == "Daeventra"


def test_s4_every_player_gets_one_bronze_quest_free() -> None:
    state = game(3)
    for pid in state["order"]:
        player = state["players"][pid]
        assert [q["level"] for q in player["quests"]] == ["bronze"]
        assert sum(player["resources"].values()) == 0
    assert state["counters"]["draws"] == 3


def test_s5_seats_follow_the_join_order_or_a_seeded_draw() -> None:
    assert game(4)["order"] == ["p1", "p2", "p3", "p4"]
    started = events(lobby(4), {"type": "start", "random_order": True}, HOST)[0]
    assert sorted(started["order"]) == ["p1", "p2", "p3", "p4"]
    assert started["draw"] == list(range(8))  # 4 seats, then 4 free quests
    state = act(lobby(4), {"type": "start", "random_order": True}, HOST)
    assert state["turn"]["player"] == started["order"][0] and state["round"] == 1


def test_s5_the_lobby_allows_no_moves_yet() -> None:
    refused(lobby(2), {"type": "roll"}, p("p1"), "S5")


def test_s6_quests_per_level_is_1_2_or_3_default_2() -> None:
    assert lobby(2)["options"]["quests_per_level"] == 2
    assert lobby(2, {"quests_per_level": 1})["options"]["quests_per_level"] == 1
    for bad in (0, 4, "2", True):
        with pytest.raises(InvalidAction) as caught:
            create("quest1607", "K7QX2M", {"quests_per_level": bad}, SEED)
        assert caught.value.details["field"] == "quests_per_level"


def test_s6_house_rules_override_house_defaults_and_nothing_else() -> None:
    state = lobby(2, {"house_rules": {"caps": {"ships": 2}, "sunk_crew": 2}})
    data = ruleset(state)
    assert data["caps"] == {"cannons": 6, "sails": 6, "ships": 2} and data["sunk_crew"] == 2
    for bad, where in (({"costs": {}}, "house_rules.costs"),
                       ({"caps": {"ships": 0}}, "house_rules.caps.ships"),
                       ({"hit_table": {"1": {"9": 3}}}, "house_rules.hit_table.1.9"),
                       ({"surrender_by": "nobody"}, "house_rules.surrender_by")):
        with pytest.raises(InvalidAction) as caught:
            create("quest1607", "K7QX2M", {"house_rules": bad}, SEED)
        assert caught.value.details["field"] == where
    with pytest.raises(InvalidAction):
        create("quest1607", "K7QX2M", {"speed": 3}, SEED)


def test_the_ruleset_holds_every_number_and_deck() -> None:
    data = ruleset(game(2))
    assert len(data["characters"]) >= 6
    assert data["white_die"] == {"1": "wood", "2": "cotton", "3": "iron", "4": "coal",
                                 "5": "food", "6": "land"}
    assert data["caps"] == {"cannons": 6, "sails": 6, "ships": 3}
    assert data["hit_table"]["1"]["3"] == 6 and data["hit_table"]["4"]["1"] == 2
    assert set(data["damage"]) == {"1", "2", "3", "4", "5", "6"}
    for level in ("bronze", "silver", "gold"):
        assert sum(q["level"] == level for q in data["quests"]) >= 8
    assert [e["id"] for e in data["events"]] == [f"G{i}" for i in range(1, 21)]
    assert sum(bool(e["effects"]) for e in data["events"]) >= 12
    assert {"resources", "costs"} <= set(data)
