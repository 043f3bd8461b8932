"""Every refusal as one JSON shape, ``{"error": code, "message": text, …}``, in Dutch or English."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.routing import WebsocketMismatch

from ..rules import InvalidAction, RuleViolation, ShipmateError, Text, text
from ..store import Unavailable

LANGUAGES = ("en", "nl")
DRAIN_LIMIT = 1024 * 1024

Answer = tuple[int, dict[str, Any]]


def request_language() -> str:
    """Return the language the request asks for with Accept-Language: "nl" or "en" (the default)."""
    return request.accept_languages.best_match(LANGUAGES, default="en") or "en"


class ApiError(Exception):
    """A refusal of the web layer (the rules refuse with ShipmateError)."""

    status = 400
    code = "invalid"

    def __init__(self, message: Text, **extra: Any) -> None:
        super().__init__(message["en"])
        self.message = message
        self.extra = extra

    def headers(self) -> dict[str, str]:
        """Return the HTTP headers that go with the refusal."""
        return {}


Fields = dict[str, list[str]]
"""A 400's `fields`: each offending field's path to its messages (English; answered in the caller's).

A nested field's path joins its names with dots: `give.wood` (a key of a map), `cards.0.id` (a field
of a list's first item), `options.house_rules.caps.cannons`. A field whose value has the wrong shape
(a list where a map belongs) has its messages at its own path (`give`); a body that is no JSON object
at `_body`."""


class BadRequest(ApiError):
    """A malformed body or an unknown action: `fields` maps each offending field's path to its messages."""

    def __init__(self, fields: Fields) -> None:
        super().__init__(
            text("Het verzoek klopt niet; zie 'fields'.", "The request is not valid; see 'fields'."),
            fields=fields,
        )


class Unauthorized(ApiError):
    """No token, or a token this game does not know."""

    status = 401
    code = "unauthorized"

    def __init__(self) -> None:
        super().__init__(text(
            "Ontbrekende of ongeldige token (Authorization: Bearer <token>).",
            "Missing or invalid token (Authorization: Bearer <token>).",
        ))


class SeatMoved(ApiError):
    """A player's token retired by a hand-over of the seat: the player now plays on another device."""

    status = 401
    code = "seat_moved"

    def __init__(self) -> None:
        super().__init__(text(
            "Je plaats is nu op een ander toestel. Vraag de gastheer om een nieuwe link als dat niet klopt.",
            "Your seat is now on another phone. Ask the host for a new link if that is wrong.",
        ))


class LinkGone(ApiError):
    """A hand-over link that was used already, or expired."""

    status = 410
    code = "gone"

    def __init__(self) -> None:
        super().__init__(text(
            "Deze link is al gebruikt of verlopen (hij werkt één keer, 10 minuten). "
            "Vraag de gastheer om een nieuwe.",
            "This link was used already or has expired (it works once, for 10 minutes). "
            "Ask the host for a new one.",
        ))


class PlayerNotFound(ApiError):
    """No player of the game has this id."""

    status = 404
    code = "not_found"

    def __init__(self, player: str) -> None:
        super().__init__(text(f"Dit spel heeft geen speler {player!r}.",
                              f"This game has no player {player!r}."))


class GameNotFound(ApiError):
    """No game has this code (or it expired)."""

    status = 404
    code = "not_found"

    def __init__(self, code: str) -> None:
        super().__init__(text(f"Er is geen spel met code {code!r}.", f"There is no game with code {code!r}."))


class UnknownGameKind(ApiError):
    """No game of this name is played here."""

    status = 404
    code = "not_found"

    def __init__(self, name: str) -> None:
        super().__init__(text(f"Shipmate kent geen spel {name!r}.",
                              f"Shipmate plays no game called {name!r}."))


class StaleVersion(ApiError):
    """The client's `expected_version` is not the game's version: nothing was done."""

    status = 409
    code = "stale_version"

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(
            text(
                f"Het spel is al bij versie {current}, niet {expected}: haal de nieuwe stand op.",
                f"The game is at version {current}, not {expected}: fetch the new state.",
            ),
            version=current,
        )


class RateLimited(ApiError):
    """Too many requests from one address in the current window."""

    status = 429
    code = "rate_limited"

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            text(
                f"Te veel verzoeken; probeer het over {retry_after} seconden opnieuw.",
                f"Too many requests; try again in {retry_after} seconds.",
            ),
            retry_after=retry_after,
        )

    def headers(self) -> dict[str, str]:
        """Tell the client when to come back."""
        return {"Retry-After": str(self.extra["retry_after"])}


UNAVAILABLE = text(
    "De spelopslag is even niet bereikbaar; probeer het zo opnieuw.",
    "The game store cannot be reached right now; try again shortly.",
)

_HTTP_MESSAGES: dict[int, tuple[str, Text]] = {
    400: ("invalid", text("Het verzoek klopt niet.", "The request is not valid.")),
    404: ("not_found", text("Dit adres bestaat niet.", "There is nothing at this address.")),
    405: ("method_not_allowed", text("Deze methode kan hier niet.", "This method is not allowed here.")),
    413: ("too_large", text("Het verzoek is te groot.", "The request body is too large.")),
}

# Marshmallow speaks English; these are the messages our schemas and the web layer can give (every one
# marshmallow 4 gives for the fields and validators of web/schemas), in Dutch.
_DUTCH_FIELD_MESSAGES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p), nl) for p, nl in [
        (r"^Missing data for required field\.$", "Dit veld is verplicht."),
        (r"^Unknown field\.$", "Onbekend veld."),
        (r"^Field may not be null\.$", "Dit veld mag niet leeg (null) zijn."),
        (r"^Not a valid integer\.$", "Geen geldig geheel getal."),
        (r"^Not a valid string\.$", "Geen geldige tekst."),
        (r"^Not a valid boolean\.$", "Geen geldige booleaanse waarde."),
        (r"^Not a valid mapping type\.$", "Geen geldig object."),
        (r"^Not a valid list\.$", "Geen geldige lijst."),
        (r"^Invalid input type\.$", "Ongeldig type invoer."),
        (r"^Must be one of: (.*)\.$", r"Moet een van deze zijn: \1."),
        (r"^One of: (.*)\.$", r"Een van: \1."),
        (r"^Must be greater than or equal to (\S+) and less than or equal to (\S+)\.$",
         r"Moet tussen \1 en \2 liggen."),
        (r"^Must be greater than or equal to (\S+)\.$", r"Moet minstens \1 zijn."),
        (r"^Must be less than or equal to (\S+)\.$", r"Mag hoogstens \1 zijn."),
        (r"^Length must be between (\S+) and (\S+)\.$", r"De lengte moet tussen \1 en \2 liggen."),
        (r"^Shorter than minimum length (\S+)\.$", r"Korter dan de minimale lengte \1."),
        (r"^Longer than maximum length (\S+)\.$", r"Langer dan de maximale lengte \1."),
        (r"^String does not match expected pattern\.$", "De tekst heeft niet de verwachte vorm."),
        (r"^A player id is p1 to p6\.$", "Een speler-id is p1 tot p6."),
        (r"^A name is not only spaces\.$", "Een naam bestaat niet alleen uit spaties."),
        (r"^A galley's number is 1 to 99\.$", "Het nummer van een galei is 1 tot 99."),
        (r"^min and max are each 1 to 6, and min is at most max \(the ruleset's: (.*)\)\.$",
         r"min en max zijn elk 1 tot 6, en min is hoogstens max (die van de spelregels: \1)."),
        (r"^(\S+) has no dice device\.$", r"\1 heeft geen dobbelsteentoestel."),
        (r"^Malformed JSON: (.*)$", r"Ongeldige JSON: \1"),
        (r"^The body must be a JSON object\.$", "De inhoud moet een JSON-object zijn."),
        (r"^Unknown action (.*)\. Known: (.*)\.$", r"Onbekende actie \1. Bekend: \2."),
        (r"^1 to 128 visible ASCII characters\.$", "1 tot 128 zichtbare ASCII-tekens."),
        (r"^Give a 'step', or 'skip': true\.$", "Geef een 'step', of 'skip': true."),
        (r"^Missing header, '(.*)'$", r"Header ontbreekt: '\1'"),
        (r"^This address takes no WebSocket handshake\.$", "Dit adres neemt geen WebSocket-handdruk aan."),
    ]
]


def in_language(message: str, language: str) -> str:
    """Return a field's message (English, as marshmallow and the web layer give it) in `language`."""
    if language == "nl":
        for pattern, dutch in _DUTCH_FIELD_MESSAGES:
            if pattern.match(message):
                return pattern.sub(dutch, message)
    return message


def answer_for(exc: Exception, language: str) -> tuple[int, dict[str, Any], dict[str, str]]:
    """Return the status, JSON body and headers that answer a refusal, or re-raise what is no refusal."""
    if isinstance(exc, ApiError):
        body = {"error": exc.code, "message": exc.message.get(language, exc.message["en"]), **exc.extra}
        if "fields" in body:
            body["fields"] = {path: [in_language(m, language) for m in messages]
                              for path, messages in body["fields"].items()}
        return exc.status, body, exc.headers()
    if isinstance(exc, ShipmateError):
        message = exc.message_in(language)
        body = {"error": exc.code, "message": message, **exc.details}
        if isinstance(exc, RuleViolation):
            body["rule"] = exc.rule
        # The field a refusal names (a 400's parameter, a 409's taken character) is said as every
        # field is: its path to its messages.
        field = body.pop("field", "_action" if isinstance(exc, InvalidAction) else None)
        if field is not None:
            body["fields"] = {str(field): [message]}
        return exc.status, body, {}
    if isinstance(exc, Unavailable):
        return 503, {"error": "unavailable", "message": UNAVAILABLE.get(language, UNAVAILABLE["en"])}, {}
    if isinstance(exc, HTTPException):
        status = exc.code or 500
        code, known = _HTTP_MESSAGES.get(status, (exc.name.lower().replace(" ", "_"), None))
        allow = {k: v for k, v in exc.get_headers() if k == "Allow"}  # RFC 9110: a 405 lists the methods
        return status, {"error": code, "message": known[language] if known else exc.name}, allow
    raise exc


def refusal(exc: Exception, language: str) -> Answer:
    """Return the status and body of a refusal (for answers that are stored or sent over a socket)."""
    status, body, _ = answer_for(exc, language)
    return status, body


def _drain_body() -> None:
    """Read an oversized body we refused (up to a bound), so the client reads our 413, not a reset."""
    length = request.content_length or 0
    if length <= DRAIN_LIMIT:
        stream = request.environ["wsgi.input"]
        while length > 0:
            chunk = stream.read(min(length, 65536))
            if not chunk:
                break
            length -= len(chunk)


def _handshake_mismatch() -> BadRequest:
    """Refuse a plain request to the socket's route, or a handshake to an HTTP route (werkzeug's routing)."""
    tokens = request.headers.get("Connection", "").split(",")
    upgrade = any(token.strip().lower() == "upgrade" for token in tokens)
    if upgrade and request.headers.get("Upgrade", "").lower() == "websocket":
        return BadRequest({"_handshake": ["This address takes no WebSocket handshake."]})
    missing = "Upgrade: websocket" if upgrade else "Connection: Upgrade"  # as wsproto names them
    return BadRequest({"_handshake": [f"Missing header, '{missing}'"]})


def _handle(exc: Exception) -> Response:
    if isinstance(exc, RequestEntityTooLarge):
        _drain_body()
    if isinstance(exc, WebsocketMismatch):
        exc = _handshake_mismatch()
    status, body, headers = answer_for(exc, request_language())
    response = jsonify(body)
    response.status_code = status
    response.headers.update(headers)
    return response


def init_app(app: Flask) -> None:
    """Answer every refusal, HTTP error and Redis outage of `app` in the JSON error shape."""
    for kind in (ApiError, ShipmateError, Unavailable, HTTPException):
        app.register_error_handler(kind, _handle)
