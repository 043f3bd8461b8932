"""Quest 1607's options, actions and state view (docs/PROTOCOL.md), as marshmallow schemas."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from ...games.quest1607.ruleset import BASE
from .common import (
    ID,
    ActionSchema,
    GameSchemas,
    NoParametersSchema,
    OfferIdSchema,
    StateHeaderSchema,
    Strict,
    StrictBoolean,
    game_field,
    whole,
)

SHIP = validate.Range(min=1, max=7)
"""A ship's number: a fleet has at most 7 ships (house rule `caps.ships`; the rules check the player's)."""

PLAYER = validate.Regexp(r"^p[1-6]$", error="A player id is p1 to p6.")
"""A player's id: p1, p2, … in join order (the rules check that the player is seated)."""

RESOURCES = [resource["id"] for resource in BASE["resources"]]
RESOURCE = validate.OneOf(RESOURCES)


def _resource_counts(low: int, name: str) -> type[Schema]:
    """A map resource → count from `low` to 999: only the game's resources, each at most once."""
    count = validate.Range(min=low, max=999)
    return Strict.from_dict({resource: fields.Integer(strict=True, validate=count) for resource in RESOURCES},
                            name=name)


CountsSchema = _resource_counts(0, "CountsSchema")
SignedCountsSchema = _resource_counts(-999, "SignedCountsSchema")


def _counts(low: int = 0) -> fields.Nested:
    """A required map resource → count (negative counts from -999 with `low` below 0)."""
    return fields.Nested(SignedCountsSchema if low < 0 else CountsSchema, required=True)


class CapsSchema(Strict):
    """House rule `caps` (U2, U4): the most cannons, sails and ships."""

    cannons = whole(1, 7)
    sails = whole(1, 7)
    ships = whole(1, 7)


SIDES = [str(n) for n in range(1, 8)]
"""A ship's cannons (K) and sails (B) in the hit table (C4), as the table's keys."""

HitRowSchema = Strict.from_dict({side: whole(1, 6) for side in SIDES}, name="HitRowSchema")
HitTableSchema = Strict.from_dict({side: fields.Nested(HitRowSchema) for side in SIDES},
                                  name="HitTableSchema")

_BOUNDS = BASE["hit_bounds"]
HIT_BOUNDS = [
    {}, *({"min": low} for low in range(1, _BOUNDS["max"] + 1)),
    *({"max": high} for high in range(_BOUNDS["min"], 7)),
    *({"min": low, "max": high} for low in range(1, 7) for high in range(low, 7)),
]
"""Every allowed `hit_bounds`: each from 1 to 6, and the lowest roll that hits at most the highest
once merged with the ruleset's own (C4). Listed, because a document cannot compare two fields."""


def _hit_bounds(value: dict[str, Any]) -> None:
    """Refuse a `hit_bounds` that is not one of HIT_BOUNDS (true is no 1)."""
    if value not in HIT_BOUNDS or any(isinstance(bound, bool) for bound in value.values()):
        raise ValidationError("min and max are each 1 to 6, and min is at most max (the ruleset's: "
                              f"min {_BOUNDS['min']}, max {_BOUNDS['max']}).")


class HouseRulesSchema(Strict):
    """The house defaults a game may change (the ruleset file's `house_defaults`)."""

    caps = fields.Nested(CapsSchema)
    hit_table = fields.Nested(HitTableSchema, metadata={"description": "K → B → lowest roll that hits"})
    hit_bounds = fields.Dict(validate=_hit_bounds,
                             metadata={"enum": HIT_BOUNDS,
                                       "description": "the lowest and highest roll a hit may need (C4)"})
    sunk_crew = whole(1, 6)
    offers_lapse = StrictBoolean()
    trade_with_active_player = StrictBoolean()
    surrender_by = fields.String(validate=validate.OneOf(["either", "defender"]))
    keep_divisor = whole(1, 4)


class OptionsSchema(Strict):
    """A new game's options (S6 and the house rules; the game checks the values again)."""

    quests_per_level = fields.Integer(strict=True,
                                      validate=validate.OneOf(BASE["quests_per_level"]["allowed"]))
    house_rules = fields.Nested(HouseRulesSchema)


# ---- actions ---------------------------------------------------------------------------------


class StartSchema(ActionSchema):
    """`start` (host): seat the players in join order, or randomly."""

    random_order = StrictBoolean()


class SailSchema(ActionSchema):
    """`sail {ship, squares}`: move a ship within the turn's allowance (T3)."""

    ship = fields.Integer(strict=True, required=True, validate=SHIP)
    squares = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=99))


class OfferSchema(ActionSchema):
    """`offer {to, give, get}`: propose a trade with another player (M1)."""

    to = fields.String(required=True, validate=PLAYER)
    give = _counts()
    get = _counts()


class MarketSchema(ActionSchema):
    """`market {give, get}`: 4 of one resource for 1 of another (M2)."""

    give = fields.String(required=True, validate=RESOURCE)
    get = fields.String(required=True, validate=RESOURCE)


class BankSchema(ActionSchema):
    """`bank {give, get}`: any 5 resources for 1 of choice (M3)."""

    give = _counts()
    get = fields.String(required=True, validate=RESOURCE)


class UpgradeSchema(ActionSchema):
    """`upgrade {ship, part, pay_with?}` (U1, U3, U4)."""

    ship = fields.Integer(strict=True, required=True, validate=SHIP)
    part = fields.String(required=True, validate=validate.OneOf(["sails", "cannons", "crew"]))
    pay_with = fields.String(validate=validate.OneOf(BASE["costs"]["crew"]["choice"]["of"]),
                             metadata={"description": "crew only: which of them pays (U1)"})


class BuyQuestSchema(ActionSchema):
    """`buy_quest {level}` (U5)."""

    level = fields.String(required=True, validate=validate.OneOf(["bronze", "silver", "gold"]))


class QuestStepSchema(ActionSchema):
    """`quest_step {quest_id, step, ship?}`: a requirement met on the board (Q3)."""

    quest_id = fields.String(required=True, validate=ID)
    step = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=99))
    ship = fields.Integer(strict=True, validate=SHIP)


class QuestIdSchema(ActionSchema):
    """`complete_quest {quest_id}` (Q1)."""

    quest_id = fields.String(required=True, validate=ID)


class AttackSchema(ActionSchema):
    """`attack {ship, target, target_ship}` (C1)."""

    ship = fields.Integer(strict=True, required=True, validate=SHIP)
    target = fields.String(required=True, validate=PLAYER)
    target_ship = fields.Integer(strict=True, required=True, validate=SHIP)


class ResourcesSchema(ActionSchema):
    """`keep {resources}` and `fish {resources}` after a sinking (C7)."""

    resources = _counts()


class ShipSchema(ActionSchema):
    """`reach_edge {ship}`: sail off the map to win (V1)."""

    ship = fields.Integer(strict=True, required=True, validate=SHIP)


class AdjustSchema(ActionSchema):
    """`adjust {player, resources, reason}` (host): add counts, which may be negative."""

    player = fields.String(required=True, validate=PLAYER)
    resources = _counts(low=-999)
    reason = fields.String(required=True, validate=validate.Length(min=1, max=200))


ACTIONS: dict[str, type[ActionSchema]] = {
    "start": StartSchema,
    "roll": NoParametersSchema,
    "sail": SailSchema,
    "offer": OfferSchema,
    "accept": OfferIdSchema,
    "decline": OfferIdSchema,
    "withdraw": OfferIdSchema,
    "market": MarketSchema,
    "bank": BankSchema,
    "upgrade": UpgradeSchema,
    "buy_quest": BuyQuestSchema,
    "quest_step": QuestStepSchema,
    "complete_quest": QuestIdSchema,
    "attack": AttackSchema,
    "fire": NoParametersSchema,
    "surrender": NoParametersSchema,
    "accept_surrender": NoParametersSchema,
    "keep": ResourcesSchema,
    "fish": ResourcesSchema,
    "end_turn": NoParametersSchema,
    "reach_edge": ShipSchema,
    "adjust": AdjustSchema,
}


# ---- the state view (documentation) ----------------------------------------------------------


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


SCHEMAS = GameSchemas("quest1607", options=OptionsSchema, actions=ACTIONS, view=StateViewSchema,
                      characters=[c["id"] for c in BASE["characters"]], default=True)
