"""An event in play (E1) that bends a number is followed by the phone as by the server.

The phone reads the event's effects from the state view; these cases put one event at a time in play
and ask the phone (its modules in Node) and the engine the same question: what a shot needs to hit
(G11: one less), what an upgrade costs (every cost-changing event), what the market and the bank take.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from shipmate.rules import HOST, State, Viewer, apply, decide, ruleset
from tests.differential.games import lobby, quest_event
from tests.differential.mirror import Batch, Mirror, engine_outcome, mirror_outcome

RULESET = ruleset(lobby("quest1607", {}, [], random.Random(1)))
COST_EVENTS = [e for e in RULESET["events"] if any(x["kind"] == "cost" for x in e["effects"])]


def _ask(mirror: Mirror, state: State, actor: Viewer, action: dict[str, Any]) -> dict[str, Any]:
    batch = Batch("quest1607", ruleset(state))
    batch.add(state, actor, action)
    return next(mirror.ask(batch))


def _fight(event: str | None) -> State:
    """Two players; the first attacks (Cannons 1 against Crew 3): the attacker is to fire."""
    rng = random.Random(7)
    state = lobby("quest1607", {}, ["netherlands", "england"], rng)
    state, _ = apply(state, {"type": "start"}, HOST)
    if event:
        state = quest_event(state, rng, event)
    me = state["turn"]["player"]
    other = next(p for p in state["order"] if p != me)
    state, _ = apply(state, {"type": "roll"}, Viewer(player=me))
    state, _ = apply(state, {"type": "attack", "ship": 1, "target": other, "target_ship": 1},
                     Viewer(player=me))
    return state


def _needed(mirror: Mirror, event: str | None) -> tuple[int, int]:
    """What the shooter needs to hit: the phone's number and the server's (ShotFired)."""
    state = _fight(event)
    shooter = Viewer(player=state["combat"]["shooter"])
    phone = _ask(mirror, state, shooter, {"type": "fire"})["numbers"]["needed"]
    shot = decide(state, {"type": "fire"}, shooter)[0]
    return phone, shot["needed"]


def test_g11_sharpshooters_hits_need_one_less_on_the_phone_as_on_the_server(mirror: Mirror) -> None:
    plain_phone, plain_server = _needed(mirror, None)
    sharp_phone, sharp_server = _needed(mirror, "G11")
    assert (plain_phone, sharp_phone) == (plain_server, sharp_server)
    assert sharp_phone == plain_phone - 1  # C4: 6 on the hit table (Cannons 1, Crew 3), G11: 5


def test_g12_thick_fog_stays_within_the_hit_bounds(mirror: Mirror) -> None:
    phone, server = _needed(mirror, "G12")
    assert phone == server == RULESET["hit_bounds"]["max"]  # 6 + 1, bounded by the house default


def _turn_with(resources: dict[str, int], event: str | None) -> tuple[State, str]:
    """A rolled turn of a player holding exactly `resources` (the host sets them), under `event`."""
    rng = random.Random(11)
    state = lobby("quest1607", {}, ["spain", "france"], rng)
    state, _ = apply(state, {"type": "start"}, HOST)
    me = state["turn"]["player"]
    state, _ = apply(state, {"type": "roll"}, Viewer(player=me))
    have = state["players"][me]["resources"]
    delta = {r: resources.get(r, 0) - n for r, n in have.items() if resources.get(r, 0) != n}
    if delta:
        state, _ = apply(state, {"type": "adjust", "player": me, "resources": delta, "reason": "x"}, HOST)
    if event:
        state = quest_event(state, rng, event)
    return state, me


def _bent(item: str, event: dict[str, Any]) -> dict[str, int]:
    """The price of `item` as the event bends it, read from the ruleset (crew paid with wood)."""
    cost = dict(RULESET["costs"][item]["pay"])
    for effect in event["effects"]:
        if effect["kind"] == "cost" and effect["item"] == item:
            for res, n in effect["add"].items():
                cost[res] = max(0, cost.get(res, 0) + n)
    choice = RULESET["costs"][item].get("choice")
    if choice:
        cost[choice["of"][0]] = cost.get(choice["of"][0], 0) + choice["count"]
    return {r: n for r, n in cost.items() if n}


@pytest.mark.parametrize("event", COST_EVENTS, ids=[e["id"] for e in COST_EVENTS])
def test_a_cost_event_changes_the_price_on_the_phone_as_on_the_server(mirror: Mirror,
                                                                      event: dict[str, Any]) -> None:
    item = next(x["item"] for x in event["effects"] if x["kind"] == "cost")
    price = _bent(item, event)
    plain = _bent(item, {"effects": []})
    assert price != plain
    action: dict[str, Any] = ({"type": "buy_quest", "level": RULESET["levels"][0]} if item == "quest"
                              else {"type": "upgrade", "ship": 1, "part": item})
    if item == "crew":
        action["pay_with"] = RULESET["costs"]["crew"]["choice"]["of"][0]
    rule = {"quest": "U5", "sails": "U3", "cannons": "U4", "crew": "U1"}[item]
    for have, event_id in ((price, event["id"]), (plain, None), (plain, event["id"]), (price, None)):
        state, me = _turn_with(have, event_id)
        actor = Viewer(player=me)
        answer = _ask(mirror, state, actor, action)
        server, events = engine_outcome(state, action, actor)
        assert mirror_outcome(answer) == server, (have, event_id)
        affordable = all(have.get(r, 0) >= n for r, n in (price if event_id else plain).items())
        assert server == ("applied" if affordable else rule), (have, event_id)
        if server == "applied":
            assert answer["numbers"]["cost"] == events[0]["paid"] == (price if event_id else plain)


@pytest.mark.parametrize("event", [e for e in RULESET["events"]
                                   if any(x["kind"] in ("market_rate", "bank_rate") for x in e["effects"])],
                         ids=lambda e: e["id"])
def test_a_rate_event_changes_the_market_and_the_bank_on_the_phone(mirror: Mirror,
                                                                   event: dict[str, Any]) -> None:
    effect = next(x for x in event["effects"] if x["kind"] in ("market_rate", "bank_rate"))
    rate = effect["rate"]
    for n in (rate - 1, rate, rate + 1):
        state, me = _turn_with({"wood": n}, event["id"])
        action: dict[str, Any] = ({"type": "market", "give": "wood", "get": "iron"}
                                  if effect["kind"] == "market_rate"
                                  else {"type": "bank", "give": {"wood": n}, "get": "iron"})
        answer = _ask(mirror, state, Viewer(player=me), action)
        server, _ = engine_outcome(state, action, Viewer(player=me))
        assert mirror_outcome(answer) == server
        wanted = n >= rate if effect["kind"] == "market_rate" else n == rate
        assert (server == "applied") == wanted
