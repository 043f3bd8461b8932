"""A whole game of Quest 1607 over the real HTTP API, from the lobby to the winner."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shipmate.web.schemas.quest1607 import StateViewSchema
from tests.api.client import RESOURCES, Game

FIGHTS = "win_fight"


def supply(game: Game, player: str) -> None:
    """Have the host hand a player plenty of every basic resource (the test's bank)."""
    game.ok(game.host, {"type": "adjust", "player": player, "resources": dict.fromkeys(RESOURCES, 10),
                        "reason": "test supply"})


def me(game: Game, player: str) -> dict[str, Any]:
    """Return a player's own entry in their own view."""
    state = game.state(game.players[player])
    return next(p for p in state["players"] if p["id"] == player)


def meet(game: Game, player: str, quest: dict[str, Any]) -> None:
    """Meet every requirement of a quest on the board, then hand it in."""
    token = game.players[player]
    for step, requirement in enumerate(quest["requirements"]):
        kind = requirement["kind"]
        if kind == "visit" and not quest["progress"][step]["done"]:
            game.ok(token, {"type": "quest_step", "quest_id": quest["id"], "step": step, "ship": 1})
        elif kind == "cargo" and not quest["progress"][step]["done"]:
            for _ in range(2):  # Q3: load the goods, then deliver them with the same ship
                game.ok(token, {"type": "quest_step", "quest_id": quest["id"], "step": step, "ship": 1})
        elif kind == "ship_level":
            while max(s[requirement["part"]] for s in me(game, player)["ships"]) < requirement["at_least"]:
                supply(game, player)
                game.ok(token, {"type": "upgrade", "ship": 1, "part": requirement["part"]})
        elif kind == "fleet":
            while len(me(game, player)["ships"]) < requirement["ships"]:
                supply(game, player)
                game.ok(token, {"type": "upgrade", "ship": 1, "part": "crew"})
    supply(game, player)
    game.ok(token, {"type": "complete_quest", "quest_id": quest["id"]})


def advance(game: Game, player: str) -> None:
    """Do everything the player can this turn towards winning."""
    token = game.players[player]
    mine = me(game, player)
    if mine["level"] == "done":
        game.ok(token, {"type": "reach_edge", "ship": 1})
        return
    doable = [q for q in mine["quests"] if q["level"] == mine["level"]
              and all(r["kind"] != FIGHTS for r in q["requirements"])]
    if not doable:
        supply(game, player)
        game.ok(token, {"type": "buy_quest", "level": mine["level"]})
        return
    meet(game, player, doable[0])


def play_to_the_winner(game: Game, hero: str,
                       between: Callable[[dict[str, Any], str], None] | None = None) -> None:
    """Play turns until `hero` wins: each player rolls, the hero works through its quests, and
    `between(state at the turn's start, active player)` runs before the turn ends."""
    for _ in range(200):
        state = game.state()
        if state["winner"]:
            return
        active = state["turn"]["player"]
        token = game.players[active]
        game.ok(token, {"type": "roll"})
        if active == hero:
            advance(game, hero)
        if between is not None:
            between(state, active)
        if not game.state()["winner"]:
            game.ok(token, {"type": "end_turn"})


def test_a_whole_game_from_lobby_to_winner(live_server: str) -> None:
    game = Game.create(live_server, quests_per_level=1)
    hero, rival = game.seat(2)
    assert game.state()["phase"] == "playing"
    play_to_the_winner(game, hero)
    final = game.state()
    assert StateViewSchema().validate(final) == {}  # the contract's state view
    assert StateViewSchema().validate(game.state(game.players[hero])) == {}
    assert final["winner"] == hero
    assert final["phase"] == "finished"
    assert final["seed"] is not None and len(final["seed"]) == 64
    assert all(p["quests"] is None for p in final["players"])  # the public view holds no card
    events = game.http.get(f"{game.url}/events", params={"since": -1}, timeout=10).json()
    assert events["version"] == final["version"]
    assert [e["version"] for e in events["events"]] == sorted(e["version"] for e in events["events"])
    assert events["events"][-1]["type"] == "GameWon"
    assert rival in {p["id"] for p in final["players"]}
