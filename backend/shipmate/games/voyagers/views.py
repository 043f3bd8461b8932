"""Voyagers' Venture as each viewer may see it: a hand's cards only for its owner."""

from __future__ import annotations

from typing import Any

from shipmate.rules import Event, State, Viewer
from shipmate.rules.table import view_header, without_seed

from .decide import chooser
from .ruleset import BASE, COLOURS


def _player(state: State, pid: str, viewer: Viewer) -> dict[str, Any]:
    player = state["players"][pid]
    return {
        "id": pid, "name": player["name"], "character": player["character"],
        "colour": COLOURS[player["character"]]["colour"],
        "hand": player["hand"] if viewer.player == pid else None,
        "hand_count": len(player["hand"]),
        "over_limit": max(0, len(player["hand"]) - BASE["hand_limit"]),
        "gold": player["gold"], "received": pid in state["received"],
        "score": player["score"],
    }


def _waiting_for(state: State) -> str | None:
    """Return the player the round waits for, if one player's move is next."""
    stage, bid = state["stage"], state["bid"]
    if stage == "naming":
        return chooser(state)
    if stage == "voting":
        voter: str = bid["voters"][0]
        return voter
    if stage == "cutting":
        cutter: str = bid["cutter"]
        return cutter
    return None


def view_for(state: State, viewer: Viewer) -> State:
    """Return the Voyagers' Venture state view for `viewer`; the public one holds no secret."""
    return {
        **view_header(state, viewer),
        "round": state["round"], "rounds": BASE["rounds"], "year": state["year"],
        "stage": state["stage"], "turn_order": state["turn_order"],
        "waiting_for": _waiting_for(state) if state["phase"] == "playing" else None,
        "players": [_player(state, pid, viewer) for pid in state["seats"]],
        "display": [{**c, "doubloons": len(state["doubloons"].get(c["id"], []))}
                    for c in state["display"]],
        "bid": state["bid"],
        "ranking": state["ranking"],
    }


def event_view_for(event: Event, viewer: Viewer) -> Event:
    """Return the event as `viewer` may see it: discards are face-down (VV12), seen by their owner."""
    if event["type"] == "CardsDiscarded" and viewer.player != event["player"]:
        return {**{k: v for k, v in event.items() if k != "cards"}, "count": len(event["cards"])}
    return without_seed(event)
