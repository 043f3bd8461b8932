"""What the API does, shared by the HTTP routes and the WebSocket: authenticate, act, view, join."""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from flask import current_app, request

from ..codec import dumpb_kept, dumps
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
    Change,
    Claim,
    ClaimLost,
    Conflict,
    GameStore,
    Remember,
    Retired,
    Seats,
    Unavailable,
    hash_token,
)
from .errors import (
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
from .rooms import Rooms
from .schemas import for_game, load_creation
from .schemas.common import EventsQuerySchema, JoinSchema, load
from .urls import join_url

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,128}$")

log = logging.getLogger(__name__)


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

_rulesets: dict[str, bytes] = {}


def ruleset_json(state: State) -> bytes:
    """Return the ruleset a game is played with, as JSON.

    A ruleset is the game's data with its options (house rules) applied, and the options are fixed
    when the game is made: it is made once per game and options, not once per request (its rules'
    texts in two languages make it the largest answer of the API).
    """
    key = dumps([state["game"], state["options"]])
    made = _rulesets.get(key)
    if made is None:
        if len(_rulesets) >= RULESETS_KEPT:
            _rulesets.clear()
        made = _rulesets[key] = dumpb_kept(ruleset(state))
    return made


def default_ruleset(game: str) -> bytes:
    """Return the ruleset a new game of `game` is played with when no option is changed (404 for none)."""
    if game not in game_names():
        raise UnknownGameKind(game)
    state, _ = create(game, "RULESET", {}, "00" * 32)
    return ruleset_json(state)


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


def _commit(code: str, action: Action, actor: Viewer, **options: Any) -> Change:
    """Commit an action on the newest state known here, and hand the change to the game's room."""
    try:
        change = store().act(code, action, actor, **options)
    except KeyError as exc:
        if exc.args != (code,):
            raise
        raise GameNotFound(code) from None
    except Retired:
        raise SeatMoved() from None
    rooms().committed(code, change.state, change.events)
    return change


def _joined(events: list[Event]) -> str:
    return next(str(event["player_id"]) for event in events if event["type"] == "PlayerJoined")


def join(code: str, body: Any) -> dict[str, str]:
    """Seat a new player in the lobby and give them a token, stored in the same atomic step."""
    limit("joins")
    payload = load(JoinSchema(), body)
    token = secrets.token_urlsafe(16)
    action = {"type": "join", "name": payload["name"], "character": payload["character"]}
    change = _commit(code, action, PUBLIC,
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
    found = [e for e in store().events_since(code, since) if e["version"] <= state["version"]]
    return {"version": state["version"],
            "events": [event_view_for(state, event, caller.viewer) for event in found]}


def update_body(state: State, events: list[Event], viewer: Viewer) -> dict[str, Any]:
    """Return ``{"version", "events", "state"}`` as `viewer` may see them."""
    return {
        "version": state["version"],
        "events": [event_view_for(state, event, viewer) for event in events],
        "state": view_for(state, viewer),
    }


def _stored_success(change: Change, viewer: Viewer) -> dict[str, Any]:
    """Return a change's answer as an Idempotency-Key keeps it: ``{"status": 200, "body"}``."""
    return {"status": 200, "body": update_body(change.state, change.events, viewer)}


Shown = Callable[[Change, Viewer], dict[str, Any]]
"""How a change is shown to the caller whose action made it: ``{"version", "events", "state"}``."""


def _shown(change: Change, viewer: Viewer) -> dict[str, Any]:
    return update_body(change.state, change.events, viewer)


def _apply(code: str, caller: Caller, body: Any, language: str, remember: Remember | None = None,
           shown: Shown = _shown) -> Answer:
    try:
        known = rooms().state(code) or load_state(code)
        action, expected = for_game(known["game"]).load_action(body)
        try:
            change = _commit(code, action, caller.viewer, known=known, expected_version=expected,
                             remember=remember, acting=caller.acting)
        except Conflict as exc:
            raise StaleVersion(expected if expected is not None else -1, exc.current) from None
    except (ApiError, ShipmateError) as exc:
        return refusal(exc, language)
    if remember is None:
        return 200, shown(change, caller.viewer)
    return change.answer["status"], change.answer["body"]


def act(code: str, token: str | None, body: Any, idempotency_key: str | None, language: str,
        caller: Caller | None = None, shown: Shown = _shown) -> Answer:
    """Run an action for the bearer of `token` and return the answer (status, body).

    `caller` is who the token was found to be when the socket that sends the action opened (a
    token's role never changes), so a socket's actions skip looking it up again. `shown` makes a
    success's body (a socket takes the JSON its update carries).

    The answer under an Idempotency-Key, success or refusal, is stored for 24 hours and given to
    every retry with that key; a retry that arrives while the first is running waits for it. A
    change's answer is made before its commit and stored by the commit itself, so a change is never
    left without its answer; a refusal changes nothing and is stored after it. The first attempt
    holds the key with a lease it renews while it works: a retry that finds the lease lapsed (the
    first attempt's server died, or stalled) takes the key over and decides; the stalled attempt then
    stores nothing and answers with the retry's answer.
    Raises ApiError when the caller is not known (401, 404, 429) and Unavailable without Redis.
    """
    if not token:
        raise Unauthorized()
    if caller is None or caller.token_hash is None:
        caller = authenticate(code, token)
    assert caller.token_hash is not None  # a token was given and authenticate did not refuse it
    if idempotency_key is None:
        return _apply(code, caller, body, language, shown=shown)
    if not IDEMPOTENCY_KEY.match(idempotency_key):
        return refusal(BadRequest({"Idempotency-Key": ["1 to 128 visible ASCII characters."]}), language)
    while True:
        found = store().answers.remembered(code, caller.token_hash, idempotency_key)
        if not isinstance(found, Claim):
            return int(found["status"]), found["body"]
        answered = _first_answer(code, caller, body, language, found, shown)
        if answered is not None:
            return answered
        # The claim lapsed and a retry took it over: that retry's answer is this request's too.


def _first_answer(code: str, caller: Caller, body: Any, language: str, claim: Claim,
                  shown: Shown) -> Answer | None:
    """Decide an action under a claimed Idempotency-Key and store its answer; None if the claim was lost."""
    assert caller.token_hash is not None
    remember = Remember(claim, partial(_stored_success, viewer=caller.viewer))
    with store().answers.working(claim):
        try:
            status, answer = _apply(code, caller, body, language, remember, shown)
        except ClaimLost:
            return None
        except BaseException:
            store().answers.forget(claim)
            raise
        if status == 200:  # stored by the commit
            return status, answer
        try:
            if not store().answers.remember(claim, {"status": status, "body": answer}):
                return None
        except Unavailable:  # nothing changed; a retry after the claim lapses decides again
            log.warning("could not store a refusal under an Idempotency-Key of game %s", code)
        return status, answer
