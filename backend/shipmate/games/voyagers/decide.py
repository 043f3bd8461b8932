"""Decide Voyagers' Venture's actions: check the rules of RULES.md (VV1–VV20), then say what happened."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from shipmate.rules import (
    Action,
    Event,
    Forbidden,
    InvalidAction,
    RuleViolation,
    State,
    Viewer,
    text,
)
from shipmate.rules.table import (
    Decides,
    Handlers,
    join_event,
    one_of,
    player_name,
    require_host,
    require_lobby,
    require_player,
    settings,
    whole,
)

from .ruleset import BASE, COLOURS, KINDS

decides = Decides()
decide = decides.decide

STAGE_NAMES = {
    "display": ("de kaarten van dit jaar liggen nog niet open", "this year's cards are not on display yet"),
    "naming": ("een speler noemt nu de kaarten die hij wil", "a player is naming the cards they want"),
    "voting": ("de spelers stemmen nu over een bod", "the players are voting on a bid"),
    "cutting": ("een bod wordt nu verkleind", "a bid is being cut"),
    "discarding": ("spelers leggen nu af tot 8 kaarten", "players are discarding down to 8 cards"),
    "order": ("de gastheer zet nu de volgorde van het volgende jaar",
              "the host is setting next year's turn order"),
    "purchase": ("de laatste aankopen lopen", "the last purchases are under way"),
    "scoring": ("de reputatie wordt nu geteld", "reputation is being counted"),
}


# ---- where the game stands ------------------------------------------------------------------


def _stage(state: State, allowed: str, rule: str) -> None:
    """Refuse a move that does not belong to the round's current stage (citing `rule`)."""
    if state["phase"] != "playing":
        raise RuleViolation(rule, text("Het spel loopt niet.", "The game is not running."))
    if state["stage"] != allowed:
        nl, en = STAGE_NAMES[state["stage"]]
        raise RuleViolation(rule, text(f"Dat kan nu niet: {nl}.", f"Not now: {en}."))


def chooser(state: State) -> str | None:
    """Return who names the next bid: along the turn order, the first without a bid this round (VV3)."""
    return next((p for p in state["turn_order"] if p not in state["received"]), None)


def clockwise_from(state: State, pid: str, received: Sequence[str]) -> list[str]:
    """Return the players without a bid this round, clockwise from the one after `pid` (VV4)."""
    seats = state["seats"]
    at = seats.index(pid)
    return [p for p in seats[at + 1:] + seats[:at] if p not in received]


def _card_ids(action: Action, key: str, least: int = 0) -> list[str]:
    cards = action.get(key)
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards) or (
        len(set(cards)) != len(cards) or len(cards) < least
    ):
        raise InvalidAction(text(f"'{key}' is een lijst van minstens {least} verschillende kaarten.",
                                 f"'{key}' is a list of at least {least} different cards."), field=key)
    return cards


def _on_display(state: State, cards: Sequence[str], key: str) -> None:
    shown = {c["id"] for c in state["display"]}
    missing = [c for c in cards if c not in shown]
    if missing:
        raise InvalidAction(text(f"Niet uitgestald: {', '.join(missing)}.",
                                 f"Not on display: {', '.join(missing)}."), field=key)


def _receive(state: State, bidder: str, cards: Sequence[str]) -> list[Event]:
    """Give a bid to its bidder (VV5), and end the division when everyone has had one (VV11, VV12)."""
    taken = [c for c in state["display"] if c["id"] in cards]
    doubloons = sum(len(state["doubloons"].get(c, [])) for c in cards)
    events: list[Event] = [{"type": "BidReceived", "player": bidder, "cards": taken,
                            "doubloons": doubloons}]
    received = [*state["received"], bidder]
    if len(received) < len(state["seats"]):
        return events
    limit = BASE["hand_limit"]
    hands = {p: len(state["players"][p]["hand"]) + (len(taken) if p == bidder else 0)
             for p in state["seats"]}
    over = {p: n for p, n in hands.items() if n > limit}
    events.append({"type": "DivisionEnded", "round": state["round"], "over_limit": over})
    if not over:
        events.append(_round_ended(state))
    return events


def _round_ended(state: State) -> Event:
    last = state["round"] >= BASE["rounds"]
    # VV13: the turn order of the next round comes from the track; VV14: after round 6, the last buy
    return {"type": "RoundEnded", "round": state["round"], "next": "purchase" if last else "order"}


# ---- lobby and start (VV1, VV20) -----------------------------------------------------------


@decides("join")
def _join(state: State, action: Action, actor: Viewer) -> list[Event]:
    # VV20: one colour per player
    return [join_event(state, action, COLOURS, settings(state)["max_players"], "VV20")]


def _order(state: State, action: Action) -> list[str]:
    order = action.get("order")
    if not isinstance(order, list) or sorted(order) != sorted(state["seats"]):
        raise InvalidAction(text(f"'order' zet alle spelers ({', '.join(state['seats'])}) op een rij.",
                                 f"'order' lists every player ({', '.join(state['seats'])}) once."),
                            field="order")
    return order


@decides("start")
def _start(state: State, action: Action, actor: Viewer) -> list[Event]:
    require_host(actor, "start het spel", "starts the game")
    require_lobby(state)
    house = settings(state)
    seated = len(state["seats"])
    if seated < house["min_players"]:
        raise RuleViolation("VV20", text(
            f"Er zijn minstens {house['min_players']} spelers nodig; er zijn er {seated}.",
            f"At least {house['min_players']} players are needed; there are {seated}."))
    order = _order(state, action) if "order" in action else list(state["seats"])
    gold = dict.fromkeys(state["seats"], house["starting_gold"])
    return [{"type": "GameStarted", "seats": list(state["seats"]), "turn_order": order, "gold": gold,
             "round": 1, "year": BASE["first_year"]}]


# ---- 1) the display (VV2) -------------------------------------------------------------------


def _card(value: Any, at: int, taken: set[str]) -> dict[str, str]:
    where = f"cards[{at}]"
    if not isinstance(value, dict):
        raise InvalidAction(text(f"{where} is een object.", f"{where} is an object."), field="cards")
    card_id, kind, name = value.get("id"), value.get("kind"), value.get("name", "")
    if not isinstance(card_id, str) or not 1 <= len(card_id) <= 40 or card_id in taken:
        raise InvalidAction(text(f"{where}.id is een nieuwe, unieke naam (1–40 tekens): {card_id!r}.",
                                 f"{where}.id is a new, unique id (1–40 characters): {card_id!r}."),
                            field="cards")
    if kind not in KINDS:
        raise InvalidAction(text(f"{where}.kind is {' of '.join(KINDS)}: {kind!r}.",
                                 f"{where}.kind is {' or '.join(KINDS)}: {kind!r}."), field="cards")
    if not isinstance(name, str) or len(name) > 60:
        raise InvalidAction(text(f"{where}.name is tekst (hoogstens 60 tekens).",
                                 f"{where}.name is text (at most 60 characters)."), field="cards")
    taken.add(card_id)
    return {"id": card_id, "kind": kind, "name": name}


@decides("display")
def _display(state: State, action: Action, actor: Viewer) -> list[Event]:
    require_host(actor, "legt de kaarten open", "displays the cards")
    _stage(state, "display", "VV2")
    cards = action.get("cards")
    if not isinstance(cards, list) or not cards:
        raise InvalidAction(text("'cards' is een niet-lege lijst.", "'cards' is a non-empty list."),
                            field="cards")
    taken = {c["id"] for c in state["display"]}
    taken |= {c["id"] for p in state["players"].values() for c in p["hand"]}
    shown = [_card(value, at, taken) for at, value in enumerate(cards)]
    return [{"type": "CardsDisplayed", "round": state["round"], "cards": shown}]


# ---- 2) dividing the sponsor (VV3–VV11) -----------------------------------------------------


@decides("name_bid")
def _name_bid(state: State, action: Action, actor: Viewer) -> list[Event]:
    _stage(state, "naming", "VV3")
    pid = require_player(state, actor)
    turn = str(chooser(state))
    if pid != turn:
        raise RuleViolation("VV3", text(f"{player_name(state, turn)} noemt nu een bod, niet jij.",
                                        f"{player_name(state, turn)} names a bid now, not you."))
    cards = _card_ids(action, "cards")
    _on_display(state, cards, "cards")
    least = min(settings(state)["min_bid_cards"], len(state["display"]))
    if len(cards) < least:
        raise RuleViolation("VV3", text(
            f"Een bod noemt minstens {least} kaart(en) zolang er kaarten liggen; dit bod noemt er "
            f"{len(cards)}.",
            f"A bid names at least {least} card(s) while cards are on display; this one names "
            f"{len(cards)}."))
    voters = clockwise_from(state, pid, state["received"]) if cards else []
    events: list[Event] = [{"type": "BidNamed", "player": pid, "cards": cards, "voters": voters}]
    if not voters:  # VV5: nobody left to disagree (the last player, or an empty display)
        events += _receive(state, pid, cards)
    return events


def _voter(state: State, actor: Viewer) -> str:
    _stage(state, "voting", "VV4")
    pid = require_player(state, actor)
    voter = state["bid"]["voters"][0]
    if pid != voter:
        raise RuleViolation("VV4", text(f"{player_name(state, voter)} stemt nu, niet jij.",
                                        f"{player_name(state, voter)} votes now, not you."))
    return pid


@decides("agree")
def _agree(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid = _voter(state, actor)
    bid = state["bid"]
    events: list[Event] = [{"type": "BidAgreed", "player": pid}]
    if len(bid["voters"]) == 1:  # VV5: all agree, the bidder takes the cards at once
        events += _receive(state, bid["bidder"], bid["cards"])
    return events


def _outside(state: State) -> list[str]:
    bid = set(state["bid"]["cards"])
    return [c["id"] for c in state["display"] if c["id"] not in bid]


@decides("disagree")
def _disagree(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid = _voter(state, actor)
    size = len(state["bid"]["cards"])
    least = settings(state)["min_bid_cards"]
    gold = state["players"][pid]["gold"]
    can_cut = (gold >= 1 and _outside(state)) or size - 1 >= least
    if not can_cut:
        # VV6: whoever disagrees must cut, so a bid that cannot be cut cannot be disagreed with
        raise RuleViolation("VV6", text(
            f"Dit bod ({size} kaart(en)) kan niet kleiner en jij hebt {gold} dubloenen om te leggen.",
            f"This bid ({size} card(s)) cannot shrink and you have {gold} doubloons to place."))
    return [{"type": "BidDisagreed", "player": pid}]


Cutter = Callable[[State, Action, str], dict[str, Any]]
cuts: Handlers[Cutter] = Handlers()


@decides("cut")
def _cut(state: State, action: Action, actor: Viewer) -> list[Event]:
    _stage(state, "cutting", "VV6")
    pid = require_player(state, actor)
    cutter = state["bid"]["cutter"]
    if pid != cutter:
        raise RuleViolation("VV6", text(f"{player_name(state, cutter)} verkleint nu het bod, niet jij.",
                                        f"{player_name(state, cutter)} cuts the bid now, not you."))
    kind = one_of(action, "kind", BASE["cut_kinds"])
    cut = cuts.table[kind](state, action, pid)
    received = state["received"]
    # VV10: agreeing goes on clockwise from the player who cut, who now holds the bid
    voters = clockwise_from(state, pid, received)
    return [{"type": "BidCut", "player": pid, "kind": kind, "voters": voters, **cut}]


@cuts("doubloon")
def _cut_doubloon(state: State, action: Action, pid: str) -> dict[str, Any]:
    card = one_of(action, "card", [c["id"] for c in state["display"]])
    if card in state["bid"]["cards"]:
        raise RuleViolation("VV7", text(
            f"De dubloen gaat op een kaart buiten het bod; {card} zit in het bod.",
            f"The doubloon goes on a card outside the bid; {card} is in the bid."))
    gold, price = state["players"][pid]["gold"], BASE["cuts"]["doubloons"]
    if gold < price:
        raise RuleViolation("VV7", text(f"Je hebt {gold} gouden dubloenen; er is er {price} nodig.",
                                        f"You have {gold} gold doubloons; {price} is needed."))
    # VV7: the bid may keep its size; the doubloon rides on that card until someone takes it
    return {"cards": list(state["bid"]["cards"]), "removed": [], "added": None, "doubloon_on": card}


def _removal(state: State, action: Action, key: str, least: int, rule: str) -> list[str]:
    removed = _card_ids(action, key, 1)
    bid = state["bid"]["cards"]
    stray = [c for c in removed if c not in bid]
    if stray:
        raise RuleViolation(rule, text(f"Niet in het bod: {', '.join(stray)}.",
                                       f"Not in the bid: {', '.join(stray)}."))
    if len(removed) < least:
        raise RuleViolation(rule, text(
            f"Deze manier haalt minstens {least} kaarten weg; jij haalt er {len(removed)} weg.",
            f"This way removes at least {least} cards; you remove {len(removed)}."))
    return removed


@cuts("remove")
def _cut_remove(state: State, action: Action, pid: str) -> dict[str, Any]:
    removed = _removal(state, action, "cards", BASE["cuts"]["remove_at_least"], "VV8")  # VV8: one or more
    kept = [c for c in state["bid"]["cards"] if c not in removed]
    least = settings(state)["min_bid_cards"]
    if len(kept) < least:
        raise RuleViolation("VV8", text(
            f"Een bod houdt minstens {least} kaart(en); er zouden er {len(kept)} overblijven.",
            f"A bid keeps at least {least} card(s); {len(kept)} would be left."))
    return {"cards": kept, "removed": removed, "added": None, "doubloon_on": None}


@cuts("swap")
def _cut_swap(state: State, action: Action, pid: str) -> dict[str, Any]:
    removed = _removal(state, action, "remove", BASE["cuts"]["swap_remove_at_least"], "VV9")  # two or more
    added = one_of(action, "add", [c["id"] for c in state["display"]])
    if added in state["bid"]["cards"]:
        raise RuleViolation("VV9", text(
            f"De toegevoegde kaart komt van de uitstalling, buiten het bod; {added} zit in het bod.",
            f"The added card comes from the display, outside the bid; {added} is in the bid."))
    kept = [c for c in state["bid"]["cards"] if c not in removed]
    return {"cards": [*kept, added], "removed": removed, "added": added, "doubloon_on": None}


# ---- 3) assembling fleets, the hand limit, next year's order (VV11–VV13) -------------------


@decides("discard")
def _discard(state: State, action: Action, actor: Viewer) -> list[Event]:
    _stage(state, "discarding", "VV12")
    pid = require_player(state, actor)
    hand = [c["id"] for c in state["players"][pid]["hand"]]
    limit = BASE["hand_limit"]
    excess = len(hand) - limit
    cards = _card_ids(action, "cards", 1)
    stray = [c for c in cards if c not in hand]
    if stray:
        raise InvalidAction(text(f"Niet in je hand: {', '.join(stray)}.",
                                 f"Not in your hand: {', '.join(stray)}."), field="cards")
    if len(cards) != excess:
        # VV12: discard face-down down to 8, no more and no less
        raise RuleViolation("VV12", text(
            f"Je hebt {len(hand)} kaarten; leg er {max(excess, 0)} af tot {limit}, niet {len(cards)}.",
            f"You hold {len(hand)} cards; discard {max(excess, 0)} down to {limit}, not {len(cards)}."))
    events: list[Event] = [{"type": "CardsDiscarded", "player": pid, "cards": cards}]
    still_over = [p for p in state["seats"]
                  if p != pid and len(state["players"][p]["hand"]) > limit]
    if not still_over:
        events.append(_round_ended(state))
    return events


@decides("play_cards")
def _play_cards(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid = require_player(state, actor)
    if state["phase"] != "playing" or state["stage"] == "scoring":
        raise RuleViolation("VV14", text("Er worden geen kaarten meer gespeeld.",
                                         "No more cards are played."))
    hand = [c["id"] for c in state["players"][pid]["hand"]]
    cards = _card_ids(action, "cards", 1)
    stray = [c for c in cards if c not in hand]
    if stray:
        raise InvalidAction(text(f"Niet in je hand: {', '.join(stray)}.",
                                 f"Not in your hand: {', '.join(stray)}."), field="cards")
    # VV20: cards spent on the table (ships, nobles) leave the phone's hand
    return [{"type": "CardsPlayed", "player": pid, "cards": cards}]


@decides("turn_order")
def _turn_order(state: State, action: Action, actor: Viewer) -> list[Event]:
    require_host(actor, "zet de volgorde", "sets the turn order")
    _stage(state, "order", "VV13")
    order = _order(state, action)
    year = BASE["first_year"] + state["round"]
    # VV13: the markers of the next-round track move to the current-round track; VV1: next year
    return [{"type": "TurnOrderSet", "order": order},
            {"type": "RoundBegan", "round": state["round"] + 1, "year": year}]


@decides("set_gold")
def _set_gold(state: State, action: Action, actor: Viewer) -> list[Event]:
    require_host(actor, "telt het goud", "sets the gold")
    if state["phase"] != "playing":
        raise RuleViolation("VV20", text("Het spel loopt niet.", "The game is not running."))
    pid = one_of(action, "player", state["seats"])
    return [{"type": "GoldSet", "player": pid, "gold": whole(action, "gold", 0)}]


# ---- end of the game (VV14–VV19) ------------------------------------------------------------


@decides("close_purchases")
def _close_purchases(state: State, action: Action, actor: Viewer) -> list[Event]:
    require_host(actor, "sluit de laatste aankopen", "closes the last purchases")
    _stage(state, "purchase", "VV14")
    return [{"type": "PurchasesClosed", "round": state["round"]}]


SCORE_FIELDS = ("tips", "ships", "nobles", "ship_count", "gold", "smuggled", "resources")


@decides("score")
def _score(state: State, action: Action, actor: Viewer) -> list[Event]:
    _stage(state, "scoring", "VV15")
    pid = one_of(action, "player", state["seats"])
    if not actor.host and actor.player != pid:
        raise Forbidden(text("Je vult alleen je eigen reputatie in.", "You enter only your own score."))
    entry: dict[str, Any] = {key: whole(action, key, 0) for key in SCORE_FIELDS}
    fastest = action.get("fastest_fleet")
    if not isinstance(fastest, bool):
        raise InvalidAction(text("'fastest_fleet' is waar of onwaar.",
                                 "'fastest_fleet' is true or false."), field="fastest_fleet")
    lowest = action.get("lowest_ship_card")
    if entry["ship_count"] == 0:
        if lowest is not None:
            raise InvalidAction(text("Zonder schepen is 'lowest_ship_card' null.",
                                     "Without ships 'lowest_ship_card' is null."),
                                field="lowest_ship_card")
    else:
        lowest = whole(action, "lowest_ship_card", 1)
    holder = next((p for p in state["seats"] if p != pid and (state["players"][p]["score"] or {})
                   .get("fastest_fleet")), None)
    if fastest and holder is not None:
        raise RuleViolation("VV16", text(
            f"Er is één snelste-vloot-fiche en {player_name(state, holder)} heeft het al.",
            f"There is one fastest-fleet token and {player_name(state, holder)} already has it."))
    entry |= {"fastest_fleet": fastest, "lowest_ship_card": lowest}
    events: list[Event] = [{"type": "ScoreEntered", "player": pid, "entry": entry,
                            "reputation": reputation(entry)}]
    scores = {p: state["players"][p]["score"] for p in state["seats"]} | {pid: entry}
    if all(s is not None for s in scores.values()):
        events.append({"type": "GameRanked", "ranking": ranking(state["seats"], scores)})
    return events


def reputation(entry: dict[str, Any]) -> int:
    """Return a player's reputation (VV15–VV18) from the numbers entered at the end."""
    bonus = BASE["reputation"]
    total: int = (entry["tips"] + entry["ships"] + entry["nobles"]  # VV15
            + (bonus["fastest_fleet"] if entry["fastest_fleet"] else 0)  # VV16
            + entry["gold"] // bonus["gold_per_point"]  # VV17
            - bonus["smuggled_penalty"] * entry["smuggled"])  # VV18
    return total


def _standing(entry: dict[str, Any]) -> tuple[int, int, int, float]:
    # VV19: reputation, then most ships, then most resources, then the lowest card number on a ship
    lowest = entry["lowest_ship_card"]
    return (-reputation(entry), -entry["ship_count"], -entry["resources"],
            float("inf") if lowest is None else lowest)


def ranking(seats: Sequence[str], scores: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the players best first, each with their place and what set them behind the one before."""
    ordered = sorted(seats, key=lambda p: _standing(scores[p]))
    rows: list[dict[str, Any]] = []
    for at, pid in enumerate(ordered):
        standing = _standing(scores[pid])
        behind_by, place = None, 1
        if rows:
            before = _standing(scores[ordered[at - 1]])
            differs = [k for k, a, b in zip(BASE["tie_breaks"], before, standing, strict=True) if a != b]
            behind_by = differs[0] if differs else None
            place = rows[-1]["place"] if behind_by is None else at + 1
        rows.append({"player": pid, "place": place, "reputation": reputation(scores[pid]),
                     "behind_by": behind_by})
    return rows
