"""The end of Quest 1607 (V1), the host's undo and adjust, and what each viewer may see."""

from __future__ import annotations

import json

import pytest

from shipmate.rules import (
    HOST,
    PUBLIC,
    Forbidden,
    InvalidAction,
    apply,
    event_view_for,
    view_for,
)
from shipmate.rules.core import UNDO_REASON_MAX
from tests.rules.helpers import p, refused
from tests.rules.quest import (
    SEED,
    act,
    empty,
    events,
    game,
    give,
    lobby,
    patch_player,
    resources,
    rolled,
)

VIEW_KEYS = {"code", "game", "version", "phase", "round", "seed_hash", "seed", "host", "you",
             "turn", "players", "offers", "combat", "attacked", "event", "winner", "can_undo"}
PLAYER_KEYS = {"id", "name", "character", "land_resource", "resources", "ships", "level",
               "completed", "quest_count", "quests", "skip_turns", "skip_reason"}


def test_v1_the_edge_wins_only_after_every_gold_quest() -> None:
    state = rolled(game(2))
    error = refused(state, {"type": "reach_edge", "ship": 1}, p("p1"), "V1")
    assert "0 of 2" in error.message["en"]
    done = patch_player(state, "p1", level="done", completed={"bronze": 2, "silver": 2, "gold": 2})
    won = act(done, {"type": "reach_edge", "ship": 1}, p("p1"))
    assert (won["phase"], won["winner"]) == ("finished", "p1")
    assert view_for(won, PUBLIC)["seed"] == SEED
    refused(won, {"type": "end_turn"}, p("p1"), "V1")


def test_undo_takes_back_the_last_action_unless_it_rolled_or_drew() -> None:
    state = give(empty(rolled(game(2)), "p1"), "p1", coal=4)
    traded = act(state, {"type": "market", "give": "coal", "get": "food"}, p("p1"))
    undone = act(traded, {"type": "undo"}, HOST)
    assert resources(undone, "p1") == {"coal": 4}
    assert undone["version"] == traded["version"] + 1
    with pytest.raises(Forbidden):
        apply(traded, {"type": "undo"}, p("p1"))
    refused(rolled(game(2)), {"type": "undo"}, HOST, "undo")
    # the views say so to the host alone: only the host undoes
    assert view_for(traded, HOST)["can_undo"] is True
    assert view_for(rolled(game(2)), HOST)["can_undo"] is False
    assert view_for(traded, p("p1"))["can_undo"] is view_for(traded, PUBLIC)["can_undo"] is False


def test_the_hosts_reason_for_an_undo_is_in_its_event_for_all_to_see() -> None:
    state = rolled(game(2))
    adjusted = act(state, {"type": "adjust", "player": "p2", "resources": {"wood": 2}, "reason": "x"}, HOST)
    undo = events(adjusted, {"type": "undo", "reason": "  the wrong player  "}, HOST)[0]
    assert (undo["type"], undo["reason"]) == ("ActionUndone", "the wrong player")
    assert event_view_for(adjusted, undo, PUBLIC)["reason"] == "the wrong player"
    assert "restore" not in event_view_for(adjusted, undo, PUBLIC)
    assert resources(act(adjusted, {"type": "undo", "reason": "oops"}, HOST), "p2") == resources(state, "p2")
    # no reason, or only spaces: the event says none
    assert "reason" not in events(adjusted, {"type": "undo"}, HOST)[0]
    assert "reason" not in events(adjusted, {"type": "undo", "reason": " "}, HOST)[0]
    with pytest.raises(InvalidAction) as refusal:
        apply(adjusted, {"type": "undo", "reason": "x" * (UNDO_REASON_MAX + 1)}, HOST)
    assert refusal.value.details == {"field": "reason"}
    assert events(adjusted, {"type": "undo", "reason": "x" * UNDO_REASON_MAX}, HOST)[0]["reason"]


def test_adjust_is_the_hosts_correction_with_a_reason_for_all_to_see() -> None:
    state = rolled(game(2))
    action = {"type": "adjust", "player": "p2", "resources": {"wood": 2}, "reason": "spilled"}
    adjusted = events(state, action, HOST)[0]
    assert adjusted["type"] == "ResourcesAdjusted"
    assert event_view_for(state, adjusted, PUBLIC)["reason"] == "spilled"
    state = act(state, action, HOST)
    assert resources(state, "p2").get("wood", 0) >= 2
    with pytest.raises(Forbidden):
        apply(state, action, p("p1"))
    with pytest.raises(InvalidAction):
        apply(state, {**action, "reason": " "}, HOST)
    with pytest.raises(InvalidAction):
        apply(state, {**action, "resources": {"gold": 1}}, HOST)
    refused(state, {**action, "resources": {"wood": -99}}, HOST, "adjust")


def test_views_have_the_designed_fields_and_keep_quests_private() -> None:
    state = rolled(game(3))
    own = view_for(state, p("p1"))
    assert set(own) >= VIEW_KEYS and set(own["players"][0]) >= PLAYER_KEYS
    assert (own["you"], own["host"], own["seed"]) == ("p1", False, None)
    assert own["players"][0]["quests"][0]["level"] == "bronze"
    assert own["players"][1]["quests"] is None and own["players"][1]["quest_count"] == 1
    host = view_for(state, HOST)
    assert host["host"] is True and all(pl["quests"] is None for pl in host["players"])
    assert set(own["turn"]) >= {"player", "rolled", "dice", "allowance", "moved"}


def test_the_public_view_holds_no_secret() -> None:
    state = rolled(game(3))
    public = json.dumps(view_for(state, PUBLIC))
    assert SEED not in public
    for player in state["players"].values():
        assert player["quests"][0]["card"] not in public
    assert "decks" not in public


def test_events_show_drawn_cards_only_to_their_owner() -> None:
    state = give(empty(rolled(game(2)), "p1"), "p1", wood=1, food=1, iron=1, cotton=1)
    bought = events(state, {"type": "buy_quest", "level": "silver"}, p("p1"))[0]
    assert event_view_for(state, bought, p("p1"))["quest"]["card"] == bought["quest"]["card"]
    for viewer in (p("p2"), PUBLIC, HOST):
        assert "card" not in event_view_for(state, bought, viewer)["quest"]
    started = events(lobby(2), {"type": "start"}, HOST)[0]
    seen = event_view_for(state, started, p("p2"))["quests"]
    assert "card" in seen["p2"] and "card" not in seen["p1"]
    created = {"type": "GameCreated", "seed": SEED, "seed_hash": "x", "game": "quest1607"}
    assert "seed" not in event_view_for(state, created, PUBLIC)


def test_unknown_actions_are_invalid() -> None:
    with pytest.raises(InvalidAction):
        apply(game(2), {"type": "teleport"}, p("p1"))
