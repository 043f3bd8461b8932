"""Decide Quest 1607's actions: check every rule of rules.json, then say what happened as events."""

from __future__ import annotations

from collections.abc import Mapping
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
    draw,
    text,
)
from shipmate.rules.table import (
    COUNT_MOST,
    Decides,
    counts,
    flag,
    join_event,
    numbered,
    one_of,
    player_name,
    require_host,
    require_lobby,
    require_player,
    whole,
)

from .evolve import deck_after, plus
from .ruleset import HOME, LEVELS, Effects, Rules, rules_for

decides = Decides()
decide = decides.decide

PARTS = {"sails": ("Zeilen", "Sails"), "cannons": ("Kanonnen", "Cannons"),
         "crew": ("Bemanning", "Crew")}
UPGRADED = {"sails": "SailsUpgraded", "cannons": "CannonsUpgraded", "crew": "CrewUpgraded"}
UPGRADE_RULE = {"sails": "U3", "cannons": "U4", "crew": "U1"}
LEVEL_NAMES = {"bronze": ("Brons", "Bronze"), "silver": ("Zilver", "Silver"),
               "gold": ("Goud", "Gold")}


# ---- the rules in force and the parameters ---------------------------------------------------


def _rules(state: State) -> Rules:
    """Return the ruleset the game is played with, its house rules merged in."""
    return rules_for(state["rules_key"])


def _effects(state: State) -> Effects:
    """Return the rules as the active event (E1) bends them: every number an action needs now."""
    return _rules(state).effects[state["event"]]


def _resource_counts(state: State, action: Action, key: str, low: int = 0) -> dict[str, int]:
    """Return the parameter `key`: a map of the game's resources to counts."""
    return counts(action, key, _rules(state).resources, "grondstof", "resource", low)


def _ship(state: State, action: Action, pid: str, key: str = "ship") -> dict[str, Any]:
    """Return the ship of player `pid` that the parameter `key` numbers."""
    return numbered(action, key, state["players"][pid]["ships"], "schip", "ship")


def _shortfall(state: State, pid: str, cost: Mapping[str, int]) -> dict[str, int]:
    have = state["players"][pid]["resources"]
    return {r: have.get(r, 0) for r, n in cost.items() if have.get(r, 0) < n}


def _afford(state: State, pid: str, cost: Mapping[str, int], rule: str, nl: str, en: str) -> None:
    short = _shortfall(state, pid, cost)
    if short:
        names = _rules(state).names
        raise RuleViolation(rule, text(
            f"{nl} kost {names(cost, 'nl')}; je hebt {names(short, 'nl')}",
            f"{en} costs {names(cost, 'en')}; you have {names(short, 'en')}",
        ))


def _total(counted: Mapping[str, int]) -> int:
    return sum(counted.values())


# ---- guards -------------------------------------------------------------------------------


def _playing(state: State, actor: Viewer) -> str:
    """Return the acting player's id once the game is on; refuse the host, strangers, the lobby.

    A finished game never gets here: the core refuses every action after the end (V1).
    """
    if state["phase"] == "lobby":
        raise RuleViolation("S5", text("Het spel is nog niet begonnen.",
                                       "The game has not started yet."))
    return require_player(state, actor)


def _active(state: State, actor: Viewer, rolled: bool = True) -> str:
    """Return the active player's id: it is their turn (T5), they rolled (T1), no fight is on."""
    pid = _playing(state, actor)
    turn = state["turn"]
    if turn["player"] != pid:
        name = player_name(state, turn["player"])
        raise RuleViolation("T5", text(f"Het is niet jouw beurt; {name} is aan de beurt.",
                                       f"It is not your turn; it is {name}'s turn."))
    if rolled and not turn["rolled"]:
        raise RuleViolation("T1", text("Gooi eerst de dobbelstenen: de worp opent de beurt.",
                                       "Roll the dice first: the roll opens the turn."))
    if state["combat"] is not None:
        raise RuleViolation("C6", text("Maak eerst het gevecht af.", "Finish the fight first."))
    return pid


def _roll(state: State, n: int, offset: int = 0) -> list[dict[str, int]]:
    first = state["counters"]["dice"] + offset
    return [{"index": i, "value": die(state["seed"], i)} for i in range(first, first + n)]


def _draw_card(state: State, level: str, number: int, decks: dict[str, list[str]]) -> str:
    full = _rules(state).decks[level]
    deck = decks[level] or list(full)
    card = deck[draw(state["seed"], number, len(deck))]
    decks[level] = deck_after(decks[level], full, card)
    return card


# ---- lobby --------------------------------------------------------------------------------


@decides("join")
def _join(state: State, action: Action, actor: Viewer) -> list[Event]:
    characters = _rules(state).characters
    joined = join_event(state, action, characters, len(characters), "S1")
    return [{**joined, "land_resource": characters[joined["character"]]["land_resource"]}]


@decides("start")
def _start(state: State, action: Action, actor: Viewer) -> list[Event]:
    require_host(actor, "start het spel", "starts the game")
    require_lobby(state)
    least = _rules(state).data["min_players"]
    if len(state["order"]) < least:
        raise RuleViolation("S1", text(
            f"Er zijn minstens {least} spelers nodig; er is er {len(state['order'])}.",
            f"At least {least} players are needed; there are {len(state['order'])}."))
    random_order = flag(action, "random_order", False)
    number = state["counters"]["draws"]
    draws: list[int] = []
    seats = list(state["order"])
    order = seats
    if random_order:  # S5: seated by the seed's draws
        order = []
        while seats:
            order.append(seats.pop(draw(state["seed"], number, len(seats))))
            draws.append(number)
            number += 1
    decks = dict(state["decks"])
    quests = {}
    for i, pid in enumerate(order):  # S4: one free Bronze quest each
        card = _draw_card(state, LEVELS[0], number, decks)
        draws.append(number)
        number += 1
        quests[pid] = {"id": f"q{state['quest_seq'] + i + 1}", "card": card, "level": LEVELS[0]}
    # S3: every ship starts at the home port (the board is physical; the event says so)
    return [{"type": "GameStarted", "order": order, "draw": draws, "quests": quests,
             "at": HOME}]


# ---- the turn -----------------------------------------------------------------------------


@decides("roll")
def _roll_dice(state: State, action: Action, actor: Viewer) -> list[Event]:
    if (actor.host or actor.dice) and state["phase"] == "playing":
        # T1: the table's dice device (or the host's phone) rolls for whoever's turn it is
        actor = Viewer(player=state["turn"]["player"])
    pid = _active(state, actor, rolled=False)
    if state["turn"]["rolled"]:
        raise RuleViolation("T1", text("Je hebt deze beurt al gegooid.",
                                       "You have already rolled this turn."))
    player = state["players"][pid]
    effects = _effects(state)
    # T1: one movement die, two white dice, one more per extra ship (and the event's extras)
    whites = _rules(state).data["white_dice"] + len(player["ships"]) - 1 + effects.extra_white
    move, *white = _roll(state, 1 + whites)
    gains: dict[str, int] = {}
    for d in white:  # T2: the white die's faces
        face = effects.white_die[str(d["value"])]
        resource = player["land_resource"] if face == "land" else face
        gains[resource] = gains.get(resource, 0) + 1
    return [{"type": "DiceRolled", "player": pid, "dice": {"move": move, "white": white},
             "gains": gains}]


def allowance(state: State, pid: str) -> int | None:
    """Return the squares each ship may sail this turn (T3), or None before the roll."""
    turn = state["turn"]
    if not turn or turn["player"] != pid or not turn["rolled"]:
        return None
    lowest: int = min(s["sails"] for s in state["players"][pid]["ships"])
    rolled: int = turn["dice"]["move"]["value"]
    return max(0, max(rolled, lowest) + _effects(state).movement)


@decides("sail")
def _sail(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid = _active(state, actor)
    ship = _ship(state, action, pid)
    squares = whole(action, "squares", 1)
    limit = allowance(state, pid) or 0
    moved = state["turn"]["moved"].get(str(ship["number"]), 0)
    if moved + squares > limit:
        raise RuleViolation("T3", text(
            f"Schip {ship['number']} mag deze beurt {limit} vakjes varen en voer er al {moved}; "
            f"{squares} erbij is te veel.",
            f"Ship {ship['number']} may sail {limit} squares this turn and has sailed {moved}; "
            f"{squares} more is too many."))
    return [{"type": "ShipSailed", "player": pid, "ship": ship["number"], "squares": squares}]


def _next_seat(state: State, pid: str) -> tuple[str, int, list[str]]:
    """Return who plays next clockwise (T5), the round then, and who skipped a turn (C7, C8)."""
    order = state["order"]
    skips = {p: state["players"][p]["skip_turns"] for p in order}
    seat, round_ = order.index(pid), state["round"]
    skipped: list[str] = []
    while True:
        seat = (seat + 1) % len(order)
        round_ += seat == 0
        nxt = order[seat]
        if skips[nxt] == 0:
            return nxt, round_, skipped
        skips[nxt] -= 1
        skipped.append(nxt)


@decides("end_turn")
def _end_turn(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid = _active(state, actor)
    nxt, round_, skipped = _next_seat(state, pid)
    # M1 (house default): open offers lapse when the turn ends
    lapsed = [o["id"] for o in state["offers"]] if _rules(state).data["offers_lapse"] else []
    return [{"type": "TurnEnded", "player": pid, "next": nxt, "round": round_,
             "skipped": skipped, "lapsed": lapsed}]


# ---- trade --------------------------------------------------------------------------------


def _no_embargo(state: State) -> None:
    if _effects(state).no_trade:
        raise RuleViolation("E1", text(
            f"Gebeurtenis {state['event']} verbiedt handel tussen spelers.",
            f"Event {state['event']} forbids trade between players."))


def _active_side(state: State, one: str, other: str) -> None:
    """Refuse a trade without the active player on one side (M1, house default)."""
    if _rules(state).data["trade_with_active_player"] and state["turn"]["player"] not in (one, other):
        raise RuleViolation("M1", text("Eén kant van een ruil is de speler die aan de beurt is.",
                                       "One side of a trade is the player whose turn it is."))


@decides("offer")
def _offer(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid = _playing(state, actor)
    to = one_of(action, "to", state["players"])
    give, get = _resource_counts(state, action, "give"), _resource_counts(state, action, "get")
    if to == pid:
        raise InvalidAction(text("Je kunt niet met jezelf handelen.", "You cannot trade with "
                                 "yourself."), field="to")
    if not give and not get:
        raise InvalidAction(text("Een bod geeft of vraagt iets.", "An offer gives or asks "
                                 "something."), field="give")
    _active_side(state, pid, to)
    if not state["turn"]["rolled"]:
        raise RuleViolation("T1", text("Handel pas na de worp.", "Trade only after the roll."))
    _no_embargo(state)
    offer = {"id": f"o{state['offer_seq'] + 1}", "from": pid, "to": to, "give": give,
             "get": get}
    return [{"type": "OfferMade", "offer": offer}]


def _open_offer(state: State, action: Action, actor: Viewer, side: str) -> dict[str, Any]:
    pid = _playing(state, actor)
    offer_id = action.get("offer_id")
    offer = next((o for o in state["offers"] if o["id"] == offer_id), None)
    if offer is None:
        raise RuleViolation("M1", text(f"Bod {offer_id!r} staat niet (meer) open.",
                                       f"Offer {offer_id!r} is not open (any more)."))
    if offer[side] != pid:
        raise Forbidden(text("Dit bod is niet aan jou.", "This offer is not yours to answer."))
    found: dict[str, Any] = offer
    return found


@decides("accept")
def _accept(state: State, action: Action, actor: Viewer) -> list[Event]:
    offer = _open_offer(state, action, actor, "to")
    _no_embargo(state)
    _active_side(state, offer["from"], offer["to"])
    for pid, pays in ((offer["from"], offer["give"]), (offer["to"], offer["get"])):
        short = _shortfall(state, pid, pays)
        if short:  # M1: an open offer holds nothing back, so both sides are checked now
            name, names = player_name(state, pid), _rules(state).names
            raise RuleViolation("M1", text(
                f"{name} moet {names(pays, 'nl')} geven maar heeft {names(short, 'nl')}",
                f"{name} must give {names(pays, 'en')} but has {names(short, 'en')}"))
    return [{"type": "OfferAccepted", "offer_id": offer["id"], "from": offer["from"],
             "to": offer["to"], "give": offer["give"], "get": offer["get"]}]


@decides("decline")
def _decline(state: State, action: Action, actor: Viewer) -> list[Event]:
    offer = _open_offer(state, action, actor, "to")
    return [{"type": "OfferDeclined", "offer_id": offer["id"], "player": offer["to"]}]


@decides("withdraw")
def _withdraw(state: State, action: Action, actor: Viewer) -> list[Event]:
    offer = _open_offer(state, action, actor, "from")
    return [{"type": "OfferWithdrawn", "offer_id": offer["id"], "player": offer["from"]}]


@decides("market")
def _market(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid = _active(state, actor)
    resources = _rules(state).resources
    give, get = one_of(action, "give", resources), one_of(action, "get", resources)
    if give == get:
        raise InvalidAction(text("Ruil voor een andere grondstof.", "Exchange for another "
                                 "resource."), field="get")
    rate = _effects(state).market_rate  # M2: 4 identical resources buy 1 of choice
    _afford(state, pid, {give: rate}, "M2", "De markt", "The market")
    return [{"type": "MarketTraded", "player": pid, "give": {give: rate}, "get": {get: 1}}]


@decides("bank")
def _bank(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid = _active(state, actor)
    give = _resource_counts(state, action, "give")
    get = one_of(action, "get", _rules(state).resources)
    rate = _effects(state).bank_rate  # M3: any 5 resources buy 1 of choice
    if _total(give) != rate:
        raise RuleViolation("M3", text(
            f"Lever precies {rate} grondstoffen in; je biedt er {_total(give)}.",
            f"Hand in exactly {rate} resources; you offer {_total(give)}."))
    _afford(state, pid, give, "M3", "Eén grondstof", "One resource")
    return [{"type": "BankTraded", "player": pid, "give": give, "get": {get: 1}}]


# ---- upgrades and quest cards -------------------------------------------------------------


def _price(state: State, action: Action, pid: str, item: str) -> dict[str, int]:
    """Return what `item` costs now (U1, U3–U5, bent by the event), with crew's wood-or-cotton."""
    cost = _effects(state).costs[item]
    pay = dict(cost["pay"])
    choice = cost.get("choice")
    chosen = action.get("pay_with") is not None
    if choice is None:
        if chosen:
            raise InvalidAction(text("'pay_with' hoort alleen bij Bemanning.",
                                     "'pay_with' only goes with crew."), field="pay_with")
        return pay
    if chosen:
        pay_with = one_of(action, "pay_with", choice["of"])
    else:  # U1: the player's choice; without one, the first they can pay
        have = state["players"][pid]["resources"]
        pay_with = next((r for r in choice["of"]
                         if have.get(r, 0) >= pay.get(r, 0) + choice["count"]), choice["of"][0])
    pay[pay_with] = pay.get(pay_with, 0) + choice["count"]
    return pay


@decides("upgrade")
def _upgrade(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid = _active(state, actor)
    ship = _ship(state, action, pid)
    part = one_of(action, "part", PARTS)
    nl, en = PARTS[part]
    rule, level = UPGRADE_RULE[part], ship[part] + 1
    data = _rules(state).data
    ships = state["players"][pid]["ships"]
    if part != "crew" and level > data["caps"][part]:  # house default: a die has six faces
        raise RuleViolation(rule, text(f"{nl} staat al op het maximum {data['caps'][part]}.",
                                       f"{en} is already at the maximum {data['caps'][part]}."))
    launches = part == "crew" and level >= data["new_ship_at_crew"]
    if launches and len(ships) >= data["caps"]["ships"]:  # U2 house default: the fleet limit
        raise RuleViolation("U2", text(
            f"Bemanning {level} zou schip {len(ships) + 1} geven, maar de vloot is vol "
            f"({data['caps']['ships']} schepen).",
            f"Crew {level} would launch ship {len(ships) + 1}, but the fleet is full "
            f"({data['caps']['ships']} ships)."))
    pay = _price(state, action, pid, part)
    _afford(state, pid, pay, rule, f"{nl} +1", f"{en} +1")
    events: list[Event] = [{"type": UPGRADED[part], "player": pid, "ship": ship["number"],
                            "part": part, "level": level, "paid": pay}]
    if launches:  # U2: a new ship card at the home port; the old ship's crew starts over
        card = data["new_ship"]
        events.append({"type": "ShipLaunched", "player": pid, "ship": len(ships) + 1,
                       "from_ship": ship["number"], "crew_back": card["crew"], "card": card,
                       "at": HOME})
    return events


@decides("buy_quest")
def _buy_quest(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid = _active(state, actor)
    level = one_of(action, "level", LEVELS)
    pay = _price(state, action, pid, "quest")
    _afford(state, pid, pay, "U5", "Een Quest-kaart", "A quest card")
    number = state["counters"]["draws"]
    card = _draw_card(state, level, number, dict(state["decks"]))
    quest = {"id": f"q{state['quest_seq'] + 1}", "card": card, "level": level}
    return [{"type": "QuestBought", "player": pid, "level": level, "paid": pay, "draw": number,
             "quest": quest}]


def _current_quest(state: State, action: Action,
                   pid: str) -> tuple[dict[str, Any], Mapping[str, Any]]:
    """Return a held quest and its card; only current-level quests can be carried out (Q2)."""
    quest_id = action.get("quest_id")
    player = state["players"][pid]
    quest = next((q for q in player["quests"] if q["id"] == quest_id), None)
    if quest is None:
        raise InvalidAction(text(f"Je hebt geen quest {quest_id!r}.",
                                 f"You hold no quest {quest_id!r}."), field="quest_id")
    if quest["level"] != player["level"]:
        have, now = LEVEL_NAMES[quest["level"]], LEVEL_NAMES.get(player["level"], ("-", "-"))
        raise RuleViolation("Q2", text(
            f"Dit is een {have[0]}-quest; jouw niveau is {now[0]}.",
            f"This is a {have[1]} quest; your level is {now[1]}."))
    return quest, _rules(state).quests[quest["card"]]


def _step_event(state: State, action: Action, pid: str, quest: Mapping[str, Any], index: int,
                requirement: Mapping[str, Any]) -> Event:
    """Return the event of a step; `ship` may be left out of a visit, and of a delivery (Q1, Q3)."""
    named = action.get("ship") is not None
    base = {"player": pid, "quest_id": quest["id"], "step": index}
    if requirement["kind"] == "visit":  # Q1: any ship may visit the place; naming it is optional
        ship = {"ship": _ship(state, action, pid)["number"]} if named else {}
        return {"type": "PlaceVisited", **base, **ship, "place": requirement["place"]}
    loaded_on = quest["progress"][index].get("ship")
    if loaded_on is None:  # Q3: the goods ride on this ship from now on
        if not named:
            raise RuleViolation("Q3", text(
                f"Zeg op welk schip de {requirement['name']['nl'].lower()} geladen worden.",
                f"Say which ship loads the {requirement['name']['en'].lower()}."))
        return {"type": "GoodsLoaded", **base, "ship": _ship(state, action, pid)["number"],
                "good": requirement["good"], "place": requirement["from"]}
    # Q3: delivered by the ship they ride on
    number = _ship(state, action, pid)["number"] if named else loaded_on
    if loaded_on != number:
        raise RuleViolation("Q3", text(
            f"De {requirement['name']['nl'].lower()} liggen op schip {loaded_on}.",
            f"The {requirement['name']['en'].lower()} ride on ship {loaded_on}."))
    return {"type": "GoodsDelivered", **base, "ship": number, "good": requirement["good"],
            "place": requirement["to"]}


@decides("quest_step")
def _quest_step(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid = _active(state, actor)
    quest, card = _current_quest(state, action, pid)
    requirements = card["requirements"]
    index = whole(action, "step", 0, len(requirements) - 1)
    requirement = requirements[index]
    if requirement["kind"] not in ("visit", "cargo"):
        raise InvalidAction(text("Deze eis wordt bij het inleveren gecontroleerd.",
                                 "This requirement is checked when the quest is handed in."),
                            field="step")
    if quest["progress"][index]["done"]:
        raise RuleViolation("Q1", text("Deze stap is al gedaan.", "This step is already done."))
    return [_step_event(state, action, pid, quest, index, requirement)]


_STEPS_NEEDED = {
    "visit": ("nodig: de plek bezoeken", "needed: visit the place"),
    "cargo": ("nodig: de handelswaar afleveren", "needed: deliver the goods"),
    "win_fight": ("nodig: een gewonnen zeeslag", "needed: a won sea fight"),
}


def _unmet(player: Mapping[str, Any], quest: Mapping[str, Any],
           card: Mapping[str, Any]) -> tuple[str, str] | None:
    """Return why a quest cannot be handed in yet (nl, en), or None when every requirement holds."""
    for requirement, progress in zip(card["requirements"], quest["progress"], strict=True):
        kind = requirement["kind"]
        if kind == "ship_level":
            part, need = requirement["part"], requirement["at_least"]
            if all(s[part] < need for s in player["ships"]):
                nl, en = PARTS[part]
                return f"nodig: een schip met {nl} {need}", f"needed: a ship with {en} {need}"
        elif kind == "fleet" and len(player["ships"]) < requirement["ships"]:
            n = requirement["ships"]
            return (f"nodig: {n} schepen, je hebt er {len(player['ships'])}",
                    f"needed: {n} ships, you have {len(player['ships'])}")
        elif kind in _STEPS_NEEDED and not progress["done"]:
            return _STEPS_NEEDED[kind]
    return None


@decides("complete_quest")
def _complete_quest(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid = _active(state, actor)
    quest, card = _current_quest(state, action, pid)
    title = card["title"]
    player = state["players"][pid]
    unmet = _unmet(player, quest, card)
    if unmet:
        raise RuleViolation("Q1", text(f"{title['nl']}: {unmet[0]}.", f"{title['en']}: {unmet[1]}."))
    pay: dict[str, int] = {}
    for requirement in card["requirements"]:
        if requirement["kind"] == "deliver":
            for resource, n in requirement["resources"].items():
                pay[resource] = pay.get(resource, 0) + n
    _afford(state, pid, pay, "Q1", title["nl"], title["en"])
    level = quest["level"]
    per_level = state["options"]["quests_per_level"]
    after = level
    if player["completed"][level] + 1 >= per_level:  # Q2: the next level opens
        after = ([*LEVELS, "done"])[LEVELS.index(level) + 1]
    return [
        {"type": "QuestCompleted", "player": pid, "quest_id": quest["id"], "card": quest["card"],
         "level": level, "paid": pay, "level_after": after},
        _event_drawn(state, pid, pay),
    ]


def _event_drawn(state: State, completer: str, paid: Mapping[str, int]) -> Event:
    """Draw the next event (E1), any event but the active one, and apply its gifts and losses.

    Losses take what players hold once the completer has paid for the quest, never more.
    """
    rules = _rules(state)
    number = state["counters"]["draws"]
    deck = [e for e in rules.events if e != state["event"]]
    event_id = deck[draw(state["seed"], number, len(deck))]
    effects = rules.effects[event_id]
    changes: dict[str, dict[str, int]] = {}
    for pid in state["order"]:
        have = state["players"][pid]["resources"]
        if pid == completer:
            have = plus(have, paid, -1)
        delta = dict(effects.gift)
        for resource, n in effects.loss.items():
            delta[resource] = delta.get(resource, 0) - min(n, have.get(resource, 0))
        changes[pid] = {r: n for r, n in delta.items() if n}
    event = rules.events[event_id]
    return {"type": "EventDrawn", "draw": number, "event": event_id, "title": event["title"],
            "changes": changes}


@decides("reach_edge")
def _reach_edge(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid = _active(state, actor)
    ship = _ship(state, action, pid)
    player = state["players"][pid]
    if player["level"] != "done":
        gold = player["completed"]["gold"]
        need = state["options"]["quests_per_level"]
        raise RuleViolation("V1", text(
            f"Voltooi eerst alle Goud-quests ({gold} van {need}) en vaar dan naar de rand.",
            f"Complete every Gold quest first ({gold} of {need}), then sail to the edge."))
    return [{"type": "GameWon", "player": pid, "ship": ship["number"]}]


# ---- combat -------------------------------------------------------------------------------


@decides("attack")
def _attack(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid = _active(state, actor)
    ship = _ship(state, action, pid)
    target = one_of(action, "target", state["players"])
    if target == pid:
        raise InvalidAction(text("Je kunt je eigen schip niet aanvallen.",
                                 "You cannot attack your own ship."), field="target")
    target_ship = _ship(state, action, target, "target_ship")
    if _effects(state).no_combat:
        raise RuleViolation("E1", text(
            f"Gebeurtenis {state['event']} verbiedt gevechten.",
            f"Event {state['event']} forbids fights."))
    round_ = state["round"]
    last = state["attacked"].get(f"{target}/{target_ship['number']}")
    if last is not None and round_ <= last + 1:  # C3: a ship just attacked rests a round
        raise RuleViolation("C3", text(
            f"Dit schip werd in ronde {last} aangevallen; pas in ronde {last + 2} weer.",
            f"This ship was attacked in round {last}; not again before round {last + 2}."))
    return [{"type": "AttackStarted", "round": round_,
             "attacker": {"player": pid, "ship": ship["number"]},
             "defender": {"player": target, "ship": target_ship["number"]}}]


def _fighter(state: State, actor: Viewer) -> tuple[str, dict[str, Any]]:
    """Return the acting side of the fight and the fight; refuse anyone outside it (C6)."""
    pid = _playing(state, actor)
    combat = state["combat"]
    if combat is None:
        raise RuleViolation("C1", text("Er is geen gevecht bezig.", "There is no fight going on."))
    if pid not in (combat["attacker"]["player"], combat["defender"]["player"]):
        raise RuleViolation("C6", text("Je zit niet in dit gevecht.", "You are not in this fight."))
    fight: dict[str, Any] = combat
    return pid, fight


def _side(combat: Mapping[str, Any], pid: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return (own side, other side) of a fight for player `pid`."""
    a, d = combat["attacker"], combat["defender"]
    return (a, d) if a["player"] == pid else (d, a)


@decides("fire")
def _fire(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid, combat = _fighter(state, actor)
    if combat["stage"] not in ("firing", "surrender_offered") or combat["shooter"] != pid:
        raise RuleViolation("C6", text("Je bent nu niet aan schot.", "It is not your shot now."))
    own, other = _side(combat, pid)
    shooter = next(s for s in state["players"][pid]["ships"] if s["number"] == own["ship"])
    target = next(s for s in state["players"][other["player"]]["ships"] if s["number"] == other["ship"])
    data = _rules(state).data
    table = data["hit_table"]
    k, b = min(shooter["cannons"], len(table)), min(max(target["crew"], 1), len(table))
    bounds = data["hit_bounds"]  # C4: the hit table, shifted by the event
    needed = min(bounds["max"], max(bounds["min"], table[str(k)][str(b)] + _effects(state).hit_shift))
    to_hit = _roll(state, 1)[0]
    hit = to_hit["value"] >= needed
    damage = _roll(state, 1, offset=1)[0] if hit else None
    effect = data["damage"][str(damage["value"])] if damage else {"effect": "miss"}
    crew_loss = effect.get("loss", 0) if effect["effect"] == "crew" else 0
    sail_hits, sails_loss = target["sail_hits"], 0
    if effect["effect"] == "sails_hit":  # C5: the second sails hit costs one Sails
        sail_hits += 1
        if sail_hits >= effect["hits_per_sail"]:
            sail_hits, sails_loss = 0, min(1, target["sails"])
    events: list[Event] = [{
        "type": "ShotFired", "shooter": own, "target": other, "to_hit": to_hit, "needed": needed,
        "hit": hit, "damage": damage, "effect": effect["effect"], "crew_loss": crew_loss,
        "sails_loss": sails_loss, "sail_hits": sail_hits,
    }]
    if target["crew"] - crew_loss <= 0:  # C7: crew 0 sinks the ship
        events += _sinking(state, other, own["player"], target)
    return events


def _sinking(state: State, sunk: Mapping[str, Any], winner: str,
             ship: Mapping[str, Any]) -> list[Event]:
    data = _rules(state).data
    total = _total(state["players"][sunk["player"]]["resources"])
    events: list[Event] = [{
        "type": "ShipSunk", "player": sunk["player"], "ship": sunk["ship"], "winner": winner,
        "crew": data["sunk_crew"], "goods_lost": ship["goods"],
        "skip_turns": data["sunk_skip_turns"], "keep": total // data["keep_divisor"], "at": HOME,
    }]
    if total == 0:  # nothing to salvage, nothing to fish
        events.append({"type": "CombatEnded", "winner": winner, "loser": sunk["player"],
                       "how": "sunk"})
    return events


@decides("surrender")
def _surrender(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid, combat = _fighter(state, actor)
    if combat["stage"] not in ("firing", "surrender_offered") or combat["surrendering"] == pid:
        raise RuleViolation("C8", text("Overgeven kan nu niet.", "You cannot surrender now."))
    if _rules(state).data["surrender_by"] == "defender" and combat["defender"]["player"] != pid:
        raise RuleViolation("C8", text("Alleen de verdediger kan zich overgeven.",
                                       "Only the defender can surrender."))
    return [{"type": "SurrenderOffered", "player": pid}]


@decides("accept_surrender")
def _accept_surrender(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid, combat = _fighter(state, actor)
    loser = combat["surrendering"]
    if combat["stage"] != "surrender_offered" or loser == pid:
        raise RuleViolation("C8", text("De andere kant heeft zich niet overgegeven.",
                                       "The other side has not surrendered."))
    given = {r: n for r, n in state["players"][loser]["resources"].items() if n}
    return [
        {"type": "SurrenderAccepted", "player": loser, "to": pid, "resources": given,
         "skip_turns": _rules(state).data["surrender_skip_turns"]},
        {"type": "CombatEnded", "winner": pid, "loser": loser, "how": "surrender"},
    ]


@decides("keep")
def _keep(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid, combat = _fighter(state, actor)
    if combat["stage"] != "salvage" or combat["sunk"] != pid:
        raise RuleViolation("C7", text("Alleen wie zonk kiest nu wat hij houdt.",
                                       "Only the sunk player chooses now what to keep."))
    kept = _resource_counts(state, action, "resources")
    have = state["players"][pid]["resources"]
    if _total(kept) != combat["keep"] or _shortfall(state, pid, kept):
        raise RuleViolation("C7", text(
            f"Houd precies {combat['keep']} van je {_total(have)} grondstoffen (de helft, "
            f"naar beneden afgerond) die je ook hebt.",
            f"Keep exactly {combat['keep']} of your {_total(have)} resources (half, rounded down) "
            f"that you actually hold."))
    water = {r: n - kept.get(r, 0) for r, n in have.items() if n - kept.get(r, 0)}
    return [{"type": "ResourcesKept", "player": pid, "kept": kept, "water": water}]


@decides("fish")
def _fish(state: State, action: Action, actor: Viewer) -> list[Event]:
    pid, combat = _fighter(state, actor)
    if combat["stage"] != "fishing" or combat["winner"] != pid:
        raise RuleViolation("C7", text("Alleen de winnaar vist nu.", "Only the winner fishes now."))
    fished = _resource_counts(state, action, "resources")
    water = combat["water"]
    want = min(_rules(state).data["fish"], _total(water))
    if _total(fished) != want or any(n > water.get(r, 0) for r, n in fished.items()):
        names = _rules(state).names
        raise RuleViolation("C7", text(
            f"Vis precies {want} uit het water ({names(water, 'nl')}).",
            f"Fish exactly {want} out of the water ({names(water, 'en')})."))
    return [{"type": "ResourcesFished", "player": pid, "resources": fished},
            {"type": "CombatEnded", "winner": pid, "loser": combat["sunk"], "how": "sunk"}]


# ---- host ---------------------------------------------------------------------------------


@decides("adjust")
def _adjust(state: State, action: Action, actor: Viewer) -> list[Event]:
    require_host(actor, "corrigeert voorraden", "corrects resources")
    if state["phase"] == "lobby":
        raise RuleViolation("S5", text("Het spel is nog niet begonnen.",
                                       "The game has not started yet."))
    pid = one_of(action, "player", state["players"])
    delta = _resource_counts(state, action, "resources", low=-COUNT_MOST)
    reason = action.get("reason")
    reason = reason.strip() if isinstance(reason, str) else ""
    if not 1 <= len(reason) <= 200:
        raise InvalidAction(text("Geef een reden (1 tot 200 tekens).",
                                 "Give a reason (1 to 200 characters)."), field="reason")
    have = state["players"][pid]["resources"]
    below = {r: have[r] for r, n in delta.items() if have[r] + n < 0}
    if below:
        name, names = player_name(state, pid), _rules(state).names
        raise RuleViolation("adjust", text(
            f"Een voorraad kan niet onder nul; {name} heeft {names(below, 'nl')}",
            f"A stock cannot go below zero; {name} has {names(below, 'en')}"))
    return [{"type": "ResourcesAdjusted", "player": pid, "resources": delta, "reason": reason}]
