"""Play Quest 1607 through the engine: candidate actions for any state, and a purposeful player.

Used by the property test, the scripted whole game and `bench/engine.py`; it imports no test tools.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import shipmate.games  # noqa: F401  (registers quest1607)
from shipmate.games.quest1607.decide import allowance
from shipmate.games.quest1607.ruleset import rules_for
from shipmate.rules import HOST, Event, ShipmateError, State, Viewer, apply, create

Move = tuple[dict[str, Any], Viewer]
BASE = ("wood", "cotton", "iron", "coal", "food")
CHARACTERS = ("netherlands", "england", "spain", "portugal", "france", "venice")
NAMES = ("Anna", "Bram", "Cato", "Daan", "Eva", "Floor")


def new_lobby(players: int, options: dict[str, Any], seed: str) -> tuple[State, list[Event]]:
    """Return a game in the lobby with `players` joined as p1, p2, …, and its events so far."""
    state, first = create("quest1607", "K7QX2M", options, seed)
    log = [first]
    for name, character in zip(NAMES[:players], CHARACTERS, strict=False):
        state, happened = apply(state, {"type": "join", "name": name, "character": character},
                                Viewer())
        log += happened
    return state, log


def new_game(players: int, options: dict[str, Any], seed: str) -> tuple[State, list[Event]]:
    """Return a started game with `players` seated in join order, and its events so far."""
    state, log = new_lobby(players, options, seed)
    state, happened = apply(state, {"type": "start"}, HOST)
    return state, log + happened


def _keep_half(have: dict[str, int], n: int) -> dict[str, int]:
    kept: dict[str, int] = {}
    for resource, count in have.items():
        take = min(count, n - sum(kept.values()))
        if take:
            kept[resource] = take
    return kept


def _combat_moves(state: State) -> Iterator[Move]:
    combat = state["combat"]
    sides = (combat["attacker"]["player"], combat["defender"]["player"])
    if combat["stage"] in ("salvage", "fishing"):
        pid = combat["sunk"] if combat["stage"] == "salvage" else combat["winner"]
        have = state["players"][pid]["resources"] if combat["stage"] == "salvage" else combat["water"]
        n = combat["keep"] if combat["stage"] == "salvage" else min(2, sum(have.values()))
        kind = "keep" if combat["stage"] == "salvage" else "fish"
        yield {"type": kind, "resources": _keep_half(have, n)}, Viewer(pid)
        return
    yield {"type": "fire"}, Viewer(combat["shooter"])
    for pid in sides:
        yield {"type": "surrender"}, Viewer(pid)
        yield {"type": "accept_surrender"}, Viewer(pid)


def candidates(state: State) -> list[Move]:
    """Return plausible moves for this state: mostly legal, some refused, from every side."""
    if state["combat"] is not None:
        return list(_combat_moves(state))
    pid = state["turn"]["player"]
    me = Viewer(pid)
    player = state["players"][pid]
    if not state["turn"]["rolled"]:
        return [({"type": "roll"}, me), ({"type": "end_turn"}, me)]
    moves: list[Move] = [({"type": "end_turn"}, me), ({"type": "roll"}, me),
                         ({"type": "reach_edge", "ship": 1}, me), ({"type": "undo"}, HOST),
                         ({"type": "adjust", "player": pid,
                           "resources": dict.fromkeys(BASE, 2), "reason": "bonus"}, HOST)]
    limit = allowance(state, pid) or 0
    for ship in player["ships"]:
        n = ship["number"]
        moves.append(({"type": "sail", "ship": n, "squares": max(1, limit // 2)}, me))
        for part in ("sails", "cannons", "crew"):
            moves.append(({"type": "upgrade", "ship": n, "part": part}, me))
    for level in ("bronze", "silver", "gold"):
        moves.append(({"type": "buy_quest", "level": level}, me))
    rules = rules_for(state["rules_key"])
    for quest in player["quests"]:
        moves.append(({"type": "complete_quest", "quest_id": quest["id"]}, me))
        for step, _ in enumerate(rules.quests[quest["card"]]["requirements"]):
            moves.append(({"type": "quest_step", "quest_id": quest["id"], "step": step,
                           "ship": 1}, me))
    have = [r for r, n in player["resources"].items() if n]
    for resource in have[:2]:
        moves.append(({"type": "market", "give": resource, "get": "food"}, me))
        moves.append(({"type": "bank", "give": {resource: 5}, "get": "iron"}, me))
    for other in state["order"]:
        if other != pid:
            moves.append(({"type": "attack", "ship": 1, "target": other, "target_ship": 1}, me))
            moves.append(({"type": "offer", "to": other, "give": {"wood": 1},
                           "get": {"food": 1}}, me))
    for offer in state["offers"]:
        moves.append(({"type": "accept", "offer_id": offer["id"]}, Viewer(offer["to"])))
        moves.append(({"type": "decline", "offer_id": offer["id"]}, Viewer(offer["to"])))
    return moves


def try_move(state: State, move: Move) -> tuple[State, list[Event]]:
    """Apply a move; a refused one leaves the state as it was and gives no events."""
    try:
        return apply(state, *move)
    except ShipmateError:
        return state, []


def _topped_up(state: State, pid: str) -> tuple[State, list[Event]]:
    have = state["players"][pid]["resources"]
    gift = {r: 12 - have[r] for r in BASE if have[r] < 12}
    if not gift:
        return state, []
    return apply(state, {"type": "adjust", "player": pid, "resources": gift,
                         "reason": "supplies"}, HOST)


def _quest_moves(state: State, pid: str) -> list[Move]:
    """Return the moves that work on the player's current-level quests, in a sensible order."""
    me, player = Viewer(pid), state["players"][pid]
    rules = rules_for(state["rules_key"])
    current = [q for q in player["quests"] if q["level"] == player["level"]]
    if player["level"] == "done":
        return [({"type": "reach_edge", "ship": 1}, me)]
    if not current:
        return [({"type": "buy_quest", "level": player["level"]}, me)]
    moves: list[Move] = []
    for quest in current:
        card = rules.quests[quest["card"]]
        for step, (need, done) in enumerate(zip(card["requirements"], quest["progress"],
                                                strict=True)):
            if done["done"]:
                continue
            kind = need["kind"]
            if kind in ("visit", "cargo"):
                moves += [({"type": "quest_step", "quest_id": quest["id"], "step": step,
                            "ship": done.get("ship") or 1}, me)] * 2
            elif kind == "ship_level":
                moves += [({"type": "upgrade", "ship": 1, "part": need["part"]}, me)] * 3
            elif kind == "fleet":
                moves += [({"type": "upgrade", "ship": 1, "part": "crew"}, me)] * 6
            elif kind == "win_fight":
                moves += [({"type": "attack", "ship": 1, "target": other, "target_ship": 1}, me)
                          for other in state["order"] if other != pid]
        moves.append(({"type": "complete_quest", "quest_id": quest["id"]}, me))
    moves.append(({"type": "buy_quest", "level": player["level"]}, me))
    return moves


def play_turn(state: State) -> tuple[State, list[Event]]:
    """Play the active player's turn with purpose: supplies, quests, fights won by surrender."""
    pid = state["turn"]["player"]
    state, log = _topped_up(state, pid)
    state, happened = apply(state, {"type": "roll"}, Viewer(pid))
    log += happened
    for move in _quest_moves(state, pid):
        state, happened = try_move(state, move)
        log += happened
        if state["combat"] is not None:  # the defender gives in at once (C8)
            defender = state["combat"]["defender"]["player"]
            for answer in ({"type": "surrender"}, {"type": "accept_surrender"}):
                state, happened = apply(state, answer, Viewer(defender if answer["type"] ==
                                                              "surrender" else pid))
                log += happened
        if state["phase"] == "finished":
            return state, log
    state, happened = apply(state, {"type": "end_turn"}, Viewer(pid))
    return state, log + happened
