"""Decide Quest 1607's actions: check every rule of RULES.md, then say what happened as events."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from shipmate.rules import (
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
from shipmate.rules.table import Handlers, join_event, require_host, require_lobby

from .evolve import deck_after, plus
from .ruleset import LEVELS, Effects, Rules, rules_for

PARTS = {"sails": ("Zeilen", "Sails"), "cannons": ("Kanonnen", "Cannons"),
         "crew": ("Bemanning", "Crew")}
UPGRADED = {"sails": "SailsUpgraded", "cannons": "CannonsUpgraded", "crew": "CrewUpgraded"}
UPGRADE_RULE = {"sails": "U3", "cannons": "U4", "crew": "U1"}
HOME = "Daeventra"
LEVEL_NAMES = {"bronze": ("Brons", "Bronze"), "silver": ("Zilver", "Silver"),
               "gold": ("Goud", "Gold")}


@dataclass(frozen=True, slots=True)
class Ctx:
    """One action being decided: the state, the action, who acts, and the rules in force."""

    state: State
    action: Mapping[str, Any]
    actor: Viewer
    rules: Rules
    effects: Effects

    def player(self, pid: str) -> dict[str, Any]:
        """Return a player's state by id."""
        player: dict[str, Any] = self.state["players"][pid]
        return player


Handler = Callable[[Ctx], list[Event]]
handles: Handlers[Handler] = Handlers()


def decide(state: State, action: Mapping[str, Any], actor: Viewer) -> list[Event]:
    """Check `action` against the rules and return its events, or raise a ShipmateError."""
    handler = handles.for_action(action)
    rules = rules_for(state["rules_key"])
    return handler(Ctx(state, action, actor, rules, rules.effects[state["event"]]))


# ---- parameters ---------------------------------------------------------------------------


def _param(ctx: Ctx, key: str, kind: type, nl: str, en: str) -> Any:
    value = ctx.action.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InvalidAction(text(f"'{key}' moet {nl} zijn.", f"'{key}' must be {en}."), field=key)
    return value


def _count(ctx: Ctx, key: str) -> int:
    value: int = _param(ctx, key, int, "een geheel getal", "a whole number")
    if value < 1:
        raise InvalidAction(text(f"'{key}' moet minstens 1 zijn.", f"'{key}' must be at least 1."),
                            field=key)
    return value


def _resource(ctx: Ctx, key: str, value: Any = None) -> str:
    name = ctx.action.get(key) if value is None else value
    if name not in ctx.rules.resources:
        raise InvalidAction(text(f"Onbekende grondstof in '{key}': {name!r}",
                                 f"Unknown resource in '{key}': {name!r}"), field=key)
    return str(name)


def _counts(ctx: Ctx, key: str, signed: bool = False) -> dict[str, int]:
    value = ctx.action.get(key, {})
    if not isinstance(value, Mapping):
        raise InvalidAction(text(f"'{key}' moet grondstof → aantal zijn.",
                                 f"'{key}' must map resource → count."), field=key)
    counts: dict[str, int] = {}
    for name, n in value.items():
        _resource(ctx, key, name)
        if isinstance(n, bool) or not isinstance(n, int) or (n < 0 and not signed) or abs(n) > 999:
            raise InvalidAction(text(f"Aantal {name} in '{key}' is ongeldig: {n!r}",
                                     f"The count of {name} in '{key}' is invalid: {n!r}"),
                                field=key)
        if n:
            counts[name] = n
    return counts


def _ship(ctx: Ctx, pid: str, key: str = "ship") -> dict[str, Any]:
    number = ctx.action.get(key)
    for ship in ctx.player(pid)["ships"]:
        if ship["number"] == number and not isinstance(number, bool):
            found: dict[str, Any] = ship
            return found
    raise InvalidAction(text(f"Er is geen schip {number!r}.", f"There is no ship {number!r}."),
                        field=key)


def _other_player(ctx: Ctx, key: str) -> str:
    pid = ctx.action.get(key)
    if not isinstance(pid, str) or pid not in ctx.state["players"]:
        raise InvalidAction(text(f"Onbekende speler: {pid!r}", f"Unknown player: {pid!r}"),
                            field=key)
    return pid


def _shortfall(ctx: Ctx, pid: str, cost: Mapping[str, int]) -> dict[str, int]:
    have = ctx.player(pid)["resources"]
    return {r: have.get(r, 0) for r, n in cost.items() if have.get(r, 0) < n}


def _afford(ctx: Ctx, pid: str, cost: Mapping[str, int], rule: str, nl: str, en: str) -> None:
    short = _shortfall(ctx, pid, cost)
    if short:
        names = ctx.rules.names
        raise RuleViolation(rule, text(
            f"{nl} kost {names(cost, 'nl')}; je hebt {names(short, 'nl')}",
            f"{en} costs {names(cost, 'en')}; you have {names(short, 'en')}",
        ))


def _total(counts: Mapping[str, int]) -> int:
    return sum(counts.values())


# ---- guards -------------------------------------------------------------------------------


def _playing(ctx: Ctx) -> str:
    """Return the acting player's id once the game is on; refuse the host, strangers, the lobby."""
    phase = ctx.state["phase"]
    if phase == "lobby":
        raise RuleViolation("S5", text("Het spel is nog niet begonnen.",
                                       "The game has not started yet."))
    if phase == "finished":
        raise RuleViolation("V1", text("Het spel is afgelopen.", "The game is over."))
    pid = ctx.actor.player
    if pid is None or pid not in ctx.state["players"]:
        raise Forbidden(text("Alleen spelers doen zetten.", "Only players make moves."))
    return pid


def _active(ctx: Ctx, rolled: bool = True) -> str:
    """Return the active player's id: it is their turn (T5), they rolled (T1), no fight is on."""
    pid = _playing(ctx)
    turn = ctx.state["turn"]
    if turn["player"] != pid:
        name = ctx.player(turn["player"])["name"]
        raise RuleViolation("T5", text(f"Het is niet jouw beurt; {name} is aan de beurt.",
                                       f"It is not your turn; it is {name}'s turn."))
    if rolled and not turn["rolled"]:
        raise RuleViolation("T1", text("Gooi eerst de dobbelstenen: de worp opent de beurt.",
                                       "Roll the dice first: the roll opens the turn."))
    if ctx.state["combat"] is not None:
        raise RuleViolation("C6", text("Maak eerst het gevecht af.", "Finish the fight first."))
    return pid


def _roll(ctx: Ctx, n: int, offset: int = 0) -> list[dict[str, int]]:
    first = ctx.state["counters"]["dice"] + offset
    return [{"index": i, "value": die(ctx.state["seed"], i)} for i in range(first, first + n)]


def _draw_card(ctx: Ctx, level: str, number: int, decks: dict[str, list[str]]) -> str:
    deck = decks[level] or list(ctx.rules.decks[level])
    card = deck[draw(ctx.state["seed"], number, len(deck))]
    decks[level] = deck_after(decks[level], ctx.rules.decks[level], card)
    return card


# ---- lobby --------------------------------------------------------------------------------


@handles("join")
def _join(ctx: Ctx) -> list[Event]:
    characters = ctx.rules.characters
    joined = join_event(ctx.state, ctx.action, characters, len(characters), "S1")
    return [{**joined, "land_resource": characters[joined["character"]]["land_resource"]}]


@handles("start")
def _start(ctx: Ctx) -> list[Event]:
    state = ctx.state
    require_host(ctx.actor, "start het spel", "starts the game")
    require_lobby(state)
    if len(state["order"]) < 2:
        raise RuleViolation("S1", text(
            f"Er zijn minstens 2 spelers nodig; er is er {len(state['order'])}.",
            f"At least 2 players are needed; there are {len(state['order'])}."))
    random_order = ctx.action.get("random_order", False)
    if not isinstance(random_order, bool):
        raise InvalidAction(text("'random_order' is waar of onwaar.",
                                 "'random_order' is true or false."), field="random_order")
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
        card = _draw_card(ctx, LEVELS[0], number, decks)
        draws.append(number)
        number += 1
        quests[pid] = {"id": f"q{state['quest_seq'] + i + 1}", "card": card, "level": LEVELS[0]}
    # S3: every ship starts at Daeventra (the board is physical; the event says so)
    return [{"type": "GameStarted", "order": order, "draw": draws, "quests": quests,
             "at": HOME}]


# ---- the turn -----------------------------------------------------------------------------


@handles("roll")
def _roll_dice(ctx: Ctx) -> list[Event]:
    if (ctx.actor.host or ctx.actor.dice) and ctx.state["phase"] == "playing":
        # T1: the table's dice device (or the host's phone) rolls for whoever's turn it is
        ctx = replace(ctx, actor=Viewer(player=ctx.state["turn"]["player"]))
    pid = _active(ctx, rolled=False)
    if ctx.state["turn"]["rolled"]:
        raise RuleViolation("T1", text("Je hebt deze beurt al gegooid.",
                                       "You have already rolled this turn."))
    player = ctx.player(pid)
    # T1: one movement die, two white dice, one more per extra ship (and the event's extras)
    whites = ctx.rules.data["white_dice"] + len(player["ships"]) - 1 + ctx.effects.extra_white
    move, *white = _roll(ctx, 1 + whites)
    gains: dict[str, int] = {}
    for d in white:  # T2: the white die's faces
        face = ctx.effects.white_die[str(d["value"])]
        resource = player["land_resource"] if face == "land" else face
        gains[resource] = gains.get(resource, 0) + 1
    return [{"type": "DiceRolled", "player": pid, "dice": {"move": move, "white": white},
             "gains": gains}]


def allowance(state: State, pid: str) -> int | None:
    """Return the squares each ship may sail this turn (T3), or None before the roll."""
    turn = state["turn"]
    if not turn or turn["player"] != pid or not turn["rolled"]:
        return None
    effects = rules_for(state["rules_key"]).effects[state["event"]]
    lowest: int = min(s["sails"] for s in state["players"][pid]["ships"])
    rolled: int = turn["dice"]["move"]["value"]
    return max(0, max(rolled, lowest) + effects.movement)


@handles("sail")
def _sail(ctx: Ctx) -> list[Event]:
    pid = _active(ctx)
    ship = _ship(ctx, pid)
    squares = _count(ctx, "squares")
    limit = allowance(ctx.state, pid) or 0
    moved = ctx.state["turn"]["moved"].get(str(ship["number"]), 0)
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


@handles("end_turn")
def _end_turn(ctx: Ctx) -> list[Event]:
    pid = _active(ctx)
    nxt, round_, skipped = _next_seat(ctx.state, pid)
    # M1 (house default): open offers lapse when the turn ends
    lapsed = [o["id"] for o in ctx.state["offers"]] if ctx.rules.data["offers_lapse"] else []
    return [{"type": "TurnEnded", "player": pid, "next": nxt, "round": round_,
             "skipped": skipped, "lapsed": lapsed}]


# ---- trade --------------------------------------------------------------------------------


def _no_embargo(ctx: Ctx) -> None:
    if ctx.effects.no_trade:
        raise RuleViolation("E1", text(
            f"Gebeurtenis {ctx.state['event']} verbiedt handel tussen spelers.",
            f"Event {ctx.state['event']} forbids trade between players."))


def _active_side(ctx: Ctx, one: str, other: str) -> None:
    """Refuse a trade without the active player on one side (M1, house default)."""
    if ctx.rules.data["trade_with_active_player"] and ctx.state["turn"]["player"] not in (one,
                                                                                         other):
        raise RuleViolation("M1", text("Eén kant van een ruil is de speler die aan de beurt is.",
                                       "One side of a trade is the player whose turn it is."))


@handles("offer")
def _offer(ctx: Ctx) -> list[Event]:
    pid = _playing(ctx)
    to = _other_player(ctx, "to")
    give, get = _counts(ctx, "give"), _counts(ctx, "get")
    if to == pid:
        raise InvalidAction(text("Je kunt niet met jezelf handelen.", "You cannot trade with "
                                 "yourself."), field="to")
    if not give and not get:
        raise InvalidAction(text("Een bod geeft of vraagt iets.", "An offer gives or asks "
                                 "something."), field="give")
    _active_side(ctx, pid, to)
    if not ctx.state["turn"]["rolled"]:
        raise RuleViolation("T1", text("Handel pas na de worp.", "Trade only after the roll."))
    _no_embargo(ctx)
    offer = {"id": f"o{ctx.state['offer_seq'] + 1}", "from": pid, "to": to, "give": give,
             "get": get}
    return [{"type": "OfferMade", "offer": offer}]


def _open_offer(ctx: Ctx, side: str) -> dict[str, Any]:
    pid = _playing(ctx)
    offer_id = ctx.action.get("offer_id")
    offer = next((o for o in ctx.state["offers"] if o["id"] == offer_id), None)
    if offer is None:
        raise RuleViolation("M1", text(f"Bod {offer_id!r} staat niet (meer) open.",
                                       f"Offer {offer_id!r} is not open (any more)."))
    if offer[side] != pid:
        raise Forbidden(text("Dit bod is niet aan jou.", "This offer is not yours to answer."))
    found: dict[str, Any] = offer
    return found


@handles("accept")
def _accept(ctx: Ctx) -> list[Event]:
    offer = _open_offer(ctx, "to")
    _no_embargo(ctx)
    _active_side(ctx, offer["from"], offer["to"])
    for pid, pays in ((offer["from"], offer["give"]), (offer["to"], offer["get"])):
        short = _shortfall(ctx, pid, pays)
        if short:  # M1: an open offer holds nothing back, so both sides are checked now
            name, names = ctx.player(pid)["name"], ctx.rules.names
            raise RuleViolation("M1", text(
                f"{name} moet {names(pays, 'nl')} geven maar heeft {names(short, 'nl')}",
                f"{name} must give {names(pays, 'en')} but has {names(short, 'en')}"))
    return [{"type": "OfferAccepted", "offer_id": offer["id"], "from": offer["from"],
             "to": offer["to"], "give": offer["give"], "get": offer["get"]}]


@handles("decline")
def _decline(ctx: Ctx) -> list[Event]:
    offer = _open_offer(ctx, "to")
    return [{"type": "OfferDeclined", "offer_id": offer["id"], "player": offer["to"]}]


@handles("withdraw")
def _withdraw(ctx: Ctx) -> list[Event]:
    offer = _open_offer(ctx, "from")
    return [{"type": "OfferWithdrawn", "offer_id": offer["id"], "player": offer["from"]}]


@handles("market")
def _market(ctx: Ctx) -> list[Event]:
    pid = _active(ctx)
    give, get = _resource(ctx, "give"), _resource(ctx, "get")
    if give == get:
        raise InvalidAction(text("Ruil voor een andere grondstof.", "Exchange for another "
                                 "resource."), field="get")
    rate = ctx.effects.market_rate  # M2: 4 identical resources buy 1 of choice
    _afford(ctx, pid, {give: rate}, "M2", "De markt", "The market")
    return [{"type": "MarketTraded", "player": pid, "give": {give: rate}, "get": {get: 1}}]


@handles("bank")
def _bank(ctx: Ctx) -> list[Event]:
    pid = _active(ctx)
    give, get = _counts(ctx, "give"), _resource(ctx, "get")
    rate = ctx.effects.bank_rate  # M3: any 5 resources buy 1 of choice
    if _total(give) != rate:
        raise RuleViolation("M3", text(
            f"Lever precies {rate} grondstoffen in; je biedt er {_total(give)}.",
            f"Hand in exactly {rate} resources; you offer {_total(give)}."))
    _afford(ctx, pid, give, "M3", "Eén grondstof", "One resource")
    return [{"type": "BankTraded", "player": pid, "give": give, "get": {get: 1}}]


# ---- upgrades and quest cards -------------------------------------------------------------


def _price(ctx: Ctx, pid: str, item: str) -> dict[str, int]:
    """Return what `item` costs now (U1, U3–U5, bent by the event), with crew's wood-or-cotton."""
    cost = ctx.effects.costs[item]
    pay = dict(cost["pay"])
    choice = cost.get("choice")
    pay_with = ctx.action.get("pay_with")
    if choice is None:
        if pay_with is not None:
            raise InvalidAction(text("'pay_with' hoort alleen bij Bemanning.",
                                     "'pay_with' only goes with crew."), field="pay_with")
        return pay
    if pay_with is None:  # U1: the player's choice; without one, the first they can pay
        have = ctx.player(pid)["resources"]
        pay_with = next((r for r in choice["of"]
                         if have.get(r, 0) >= pay.get(r, 0) + choice["count"]), choice["of"][0])
    if pay_with not in choice["of"]:
        raise InvalidAction(text(f"'pay_with' is een van {', '.join(choice['of'])}.",
                                 f"'pay_with' is one of {', '.join(choice['of'])}."),
                            field="pay_with")
    pay[pay_with] = pay.get(pay_with, 0) + choice["count"]
    return pay


@handles("upgrade")
def _upgrade(ctx: Ctx) -> list[Event]:
    pid = _active(ctx)
    ship = _ship(ctx, pid)
    part = ctx.action.get("part")
    if part not in PARTS:
        raise InvalidAction(text(f"Onbekend onderdeel: {part!r}", f"Unknown part: {part!r}"),
                            field="part")
    nl, en = PARTS[part]
    rule, level = UPGRADE_RULE[part], ship[part] + 1
    data = ctx.rules.data
    ships = ctx.player(pid)["ships"]
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
    pay = _price(ctx, pid, part)
    _afford(ctx, pid, pay, rule, f"{nl} +1", f"{en} +1")
    events: list[Event] = [{"type": UPGRADED[part], "player": pid, "ship": ship["number"],
                            "part": part, "level": level, "paid": pay}]
    if launches:  # U2: a new ship card at Daeventra; the old ship's crew starts over
        card = data["new_ship"]
        events.append({"type": "ShipLaunched", "player": pid, "ship": len(ships) + 1,
                       "from_ship": ship["number"], "crew_back": card["crew"], "card": card,
                       "at": HOME})
    return events


@handles("buy_quest")
def _buy_quest(ctx: Ctx) -> list[Event]:
    pid = _active(ctx)
    level = ctx.action.get("level")
    if level not in LEVELS:
        raise InvalidAction(text(f"Onbekend niveau: {level!r}", f"Unknown level: {level!r}"),
                            field="level")
    pay = _price(ctx, pid, "quest")
    _afford(ctx, pid, pay, "U5", "Een Quest-kaart", "A quest card")
    number = ctx.state["counters"]["draws"]
    card = _draw_card(ctx, str(level), number, dict(ctx.state["decks"]))
    quest = {"id": f"q{ctx.state['quest_seq'] + 1}", "card": card, "level": level}
    return [{"type": "QuestBought", "player": pid, "level": level, "paid": pay, "draw": number,
             "quest": quest}]


def _current_quest(ctx: Ctx, pid: str) -> tuple[dict[str, Any], Mapping[str, Any]]:
    """Return a held quest and its card; only current-level quests can be carried out (Q2)."""
    quest_id = ctx.action.get("quest_id")
    player = ctx.player(pid)
    quest = next((q for q in player["quests"] if q["id"] == quest_id), None)
    if quest is None:
        raise InvalidAction(text(f"Je hebt geen quest {quest_id!r}.",
                                 f"You hold no quest {quest_id!r}."), field="quest_id")
    if quest["level"] != player["level"]:
        have, now = LEVEL_NAMES[quest["level"]], LEVEL_NAMES.get(player["level"], ("-", "-"))
        raise RuleViolation("Q2", text(
            f"Dit is een {have[0]}-quest; jouw niveau is {now[0]}.",
            f"This is a {have[1]} quest; your level is {now[1]}."))
    return quest, ctx.rules.quests[quest["card"]]


def _step_event(ctx: Ctx, pid: str, quest: Mapping[str, Any], index: int,
                requirement: Mapping[str, Any]) -> Event:
    """Return the event of a step; `ship` may be left out of a visit, and of a delivery (Q1, Q3)."""
    named = ctx.action.get("ship") is not None
    base = {"player": pid, "quest_id": quest["id"], "step": index}
    if requirement["kind"] == "visit":  # Q1: any ship may visit the place; naming it is optional
        ship = {"ship": _ship(ctx, pid)["number"]} if named else {}
        return {"type": "PlaceVisited", **base, **ship, "place": requirement["place"]}
    loaded_on = quest["progress"][index].get("ship")
    if loaded_on is None:  # Q3: the goods ride on this ship from now on
        if not named:
            raise RuleViolation("Q3", text(
                f"Zeg op welk schip de {requirement['name']['nl'].lower()} geladen worden.",
                f"Say which ship loads the {requirement['name']['en'].lower()}."))
        return {"type": "GoodsLoaded", **base, "ship": _ship(ctx, pid)["number"],
                "good": requirement["good"], "place": requirement["from"]}
    number = _ship(ctx, pid)["number"] if named else loaded_on  # Q3: delivered by the ship they ride on
    if loaded_on != number:
        raise RuleViolation("Q3", text(
            f"De {requirement['name']['nl'].lower()} liggen op schip {loaded_on}.",
            f"The {requirement['name']['en'].lower()} ride on ship {loaded_on}."))
    return {"type": "GoodsDelivered", **base, "ship": number, "good": requirement["good"],
            "place": requirement["to"]}


@handles("quest_step")
def _quest_step(ctx: Ctx) -> list[Event]:
    pid = _active(ctx)
    quest, card = _current_quest(ctx, pid)
    index = ctx.action.get("step")
    requirements = card["requirements"]
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(requirements):
        raise InvalidAction(text(f"Deze quest heeft geen stap {index!r}.",
                                 f"This quest has no step {index!r}."), field="step")
    requirement = requirements[index]
    if requirement["kind"] not in ("visit", "cargo"):
        raise InvalidAction(text("Deze eis wordt bij het inleveren gecontroleerd.",
                                 "This requirement is checked when the quest is handed in."),
                            field="step")
    if quest["progress"][index]["done"]:
        raise RuleViolation("Q1", text("Deze stap is al gedaan.", "This step is already done."))
    return [_step_event(ctx, pid, quest, index, requirement)]


_STEPS_NEEDED = {
    "visit": ("nodig: de plek bezoeken", "needed: visit the place"),
    "cargo": ("nodig: de handelswaar afleveren", "needed: deliver the goods"),
    "win_fight": ("nodig: een gewonnen zeeslag", "needed: a won sea fight"),
}


def _unmet(ctx: Ctx, pid: str, quest: Mapping[str, Any],
           card: Mapping[str, Any]) -> tuple[str, str] | None:
    """Return why a quest cannot be handed in yet (nl, en), or None when every requirement holds."""
    player = ctx.player(pid)
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


@handles("complete_quest")
def _complete_quest(ctx: Ctx) -> list[Event]:
    pid = _active(ctx)
    quest, card = _current_quest(ctx, pid)
    title = card["title"]
    unmet = _unmet(ctx, pid, quest, card)
    if unmet:
        raise RuleViolation("Q1", text(f"{title['nl']}: {unmet[0]}.", f"{title['en']}: {unmet[1]}."))
    pay: dict[str, int] = {}
    for requirement in card["requirements"]:
        if requirement["kind"] == "deliver":
            for resource, n in requirement["resources"].items():
                pay[resource] = pay.get(resource, 0) + n
    _afford(ctx, pid, pay, "Q1", title["nl"], title["en"])
    player = ctx.player(pid)
    level = quest["level"]
    per_level = ctx.state["options"]["quests_per_level"]
    after = level
    if player["completed"][level] + 1 >= per_level:  # Q2: the next level opens
        after = ([*LEVELS, "done"])[LEVELS.index(level) + 1]
    return [
        {"type": "QuestCompleted", "player": pid, "quest_id": quest["id"], "card": quest["card"],
         "level": level, "paid": pay, "level_after": after},
        _event_drawn(ctx, pid, pay),
    ]


def _event_drawn(ctx: Ctx, completer: str, paid: Mapping[str, int]) -> Event:
    """Draw the next event (E1), any event but the active one, and apply its gifts and losses.

    Losses take what players hold once the completer has paid for the quest, never more.
    """
    number = ctx.state["counters"]["draws"]
    deck = [e for e in ctx.rules.events if e != ctx.state["event"]]
    event_id = deck[draw(ctx.state["seed"], number, len(deck))]
    effects = ctx.rules.effects[event_id]
    changes: dict[str, dict[str, int]] = {}
    for pid in ctx.state["order"]:
        have = ctx.player(pid)["resources"]
        if pid == completer:
            have = plus(have, paid, -1)
        delta = dict(effects.gift)
        for resource, n in effects.loss.items():
            delta[resource] = delta.get(resource, 0) - min(n, have.get(resource, 0))
        changes[pid] = {r: n for r, n in delta.items() if n}
    event = ctx.rules.events[event_id]
    return {"type": "EventDrawn", "draw": number, "event": event_id, "title": event["title"],
            "changes": changes}


@handles("reach_edge")
def _reach_edge(ctx: Ctx) -> list[Event]:
    pid = _active(ctx)
    ship = _ship(ctx, pid)
    player = ctx.player(pid)
    if player["level"] != "done":
        gold = player["completed"]["gold"]
        need = ctx.state["options"]["quests_per_level"]
        raise RuleViolation("V1", text(
            f"Voltooi eerst alle Goud-quests ({gold} van {need}) en vaar dan naar de rand.",
            f"Complete every Gold quest first ({gold} of {need}), then sail to the edge."))
    return [{"type": "GameWon", "player": pid, "ship": ship["number"]}]


# ---- combat -------------------------------------------------------------------------------


@handles("attack")
def _attack(ctx: Ctx) -> list[Event]:
    pid = _active(ctx)
    ship = _ship(ctx, pid)
    target = _other_player(ctx, "target")
    if target == pid:
        raise InvalidAction(text("Je kunt je eigen schip niet aanvallen.",
                                 "You cannot attack your own ship."), field="target")
    target_ship = _ship(ctx, target, "target_ship")
    if ctx.effects.no_combat:
        raise RuleViolation("E1", text(
            f"Gebeurtenis {ctx.state['event']} verbiedt gevechten.",
            f"Event {ctx.state['event']} forbids fights."))
    round_ = ctx.state["round"]
    last = ctx.state["attacked"].get(f"{target}/{target_ship['number']}")
    if last is not None and round_ <= last + 1:  # C3: a ship just attacked rests a round
        raise RuleViolation("C3", text(
            f"Dit schip werd in ronde {last} aangevallen; pas in ronde {last + 2} weer.",
            f"This ship was attacked in round {last}; not again before round {last + 2}."))
    return [{"type": "AttackStarted", "round": round_,
             "attacker": {"player": pid, "ship": ship["number"]},
             "defender": {"player": target, "ship": target_ship["number"]}}]


def _fighter(ctx: Ctx) -> tuple[str, dict[str, Any]]:
    """Return the acting side of the fight and the fight; refuse anyone outside it (C6)."""
    pid = _playing(ctx)
    combat = ctx.state["combat"]
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


@handles("fire")
def _fire(ctx: Ctx) -> list[Event]:
    pid, combat = _fighter(ctx)
    if combat["stage"] not in ("firing", "surrender_offered") or combat["shooter"] != pid:
        raise RuleViolation("C6", text("Je bent nu niet aan schot.", "It is not your shot now."))
    own, other = _side(combat, pid)
    shooter = next(s for s in ctx.player(pid)["ships"] if s["number"] == own["ship"])
    target = next(s for s in ctx.player(other["player"])["ships"] if s["number"] == other["ship"])
    data = ctx.rules.data
    table = data["hit_table"]
    k, b = min(shooter["cannons"], len(table)), min(max(target["crew"], 1), len(table))
    bounds = data["hit_bounds"]  # C4: the hit table, shifted by the event
    needed = min(bounds["max"], max(bounds["min"], table[str(k)][str(b)] + ctx.effects.hit_shift))
    to_hit = _roll(ctx, 1)[0]
    hit = to_hit["value"] >= needed
    damage = _roll(ctx, 1, offset=1)[0] if hit else None
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
        events += _sinking(ctx, other, own["player"], target)
    return events


def _sinking(ctx: Ctx, sunk: Mapping[str, Any], winner: str,
             ship: Mapping[str, Any]) -> list[Event]:
    data = ctx.rules.data
    total = _total(ctx.player(sunk["player"])["resources"])
    events: list[Event] = [{
        "type": "ShipSunk", "player": sunk["player"], "ship": sunk["ship"], "winner": winner,
        "crew": data["sunk_crew"], "goods_lost": ship["goods"],
        "skip_turns": data["sunk_skip_turns"], "keep": total // data["keep_divisor"], "at": HOME,
    }]
    if total == 0:  # nothing to salvage, nothing to fish
        events.append({"type": "CombatEnded", "winner": winner, "loser": sunk["player"],
                       "how": "sunk"})
    return events


@handles("surrender")
def _surrender(ctx: Ctx) -> list[Event]:
    pid, combat = _fighter(ctx)
    if combat["stage"] not in ("firing", "surrender_offered") or combat["surrendering"] == pid:
        raise RuleViolation("C8", text("Overgeven kan nu niet.", "You cannot surrender now."))
    if ctx.rules.data["surrender_by"] == "defender" and combat["defender"]["player"] != pid:
        raise RuleViolation("C8", text("Alleen de verdediger kan zich overgeven.",
                                       "Only the defender can surrender."))
    return [{"type": "SurrenderOffered", "player": pid}]


@handles("accept_surrender")
def _accept_surrender(ctx: Ctx) -> list[Event]:
    pid, combat = _fighter(ctx)
    loser = combat["surrendering"]
    if combat["stage"] != "surrender_offered" or loser == pid:
        raise RuleViolation("C8", text("De andere kant heeft zich niet overgegeven.",
                                       "The other side has not surrendered."))
    given = {r: n for r, n in ctx.player(loser)["resources"].items() if n}
    return [
        {"type": "SurrenderAccepted", "player": loser, "to": pid, "resources": given,
         "skip_turns": ctx.rules.data["surrender_skip_turns"]},
        {"type": "CombatEnded", "winner": pid, "loser": loser, "how": "surrender"},
    ]


@handles("keep")
def _keep(ctx: Ctx) -> list[Event]:
    pid, combat = _fighter(ctx)
    if combat["stage"] != "salvage" or combat["sunk"] != pid:
        raise RuleViolation("C7", text("Alleen wie zonk kiest nu wat hij houdt.",
                                       "Only the sunk player chooses now what to keep."))
    kept = _counts(ctx, "resources")
    have = ctx.player(pid)["resources"]
    if _total(kept) != combat["keep"] or _shortfall(ctx, pid, kept):
        raise RuleViolation("C7", text(
            f"Houd precies {combat['keep']} van je {_total(have)} grondstoffen (de helft, "
            f"naar beneden afgerond) die je ook hebt.",
            f"Keep exactly {combat['keep']} of your {_total(have)} resources (half, rounded down) "
            f"that you actually hold."))
    water = {r: n - kept.get(r, 0) for r, n in have.items() if n - kept.get(r, 0)}
    return [{"type": "ResourcesKept", "player": pid, "kept": kept, "water": water}]


@handles("fish")
def _fish(ctx: Ctx) -> list[Event]:
    pid, combat = _fighter(ctx)
    if combat["stage"] != "fishing" or combat["winner"] != pid:
        raise RuleViolation("C7", text("Alleen de winnaar vist nu.", "Only the winner fishes now."))
    fished = _counts(ctx, "resources")
    water = combat["water"]
    want = min(ctx.rules.data["fish"], _total(water))
    if _total(fished) != want or any(n > water.get(r, 0) for r, n in fished.items()):
        names = ctx.rules.names
        raise RuleViolation("C7", text(
            f"Vis precies {want} uit het water ({names(water, 'nl')}).",
            f"Fish exactly {want} out of the water ({names(water, 'en')})."))
    return [{"type": "ResourcesFished", "player": pid, "resources": fished},
            {"type": "CombatEnded", "winner": pid, "loser": combat["sunk"], "how": "sunk"}]


# ---- host ---------------------------------------------------------------------------------


@handles("adjust")
def _adjust(ctx: Ctx) -> list[Event]:
    require_host(ctx.actor, "corrigeert voorraden", "corrects resources")
    if ctx.state["phase"] == "lobby":
        raise RuleViolation("S5", text("Het spel is nog niet begonnen.",
                                       "The game has not started yet."))
    pid = _other_player(ctx, "player")
    delta = _counts(ctx, "resources", signed=True)
    reason = ctx.action.get("reason")
    reason = reason.strip() if isinstance(reason, str) else ""
    if not 1 <= len(reason) <= 200:
        raise InvalidAction(text("Geef een reden (1 tot 200 tekens).",
                                 "Give a reason (1 to 200 characters)."), field="reason")
    have = ctx.player(pid)["resources"]
    below = {r: have[r] for r, n in delta.items() if have[r] + n < 0}
    if below:
        names = ctx.rules.names
        raise RuleViolation("adjust", text(
            f"Een voorraad kan niet onder nul; {ctx.player(pid)['name']} heeft {names(below, 'nl')}",
            f"A stock cannot go below zero; {ctx.player(pid)['name']} has {names(below, 'en')}"))
    return [{"type": "ResourcesAdjusted", "player": pid, "resources": delta, "reason": reason}]
