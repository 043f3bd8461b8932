"""Quest 1607's state view (docs/PROTOCOL.md), as marshmallow schemas: what the OpenAPI document says
the server answers, and what the API tests check every answer against."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from .common import StateHeaderSchema, game_field


class View(Schema):
    """A part of the state view: the fields below are always there; fields may be added."""

    class Meta:
        unknown = "include"


def _text() -> fields.Nested:
    """Return a required field holding a text in both languages."""
    return fields.Nested(TextSchema, required=True)


def _stock(**options: Any) -> fields.Dict:
    """Return a field holding a map resource → count."""
    return fields.Dict(keys=fields.String(), values=fields.Integer(), **options)


class TextSchema(View):
    """A card's text in Dutch and English."""

    nl = fields.String(required=True)
    en = fields.String(required=True)


class DieSchema(View):
    """One die: its index in the game's derivation (docs/PROTOCOL.md) and its face."""

    index = fields.Integer(required=True)
    value = fields.Integer(required=True, validate=validate.Range(min=1, max=6))


class DiceSchema(View):
    """A turn's roll (T1): the movement die and the white dice."""

    move = fields.Nested(DieSchema, required=True)
    white = fields.List(fields.Nested(DieSchema), required=True)


class TurnSchema(View):
    """Whose turn it is and what they did so far."""

    player = fields.String(required=True)
    rolled = fields.Boolean(required=True)
    dice = fields.Nested(DiceSchema, required=True, allow_none=True,
                         metadata={"description": "null before the roll"})
    allowance = fields.Integer(required=True, allow_none=True,
                               metadata={"description": "each ship's squares (T3); null before the roll"})
    moved = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                        metadata={"description": "ship number → squares sailed this turn"})


class GoodsSchema(View):
    """Trade goods riding on a ship for a quest's step (Q3)."""

    quest = fields.String(required=True)
    step = fields.Integer(required=True)
    good = fields.String(required=True)


class ShipViewSchema(View):
    """A ship card."""

    number = fields.Integer(required=True)
    cannons = fields.Integer(required=True)
    sails = fields.Integer(required=True)
    crew = fields.Integer(required=True)
    sail_hits = fields.Integer(required=True)
    goods = fields.List(fields.Nested(GoodsSchema), required=True)


class QuestViewSchema(View):
    """A quest card in its owner's hand."""

    id = fields.String(required=True)
    level = fields.String(required=True, validate=validate.OneOf(["bronze", "silver", "gold"]))
    card = fields.String(required=True)
    title = _text()
    text = _text()
    requirements = fields.List(fields.Dict(), required=True)
    progress = fields.List(fields.Dict(), required=True, metadata={"description": "per requirement: done"})


class SkipReasonSchema(View):
    """Why a player skips their next turn: the rule and the other side of the fight."""

    rule = fields.String(required=True, validate=validate.OneOf(["C7", "C8"]))
    by = fields.String(required=True,
                       metadata={"description": "the winner (C7) or who took the surrender (C8)"})


class PlayerViewSchema(View):
    """One player in the state view."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    character = fields.String(required=True)
    colour = fields.String(required=True)
    land_resource = fields.String(required=True)
    resources = _stock(required=True)
    ships = fields.List(fields.Nested(ShipViewSchema), required=True)
    level = fields.String(required=True, validate=validate.OneOf(["bronze", "silver", "gold", "done"]))
    completed = _stock(required=True, metadata={"description": "level → quests completed"})
    quest_count = fields.Integer(required=True)
    quests = fields.List(fields.Nested(QuestViewSchema), required=True, allow_none=True,
                         metadata={"description": "only in the owner's view; null elsewhere"})
    skip_turns = fields.Integer(required=True)
    skip_reason = fields.Nested(
        SkipReasonSchema, required=True, allow_none=True,
        metadata={"description": "why the next turn is skipped (C7 sunk, C8 surrendered); null when none"})


class OfferViewSchema(View):
    """An open offer (M1)."""

    id = fields.String(required=True)
    from_ = fields.String(required=True, data_key="from")
    to = fields.String(required=True)
    give = _stock(required=True)
    get = _stock(required=True)


class SideSchema(View):
    """One side of a fight: a player's ship."""

    player = fields.String(required=True)
    ship = fields.Integer(required=True)


class ShotSchema(View):
    """A shot fired (C4, C5)."""

    shooter = fields.Nested(SideSchema, required=True)
    target = fields.Nested(SideSchema, required=True)
    to_hit = fields.Nested(DieSchema, required=True)
    needed = fields.Integer(required=True)
    hit = fields.Boolean(required=True)
    damage = fields.Nested(DieSchema, required=True, allow_none=True)
    effect = fields.String(required=True)


class CombatViewSchema(View):
    """The fight in progress (C1–C8)."""

    attacker = fields.Nested(SideSchema, required=True)
    defender = fields.Nested(SideSchema, required=True)
    stage = fields.String(required=True,
                          validate=validate.OneOf(["firing", "surrender_offered", "salvage", "fishing"]))
    shooter = fields.String(required=True)
    shots = fields.List(fields.Nested(ShotSchema), required=True)
    surrendering = fields.String(allow_none=True, metadata={"description": "who offered to surrender"})
    sunk = fields.String(metadata={"description": "salvage and fishing: the sunk player"})
    winner = fields.String(metadata={"description": "salvage and fishing: who sank them"})
    keep = fields.Integer(metadata={"description": "salvage: how many resources the sunk player keeps"})
    water = _stock(metadata={"description": "fishing: the resources in the water"})


class EventCardSchema(View):
    """The event card in play (E1)."""

    id = fields.String(required=True)
    title = _text()
    text = _text()
    effects = fields.List(fields.Dict(), required=True)


class StateViewSchema(StateHeaderSchema):
    """docs/PROTOCOL.md's Quest 1607 state view, as the caller may see it (fields may be added)."""

    game = game_field("quest1607", required=True)
    round = fields.Integer(required=True)
    options = fields.Dict(required=True)
    turn = fields.Nested(TurnSchema, required=True, allow_none=True)
    players = fields.List(fields.Nested(PlayerViewSchema), required=True)
    offers = fields.List(fields.Nested(OfferViewSchema), required=True)
    combat = fields.Nested(CombatViewSchema, required=True, allow_none=True)
    attacked = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True, metadata={
        "description": 'C3: "player/ship" → the round that ship was last attacked (it rests the next round)'})
    event = fields.Nested(EventCardSchema, required=True, allow_none=True)
    winner = fields.String(required=True, allow_none=True)
