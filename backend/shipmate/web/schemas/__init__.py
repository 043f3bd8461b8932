"""The API's bodies as marshmallow schemas: they validate requests and document the API (OpenAPI).

common.py holds what every game shares; each game has a module of its own options, actions and
state view, registered here by the game's name. A new game adds its module and one line below.
"""

from __future__ import annotations

from typing import Any

from marshmallow import EXCLUDE, Schema, fields, validate

from ...rules import game_named
from . import quest1607, serenissima, voyagers
from .common import GameSchemas, load

GAMES: dict[str, GameSchemas] = {
    schemas.name: schemas for schemas in (quest1607.SCHEMAS, serenissima.SCHEMAS, voyagers.SCHEMAS)
}
DEFAULT_GAME = next(schemas.name for schemas in GAMES.values() if schemas.default)


class GameChoiceSchema(Schema):
    """The field of POST /api/games that picks the game; the rest of the body is the game's."""

    class Meta:
        unknown = EXCLUDE

    game = fields.String(load_default=DEFAULT_GAME, validate=validate.Length(min=1, max=40))


def for_game(name: str) -> GameSchemas:
    """Return the schemas of the game called `name`; refuse an unknown game as the core does."""
    return GAMES[game_named(name).name]


def load_creation(body: Any) -> tuple[str, dict[str, Any]]:
    """Validate POST /api/games: return the game's name and its options."""
    name: str = load(GameChoiceSchema(), body)["game"]
    return name, for_game(name).load_creation(body)
