"""Decide Serenissima's actions: check the rules of RULES.md (SE1–SE19), then say what happened."""

from __future__ import annotations

from typing import Any

from shipmate.rules import (
    Action,
    Event,
    Forbidden,
    InvalidAction,
    RuleViolation,
    State,
    Viewer,
    die,
    text,
)
from shipmate.rules.table import (
    Decides,
    join_event,
    one_of,
    player_name,
    require_host,
    require_lobby,
    require_player,
    settings,
    whole,
)

from .ruleset import BASE, GOODS, PHASES, PORTS, POSITIONS, POWERS, SEA_AREAS

decides = Decides()
decide = decides.decide


# ---- where the game stands ------------------------------------------------------------------


def _phase_name(number: int, language: str) -> str:
    name: str = PHASES[number - 1]["name"][language]
    return name


def _playing(state: State) -> None:
    # a finished game never gets here: the core refuses every action after the end (SE19)
    if state["phase"] == "lobby":
        raise RuleViolation("SE4", text("Het spel is nog niet begonnen.", "The game has not started yet."))


def _in_phase(state: State, number: int, nl: str, en: str) -> None:
    """Refuse a move that belongs to another phase of the round (SE4: phases in order)."""
    _playing(state)
    now = state["step"]
    if now != number:
        raise RuleViolation("SE4", text(
            f"Het is fase {now} ({_phase_name(now, 'nl')}); {nl} hoort bij fase {number}.",
            f"This is phase {now} ({_phase_name(now, 'en')}); {en} belongs to phase {number}."))


def active_player(state: State) -> str | None:
    """Return whose turn it is in phases 2–6: the first in turn order who has not finished (SE11)."""
    if state["phase"] != "playing" or state["step"] == 1:
        return None
    return next((p for p in state["turn_order"] if p not in state["finished"]), None)


def _on_turn(state: State, actor: Viewer) -> str:
    """Return the acting player when it is their turn in this phase, or refuse (SE11)."""
    _playing(state)
    pid = require_player(state, actor)
    active = active_player(state)
    if state["step"] > 1 and pid != active:
        position = POSITIONS[state["turn_order"].index(str(active))]
        raise RuleViolation("SE11", text(
            f"In deze fase is {player_name(state, str(active))} ({position}) aan de beurt, niet jij.",
            f"In this phase it is {player_name(state, str(active))}'s turn ({position}), not yours."))
    return pid


def _galley(state: State, pid: str, action: Action) -> dict[str, Any]:
    galleys = state["players"][pid]["galleys"]
    number = whole(action, "galley", 1, len(galleys))
    galley: dict[str, Any] = galleys[number - 1]
    return galley


def _capital_port(power: str) -> dict[str, Any]:
    return PORTS[POWERS[power]["capital"]]


# ---- lobby (SE1, SE2) -----------------------------------------------------------------------


@decides("join")
def _join(state: State, action: Action, actor: Viewer) -> list[Event]:
    # SE1: each player is one sea power; a power is taken once
    return [join_event(state, action, POWERS, len(POWERS), "SE1")]


@decides("start")
def _start(state: State, action: Action, actor: Viewer) -> list[Event]:
    require_host(actor, "start het spel", "starts the game")
    require_lobby(state)
    seats = state["seats"]
    powers = sorted(state["players"][pid]["character"] for pid in seats)
    setups = BASE["setups"].get(str(len(seats)), [])
    if not any(sorted(setup) == powers for setup in setups):
        # SE1: 2 players Venice–Genoa or Spain–Turkey; 3 without Turkey; 4 all
        allowed = " / ".join(" + ".join(POWERS[p]["name"]["en"] for p in s) for s in setups)
        allowed_nl = " / ".join(" + ".join(POWERS[p]["name"]["nl"] for p in s) for s in setups)
        chosen = " + ".join(POWERS[p]["name"]["en"] for p in powers)
        chosen_nl = " + ".join(POWERS[p]["name"]["nl"] for p in powers)
        raise RuleViolation("SE1", text(
            f"Met {len(seats)} spelers mag {allowed_nl or 'niets (2 tot 4 spelers)'}; "
            f"gekozen is {chosen_nl or 'niets'}.",
            f"With {len(seats)} players the powers are {allowed or 'none (2 to 4 players)'}; "
            f"chosen: {chosen or 'none'}."))
    start = BASE["start"]
    ledgers = {}
    for pid in seats:
        # SE2: 2 galleys in the capital's port, 10 sailors (SE3: at home until placed), 2000 ducats
        home = _capital_port(state["players"][pid]["character"])
        galleys = [{"number": n + 1, "port": home["id"], "sea_area": home["sea_area"], "sailors": 0}
                   for n in range(start["galleys"])]
        ledgers[pid] = {"ducats": start["ducats"], "galleys": galleys,
                        "home_sailors": start["sailors"], "goods": {}}
    owner = {state["players"][pid]["character"]: pid for pid in seats}
    # a capital is its power's port; the capital of a power nobody plays is neutral
    ports = {p["id"]: owner.get(p["capital_of"]) for p in BASE["ports"]}
    return [{"type": "GameStarted", "seats": list(seats), "ledgers": ledgers, "ports": ports,
             "round": 1}]


# ---- sailors (SE3) --------------------------------------------------------------------------


@decides("place_sailors")
def _place_sailors(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid = _on_turn(state, actor)
    # SE3: sailors are placed at the start (round 1, before the bids are revealed) and in phase 2
    setting_up = state["round"] == 1 and state["step"] == 1 and state["revealed"] is None
    if not setting_up:
        _in_phase(state, 2, "zeelui verdelen", "placing sailors")
    player = state["players"][pid]
    home = whole(action, "home", 0)
    spread = action.get("galleys", {})
    numbers = [str(g["number"]) for g in player["galleys"]]
    if not isinstance(spread, dict) or any(k not in numbers for k in spread):
        raise InvalidAction(text(f"'galleys' geeft zeelui per galei ({', '.join(numbers)}).",
                                 f"'galleys' maps galleys ({', '.join(numbers)}) to sailors."),
                            field="galleys")
    aboard = {n: whole(spread, n, 0) if n in spread else 0 for n in numbers}
    total = player["home_sailors"] + sum(g["sailors"] for g in player["galleys"])
    placed = home + sum(aboard.values())
    if placed != total:
        raise RuleViolation("SE3", text(
            f"Je hebt {total} zeelui; deze verdeling plaatst er {placed}.",
            f"You have {total} sailors; this split places {placed}."))
    return [{"type": "SailorsPlaced", "player": pid, "home": home, "galleys": aboard}]


# ---- phase 1: sealed bids for turn order (SE5–SE10) -----------------------------------------


@decides("bid")
def _bid(state: State, action: Action, actor: Viewer) -> list[Event]:
    _in_phase(state, 1, "bieden", "bidding")
    pid = _on_turn(state, actor)
    if state["revealed"] is not None:
        raise RuleViolation("SE6", text("De biedingen liggen al open op tafel.",
                                        "The bids are already revealed."))
    ducats = whole(action, "ducats", 0)
    own = state["players"][pid]["ducats"]
    if ducats > own:
        raise RuleViolation("SE5", text(f"Je hebt {own} dukaten; dit bod is {ducats}.",
                                        f"You have {own} ducats; this bid is {ducats}."))
    events: list[Event] = [{"type": "BidPlaced", "player": pid, "ducats": ducats}]
    bids = {**state["bids"], pid: ducats}
    if set(bids) == set(state["seats"]):
        events.append(_reveal(state, bids))  # SE6: all bids on the table at once
    return events


def _reveal(state: State, bids: dict[str, int]) -> Event:
    """Reveal every bid and settle the order of picking (SE6–SE9), rolling dice for ties."""
    index = state["counters"]["dice"]
    rolls: list[dict[str, Any]] = []

    def settle(group: list[str], bid: int) -> list[str]:
        nonlocal index
        if len(group) == 1:
            return group
        # SE8 and SE9: equal bids (also several bids of nothing) roll a die; the highest picks first
        values = {}
        for pid in group:
            rolled = {"index": index, "value": die(state["seed"], index)}
            index += 1
            rolls.append({"player": pid, "bid": bid, "die": rolled})
            values[pid] = rolled["value"]
        order: list[str] = []
        for value in sorted(set(values.values()), reverse=True):
            order += settle([p for p in group if values[p] == value], bid)
        return order

    pick_order: list[str] = []
    # SE7: the highest bid picks first, then by size of bid; SE9: a bid of nothing sorts last
    for amount in sorted(set(bids.values()), reverse=True):
        pick_order += settle([p for p in state["seats"] if bids[p] == amount], amount)
    return {"type": "BidsRevealed", "bids": {p: bids[p] for p in state["seats"]},
            "rolls": rolls, "pick_order": pick_order}


@decides("pick_position")
def _pick_position(state: State, action: Action, actor: Viewer) -> list[Event]:
    _in_phase(state, 1, "een plaats kiezen", "picking a position")
    pid = require_player(state, actor)
    if state["revealed"] is None:
        raise RuleViolation("SE6", text("Eerst liggen alle biedingen op tafel.",
                                        "First every bid must be on the table."))
    picker = state["pick_order"][len(state["positions"])]
    if pid != picker:
        raise RuleViolation("SE7", text(
            f"{player_name(state, picker)} kiest nu een plaats, niet jij.",
            f"{player_name(state, picker)} picks a position now, not you."))
    position = whole(action, "position", 1, len(POSITIONS))
    taken = {pos: p for p, pos in state["positions"].items()}
    if position in taken:
        label = POSITIONS[position - 1]
        raise RuleViolation("SE7", text(
            f"Plaats {label} is al gekozen door {player_name(state, taken[position])}.",
            f"Position {label} is already taken by {player_name(state, taken[position])}."))
    events: list[Event] = [{"type": "PositionPicked", "player": pid, "position": position}]
    positions = {**state["positions"], pid: position}
    if len(positions) == len(state["seats"]):
        # SE11: the order holds for every following phase of this round
        order = sorted(positions, key=positions.__getitem__)
        events += [{"type": "TurnOrderSet", "order": order},
                   {"type": "PhaseBegan", "round": state["round"], "number": 2}]
    return events


# ---- phase 2: goods (SE12–SE17) -------------------------------------------------------------


@decides("move_galley")
def _move_galley(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid = _on_turn(state, actor)
    if state["step"] == 1:
        raise RuleViolation("SE4", text("Galeien verzetten hoort niet bij fase 1.",
                                        "Moving galleys does not belong to phase 1."))
    galley = _galley(state, pid, action)
    if ("port" in action) == ("sea_area" in action):
        raise InvalidAction(text("Geef een haven ('port') of een zeeveld ('sea_area').",
                                 "Give a port ('port') or a sea area ('sea_area')."), field="port")
    if "port" in action:
        port = one_of(action, "port", PORTS)
        # SE12: a galley in a port lies in the sea area next to that port
        where = {"port": port, "sea_area": PORTS[port]["sea_area"]}
    else:
        where = {"port": None, "sea_area": one_of(action, "sea_area", SEA_AREAS)}
    return [{"type": "GalleyMoved", "player": pid, "galley": galley["number"], **where}]


@decides("buy")
def _buy(state: State, action: Action, actor: Viewer) -> list[Event]:
    _in_phase(state, 2, "handelswaren kopen", "buying goods")
    pid = _on_turn(state, actor)
    port = PORTS[one_of(action, "port", PORTS)]
    good = one_of(action, "good", GOODS)
    count = whole(action, "count", 1)
    player = state["players"][pid]
    if not any(g["sea_area"] == port["sea_area"] for g in player["galleys"]):
        raise RuleViolation("SE12", text(
            f"Je hebt geen galei in {port['name']['nl']} (zeeveld {port['sea_area']}).",
            f"You have no galley in {port['name']['en']} (sea area {port['sea_area']})."))
    if good not in port["goods"]:
        raise RuleViolation("SE13", text(
            f"In {port['name']['nl']} koop je alleen {', '.join(port['goods'])}, geen {good}.",
            f"{port['name']['en']} sells only {', '.join(port['goods'])}, not {good}."))
    controller = state["ports"][port["id"]]
    house = settings(state)
    if controller is None or controller == pid:
        rule, price, paid_to = "SE14", BASE["good_price"], None
    else:
        rule, price = "SE15", house["foreign_price"]
        paid_to = controller if house["foreign_paid_to"] == "controller" else None
    cost = price * count
    if cost > player["ducats"]:
        raise RuleViolation(rule, text(
            f"Je hebt {player['ducats']} dukaten; {count} {good} kost {cost} ({price} per stuk).",
            f"You have {player['ducats']} ducats; {count} {good} cost {cost} ({price} each)."))
    return [{"type": "GoodsBought", "player": pid, "port": port["id"], "good": good, "count": count,
             "price": price, "paid": cost, "paid_to": paid_to}]


def _offer(state: State, action: Action) -> dict[str, Any]:
    offer_id = action.get("offer_id")
    offer: dict[str, Any] | None = next((o for o in state["offers"] if o["id"] == offer_id), None)
    if offer is None:
        raise RuleViolation("SE16", text(f"Aanbod {offer_id!r} staat niet (meer) open.",
                                         f"Offer {offer_id!r} is not (or no longer) open."))
    return offer


@decides("offer_sale")
def _offer_sale(state: State, action: Action, actor: Viewer) -> list[Event]:
    _in_phase(state, 2, "goederen verkopen", "selling goods")
    seller = require_player(state, actor)
    buyer = one_of(action, "to", [p for p in state["seats"] if p != seller])
    active = active_player(state)
    if active not in (seller, buyer):
        # SE16 (house default): one side of a sale is the player whose turn it is
        raise RuleViolation("SE11", text(
            f"Een verkoop gaat van of naar {player_name(state, str(active))}, die aan de beurt is.",
            f"A sale is from or to {player_name(state, str(active))}, whose turn it is."))
    good = one_of(action, "good", GOODS)
    offer = {"id": f"s{state['offer_seq'] + 1}", "from": seller, "to": buyer, "good": good,
             "count": whole(action, "count", 1), "price": whole(action, "price", 0)}
    return [{"type": "SaleOffered", "offer": offer}]


@decides("accept_sale")
def _accept_sale(state: State, action: Action, actor: Viewer) -> list[Event]:
    _in_phase(state, 2, "goederen verkopen", "selling goods")
    offer = _offer(state, action)
    if actor.player != offer["to"]:
        raise Forbidden(text("Dit aanbod is niet aan jou.", "This offer is not yours to answer."))
    seller, buyer = state["players"][offer["from"]], state["players"][offer["to"]]
    # SE16: both have a galley in the same sea area, checked when the sale is agreed
    shared = {g["sea_area"] for g in seller["galleys"]} & {g["sea_area"] for g in buyer["galleys"]}
    if not shared:
        raise RuleViolation("SE16", text(
            f"{seller['name']} en {buyer['name']} hebben geen galei in hetzelfde zeeveld.",
            f"{seller['name']} and {buyer['name']} have no galleys in the same sea area."))
    held = seller["goods"].get(offer["good"], 0)
    if held < offer["count"]:
        raise RuleViolation("SE16", text(
            f"{seller['name']} heeft {held} {offer['good']}; het aanbod is {offer['count']}.",
            f"{seller['name']} has {held} {offer['good']}; the offer is {offer['count']}."))
    if buyer["ducats"] < offer["price"]:
        raise RuleViolation("SE16", text(
            f"Je hebt {buyer['ducats']} dukaten; de prijs is {offer['price']}.",
            f"You have {buyer['ducats']} ducats; the price is {offer['price']}."))
    return [{"type": "SaleAccepted", "offer_id": offer["id"], "from": offer["from"],
             "to": offer["to"], "good": offer["good"], "count": offer["count"],
             "price": offer["price"], "sea_area": sorted(shared)[0]}]


@decides("decline_sale")
def _decline_sale(state: State, action: Action, actor: Viewer) -> list[Event]:
    offer = _offer(state, action)
    if actor.player != offer["to"]:
        raise Forbidden(text("Dit aanbod is niet aan jou.", "This offer is not yours to answer."))
    return [{"type": "SaleDeclined", "offer_id": offer["id"]}]


@decides("withdraw_sale")
def _withdraw_sale(state: State, action: Action, actor: Viewer) -> list[Event]:
    offer = _offer(state, action)
    if actor.player != offer["from"]:
        raise Forbidden(text("Dit is niet jouw aanbod.", "This is not your offer."))
    return [{"type": "SaleWithdrawn", "offer_id": offer["id"]}]


# ---- the end of a phase, a round, the game (SE4, SE18–SE19) --------------------------------


@decides("finish_phase")
def _finish_phase(state: State, action: Action, actor: Viewer) -> list[Event]:
    _playing(state)
    if state["step"] == 1:
        raise RuleViolation("SE7", text(
            "Fase 1 eindigt vanzelf als iedereen een plaats heeft gekozen.",
            "Phase 1 ends by itself once every player has picked a position."))
    pid = _on_turn(state, actor)
    # SE16 (house default): open sales to or from the player lapse when their part of the phase ends
    lapsed = [o["id"] for o in state["offers"] if pid in (o["from"], o["to"])]
    events: list[Event] = [{"type": "PhaseFinished", "player": pid, "number": state["step"],
                            "lapsed": lapsed}]
    if len(state["finished"]) + 1 < len(state["seats"]):
        return events
    if state["step"] < len(PHASES):
        # SE4: the next phase begins once every player has finished this one
        return [*events, {"type": "PhaseBegan", "round": state["round"], "number": state["step"] + 1}]
    last = settings(state)["rounds"]
    if last is not None and state["round"] >= last:
        return [*events, {"type": "GameEnded", "round": state["round"]}]  # SE19
    # SE4: after the sixth phase the round marker moves on and a new round begins
    return [*events, {"type": "RoundBegan", "round": state["round"] + 1}]


@decides("end_game")
def _end_game(state: State, action: Action, actor: Viewer) -> list[Event]:
    require_host(actor, "beëindigt het spel", "ends the game")
    _playing(state)
    return [{"type": "GameEnded", "round": state["round"]}]  # SE19
