"""Fold Serenissima's events into state: pure, never failing, copying only the path that changes."""

from __future__ import annotations

from shipmate.rules import Event, State
from shipmate.rules.table import Folds, created_state, seat, with_player

folds = Folds()
evolve = folds.evolve


def _ducats(state: State, pid: str | None, delta: int) -> State:
    if pid is None:  # the bank (the treasurer) has no ledger
        return state
    return with_player(state, pid, ducats=state["players"][pid]["ducats"] + delta)


def _goods(state: State, pid: str, good: str, delta: int) -> State:
    goods = state["players"][pid]["goods"]
    return with_player(state, pid, goods={**goods, good: goods.get(good, 0) + delta})


def _new_phase(state: State, number: int) -> State:
    return {**state, "step": number, "finished": []}


@folds("GameCreated")
def _created(state: State, event: Event) -> State:
    return created_state(
        event, round=0, step=0, finished=[], turn_order=[],
        bids={}, revealed=None, rolls=[], pick_order=[], positions={},
        ports={}, offers=[], offer_seq=0,
    )


@folds("PlayerJoined")
def _joined(state: State, event: Event) -> State:
    return seat(state, event, {"ducats": 0, "galleys": [], "home_sailors": 0, "goods": {}})


@folds("GameStarted")
def _started(state: State, event: Event) -> State:
    players = {pid: {**state["players"][pid], **ledger} for pid, ledger in event["ledgers"].items()}
    # SE4: the round marker starts at 1, in phase 1; the seating stands as the order until the bids
    return {**_new_phase(state, 1), "phase": "playing", "players": players, "ports": event["ports"],
            "round": event["round"], "turn_order": list(event["seats"])}


@folds("SailorsPlaced")
def _sailors(state: State, event: Event) -> State:
    galleys = [{**g, "sailors": event["galleys"][str(g["number"])]}
               for g in state["players"][event["player"]]["galleys"]]
    return with_player(state, event["player"], home_sailors=event["home"], galleys=galleys)


@folds("BidPlaced")
def _bid(state: State, event: Event) -> State:
    return {**state, "bids": {**state["bids"], event["player"]: event["ducats"]}}


@folds("BidsRevealed")
def _revealed(state: State, event: Event) -> State:
    for pid, ducats in event["bids"].items():
        state = _ducats(state, pid, -ducats)  # SE10: all bids leave the game
    counters = state["counters"]
    return {**state, "bids": {}, "revealed": dict(event["bids"]), "rolls": event["rolls"],
            "pick_order": list(event["pick_order"]),
            "counters": {**counters, "dice": counters["dice"] + len(event["rolls"])}}


@folds("PositionPicked")
def _picked(state: State, event: Event) -> State:
    return {**state, "positions": {**state["positions"], event["player"]: event["position"]}}


@folds("TurnOrderSet")
def _ordered(state: State, event: Event) -> State:
    return {**state, "turn_order": list(event["order"])}


@folds("PhaseBegan")
def _phase_began(state: State, event: Event) -> State:
    return _new_phase(state, event["number"])


@folds("RoundBegan")
def _round_began(state: State, event: Event) -> State:
    return {**_new_phase(state, 1), "round": event["round"], "bids": {}, "revealed": None,
            "rolls": [], "pick_order": [], "positions": {}}


@folds("GalleyMoved")
def _moved(state: State, event: Event) -> State:
    pid = event["player"]
    galleys = [{**g, "port": event["port"], "sea_area": event["sea_area"]}
               if g["number"] == event["galley"] else g for g in state["players"][pid]["galleys"]]
    return with_player(state, pid, galleys=galleys)


@folds("GoodsBought")
def _bought(state: State, event: Event) -> State:
    state = _ducats(state, event["player"], -event["paid"])
    state = _ducats(state, event["paid_to"], event["paid"])
    return _goods(state, event["player"], event["good"], event["count"])


@folds("SaleOffered")
def _offered(state: State, event: Event) -> State:
    return {**state, "offers": [*state["offers"], event["offer"]], "offer_seq": state["offer_seq"] + 1}


@folds("SaleDeclined", "SaleWithdrawn")
def _without_offer(state: State, event: Event) -> State:
    return {**state, "offers": [o for o in state["offers"] if o["id"] != event["offer_id"]]}


@folds("SaleAccepted")
def _sold(state: State, event: Event) -> State:
    state = _goods(state, event["from"], event["good"], -event["count"])
    state = _goods(state, event["to"], event["good"], event["count"])
    state = _ducats(state, event["to"], -event["price"])
    return _without_offer(_ducats(state, event["from"], event["price"]), event)


@folds("PhaseFinished")
def _finished(state: State, event: Event) -> State:
    lapsed = set(event["lapsed"])
    return {**state, "finished": [*state["finished"], event["player"]],
            "offers": [o for o in state["offers"] if o["id"] not in lapsed]}


@folds("GameEnded")
def _ended(state: State, event: Event) -> State:
    return {**state, "phase": "finished", "offers": []}
