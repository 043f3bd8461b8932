"""Quest 1607 as each viewer may see it: DESIGN.md's state view, and events without others' cards."""

from __future__ import annotations

from typing import Any

from shipmate.rules import PUBLIC, Event, State, Viewer
from shipmate.rules.table import view_header, without_seed

from .decide import allowance
from .ruleset import Rules, rules_for

_PRIVATE_CARDS = {"GameStarted", "QuestBought"}


def _quests(rules: Rules, player: dict[str, Any]) -> list[dict[str, Any]]:
    views = []
    for quest in player["quests"]:
        card = rules.quests[quest["card"]]
        views.append({"id": quest["id"], "level": quest["level"], "card": quest["card"],
                      "title": card["title"], "text": card["text"],
                      "requirements": card["requirements"], "progress": quest["progress"]})
    return views


def _player(rules: Rules, player: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": player["id"], "name": player["name"], "character": player["character"],
        "colour": rules.characters[player["character"]]["colour"],
        "land_resource": player["land_resource"], "resources": player["resources"],
        "ships": player["ships"], "level": player["level"], "completed": player["completed"],
        "quest_count": len(player["quests"]),
        "quests": None,  # quest cards are private: view_for shows them to their owner only
        "skip_turns": player["skip_turns"],
        # why the next turn is skipped: {"rule": "C7" (sunk) or "C8" (surrendered), "by": player_id}
        "skip_reason": player.get("skip_reason"),
    }


_SHARED_VIEWS: dict[int, tuple[State, State]] = {}
_SHARED_VIEWS_KEPT = 64


def view_for(state: State, viewer: Viewer) -> State:
    """Return DESIGN.md's Quest 1607 state view for `viewer`; the public one holds no secret.

    Every viewer's view is the public one plus `host`, `you` and the viewer's own quest cards, so
    the public view of a state is built once and each player's is a shallow patch of it: a change
    is shown to five or more viewers at once. States are never mutated, so a view built for a
    state object stays right for as long as that object lives.
    """
    shared = _public_view(state)
    you = viewer.player if viewer.player in state["players"] else None
    view = {**shared, "host": viewer.host, "you": you}
    if you is not None:
        cards = _quests(rules_for(state["rules_key"]), state["players"][you])
        view["players"] = [{**p, "quests": cards} if p["id"] == you else p for p in shared["players"]]
    return view


def _public_view(state: State) -> State:
    known = _SHARED_VIEWS.get(id(state))
    if known is not None and known[0] is state:
        return known[1]
    view = _build_public_view(state)
    if len(_SHARED_VIEWS) >= _SHARED_VIEWS_KEPT:
        _SHARED_VIEWS.clear()
    _SHARED_VIEWS[id(state)] = (state, view)  # the state is kept alive with it: its id stays its own
    return view


def _build_public_view(state: State) -> State:
    rules = rules_for(state["rules_key"])
    turn = state["turn"]
    event = state["event"]
    return {
        **view_header(state, PUBLIC),
        "round": state["round"], "options": state["options"],
        "turn": None if turn is None else {
            "player": turn["player"], "rolled": turn["rolled"], "dice": turn["dice"],
            "allowance": allowance(state, turn["player"]), "moved": turn["moved"],
        },
        "players": [_player(rules, state["players"][pid]) for pid in state["order"]],
        "offers": state["offers"],
        "combat": state["combat"],
        "event": None if event is None else {
            "id": event, "title": rules.events[event]["title"],
            "text": rules.events[event]["text"], "effects": rules.events[event]["effects"],
        },
        "winner": state["winner"],
    }


def _hide_card(quest: dict[str, Any]) -> dict[str, Any]:
    return {"id": quest["id"], "level": quest["level"]}


def event_view_for(event: Event, viewer: Viewer) -> Event:
    """Return the event as `viewer` may see it: no seed, and drawn quest cards only for the owner."""
    if event["type"] == "GameCreated":
        return without_seed(event)
    if event["type"] == "GameStarted":
        quests = {pid: q if pid == viewer.player else _hide_card(q)
                  for pid, q in event["quests"].items()}
        return {**event, "quests": quests}
    if event["type"] == "QuestBought" and event["player"] != viewer.player:
        return {**event, "quest": _hide_card(event["quest"])}
    return event
