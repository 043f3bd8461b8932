"""Fold Quest 1607's events into state: pure, never failing, copying only the path that changes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shipmate.rules import Event, State
from shipmate.rules.table import Folds, created_state, seat, with_player

from .ruleset import BASE, LEVELS, rules_for, rules_key

folds = Folds()
evolve = folds.evolve


def plus(resources: Mapping[str, int], delta: Mapping[str, int], sign: int = 1) -> dict[str, int]:
    """Return `resources` with `delta` added (or taken away with sign -1)."""
    new = dict(resources)
    for resource, n in delta.items():
        new[resource] = new.get(resource, 0) + sign * n
    return new


def _resources(state: State, pid: str, delta: Mapping[str, int], sign: int = 1) -> State:
    return with_player(state, pid, resources=plus(state["players"][pid]["resources"], delta, sign))


def _ship(state: State, pid: str, number: int, **changes: Any) -> State:
    ships = [
        {**s, **changes} if s["number"] == number else s for s in state["players"][pid]["ships"]
    ]
    return with_player(state, pid, ships=ships)


def _quest(state: State, pid: str, quest_id: str, step: int, **progress: Any) -> State:
    quests = []
    for quest in state["players"][pid]["quests"]:
        if quest["id"] == quest_id:
            steps = list(quest["progress"])
            steps[step] = {**steps[step], **progress}
            quest = {**quest, "progress": steps}
        quests.append(quest)
    return with_player(state, pid, quests=quests)


def deck_after(deck: list[str], full: tuple[str, ...], card: str) -> list[str]:
    """Return a level's deck after `card` was drawn; an empty deck is reshuffled first (U5)."""
    return [c for c in (deck or full) if c != card]


def new_quest(rules_card: Mapping[str, Any], quest: Mapping[str, Any]) -> dict[str, Any]:
    """Return a quest card in a player's hand, with no requirement met yet."""
    return {**quest, "progress": [{"done": False} for _ in rules_card["requirements"]]}


def _take_cards(state: State, hands: Mapping[str, Mapping[str, Any]]) -> State:
    rules = rules_for(state["rules_key"])
    decks = dict(state["decks"])
    players = dict(state["players"])
    for pid, quest in hands.items():
        decks[quest["level"]] = deck_after(decks[quest["level"]], rules.decks[quest["level"]],
                                           quest["card"])
        card = rules.quests[quest["card"]]
        players[pid] = {**players[pid], "quests": [*players[pid]["quests"], new_quest(card, quest)]}
    return {**state, "decks": decks, "players": players, "quest_seq": state["quest_seq"] + len(hands)}


def _draws(state: State, event: Event) -> State:
    drawn = event["draw"]
    n = len(drawn) if isinstance(drawn, list) else 1
    counters = state["counters"]
    return {**state, "counters": {**counters, "draws": counters["draws"] + n}}


def _dice(state: State, n: int) -> State:
    counters = state["counters"]
    return {**state, "counters": {**counters, "dice": counters["dice"] + n}}


@folds("GameCreated")
def _created(state: State, event: Event) -> State:
    key = rules_key(event["options"])
    decks = {level: list(cards) for level, cards in rules_for(key).decks.items()}
    return created_state(
        event, rules_key=key, round=0, order=[], turn=None, offers=[], offer_seq=0,
        quest_seq=0, decks=decks, combat=None, attacked={}, event=None, winner=None,
    )


@folds("PlayerJoined")
def _joined(state: State, event: Event) -> State:
    state = {"seats": state["order"], **state}  # a lobby stored before Quest kept `seats`
    seated = seat(state, event, {
        "land_resource": event["land_resource"],
        "resources": dict.fromkeys(rules_for(state["rules_key"]).resources, 0),
        # S2: ship 1 starts at Cannons 1, Sails 2, Crew 3
        "ships": [{**BASE["start_ship"], "sail_hits": 0, "goods": []}],
        "level": LEVELS[0], "completed": dict.fromkeys(LEVELS, 0),
        "quests": [], "skip_turns": 0, "skip_reason": None,
    })
    # S5: the order at the table is the join order, until the start may draw another
    return {**seated, "order": [*state["order"], event["player_id"]]}


@folds("GameStarted")
def _started(state: State, event: Event) -> State:
    state = _take_cards(_draws(state, event), event["quests"])  # S4
    turn = {"player": event["order"][0], "rolled": False, "dice": None, "moved": {}}
    return {**state, "phase": "playing", "round": 1, "order": list(event["order"]), "turn": turn}


@folds("DiceRolled")
def _rolled(state: State, event: Event) -> State:
    dice = event["dice"]
    state = _dice(_resources(state, event["player"], event["gains"]), 1 + len(dice["white"]))
    return {**state, "turn": {**state["turn"], "rolled": True, "dice": dice}}


@folds("ShipSailed")
def _sailed(state: State, event: Event) -> State:
    turn = state["turn"]
    ship = str(event["ship"])
    moved = {**turn["moved"], ship: turn["moved"].get(ship, 0) + event["squares"]}
    return {**state, "turn": {**turn, "moved": moved}}


@folds("OfferMade")
def _offered(state: State, event: Event) -> State:
    return {**state, "offers": [*state["offers"], event["offer"]],
            "offer_seq": state["offer_seq"] + 1}


def _without_offer(state: State, event: Event) -> State:
    return {**state, "offers": [o for o in state["offers"] if o["id"] != event["offer_id"]]}


folds("OfferDeclined", "OfferWithdrawn")(_without_offer)


@folds("OfferAccepted")
def _accepted(state: State, event: Event) -> State:
    state = _resources(state, event["from"], event["give"], -1)
    state = _resources(state, event["from"], event["get"])
    state = _resources(state, event["to"], event["get"], -1)
    return _without_offer(_resources(state, event["to"], event["give"]), event)


@folds("MarketTraded")
@folds("BankTraded")
def _exchanged(state: State, event: Event) -> State:
    state = _resources(state, event["player"], event["give"], -1)
    return _resources(state, event["player"], event["get"])


@folds("SailsUpgraded")
@folds("CannonsUpgraded")
@folds("CrewUpgraded")
def _upgraded(state: State, event: Event) -> State:
    state = _resources(state, event["player"], event["paid"], -1)
    return _ship(state, event["player"], event["ship"], **{event["part"]: event["level"]})


@folds("ShipLaunched")
def _launched(state: State, event: Event) -> State:
    # U2: the ship that reached the threshold goes back, and a new ship joins at Daeventra
    pid = event["player"]
    state = _ship(state, pid, event["from_ship"], crew=event["crew_back"])
    ship = {"number": event["ship"], **event["card"], "sail_hits": 0, "goods": []}
    return with_player(state, pid, ships=[*state["players"][pid]["ships"], ship])


@folds("QuestBought")
def _bought(state: State, event: Event) -> State:
    state = _resources(_draws(state, event), event["player"], event["paid"], -1)
    return _take_cards(state, {event["player"]: event["quest"]})


@folds("GoodsLoaded")
def _loaded(state: State, event: Event) -> State:
    # Q3: trade goods ride on the ship
    pid, number = event["player"], event["ship"]
    state = _quest(state, pid, event["quest_id"], event["step"], ship=number)
    ship = next(s for s in state["players"][pid]["ships"] if s["number"] == number)
    goods = {"quest": event["quest_id"], "step": event["step"], "good": event["good"]}
    return _ship(state, pid, number, goods=[*ship["goods"], goods])


@folds("GoodsDelivered")
def _delivered(state: State, event: Event) -> State:
    pid, number = event["player"], event["ship"]
    state = _quest(state, pid, event["quest_id"], event["step"], done=True, ship=None)
    ship = next(s for s in state["players"][pid]["ships"] if s["number"] == number)
    goods = [g for g in ship["goods"]
             if (g["quest"], g["step"]) != (event["quest_id"], event["step"])]
    return _ship(state, pid, number, goods=goods)


@folds("PlaceVisited")
def _visited(state: State, event: Event) -> State:
    return _quest(state, event["player"], event["quest_id"], event["step"], done=True)


@folds("QuestCompleted")
def _completed(state: State, event: Event) -> State:
    pid = event["player"]
    player = state["players"][pid]
    state = _resources(state, pid, event["paid"], -1)
    completed = {**player["completed"], event["level"]: player["completed"][event["level"]] + 1}
    quests = [q for q in player["quests"] if q["id"] != event["quest_id"]]
    return with_player(state, pid, completed=completed, quests=quests, level=event["level_after"])


@folds("EventDrawn")
def _event_drawn(state: State, event: Event) -> State:
    # E1: the event holds until the next completed quest
    state = _draws(state, event)
    for pid, delta in event["changes"].items():
        state = _resources(state, pid, delta)
    return {**state, "event": event["event"]}


@folds("AttackStarted")
def _attack(state: State, event: Event) -> State:
    attacker, defender = event["attacker"], event["defender"]
    combat = {"attacker": attacker, "defender": defender, "stage": "firing",
              "shooter": attacker["player"], "shots": [], "surrendering": None}
    # C3: remember the round of the attack to shield the defender
    attacked = {**state["attacked"], f"{defender['player']}/{defender['ship']}": event["round"]}
    return {**state, "combat": combat, "attacked": attacked}


@folds("ShotFired")
def _shot(state: State, event: Event) -> State:
    target = event["target"]
    state = _dice(state, 2 if event["damage"] else 1)
    ship = next(s for s in state["players"][target["player"]]["ships"]
                if s["number"] == target["ship"])
    state = _ship(state, target["player"], target["ship"],
                  crew=max(0, ship["crew"] - event["crew_loss"]),
                  sails=max(0, ship["sails"] - event["sails_loss"]),
                  sail_hits=event["sail_hits"])
    combat = state["combat"]
    return {**state, "combat": {**combat, "stage": "firing", "surrendering": None,
                                "shooter": target["player"],
                                "shots": [*combat["shots"], _shot_summary(event)]}}


def _shot_summary(event: Event) -> dict[str, Any]:
    keys = ("shooter", "target", "to_hit", "needed", "hit", "damage", "effect")
    return {k: event[k] for k in keys}


@folds("ShipSunk")
def _sunk(state: State, event: Event) -> State:
    # C7 and Q3: back to Daeventra at sunk_crew, goods lost, their quests to be redone
    pid = event["player"]
    state = _ship(state, pid, event["ship"], crew=event["crew"], goods=[])
    for goods in event["goods_lost"]:
        state = _quest(state, pid, goods["quest"], goods["step"], ship=None)
    player = state["players"][pid]
    state = with_player(state, pid, skip_turns=player["skip_turns"] + event["skip_turns"],
                        skip_reason={"rule": "C7", "by": event["winner"]})
    return {**state, "combat": {**state["combat"], "stage": "salvage", "sunk": pid,
                                "winner": event["winner"], "keep": event["keep"]}}


@folds("SurrenderOffered")
def _surrender_offered(state: State, event: Event) -> State:
    return {**state, "combat": {**state["combat"], "stage": "surrender_offered",
                                "surrendering": event["player"]}}


@folds("SurrenderAccepted")
def _surrendered(state: State, event: Event) -> State:
    # C8: all resources to the other side, goods kept, the next turn skipped
    pid = event["player"]
    state = _resources(state, pid, event["resources"], -1)
    state = _resources(state, event["to"], event["resources"])
    return with_player(state, pid, skip_turns=state["players"][pid]["skip_turns"] + event["skip_turns"],
                       skip_reason={"rule": "C8", "by": event["to"]})


@folds("ResourcesKept")
def _kept(state: State, event: Event) -> State:
    state = _resources(state, event["player"], event["water"], -1)
    return {**state, "combat": {**state["combat"], "stage": "fishing", "water": event["water"]}}


@folds("ResourcesFished")
def _fished(state: State, event: Event) -> State:
    return _resources(state, event["player"], event["resources"])


@folds("CombatEnded")
def _combat_ended(state: State, event: Event) -> State:
    winner = event["winner"]
    rules = rules_for(state["rules_key"])
    quests = []
    for quest in state["players"][winner]["quests"]:
        requirements = rules.quests[quest["card"]]["requirements"]
        if any(r["kind"] == "win_fight" for r in requirements):
            quest = {**quest, "progress": [
                {**p, "done": True} if r["kind"] == "win_fight" else p
                for r, p in zip(requirements, quest["progress"], strict=True)
            ]}
        quests.append(quest)
    return {**with_player(state, winner, quests=quests), "combat": None}


@folds("TurnEnded")
def _turn_ended(state: State, event: Event) -> State:
    players = dict(state["players"])
    for pid in event["skipped"]:
        left = players[pid]["skip_turns"] - 1
        players[pid] = {**players[pid], "skip_turns": left,
                        "skip_reason": players[pid].get("skip_reason") if left else None}
    lapsed = set(event["lapsed"])
    return {
        **state, "players": players, "round": event["round"],
        "offers": [o for o in state["offers"] if o["id"] not in lapsed],
        "turn": {"player": event["next"], "rolled": False, "dice": None, "moved": {}},
    }


@folds("ResourcesAdjusted")
def _adjusted(state: State, event: Event) -> State:
    return _resources(state, event["player"], event["resources"])


@folds("GameWon")
def _won(state: State, event: Event) -> State:
    return {**state, "phase": "finished", "winner": event["player"]}
