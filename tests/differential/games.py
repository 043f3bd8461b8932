"""The three games for the differential test: varied house rules, states reached by random play
through the real engine, and well-formed actions of every kind for every actor in a state.

A well-formed action has the parameters the server expects (known ids, whole numbers, the actor's
own ships and cards), so the engine's answer is "applied", a RuleViolation with its rule, Forbidden
or (in the lobby) a LobbyConflict; never InvalidAction. Each generator is plain Python over a
`random.Random`, which the test draws from hypothesis.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import shipmate.games  # noqa: F401  (registers the three games)
from shipmate.rules import DICE, HOST, PUBLIC, ShipmateError, State, Viewer, apply, create, ruleset, view_for
from shipmate.rules.core import fold

Action = dict[str, Any]
Case = tuple[Viewer, Action]
NAMES = ("Anna", "Bram", "Cato", "Daan", "Eva", "Floor")


def seed_hex(rng: random.Random) -> str:
    return f"{rng.getrandbits(256):064x}"


def lobby(game: str, options: dict[str, Any], characters: list[str], rng: random.Random) -> State:
    """Return a game in the lobby with these characters seated (joined by the public, as phones do)."""
    state, _ = create(game, "K7QX2M", options, seed_hex(rng))
    for name, character in zip(NAMES, characters, strict=False):
        state, _ = apply(state, {"type": "join", "name": name, "character": character}, PUBLIC)
    return state


def players(state: State) -> list[str]:
    order: list[str] = state.get("order") or state.get("seats") or []
    return order


def actors(state: State, dice: bool = False) -> list[Viewer]:
    """Every player, the host, and (where the game has one) the dice device."""
    return [*(Viewer(player=p) for p in players(state)), HOST, *([DICE] if dice else [])]


def subset(rng: random.Random, items: list[Any], least: int = 0) -> list[Any]:
    if len(items) < least:
        return list(items)
    return rng.sample(items, rng.randint(least, len(items)))


def counts(rng: random.Random, resources: list[str], total: int,
           have: dict[str, int] | None = None) -> dict[str, int]:
    """A map of resources adding up to `total`: from what `have` holds when it can, else any."""
    out: dict[str, int] = {}
    pool = [r for r, n in (have or {}).items() for _ in range(n)] if have else []
    for _ in range(total):
        res = rng.choice(pool) if pool else rng.choice(resources)
        if pool:
            pool.remove(res)
        out[res] = out.get(res, 0) + 1
    return out


@dataclass(frozen=True)
class Game:
    """One game's part in the test: its options, its start, and the cases of a state."""

    name: str
    options: Callable[[random.Random], dict[str, Any]]
    start: Callable[[random.Random, dict[str, Any]], State]
    cases: Callable[[State, random.Random], list[Case]]
    dice: bool = False


# ---- Quest 1607 ---------------------------------------------------------------------------------

QUEST_CHARACTERS = ["netherlands", "england", "spain", "portugal", "france", "venice"]


def quest_options(rng: random.Random) -> dict[str, Any]:
    house: dict[str, Any] = {}
    if rng.random() < 0.6:
        house["caps"] = {k: rng.randint(1, 7) for k in subset(rng, ["cannons", "sails", "ships"], 1)}
    if rng.random() < 0.4:
        house["hit_table"] = {str(rng.randint(1, 7)): {str(rng.randint(1, 7)): rng.randint(1, 6)}
                              for _ in range(rng.randint(1, 4))}
    if rng.random() < 0.4:
        low = rng.randint(1, 6)
        house["hit_bounds"] = {"min": low, "max": rng.randint(low, 6)}
    for key, values in (("sunk_crew", range(1, 7)), ("offers_lapse", (True, False)),
                        ("trade_with_active_player", (True, False)),
                        ("surrender_by", ("either", "defender")), ("keep_divisor", range(1, 5))):
        if rng.random() < 0.4:
            house[key] = rng.choice(list(values))
    return {"quests_per_level": rng.choice([1, 2, 3]), "house_rules": house}


def quest_start(rng: random.Random, options: dict[str, Any]) -> State:
    n = rng.choice([0, 1, 2, 2, 3, 3, 4, 5, 6])
    state = lobby("quest1607", options, rng.sample(QUEST_CHARACTERS, n), rng)
    if n >= 2 and rng.random() < 0.9:
        state, _ = apply(state, {"type": "start", "random_order": rng.random() < 0.5}, HOST)
        if rng.random() < 0.7:
            state = quest_event(state, rng)
    return state


def quest_event(state: State, rng: random.Random, event: str | None = None) -> State:
    """Put an event in play as a completed quest would (E1; its gifts and losses left out)."""
    events = [e["id"] for e in ruleset(state)["events"] if e["id"] != state["event"]]
    event = event or rng.choice(events)
    title = next(e["title"] for e in ruleset(state)["events"] if e["id"] == event)
    drawn = {"type": "EventDrawn", "draw": state["counters"]["draws"], "event": event, "title": title,
             "changes": {}, "version": state["version"] + 1}
    return fold(state, [drawn])


def _quest_turn_cases(state: State, pid: str, rng: random.Random, rules: dict[str, Any]) -> list[Action]:
    player = state["players"][pid]
    resources = [r["id"] for r in rules["resources"]]
    others = [p for p in players(state) if p != pid]
    have = {r: n for r, n in player["resources"].items() if n}
    turn = state["turn"] or {}
    out: list[Action] = [{"type": "roll"}, {"type": "end_turn"}]
    for ship in player["ships"]:
        n = ship["number"]
        left = (view_for(state, PUBLIC)["turn"] or {}).get("allowance") or 0
        left -= turn.get("moved", {}).get(str(n), 0)
        for squares in {max(1, left), max(1, left + 1), rng.randint(1, 9)}:
            out.append({"type": "sail", "ship": n, "squares": squares})
        for part in ("sails", "cannons"):
            out.append({"type": "upgrade", "ship": n, "part": part})
        for pay in (None, *rules["costs"]["crew"]["choice"]["of"]):
            out.append({"type": "upgrade", "ship": n, "part": "crew", **({"pay_with": pay} if pay else {})})
        out.append({"type": "reach_edge", "ship": n})
    for level in rules["levels"]:
        out.append({"type": "buy_quest", "level": level})
    for quest in player["quests"]:
        out.append({"type": "complete_quest", "quest_id": quest["id"]})
        card = next(q for q in rules["quests"] if q["id"] == quest["card"])
        for step, need in enumerate(card["requirements"]):
            if need["kind"] in ("visit", "cargo"):
                ship = rng.choice([None, *(s["number"] for s in player["ships"])])
                out.append({"type": "quest_step", "quest_id": quest["id"], "step": step,
                            **({"ship": ship} if ship is not None else {})})
    for give in [*list(have)[:2], rng.choice(resources)]:
        get = rng.choice([r for r in resources if r != give])
        out.append({"type": "market", "give": give, "get": get})
    bank = rules["bank"]["rate"]
    for size in (bank, bank + rng.choice([-1, 1, 0])):
        out.append({"type": "bank", "give": counts(rng, resources, max(size, 0), have),
                    "get": rng.choice(resources)})
    for other in others:
        give = counts(rng, resources, rng.randint(0, 2), have)
        get = counts(rng, resources, rng.randint(0 if give else 1, 2))
        out.append({"type": "offer", "to": other, "give": give, "get": get})
        theirs = state["players"][other]["ships"]
        out.append({"type": "attack", "ship": rng.choice(player["ships"])["number"], "target": other,
                    "target_ship": rng.choice(theirs)["number"]})
    return out


def _quest_combat_cases(state: State, pid: str, rng: random.Random, rules: dict[str, Any]) -> list[Action]:
    resources = [r["id"] for r in rules["resources"]]
    out: list[Action] = [{"type": "fire"}, {"type": "surrender"}, {"type": "accept_surrender"}]
    combat = state["combat"] or {}
    have = {r: n for r, n in state["players"][pid]["resources"].items() if n}
    keep = combat.get("keep", sum(have.values()) // rules["keep_divisor"])
    for n in {keep, keep + 1, max(keep - 1, 0)}:
        out.append({"type": "keep", "resources": counts(rng, resources, n, have)})
    water = combat.get("water") or {}
    fish = min(rules["fish"], sum(water.values())) if water else rules["fish"]
    for n in {fish, fish + 1}:
        out.append({"type": "fish", "resources": counts(rng, resources, n, water)})
    return out


def quest_cases(state: State, rng: random.Random) -> list[Case]:
    rules = ruleset(state)
    resources = [r["id"] for r in rules["resources"]]
    cases: list[Case] = []
    everyone = players(state)
    for actor in actors(state, dice=True):
        pid = actor.player
        mine: list[Action] = [{"type": "undo"}, {"type": "start", "random_order": rng.random() < 0.5},
                              {"type": "join", "name": "Gus", "character": rng.choice(QUEST_CHARACTERS)}]
        if everyone:
            delta = {r: rng.randint(-3, 4) for r in subset(rng, resources, 1)}
            mine.append({"type": "adjust", "player": rng.choice(everyone), "resources": delta, "reason": "x"})
        if state["phase"] != "lobby":
            mine += [{"type": "roll"}, {"type": "fire"}, {"type": "end_turn"}]
            for offer in [*state["offers"], {"id": "o999"}]:
                for kind in ("accept", "decline", "withdraw"):
                    mine.append({"type": kind, "offer_id": offer["id"]})
            if pid is not None:
                mine += _quest_turn_cases(state, pid, rng, rules)
                mine += _quest_combat_cases(state, pid, rng, rules)
        cases += [(actor, action) for action in mine]
    return cases


# ---- Serenissima ----------------------------------------------------------------------------------

SE_POWERS = ["venice", "genoa", "spain", "turkey"]


def serenissima_options(rng: random.Random) -> dict[str, Any]:
    house: dict[str, Any] = {}
    if rng.random() < 0.7:
        house["foreign_price"] = rng.choice([0, 50, 100, 150, 200, 300, 450])
    if rng.random() < 0.5:
        house["foreign_paid_to"] = rng.choice(["bank", "controller"])
    if rng.random() < 0.5:
        house["rounds"] = rng.choice([None, 1, 2, 3])
    return {"house_rules": house}


def serenissima_start(rng: random.Random, options: dict[str, Any]) -> State:
    setups = ruleset(lobby("serenissima", options, [], rng))["setups"]
    if rng.random() < 0.8:
        size = rng.choice(sorted(setups))
        powers = list(rng.choice(setups[size]))
        rng.shuffle(powers)
    else:
        powers = rng.sample(SE_POWERS, rng.randint(0, 4))
    state = lobby("serenissima", options, powers, rng)
    if rng.random() < 0.9:
        with contextlib.suppress(ShipmateError):  # a table the setups do not allow stays in the lobby
            state, _ = apply(state, {"type": "start"}, HOST)
    return state


def serenissima_cases(state: State, rng: random.Random) -> list[Case]:
    rules = ruleset(state)
    ports, seas = rules["ports"], [s["id"] for s in rules["sea_areas"]]
    goods = [g["id"] for g in rules["goods"]]
    cases: list[Case] = []
    for actor in actors(state):
        pid = actor.player
        mine: list[Action] = [{"type": "undo"}, {"type": "start"}, {"type": "end_game"},
                              {"type": "join", "name": "Gus", "character": rng.choice(SE_POWERS)},
                              {"type": "finish_phase"}, {"type": "bid", "ducats": rng.randint(0, 300)},
                              {"type": "pick_position", "position": rng.randint(1, len(rules["positions"]))}]
        for offer in [*state.get("offers", []), {"id": "s999"}]:
            for kind in ("accept_sale", "decline_sale", "withdraw_sale"):
                mine.append({"type": kind, "offer_id": offer["id"]})
        if pid is not None and state["phase"] != "lobby":
            player = state["players"][pid]
            total = player["home_sailors"] + sum(g["sailors"] for g in player["galleys"])
            for placed in (total, total + rng.choice([-1, 1])):
                split = {str(g["number"]): 0 for g in player["galleys"]}
                home = max(placed, 0)
                for number in split:
                    split[number] = rng.randint(0, home)
                    home -= split[number]
                mine.append({"type": "place_sailors", "home": home, "galleys": split})
            mine.append({"type": "bid", "ducats": rng.choice([0, player["ducats"], player["ducats"] + 1])})
            galley = rng.choice(player["galleys"])["number"]
            mine.append({"type": "move_galley", "galley": galley, "port": rng.choice(ports)["id"]})
            mine.append({"type": "move_galley", "galley": galley, "sea_area": rng.choice(seas)})
            near = [p for p in ports if any(g["sea_area"] == p["sea_area"] for g in player["galleys"])]
            for port in [*near[:2], rng.choice(ports)]:
                good = rng.choice(port["goods"] if rng.random() < 0.8 else goods)
                mine.append({"type": "buy", "port": port["id"], "good": good, "count": rng.randint(1, 12)})
            for other in [p for p in players(state) if p != pid]:
                held = [g for g, n in player["goods"].items() if n] or goods
                mine.append({"type": "offer_sale", "to": other, "good": rng.choice(held),
                             "count": rng.randint(1, 3), "price": rng.choice([0, 100, 250, 3000])})
        cases += [(actor, action) for action in mine]
    return cases


# ---- Voyagers' Venture ----------------------------------------------------------------------------

VV_COLOURS = ["red", "blue", "green", "yellow", "purple"]


def voyagers_options(rng: random.Random) -> dict[str, Any]:
    house: dict[str, Any] = {}
    for key, values in (("min_players", [2, 3, 4]), ("max_players", [2, 3, 4, 5, 6]),
                        ("starting_gold", [0, 1, 2, 3]), ("min_bid_cards", [0, 1, 2, 3])):
        if rng.random() < 0.5:
            house[key] = rng.choice(values)
    return {"house_rules": house}


def voyagers_start(rng: random.Random, options: dict[str, Any]) -> State:
    most = ruleset(lobby("voyagers", options, [], rng))["house_rules"]["max_players"]
    state = lobby("voyagers", options, rng.sample(VV_COLOURS, rng.randint(0, most)), rng)
    if rng.random() < 0.9:
        order = players(state)[:]
        rng.shuffle(order)
        with contextlib.suppress(ShipmateError):  # too few players for the house rule: the lobby stays
            state, _ = apply(state, {"type": "start", "order": order}, HOST)
    return state


def voyagers_cases(state: State, rng: random.Random) -> list[Case]:
    display = [c["id"] for c in state.get("display", [])]
    bid = (state.get("bid") or {}).get("cards", [])
    outside = [c for c in display if c not in bid]
    cases: list[Case] = []
    seq = state["version"]
    for actor in actors(state):
        pid = actor.player
        n = rng.randint(1, 8)
        cards = [{"id": f"v{seq}-{i}", "kind": rng.choice(["common", "fleet"]), "name": f"Card {i}"}
                 for i in range(n)]
        order = players(state)[:]
        rng.shuffle(order)
        mine: list[Action] = [
            {"type": "undo"}, {"type": "start", "order": order}, {"type": "close_purchases"},
            {"type": "join", "name": "Gus", "character": rng.choice(VV_COLOURS)},
            {"type": "display", "cards": cards}, {"type": "agree"}, {"type": "disagree"},
            {"type": "name_bid", "cards": subset(rng, display)}, {"type": "name_bid", "cards": []},
        ]
        if order:
            mine += [{"type": "turn_order", "order": order},
                     {"type": "set_gold", "player": rng.choice(order), "gold": rng.randint(0, 4)}]
            ships = rng.randint(0, 3)
            mine.append({"type": "score", "player": pid or rng.choice(order),
                         **{k: rng.randint(0, 9) for k in ("tips", "ships", "nobles", "gold", "smuggled",
                                                           "resources")},
                         "ship_count": ships, "fastest_fleet": rng.random() < 0.4,
                         "lowest_ship_card": rng.randint(1, 40) if ships else None})
            mine.append({**mine[-1], "player": rng.choice(order)})  # the host: anyone; a player: only self
        if display:
            mine.append({"type": "cut", "kind": "doubloon", "card": rng.choice(display)})
            mine.append({"type": "cut", "kind": "doubloon", "card": rng.choice(outside or display)})
            mine.append({"type": "cut", "kind": "remove", "cards": subset(rng, bid or display, 1)})
            mine.append({"type": "cut", "kind": "remove", "cards": subset(rng, display, 1)})
            mine.append({"type": "cut", "kind": "swap", "remove": subset(rng, bid or display, 1),
                         "add": rng.choice(outside or display)})
        if pid is not None:
            hand = [c["id"] for c in state["players"][pid]["hand"]]
            if hand:
                excess = len(hand) - ruleset(state)["hand_limit"]
                for size in {max(excess, 1), rng.randint(1, len(hand))}:
                    chosen = rng.sample(hand, min(size, len(hand)))
                    mine += [{"type": "discard", "cards": chosen}, {"type": "play_cards", "cards": chosen}]
        cases += [(actor, action) for action in mine]
    return cases


GAMES = {
    "quest1607": Game("quest1607", quest_options, quest_start, quest_cases, dice=True),
    "serenissima": Game("serenissima", serenissima_options, serenissima_start, serenissima_cases),
    "voyagers": Game("voyagers", voyagers_options, voyagers_start, voyagers_cases),
}
