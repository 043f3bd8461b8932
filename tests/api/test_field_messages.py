"""Every field of every body, at every depth, refused at its path with a list of messages in Dutch or English.

The test walks the marshmallow schemas that validate each game's actions and options, the join and the
seat, and sends a real server, for each field, the values it must refuse: a wrong type, null, each
bound crossed, an unknown key in a nested object, a wrong item in a list, a wrong entry of a map. Every
answer is a 400 whose `fields` is flat (each path to a list of texts, docs/PROTOCOL.md), holds the
field's path, matches the document's Error schema, and says every message in Dutch when asked: a
message without a Dutch translation would come back in English and fail. Actions go over HTTP and
over a socket's action frame.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import jsonschema_rs
import pytest
import requests
from marshmallow import Schema, fields, validate

from shipmate.web.schemas import GAMES, common
from tests.api.client import TIMEOUT, Game, bearer

Case = tuple[Any, str]
"""A value a field must refuse, and the path whose messages must say so."""


def _refused_by_validators(field: fields.Field) -> Iterator[Any]:
    """Yield values of the field's own type that its validators refuse."""
    for check in field.validators:
        if isinstance(check, validate.Range):
            if check.min is not None:
                yield check.min - 1
            if check.max is not None:
                yield check.max + 1
        elif isinstance(check, validate.OneOf):
            choices = list(check.choices)
            yield max(choices) + 1 if all(isinstance(c, int) for c in choices) else "none-of-these"
        elif isinstance(check, validate.Length):
            if check.min:
                yield "" if isinstance(field, fields.String) else []
            if check.max is not None:
                yield "x" * (check.max + 1)
        elif isinstance(check, validate.Regexp):
            yield "   "  # no pattern of the schemas takes only spaces
        else:  # a function (hit_bounds): no such map is allowed
            yield {"none": 1}


def wrong(field: fields.Field, path: str) -> Iterator[Case]:
    """Yield values that `field` at `path` must refuse, each with the path its messages are at."""
    if not field.allow_none:
        yield None, path
    yield from ((value, path) for value in _refused_by_validators(field))
    if isinstance(field, fields.Nested):
        yield from (("a text", path), ([], path), ({"unknown": 1}, f"{path}.unknown"))
        yield from _inside(field.schema, path)
    elif isinstance(field, fields.List):
        yield from (({}, path), ("a text", path))
        yield from (([value], at) for value, at in wrong(field.inner, f"{path}.0"))
    elif isinstance(field, fields.Dict):
        yield from (([], path), ("a text", path))
        if field.key_field is not None and field.key_field.validators:
            yield {"   ": 1}, f"{path}.   "
        if field.value_field is not None:
            yield from (({"1": value}, at) for value, at in wrong(field.value_field, f"{path}.1"))
    elif isinstance(field, fields.Integer):
        yield from (("1", path), (1.5, path), (True, path))
    elif isinstance(field, fields.String):
        yield from ((5, path), ({"a": "b"}, path))
    elif isinstance(field, fields.Boolean):
        yield from (("true", path), (1, path))


def _inside(schema: Schema, path: str) -> Iterator[Case]:
    """Yield a nested object's cases: each field of it wrong (its siblings left out), one by one."""
    for name, field in schema.fields.items():
        key = field.data_key or name
        yield from (({key: value}, at) for value, at in wrong(field, f"{path}.{key}"))


def body_cases(schema: Schema, skip: tuple[str, ...] = ()) -> Iterator[tuple[dict[str, Any], str]]:
    """Yield bodies of `schema` each with one field wrong (or missing, or unknown) and its path."""
    yield {"unknown": 1}, "unknown"
    for name, field in schema.fields.items():
        key = field.data_key or name
        if key in skip:
            continue
        if field.required:
            yield {}, key
        yield from (({key: value}, at) for value, at in wrong(field, key))


def action_cases() -> Iterator[tuple[str, str, dict[str, Any], str]]:
    """Yield (game, action, body, path) for each action schema of each game."""
    for name, game in GAMES.items():
        seen: set[type[Schema]] = set()
        for kind, schema in game.actions.items():
            if schema in seen:
                continue
            seen.add(schema)
            for body, path in body_cases(schema(), skip=("type",)):
                yield name, kind, {"type": kind, **body}, path


def creation_cases() -> Iterator[tuple[dict[str, Any], str]]:
    """Yield (body of POST /api/games, path) for each game's options and its `game`."""
    for name, game in GAMES.items():
        for body, path in body_cases(game.creation()):
            if body or path != "game":  # a body that leaves `game` out is a game of the default
                yield {"game": name, **body}, path


ACTIONS = list(action_cases())
CREATIONS = list(creation_cases())
JOINS = list(body_cases(common.JoinSchema()))
SEATS = list(body_cases(common.SeatSchema()))


def test_the_cases_reach_every_depth() -> None:
    paths = {path for *_, path in ACTIONS} | {path for _, path in CREATIONS}
    for deep in ("give.wood", "resources.food", "galleys.1", "galleys.   ", "cards.0", "cards.0.id",
                 "cards.0.kind", "order.0", "options.house_rules.hit_table.1.1",
                 "options.house_rules.caps.cannons", "options.house_rules.hit_bounds",
                 "options.house_rules.rounds", "options.house_rules.min_bid_cards"):
        assert deep in paths
    assert len(ACTIONS) > 300 and len(CREATIONS) > 100


@pytest.fixture(scope="module")
def error_schema(live_server: str) -> jsonschema_rs.Draft4Validator:
    """The server's own document's Error schema."""
    document = requests.get(f"{live_server}/api/openapi.json", timeout=TIMEOUT).json()
    return jsonschema_rs.Draft4Validator({"$ref": "#/components/schemas/Error",
                                          "components": document["components"]})


def check(english: dict[str, Any], dutch: dict[str, Any], path: str,
          error_schema: jsonschema_rs.Draft4Validator) -> None:
    """Check one refusal in both languages: flat, at `path`, as documented, and Dutch in Dutch."""
    for body in (english, dutch):
        assert body["error"] in ("invalid", "invalid_action"), body
        error_schema.validate(body)
        assert all(isinstance(m, list) and m and all(isinstance(t, str) and t for t in m)
                   for m in body["fields"].values()), body
    assert path in english["fields"], (path, english)
    assert english["fields"].keys() == dutch["fields"].keys()
    for at, messages in english["fields"].items():
        for said, translated in zip(messages, dutch["fields"][at], strict=True):
            assert said != translated, f"no Dutch for {said!r} (at {at})"


def post_both(session: requests.Session, url: str, body: Any,
              token: str | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """POST `body` in English and in Dutch; both must be 400s; return their bodies."""
    answers = []
    for language in ("en", "nl"):
        response = session.post(url, json=body, timeout=TIMEOUT,
                                headers={**bearer(token), "Accept-Language": language})
        assert response.status_code == 400, (body, response.text)
        answers.append(response.json())
    return answers[0], answers[1]


def test_every_wrong_action_field_is_refused_at_its_path_over_http_and_the_socket(
        live_server: str, error_schema: jsonschema_rs.Draft4Validator) -> None:
    games = {name: Game.create(live_server, name) for name in GAMES}  # in the lobby: nothing runs
    with ExitStack() as open_sockets:
        sockets = {}
        for name, game in games.items():
            sockets[name] = game.socket(game.host)
            open_sockets.callback(sockets[name].close)
            sockets[name].receive()
        for number, (name, kind, body, path) in enumerate(ACTIONS):
            game = games[name]
            english, dutch = post_both(game.http, f"{game.url}/actions", body, game.host)
            check(english, dutch, path, error_schema)
            sockets[name].send({"type": "action", "id": number, "action": body, "language": "nl"})
            result = sockets[name].until("result", id=number)
            assert result["status"] == 400 and result["fields"] == dutch["fields"], (kind, body, result)
    assert all(game.state()["version"] == 0 for game in games.values())


def test_every_wrong_option_is_refused_at_its_path(
        live_server: str, error_schema: jsonschema_rs.Draft4Validator) -> None:
    session = requests.Session()
    for body, path in CREATIONS:
        check(*post_both(session, f"{live_server}/api/games", body), path, error_schema)


def test_every_wrong_join_and_seat_field_is_refused_at_its_path(
        live_server: str, error_schema: jsonschema_rs.Draft4Validator) -> None:
    game = Game.create(live_server)
    for route, cases in (("players", JOINS), ("seat", SEATS)):
        for body, path in cases:
            check(*post_both(game.http, f"{game.url}/{route}", body), path, error_schema)
    assert game.state()["players"] == []
