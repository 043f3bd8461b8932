"""Voyagers' Venture's options, actions and state view (games/voyagers/RULES.md), as marshmallow schemas."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from ...games.voyagers.ruleset import BASE
from .common import (
    ID,
    ActionSchema,
    GameSchemas,
    NoParametersSchema,
    StateHeaderSchema,
    Strict,
    StrictBoolean,
    game_field,
    whole,
)

CARD = validate.Length(min=1, max=40)


def _card_ids(description: str, **options: Any) -> fields.List[Any]:
    """A list of card ids (the rules check that they are on display or in hand, and how many)."""
    return fields.List(fields.String(validate=CARD), metadata={"description": description}, **options)


def _players(**options: Any) -> fields.List[Any]:
    """Every player's id once, in turn order (the rules check that each is seated)."""
    return fields.List(fields.String(validate=ID), **options)


class VoyagersHouseRulesSchema(Strict):
    """The house defaults a game may change (VV3, VV8, VV20)."""

    min_players = whole(2)
    max_players = whole(2)
    starting_gold = whole(0)
    min_bid_cards = whole(0)


class VoyagersOptionsSchema(Strict):
    """A new Voyagers' Venture game's options: only house rules."""

    house_rules = fields.Nested(VoyagersHouseRulesSchema)


# ---- actions ---------------------------------------------------------------------------------


class VoyagersStartSchema(ActionSchema):
    """`start {order?}` (host): the first year's turn order, else the join order."""

    order = _players()


class CardSchema(Strict):
    """A card the host puts on display: a new id, its deck and its printed name."""

    id = fields.String(required=True, validate=CARD)
    kind = fields.String(required=True, validate=validate.OneOf(["common", "fleet"]))
    name = fields.String(validate=validate.Length(max=60))


class DisplaySchema(ActionSchema):
    """`display {cards}` (host): this year's cards from the common and the fleet deck (VV2)."""

    cards = fields.List(fields.Nested(CardSchema), required=True, validate=validate.Length(min=1))


class CardsSchema(ActionSchema):
    """`name_bid {cards}` (VV3), `discard {cards}` (VV12) and `play_cards {cards}` (VV20)."""

    cards = _card_ids("the cards named, discarded or played", required=True)


CUT_PARAMETERS = {"doubloon": ("card",), "remove": ("cards",), "swap": ("remove", "add")}
"""Which parameters each kind of cut takes, and needs."""


class CutSchema(ActionSchema):
    """`cut {kind, …}`: a smaller bid after a disagreement (VV6).

    `doubloon {card}`: a gold doubloon on a displayed card outside the bid (VV7); `remove {cards}`:
    one or more cards out of the bid (VV8); `swap {remove, add}`: two or more out, one displayed
    card in (VV9).
    """

    kind = fields.String(required=True, validate=validate.OneOf(list(CUT_PARAMETERS)))
    card = fields.String(validate=CARD, metadata={"description": "doubloon: the card it goes on"})
    cards = _card_ids("remove: the cards taken out of the bid")
    remove = _card_ids("swap: the cards taken out of the bid")
    add = fields.String(validate=CARD, metadata={"description": "swap: the displayed card put in"})

    @validates_schema
    def _parameters_of_the_kind(self, data: dict[str, Any], **_: Any) -> None:
        """Refuse a parameter of another kind of cut, and a missing one of this kind."""
        wanted = CUT_PARAMETERS[data["kind"]]
        others = {name for names in CUT_PARAMETERS.values() for name in names} - set(wanted)
        errors = {name: ["Missing data for required field."] for name in wanted if name not in data}
        errors |= {name: ["Unknown field."] for name in others if name in data}
        if errors:
            raise ValidationError(errors)


class TurnOrderSchema(ActionSchema):
    """`turn_order {order}` (host): next year's order from the turn-order track (VV13)."""

    order = _players(required=True)


class SetGoldSchema(ActionSchema):
    """`set_gold {player, gold}` (host): a player's gold doubloons as on the table (VV20)."""

    player = fields.String(required=True, validate=ID)
    gold = whole(0, required=True)


class ScoreSchema(ActionSchema):
    """`score {player, …}`: a player's numbers at the end, by that player or the host (VV15–VV19)."""

    player = fields.String(required=True, validate=ID)
    tips = whole(0, required=True)
    ships = whole(0, required=True, metadata={"description": "the ships' reputation points"})
    nobles = whole(0, required=True)
    ship_count = whole(0, required=True)
    fastest_fleet = StrictBoolean(required=True)
    gold = whole(0, required=True)
    smuggled = whole(0, required=True)
    resources = whole(0, required=True)
    lowest_ship_card = whole(1, allow_none=True, metadata={"description": "null (or left out) without ships"})


ACTIONS: dict[str, type[ActionSchema]] = {
    "start": VoyagersStartSchema,
    "display": DisplaySchema,
    "name_bid": CardsSchema,
    "agree": NoParametersSchema,
    "disagree": NoParametersSchema,
    "cut": CutSchema,
    "discard": CardsSchema,
    "play_cards": CardsSchema,
    "turn_order": TurnOrderSchema,
    "set_gold": SetGoldSchema,
    "close_purchases": NoParametersSchema,
    "score": ScoreSchema,
}


class VoyagersStateViewSchema(StateHeaderSchema):
    """Voyagers' Venture's state view: the common header, then the game's own fields.

    Those are round, rounds, year, stage, turn_order, waiting_for, display (each card with its
    doubloons), bid and ranking; each player has hand (only in the owner's view, else null),
    hand_count, over_limit, gold, received and score.
    """

    game = game_field("voyagers", required=True)


SCHEMAS = GameSchemas("voyagers", options=VoyagersOptionsSchema, actions=ACTIONS,
                      view=VoyagersStateViewSchema, characters=[c["id"] for c in BASE["colours"]])
