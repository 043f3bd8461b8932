"""Serenissima as each viewer may see it: no bid, nor its size, before every bid is in (SE5)."""

from __future__ import annotations

from typing import Any

from shipmate.rules import Event, State, Viewer
from shipmate.rules.table import view_header, without_seed

from .decide import active_player
from .ruleset import PHASES, POSITIONS, POWERS


def _bid(state: State, pid: str, viewer: Viewer) -> int | None:
    """Return the bid this viewer may see: everyone's once revealed (SE6), before that only one's own."""
    if state["revealed"] is not None:
        bid: int = state["revealed"][pid]
        return bid
    return state["bids"].get(pid) if viewer.player == pid else None


def _player(state: State, pid: str, viewer: Viewer) -> dict[str, Any]:
    player = state["players"][pid]
    position = state["positions"].get(pid)
    return {
        "id": pid, "name": player["name"], "character": player["character"],
        "colour": POWERS[player["character"]]["colour"],
        "ducats": player["ducats"], "galleys": player["galleys"],
        "home_sailors": player["home_sailors"], "goods": player["goods"],
        "has_bid": pid in state["bids"] or state["revealed"] is not None,
        "bid": _bid(state, pid, viewer),
        "position": None if position is None else POSITIONS[position - 1],
        "finished_phase": pid in state["finished"],
    }


def view_for(state: State, viewer: Viewer) -> State:
    """Return the Serenissima state view for `viewer`; the public one holds no secret."""
    step = state["step"]
    picking = state["revealed"] is not None and len(state["positions"]) < len(state["pick_order"])
    return {
        **view_header(state, viewer),
        "round": state["round"],
        "round_phase": None if step == 0 else {"number": step, "name": PHASES[step - 1]["name"]},
        "turn_order": state["turn_order"],
        "active": active_player(state),
        "players": [_player(state, pid, viewer) for pid in state["seats"]],
        "bidding": None if step != 1 else {
            "revealed": state["revealed"] is not None,
            "waiting_for": [p for p in state["seats"] if p not in state["bids"]]
            if state["revealed"] is None else [],
            "rolls": state["rolls"], "pick_order": state["pick_order"],
            "picker": state["pick_order"][len(state["positions"])] if picking else None,
        },
        "ports": state["ports"],
        "offers": state["offers"],
    }


def event_view_for(event: Event, viewer: Viewer) -> Event:
    """Return the event as `viewer` may see it: a bid's size only for its bidder (SE5)."""
    if event["type"] == "BidPlaced" and viewer.player != event["player"]:
        return {k: v for k, v in event.items() if k != "ducats"}
    return without_seed(event)
