"""What the API does, shared by the HTTP routes and the WebSocket: authenticate, act, view, join.

An action is the game's room's to run (room/): here it is read, checked and answered as the API
says, with the HTTP-level refusals (401, 404, 409, 429) and the Idempotency-Key's answers.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import current_app, request

from ..codec import dumpb, dumpb_kept, dumps, loads
from ..room import Change, Remember, Room, Rooms, Update
from ..rules import (
    DICE,
    HOST,
    PUBLIC,
    Action,
    Event,
    ShipmateError,
    State,
    Viewer,
    create,
    event_view_for,
    game_names,
    ruleset,
    view_for,
)
from ..store import (
    Answered,
    Conflict,
    GameStore,
    Retired,
    Seats,
    hash_token,
    keys,
)
from .errors import (
    LANGUAGES,
    Answer,
    ApiError,
    BadRequest,
    GameNotFound,
    RateLimited,
    SeatMoved,
    StaleVersion,
    Unauthorized,
    UnknownGameKind,
    refusal,
)
from .schemas import for_game, load_creation
from .schemas.common import EventsQuerySchema, JoinSchema, load
from .urls import join_url

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,128}$")


def store() -> GameStore:
    """Return the app's game store."""
    game_store: GameStore = current_app.extensions["shipmate.store"]
    return game_store


def rooms() -> Rooms:
    """Return this process's rooms (the games with sockets here)."""
    game_rooms: Rooms = current_app.extensions["shipmate.rooms"]
    return game_rooms


def seats() -> Seats:
    """Return the app's seat hand-overs."""
    game_seats: Seats = current_app.extensions["shipmate.seats"]
    return game_seats


@dataclass(frozen=True, slots=True)
class Caller:
    """Who makes a request: a viewer, the hash of their token and its stored role (None and {} for
    the public screen)."""

    viewer: Viewer
    token_hash: str | None
    role: dict[str, Any]

    @property
    def acting(self) -> tuple[str, dict[str, Any]] | None:
        """The token the commit checks is still this caller's (a hand-over may retire it)."""
        return None if self.token_hash is None else (self.token_hash, self.role)


def limit(scope: str) -> None:
    """Count one request of the client's address in `scope`; refuse it past the configured limit."""
    window = int(current_app.config["RATE_WINDOW"])
    allowed = int(current_app.config[f"RATE_LIMIT_{scope.upper()}"])
    if store().hit(scope, request.remote_addr or "-", window) > allowed:
        raise RateLimited(window)


def authenticate(code: str, token: str | None) -> Caller:
    """Return who `token` is in game `code`; without a token, the public screen.

    404 for an unknown game, 401 for a token the game does not know, and 401 `seat_moved` for a
    player's token retired by a hand-over of the seat. Requests without a valid token count against
    the lookup limit, so join codes cannot be guessed by brute force.
    """
    if token:
        token_hash = hash_token(token)
        role = store().role(code, token_hash)
        if role is not None and "moved" in role:
            raise SeatMoved()
        if role is not None:
            viewer = HOST if role.get("host") else DICE if role.get("dice") else Viewer(player=role["player"])
            return Caller(viewer, token_hash, role)
    limit("lookups")
    if store().load(code) is None:
        raise GameNotFound(code)
    if token:
        raise Unauthorized()
    return Caller(PUBLIC, None, {})


def load_state(code: str) -> State:
    """Return a game's internal state, or raise 404."""
    state = store().load(code)
    if state is None:
        raise GameNotFound(code)
    return state


def new_code() -> str:
    """Return a random game code: 6 characters without 0, O, 1, I and L."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


RULESETS_KEPT = 256
"""Rulesets kept as JSON: one per game and options in use (most tables play with the defaults)."""

RULE_TEXTS = ("source", "chapters", "rules")
"""The rulebook's parts served apart from the ruleset: only the rulebook and a rule opened read them."""

_rulesets: dict[str, dict[str, bytes]] = {}


def _in_language(value: Any, language: str) -> Any:
    """`value` with each of its texts ({"nl": …, "en": …}) in `language` alone ({language: …})."""
    if isinstance(value, dict):
        if value.keys() == set(LANGUAGES):
            return {language: value[language]}
        return {key: _in_language(part, language) for key, part in value.items()}
    if isinstance(value, list):
        return [_in_language(part, language) for part in value]
    return value


def _served(state: State) -> dict[str, bytes]:
    """Return the ruleset a game is played with and its rulebook's texts, as JSON.

    A ruleset is the game's data with its options (house rules) applied, and the options are fixed
    when the game is made: both are made once per game and options, not once per request. The
    ruleset's `rules` keeps the first evening's guide; the rule texts in two languages, the largest
    part, are their own answer, so that a page that shows none of them loads none of them. A page
    shows one language: it asks for the ruleset with its texts in that one (`en`, `nl`), and for
    the other's only when a player switches.
    """
    key = dumps([state["game"], state["options"]])
    made = _rulesets.get(key)
    if made is None:
        if len(_rulesets) >= RULESETS_KEPT:
            _rulesets.clear()
        data = dict(ruleset(state))
        book = data["rules"]
        data["rules"] = {part: value for part, value in book.items() if part not in RULE_TEXTS}
        made = _rulesets[key] = {
            "ruleset": dumpb_kept(data), "rules": dumpb_kept({part: book[part] for part in RULE_TEXTS}),
            **{language: dumpb_kept(_in_language(data, language)) for language in LANGUAGES},
        }
    return made


def ruleset_json(state: State, language: str | None = None) -> bytes:
    """Return the ruleset a game is played with, as JSON (its rule texts apart: `rules_json`), its
    texts in both languages or, with `language`, in that one."""
    return _served(state)[language or "ruleset"]


def rules_json(state: State) -> bytes:
    """Return the rulebook's texts of a game, ``{"source", "chapters", "rules"}``, as JSON."""
    return _served(state)["rules"]


def default_state(game: str) -> State:
    """Return a new game of `game` with no option changed, for its default ruleset (404 for none)."""
    if game not in game_names():
        raise UnknownGameKind(game)
    state, _ = create(game, "RULESET", {}, "00" * 32)
    return state


def create_game(body: Any) -> dict[str, str]:
    """Create a game with a fresh code, secret seed and host token."""
    limit("games")
    game, options = load_creation(body)
    seed = secrets.token_hex(32)
    host_token = secrets.token_urlsafe(16)
    while True:
        code = new_code()
        state, event = create(game, code, options, seed)
        try:
            store().create(code, state, event, hash_token(host_token))
        except Conflict:  # the code is taken: draw another
            continue
        return {"code": code, "host_token": host_token, "join_url": join_url(code)}


def _act_in(room: Room, action: Action, actor: Viewer, keyed: Keyed | None = None, **options: Any) -> Change:
    """Run an action in the game's room: 404 for a game gone, 401 for a seat moved meanwhile."""
    try:
        return room.act(action, actor, remember=keyed.remember if keyed else None, **options)
    except KeyError as exc:
        if exc.args != (room.code,):
            raise
        raise GameNotFound(room.code) from None
    except Retired:
        raise SeatMoved() from None


def _joined(events: list[Event]) -> str:
    return next(str(event["player_id"]) for event in events if event["type"] == "PlayerJoined")


def join(code: str, body: Any) -> dict[str, str]:
    """Seat a new player in the lobby and give them a token, stored in the same atomic step."""
    limit("joins")
    payload = load(JoinSchema(), body)
    token = secrets.token_urlsafe(16)
    action = {"type": "join", "name": payload["name"], "character": payload["character"]}
    change = _act_in(rooms().room(code), action, PUBLIC,
                     new_token=lambda events: (hash_token(token), {"player": _joined(events)}))
    return {"player_id": _joined(change.events), "token": token}


def view(code: str, token: str | None) -> State:
    """Return the state view for the bearer of `token` (the public view without one)."""
    caller = authenticate(code, token)
    return view_for(load_state(code), caller.viewer)


def events(code: str, token: str | None, query: Any) -> dict[str, Any]:
    """Return every event after version `since`, as the caller may see them."""
    caller = authenticate(code, token)
    since = load(EventsQuerySchema(), query)["since"]
    state = load_state(code)
    found = store().events_since(code, since, upto=state["version"])
    return {"version": state["version"],
            "events": [event_view_for(state, event, caller.viewer) for event in found]}


def update_body(state: State, events: list[Event], viewer: Viewer, with_state: bool = True) -> dict[str, Any]:
    """Return ``{"version", "events", "state"}`` as `viewer` may see them (without the state: a patch
    socket's answer, whose state comes in the patch)."""
    body = {"version": state["version"], "events": [event_view_for(state, event, viewer) for event in events]}
    if with_state:
        body["state"] = view_for(state, viewer)
    return body


Shown = Callable[[Change, Viewer], dict[str, Any]]
"""How a change is shown to the caller whose action made it: ``{"version", "events", "state"}``."""


def _shown(change: Change, viewer: Viewer) -> dict[str, Any]:
    return update_body(change.state, change.events, viewer)


class Keyed:
    """The answers of one action under an Idempotency-Key, made before the step that stores them.

    A change's answer is the JSON its update carries to the sockets here (the room makes the update
    before the commit and hands it to its sockets after it), or, with no socket here, the body the
    request is answered with: what is stored is what is sent, made and encoded once.
    """

    def __init__(self, code: str, caller: Caller, key: str, language: str) -> None:
        assert caller.token_hash is not None  # a key belongs to its token
        self.viewer = caller.viewer
        self.language = language
        self.expected = -1
        self.made: Update | None = None
        self.body: dict[str, Any] = {}
        self.name = keys.idempotency(code, caller.token_hash, key)

    @property
    def remember(self) -> Remember:
        """What the room stores the answer under, and how it makes it. Made when asked and never kept
        here: kept, its bound methods would make a cycle with this object, and every action's answer,
        update and views would wait for the garbage collector instead of going when the action ends."""
        return Remember(self.name, self.success, self.refusal)

    def success(self, change: Change) -> bytes:
        """Return a change's answer ``{"status": 200, "body"}`` as stored."""
        self.made = change.update
        self.body = (update_body(change.state, change.events, self.viewer) if self.made is None
                     else self.made.body_for(self.viewer))
        return dumpb({"status": 200, "body": self.body})

    def refusal(self, exc: Exception) -> bytes:
        """Return a refusal's answer ``{"status", "body"}`` as stored (Conflict: the stale version)."""
        if isinstance(exc, Conflict):
            exc = StaleVersion(self.expected, exc.current)
        status, body = refusal(exc, self.language)
        return dumpb({"status": status, "body": body})

    def shown(self, change: Change, shown: Shown) -> dict[str, Any]:
        """Return the body of the answer that was stored with `change`: the very one made for it,
        or, when it was made of the room's update, as the caller shows that update."""
        return self.body if self.made is None else shown(change, self.viewer)


def _apply(code: str, caller: Caller, body: Any, language: str, keyed: Keyed | None = None,
           shown: Shown = _shown) -> Answer:
    room = rooms().room(code)
    try:
        try:
            known = room.newest() or load_state(code)
            action, expected = for_game(known["game"]).load_action(body)
            if keyed is not None:
                keyed.expected = expected if expected is not None else -1
            try:
                change = _act_in(room, action, caller.viewer, keyed, known=known, expected_version=expected,
                                 acting=caller.acting)
            except Conflict as exc:
                raise StaleVersion(expected if expected is not None else -1, exc.current) from None
        except (ApiError, ShipmateError) as exc:
            if keyed is None:
                return refusal(exc, language)
            # refused before the rules were asked (a malformed action, a retired token, a game gone)
            raise Answered(room.refuse(keyed.remember, exc)) from None
    except Answered as answered:
        found = loads(answered.answer)
        return int(found["status"]), found["body"]
    if keyed is None:
        return 200, shown(change, caller.viewer)
    return 200, keyed.shown(change, shown)


def act(code: str, token: str | None, body: Any, idempotency_key: str | None, language: str,
        caller: Caller | None = None, shown: Shown = _shown) -> Answer:
    """Run an action for the bearer of `token` and return the answer (status, body).

    `caller` is who the token was found to be when the socket that sends the action opened (a
    token's role never changes), so a socket's actions skip looking it up again. `shown` makes a
    success's body (a socket takes the JSON its update carries).

    The answer under an Idempotency-Key, success or refusal, is stored for 24 hours and given to
    every retry with that key, whatever the retry's action. The key's record is read and written in
    the step that commits the change, or that checks a refusal still stands (`Room.act`), so an
    action under a key makes the round trips of one without, and a change is never stored without
    its answer. A retry that arrives while the first request still works decides too, but only the
    first of the two steps to run stores anything: the other finds its answer, and answers with it.
    Raises ApiError when the caller is not known (401, 404, 429) and Unavailable without Redis.
    """
    if not token:
        raise Unauthorized()
    if caller is None or caller.token_hash is None:
        caller = authenticate(code, token)
    if idempotency_key is None:
        return _apply(code, caller, body, language, shown=shown)
    if not IDEMPOTENCY_KEY.match(idempotency_key):
        return refusal(BadRequest({"Idempotency-Key": ["1 to 128 visible ASCII characters."]}), language)
    return _apply(code, caller, body, language, Keyed(code, caller, idempotency_key, language), shown)
