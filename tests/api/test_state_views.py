"""Every game's real state views match the OpenAPI document: lobby, play, a fight, the end.

The views are made by the engines themselves (no server is needed to see what GET
/api/games/{code} returns), for the public screen, the host and each player, and validated with a
JSON Schema validator against the document's 200 schema of that endpoint.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema_rs
import pytest

import shipmate.games  # noqa: F401  (registers every game)
from shipmate.rules import HOST, PUBLIC, State, Viewer, apply, create, view_for
from shipmate.web.openapi import build_spec
from shipmate.web.schemas import GAMES
from tests.rules.quest import SEED, act, game, give, lobby, rolled
from tests.rules.quest_play import new_game, play_turn

Moves = list[tuple[dict[str, Any], Viewer]]


def _json_schema(node: Any) -> Any:
    """Return an OpenAPI 3.0 schema as JSON Schema: `nullable` becomes a null alternative."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _json_schema(value) for key, value in node.items()}
    if node.pop("nullable", False):
        if "type" in node:
            node["type"] = [node["type"], "null"]
        else:
            node = {"anyOf": [node, {"type": "null"}]}
    return node


def _validator(schema: dict[str, Any]) -> jsonschema_rs.Draft4Validator:
    document = build_spec()
    return jsonschema_rs.Draft4Validator(_json_schema({**schema, "components": document["components"]}))


def _views(state: State) -> Iterator[tuple[str, State]]:
    """Yield the public screen's view, the host's and each seated player's."""
    public = view_for(state, PUBLIC)
    yield "public", public
    yield "host", view_for(state, HOST)
    for player in public["players"]:
        yield player["id"], view_for(state, Viewer(player=player["id"]))


def _played(state: State, moves: Moves) -> State:
    for action, actor in moves:
        state = apply(state, action, actor)[0]
    return state


def _seated(name: str, seats: list[str], start: dict[str, Any] | None = None) -> tuple[State, State]:
    """Return a game of `name` in the lobby with a player per seat, and the same game started."""
    state = create(name, "K7QX2M", {}, SEED)[0]
    state = _played(state, [({"type": "join", "name": f"Captain {n}", "character": seat}, PUBLIC)
                            for n, seat in enumerate(seats, start=1)])
    return state, _played(state, [({"type": "start", **(start or {})}, HOST)])


def _quest1607() -> Iterator[tuple[str, State]]:
    yield "lobby", lobby()
    yield "playing", game()
    fight = act(give(rolled(game()), "p1", wood=9, food=9), {"type": "offer", "to": "p2", "give": {"wood": 1},
                                                              "get": {"food": 1}}, Viewer(player="p1"))
    fight = act(fight, {"type": "attack", "ship": 1, "target": "p2", "target_ship": 1}, Viewer(player="p1"))
    fight = act(fight, {"type": "fire"}, Viewer(player="p1"))
    yield "in combat", fight
    yield "surrender offered", act(fight, {"type": "surrender"}, Viewer(player="p2"))
    state = new_game(3, {"quests_per_level": 1}, SEED)[0]
    while state["phase"] != "finished":
        state = play_turn(state)[0]
    yield "finished", state


def _serenissima() -> Iterator[tuple[str, State]]:
    waiting, started = _seated("serenissima", ["venice", "genoa", "spain", "turkey"])
    yield "lobby", waiting
    yield "playing", started
    yield "finished", _played(started, [({"type": "end_game"}, HOST)])


def _voyagers() -> Iterator[tuple[str, State]]:
    waiting, started = _seated("voyagers", ["red", "blue", "green"])
    yield "lobby", waiting
    yield "playing", started
    p1, p2, p3 = (Viewer(player=pid) for pid in ("p1", "p2", "p3"))
    state = started
    for year in range(1, 7):  # each year p1 takes one card and the others nothing
        card = f"y{year}"
        state = _played(state, [
            ({"type": "display", "cards": [{"id": card, "kind": "common", "name": card}]}, HOST),
            ({"type": "name_bid", "cards": [card]}, p1), ({"type": "agree"}, p2), ({"type": "agree"}, p3),
            ({"type": "name_bid", "cards": []}, p2), ({"type": "name_bid", "cards": []}, p3),
        ])
        if year < 6:
            state = _played(state, [({"type": "turn_order", "order": ["p1", "p2", "p3"]}, HOST)])
    numbers = {"type": "score", "tips": 0, "ships": 0, "nobles": 0, "ship_count": 0,
               "fastest_fleet": False, "gold": 0, "smuggled": 0, "resources": 0}
    yield "finished", _played(state, [({"type": "play_cards", "cards": ["y1"]}, p1),
                                      ({"type": "close_purchases"}, HOST),
                                      *(({**numbers, "player": pid}, HOST) for pid in ("p1", "p2", "p3"))])


STATES = {"quest1607": _quest1607, "serenissima": _serenissima, "voyagers": _voyagers}


@pytest.mark.parametrize("name", sorted(STATES))
def test_every_view_of_every_stage_matches_the_documented_state_view(name: str) -> None:
    document = build_spec()
    get = document["paths"]["/api/games/{code}"]["get"]["responses"]["200"]
    documented = _validator(get["content"]["application/json"]["schema"])
    own = _validator({"$ref": f"#/components/schemas/{GAMES[name].view.__name__.removesuffix('Schema')}"})
    phases = set()
    for stage, state in STATES[name]():
        assert state["game"] == name
        phases.add(state["phase"])
        for viewer, view in _views(state):
            errors = [f"{'/'.join(map(str, e.instance_path))}: {e.message[:200]}"
                      for e in own.iter_errors(view)]
            assert not errors, (stage, viewer, errors)
            assert documented.is_valid(view), (stage, viewer)
    assert phases == {"lobby", "playing", "finished"}


def test_a_view_that_breaks_the_document_is_caught() -> None:
    """Refuse a view with a wrong die, a missing field or a malformed nested object."""
    documented = _validator({"$ref": "#/components/schemas/StateView"})
    view = view_for(rolled(game()), PUBLIC)
    assert documented.is_valid(view)
    turn = view["turn"]
    for broken in ({**view, "turn": {**turn, "dice": {**turn["dice"], "move": {"index": 0, "value": 7}}}},
                   {**view, "turn": {k: v for k, v in turn.items() if k != "allowance"}},
                   {**view, "combat": {"stage": "firing"}},
                   {**view, "offers": [{"id": "o1"}]}):
        assert not documented.is_valid(broken)
