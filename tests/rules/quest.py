"""Small helpers that build Quest 1607 states for the rules tests."""

from __future__ import annotations

from typing import Any

from shipmate.games.quest1607.evolve import new_quest
from shipmate.games.quest1607.ruleset import rules_for
from shipmate.rules import HOST, State, Viewer, apply, die
from tests.rules.helpers import p
from tests.rules.quest_play import new_game, new_lobby

SEED = "5e" * 32


def lobby(players: int = 3, options: dict[str, Any] | None = None, seed: str = SEED) -> State:
    """Return a game in the lobby with `players` joined, in join order p1, p2, …."""
    return new_lobby(players, options or {}, seed)[0]


def game(players: int = 3, options: dict[str, Any] | None = None, seed: str = SEED) -> State:
    """Return a started game: p1 to play, nothing rolled yet."""
    return new_game(players, options or {}, seed)[0]


def act(state: State, action: dict[str, Any], actor: Viewer) -> State:
    """Apply one action and return the new state."""
    return apply(state, action, actor)[0]


def events(state: State, action: dict[str, Any], actor: Viewer) -> list[dict[str, Any]]:
    """Return the events that one action would produce."""
    return apply(state, action, actor)[1]


def rolled(state: State) -> State:
    """Let the active player roll (T1)."""
    return act(state, {"type": "roll"}, p(state["turn"]["player"]))


def give(state: State, pid: str, **resources: int) -> State:
    """Hand a player resources with the host's correction."""
    return act(state, {"type": "adjust", "player": pid, "resources": resources,
                       "reason": "test"}, HOST)


def empty(state: State, pid: str) -> State:
    """Take every resource away from a player."""
    have = {r: -n for r, n in state["players"][pid]["resources"].items() if n}
    return give(state, pid, **have) if have else state


def patch_player(state: State, pid: str, **changes: Any) -> State:
    """Return the state with a player's fields replaced (a fixture, not a move)."""
    return {**state, "players": {**state["players"], pid: {**state["players"][pid], **changes}}}


def patch_ship(state: State, pid: str, number: int = 1, **changes: Any) -> State:
    """Return the state with one ship card's values replaced (a fixture, not a move)."""
    ships = [{**s, **changes} if s["number"] == number else s
             for s in state["players"][pid]["ships"]]
    return patch_player(state, pid, ships=ships)


def with_quest(state: State, pid: str, card: str, quest_id: str = "qx") -> State:
    """Return the state with quest card `card` added to a player's hand."""
    rules = rules_for(state["rules_key"])
    quest = new_quest(rules.quests[card], {"id": quest_id, "card": card,
                                           "level": rules.quests[card]["level"]})
    return patch_player(state, pid, quests=[*state["players"][pid]["quests"], quest])


def resources(state: State, pid: str) -> dict[str, int]:
    """Return a player's non-zero resources."""
    return {r: n for r, n in state["players"][pid]["resources"].items() if n}


def ship(state: State, pid: str, number: int = 1) -> dict[str, Any]:
    """Return one ship card of a player."""
    found: dict[str, Any] = next(s for s in state["players"][pid]["ships"]
                                 if s["number"] == number)
    return found


def next_dice(state: State, *values: int) -> State:
    """Return the state with the die counter moved to where the seed rolls `values` next."""
    seed = state["seed"]
    rolls = [die(seed, i) for i in range(4000)]
    n = len(values)
    start = next(i for i in range(len(rolls) - n) if tuple(rolls[i:i + n]) == values)
    return {**state, "counters": {**state["counters"], "dice": start}}
