"""Fold Voyagers' Venture's events into state: pure, never failing, copying only what changes."""

from __future__ import annotations

from shipmate.rules import Event, State
from shipmate.rules.table import Folds, created_state, seat, with_player

folds = Folds()
evolve = folds.evolve


def _without_cards(state: State, pid: str, cards: list[str]) -> State:
    gone = set(cards)
    return with_player(state, pid, hand=[c for c in state["players"][pid]["hand"] if c["id"] not in gone])


@folds("GameCreated")
def _created(state: State, event: Event) -> State:
    return created_state(
        event, round=0, year=None, stage=None, turn_order=[],
        display=[], doubloons={}, received=[], bid=None, ranking=None,
    )


@folds("PlayerJoined")
def _joined(state: State, event: Event) -> State:
    return seat(state, event, {"hand": [], "gold": 0, "score": None})


@folds("GameStarted")
def _started(state: State, event: Event) -> State:
    players = {pid: {**p, "gold": event["gold"][pid]} for pid, p in state["players"].items()}
    return {**state, "phase": "playing", "players": players, "turn_order": list(event["turn_order"]),
            "round": event["round"], "year": event["year"], "stage": "display"}


@folds("CardsDisplayed")
def _displayed(state: State, event: Event) -> State:
    # VV2 (house default): cards left from earlier years stay on display, doubloons and all
    return {**state, "display": [*state["display"], *event["cards"]], "stage": "naming"}


@folds("BidNamed")
def _named(state: State, event: Event) -> State:
    bid = {"bidder": event["player"], "cards": list(event["cards"]), "voters": list(event["voters"]),
           "cutter": None}
    return {**state, "bid": bid, "stage": "voting"}


@folds("BidAgreed")
def _agreed(state: State, event: Event) -> State:
    bid = state["bid"]
    return {**state, "bid": {**bid, "voters": bid["voters"][1:]}}


@folds("BidDisagreed")
def _disagreed(state: State, event: Event) -> State:
    return {**state, "bid": {**state["bid"], "cutter": event["player"]}, "stage": "cutting"}


@folds("BidCut")
def _cut(state: State, event: Event) -> State:
    pid, card = event["player"], event["doubloon_on"]
    if card is not None:  # VV7: the doubloon leaves the cutter and rides on the card
        state = with_player(state, pid, gold=state["players"][pid]["gold"] - 1)
        state = {**state, "doubloons": {**state["doubloons"],
                                        card: [*state["doubloons"].get(card, []), pid]}}
    bid = {"bidder": pid, "cards": list(event["cards"]), "voters": list(event["voters"]),
           "cutter": None}
    return {**state, "bid": bid, "stage": "voting"}


@folds("BidReceived")
def _received(state: State, event: Event) -> State:
    pid = event["player"]
    taken = {c["id"] for c in event["cards"]}
    player = state["players"][pid]
    # VV5 and VV7: the cards go into the hand, with every doubloon that lay on them
    state = with_player(state, pid, hand=[*player["hand"], *event["cards"]],
                    gold=player["gold"] + event["doubloons"])
    return {**state, "display": [c for c in state["display"] if c["id"] not in taken],
            "doubloons": {c: d for c, d in state["doubloons"].items() if c not in taken},
            "received": [*state["received"], pid], "bid": None, "stage": "naming"}


@folds("DivisionEnded")
def _division_ended(state: State, event: Event) -> State:
    return {**state, "stage": "discarding"}


@folds("CardsDiscarded", "CardsPlayed")
def _cards_gone(state: State, event: Event) -> State:
    return _without_cards(state, event["player"], event["cards"])


@folds("RoundEnded")
def _round_ended(state: State, event: Event) -> State:
    return {**state, "stage": event["next"]}


@folds("TurnOrderSet")
def _ordered(state: State, event: Event) -> State:
    return {**state, "turn_order": list(event["order"])}


@folds("RoundBegan")
def _round_began(state: State, event: Event) -> State:
    return {**state, "round": event["round"], "year": event["year"], "stage": "display",
            "received": [], "bid": None}


@folds("GoldSet")
def _gold(state: State, event: Event) -> State:
    return with_player(state, event["player"], gold=event["gold"])


@folds("PurchasesClosed")
def _purchases_closed(state: State, event: Event) -> State:
    return {**state, "stage": "scoring"}


@folds("ScoreEntered")
def _scored(state: State, event: Event) -> State:
    return with_player(state, event["player"], score={**event["entry"], "reputation": event["reputation"]})


@folds("GameRanked")
def _ranked(state: State, event: Event) -> State:
    return {**state, "ranking": event["ranking"], "phase": "finished", "stage": None}
