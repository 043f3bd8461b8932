"""What every table shares around its own rules: handler tables, parameters, the lobby, the view header.

Games that use it keep ``phase`` ("lobby" | "playing" | "finished"), ``seed_hash`` and ``seats``
(player ids in seating order) in their state, and ``players`` as a map from id to a dict with at
least ``name`` and ``character``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .core import Action, Event, PersonalParts, PersonalView, SharedView, State, Viewer
from .dice import commitment
from .errors import Forbidden, InvalidAction, LobbyConflict, text
from .guide import guide_of

F = TypeVar("F", bound=Callable[..., Any])

NAME_MAX = 32
"""The longest player name, in characters after trimming (a phone screen shows it whole)."""


class Handlers(Generic[F]):
    """A table of functions by action or event type, filled by decorating them."""

    def __init__(self) -> None:
        self.table: dict[str, F] = {}

    def __call__(self, *types: str) -> Callable[[F], F]:
        """Register the decorated function for each of `types`."""
        def register(fn: F) -> F:
            for kind in types:
                self.table[kind] = fn
            return fn
        return register

    def get(self, kind: object) -> F | None:
        """Return the function registered for `kind`, or None."""
        return self.table.get(kind) if isinstance(kind, str) else None

    def for_action(self, action: Action) -> F:
        """Return the function registered for the action's type, or refuse a type the game does not know."""
        handler = self.get(action.get("type"))
        if handler is None:
            raise unknown_action(action)
        return handler


Decider = Callable[[State, Action, Viewer], list[Event]]
"""Decide one type of action: the state, the action and who acts give its events, or a refusal."""

Evolver = Callable[[State, Event], State]
"""Fold one type of event into a new state."""


class Decides(Handlers[Decider]):
    """A game's deciders by action type, and the `decide` that hands each action to its own."""

    def decide(self, state: State, action: Action, actor: Viewer) -> list[Event]:
        """Check `action` against the rules and return its events, or raise a ShipmateError."""
        return self.for_action(action)(state, action, actor)


class Folds(Handlers[Evolver]):
    """A game's folds by event type, and the `evolve` that hands each event to its own."""

    def evolve(self, state: State, event: Event) -> State:
        """Fold one event into a new state (an unknown event type leaves it as it was)."""
        fold = self.get(event["type"])
        return fold(state, event) if fold else {**state}


def unknown_action(action: Action) -> InvalidAction:
    """Return the refusal of an action type the game does not know."""
    kind = action.get("type")
    return InvalidAction(text(f"Onbekende actie: {kind!r}", f"Unknown action: {kind!r}"), field="type")


def whole(action: Action, key: str, low: int = 0, high: int | None = None) -> int:
    """Return the whole-number parameter `key` of an action, or refuse it as impossible."""
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (
        high is not None and value > high
    ):
        top = "" if high is None else f" t/m {high}"
        top_en = "" if high is None else f" to {high}"
        raise InvalidAction(
            text(f"'{key}' moet een geheel getal vanaf {low}{top} zijn; het is {value!r}.",
                 f"'{key}' must be a whole number from {low}{top_en}; it is {value!r}."),
            field=key,
        )
    return value


def one_of(action: Action, key: str, allowed: Collection[str]) -> str:
    """Return the parameter `key` when it names one of `allowed`, or refuse it as impossible."""
    value = action.get(key)
    if not isinstance(value, str) or value not in allowed:
        shown = ", ".join(sorted(allowed))
        raise InvalidAction(
            text(f"'{key}' moet een van {shown} zijn; het is {value!r}.",
                 f"'{key}' must be one of {shown}; it is {value!r}."),
            field=key,
        )
    return value


def flag(action: Action, key: str, default: bool | None = None) -> bool:
    """Return the true-or-false parameter `key` (`default` when left out, if any), or refuse it."""
    value = action.get(key, default)
    if not isinstance(value, bool):
        raise InvalidAction(text(f"'{key}' is waar of onwaar.", f"'{key}' is true or false."),
                            field=key)
    return value


COUNT_MOST = 999
"""The most of one thing a parameter may count, either way (more than any table holds)."""


def counts(action: Action, key: str, names: Collection[str], nl: str, en: str, low: int = 0,
           high: int = COUNT_MOST) -> dict[str, int]:
    """Return the parameter `key`, a map of `names` to counts from `low` to `high`, without zeros.

    `nl` and `en` say what the names are ("grondstof", "resource"); a map left out is empty.
    """
    value = action.get(key, {})
    if not isinstance(value, Mapping):
        raise InvalidAction(text(f"'{key}' moet {nl} → aantal zijn.", f"'{key}' must map {en} → count."),
                            field=key)
    found: dict[str, int] = {}
    for name, n in value.items():
        if name not in names:
            raise InvalidAction(text(f"Onbekende {nl} in '{key}': {name!r}",
                                     f"Unknown {en} in '{key}': {name!r}"), field=key)
        if isinstance(n, bool) or not isinstance(n, int) or not low <= n <= high:
            raise InvalidAction(text(f"Aantal {name} in '{key}' is ongeldig: {n!r}",
                                     f"The count of {name} in '{key}' is invalid: {n!r}"), field=key)
        if n:
            found[name] = n
    return found


Numbered = TypeVar("Numbered", bound=Mapping[str, Any])


def numbered(action: Action, key: str, items: Iterable[Numbered], nl: str, en: str) -> Numbered:
    """Return the one of `items` whose ``number`` the parameter `key` gives, or refuse a number none has.

    `nl` and `en` name the items ("schip", "ship").
    """
    number = action.get(key)
    if isinstance(number, int) and not isinstance(number, bool):
        for item in items:
            if item["number"] == number:
                return item
    raise InvalidAction(text(f"Er is geen {nl} {number!r}.", f"There is no {en} {number!r}."),
                        field=key)


Rule = tuple[Callable[[Any], bool], str, str]
"""A house rule's check: a test of the value, and what it must be in Dutch and English."""


def whole_rule(low: int, optional: bool = False) -> Rule:
    """Return the check of a whole-number house rule from `low` (or null when `optional`)."""
    def ok(value: Any) -> bool:
        if value is None:
            return optional
        return not isinstance(value, bool) and isinstance(value, int) and value >= low
    none_nl, none_en = (" of null", " or null") if optional else ("", "")
    return ok, f"een geheel getal vanaf {low}{none_nl}", f"a whole number from {low}{none_en}"


def choice_rule(*allowed: str) -> Rule:
    """Return the check of a house rule that is one of `allowed`."""
    shown = ", ".join(f'"{a}"' for a in allowed)
    return (lambda value: value in allowed), f"een van {shown}", f"one of {shown}"


def bad_option(where: str, nl: str, en: str) -> InvalidAction:
    """Return the refusal of an option at `where` that is not what it must be (`nl`, `en`)."""
    return InvalidAction(text(f"{where} moet {nl} zijn.", f"{where} must be {en}."), field=where)


def house_options(options: Mapping[str, Any], defaults: Mapping[str, Any],
                  rules: Mapping[str, Rule]) -> dict[str, Any]:
    """Check options of the form ``{"house_rules": {…}}`` strictly; fill in every default."""
    if not isinstance(options, Mapping) or any(key != "house_rules" for key in options):
        raise bad_option("options", 'een object met alleen "house_rules"',
                         'an object with only "house_rules"')
    house = options.get("house_rules", {})
    if not isinstance(house, Mapping):
        raise bad_option("house_rules", "een object", "an object")
    for key in house:
        if key not in defaults:
            raise bad_option(f"house_rules.{key}", f"een van {', '.join(defaults)}",
                             f"one of {', '.join(defaults)}")
    merged = {**defaults, **house}
    for key, (ok, nl, en) in rules.items():
        if not ok(merged[key]):
            raise bad_option(f"house_rules.{key}", nl, en)
    return {"house_rules": merged}


def settings(state: State) -> dict[str, Any]:
    """Return the house rules this game is played with."""
    house: dict[str, Any] = state["options"]["house_rules"]
    return house


@dataclass(slots=True)
class PureGame:
    """A game assembled from its pure functions: everything the core's Game protocol asks for."""

    name: str
    end_rule: str
    options: Callable[[Mapping[str, Any]], dict[str, Any]]
    decide: Callable[[State, Action, Viewer], list[Event]]
    evolve: Callable[[State, Event], State]
    view_for: Callable[[State, Viewer], State]
    event_view_for: Callable[[Event, Viewer], Event]
    ruleset: Callable[[State], dict[str, Any]]
    dice_device: bool = False
    shared_view: SharedView | None = None
    personal_view: PersonalView | None = None
    personal_parts: PersonalParts | None = None

    def created(self, code: str, options: Mapping[str, Any], seed_hex: str) -> Event:
        """Return the first event: the code, the secret seed, its commitment, the checked options."""
        try:
            seed_hash = commitment(seed_hex)
        except ValueError:
            raise InvalidAction(text("Het zaad is geen hex.", "The seed is not hex."),
                                field="seed") from None
        return {"type": "GameCreated", "game": self.name, "code": code, "seed": seed_hex,
                "seed_hash": seed_hash, "options": self.options(options)}


def without_seed(event: Event) -> Event:
    """Return the event without the game's secret seed (GameCreated carries it)."""
    return {k: v for k, v in event.items() if k != "seed"}


def require_lobby(state: State) -> None:
    """Refuse a lobby action (a join, the start) once the game has started."""
    if state["phase"] != "lobby":
        raise LobbyConflict(text("Het spel is al begonnen.", "The game has already started."))


def join_event(state: State, action: Action, characters: Collection[str], max_players: int,
               rule: str) -> Event:
    """Return PlayerJoined for a lobby join, or refuse it (`rule` cites the choice of character)."""
    require_lobby(state)
    name = action.get("name")
    name = name.strip() if isinstance(name, str) else ""
    if not 1 <= len(name) <= NAME_MAX:
        raise InvalidAction(text(f"Een naam heeft 1 tot {NAME_MAX} tekens.",
                                 f"A name has 1 to {NAME_MAX} characters."), field="name")
    character = one_of(action, "character", characters)
    seated = len(state["players"])
    if seated >= max_players:
        raise LobbyConflict(text(f"Het spel is vol ({seated} spelers).",
                                 f"The game is full ({seated} players)."))
    if any(p["character"] == character for p in state["players"].values()):
        raise LobbyConflict(text(f"{character} is al gekozen ({rule}).",
                                 f"{character} is already taken ({rule})."), field="character")
    return {"type": "PlayerJoined", "player_id": f"p{seated + 1}", "name": name,
            "character": character}


def created_state(event: Event, /, **fields: Any) -> State:
    """Fold GameCreated: the fields every table keeps, an empty lobby, and the game's own `fields`."""
    return {
        "game": event["game"], "code": event["code"], "version": 0,
        "seed": event["seed"], "seed_hash": event["seed_hash"],
        "counters": {"dice": 0, "draws": 0}, "options": event["options"],
        "phase": "lobby", "seats": [], "players": {}, **fields,
    }


def seat(state: State, event: Event, player: Mapping[str, Any]) -> State:
    """Fold PlayerJoined: seat the new player, with the game's own fields in `player`."""
    pid = event["player_id"]
    seated = {"id": pid, "name": event["name"], "character": event["character"], **player}
    return {**state, "seats": [*state["seats"], pid], "players": {**state["players"], pid: seated}}


def with_player(state: State, pid: str, **changes: Any) -> State:
    """Return `state` with the `changes` made to player `pid`, copying only that path."""
    players = state["players"]
    return {**state, "players": {**players, pid: {**players[pid], **changes}}}


def player_name(state: State, pid: str) -> str:
    """Return the name player `pid` joined with."""
    name: str = state["players"][pid]["name"]
    return name


def require_host(actor: Viewer, nl: str, en: str) -> None:
    """Refuse a host-only action by anyone but the host."""
    if not actor.host:
        raise Forbidden(text(f"Alleen de gastheer {nl}.", f"Only the host {en}."))


def require_player(state: State, actor: Viewer) -> str:
    """Return the acting player's id, or refuse an action that only a seated player may take."""
    if actor.player is None or actor.player not in state["players"]:
        raise Forbidden(text("Alleen spelers aan tafel doen deze zet.",
                             "Only a player at the table makes this move."))
    return actor.player


def view_header(state: State, viewer: Viewer) -> State:
    """Return the fields every game's view opens with; the seed only once the game is finished."""
    return {
        "code": state["code"], "game": state["game"], "version": state["version"],
        "phase": state["phase"], **viewer_fields(state, viewer),
        "seed_hash": state["seed_hash"],
        "seed": state["seed"] if state["phase"] == "finished" else None,
        "guide": guide_of(state),
    }


def viewer_fields(state: State, viewer: Viewer) -> State:
    """Return the header's fields that depend on the viewer: `host`, `you` and `can_undo`.

    `can_undo` says whether this viewer may take the last change back: the host only, one step,
    never a roll, never after the end (core.decide). It is false for everyone else, so no player's
    patch carries it.
    """
    return {
        "host": viewer.host,
        "you": viewer.player if viewer.player in state["players"] else None,
        "can_undo": viewer.host and state["phase"] != "finished" and bool(state.get("_undo"))
        and not state["_undo"]["rolled"],
    }
