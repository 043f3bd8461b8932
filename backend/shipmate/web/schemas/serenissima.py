"""Serenissima's options, actions and state view (games/serenissima/RULES.md), as marshmallow schemas."""

from __future__ import annotations

from marshmallow import fields, validate

from ...games.serenissima.ruleset import BASE
from .common import (
    ID,
    RULESET_ID,
    ActionSchema,
    GameSchemas,
    NoParametersSchema,
    OfferIdSchema,
    StateHeaderSchema,
    Strict,
    game_field,
    whole,
)


class SerenissimaHouseRulesSchema(Strict):
    """The house defaults a game may change (SE15, SE19); the rest stays the ruleset's."""

    foreign_price = whole(0)
    foreign_paid_to = fields.String(validate=validate.OneOf(["bank", "controller"]))
    rounds = whole(1, allow_none=True, metadata={"description": "null: the host ends the game (SE19)"})


class SerenissimaOptionsSchema(Strict):
    """A new Serenissima game's options: only house rules."""

    house_rules = fields.Nested(SerenissimaHouseRulesSchema)


# ---- actions ---------------------------------------------------------------------------------


class PlaceSailorsSchema(ActionSchema):
    """`place_sailors {home, galleys?}`: all of the player's sailors over home port and galleys (SE3)."""

    home = whole(0, required=True)
    galleys = fields.Dict(
        keys=fields.String(validate=validate.Regexp(r"^[1-9][0-9]?$", error="A galley's number is 1 to 99.")),
        values=whole(0),
        metadata={"description": 'galley number (1 to 99) → sailors aboard, e.g. {"1": 4}'})


class BidSchema(ActionSchema):
    """`bid {ducats}`: a sealed bid for turn order, changeable until every bid is in (SE5)."""

    ducats = whole(0, required=True)


class PickPositionSchema(ActionSchema):
    """`pick_position {position}`: a free field I–IV as 1–4, in the order of the bids (SE7)."""

    position = whole(1, 4, required=True)


class MoveGalleySchema(ActionSchema):
    """`move_galley {galley, port | sea_area}`: where a galley now lies on the board (SE17)."""

    galley = whole(1, required=True)
    port = fields.String(validate=RULESET_ID, metadata={"description": "either a port …"})
    sea_area = fields.String(validate=RULESET_ID, metadata={"description": "… or a sea area"})


class BuySchema(ActionSchema):
    """`buy {port, good, count}`: goods in a port next to one of the player's galleys (SE12–SE15)."""

    port = fields.String(required=True, validate=RULESET_ID)
    good = fields.String(required=True, validate=RULESET_ID)
    count = whole(1, required=True)


class OfferSaleSchema(ActionSchema):
    """`offer_sale {to, good, count, price}`: sell goods to a player sharing a sea area (SE16)."""

    to = fields.String(required=True, validate=ID)
    good = fields.String(required=True, validate=RULESET_ID)
    count = whole(1, required=True)
    price = whole(0, required=True)


ACTIONS: dict[str, type[ActionSchema]] = {
    "start": NoParametersSchema,
    "place_sailors": PlaceSailorsSchema,
    "bid": BidSchema,
    "pick_position": PickPositionSchema,
    "move_galley": MoveGalleySchema,
    "buy": BuySchema,
    "offer_sale": OfferSaleSchema,
    "accept_sale": OfferIdSchema,
    "decline_sale": OfferIdSchema,
    "withdraw_sale": OfferIdSchema,
    "finish_phase": NoParametersSchema,
    "end_game": NoParametersSchema,
}


class SerenissimaStateViewSchema(StateHeaderSchema):
    """Serenissima's state view: the common header, then the game's own fields.

    Those are round, round_phase, turn_order, active, bidding, ports and offers; each player has
    ducats, galleys, home_sailors, goods, has_bid, bid (only one's own until every bid is revealed,
    SE5), position and finished_phase.
    """

    game = game_field("serenissima", required=True)


SCHEMAS = GameSchemas("serenissima", options=SerenissimaOptionsSchema, actions=ACTIONS,
                      view=SerenissimaStateViewSchema, characters=[c["id"] for c in BASE["powers"]])
