"""Quest 1607, the sea-trading board game: every rule of rules.json (S1–V1) on the pure core."""

from __future__ import annotations

from shipmate.rules import register
from shipmate.rules.table import PureGame

from .decide import decide
from .evolve import evolve
from .ruleset import ruleset, validate_options
from .views import event_view_for, personal_parts, personal_view, shared_view, view_for

GAME = register(PureGame(
    name="quest1607", end_rule="V1", options=validate_options, decide=decide, evolve=evolve,
    view_for=view_for, event_view_for=event_view_for, ruleset=ruleset, dice_device=True,
    shared_view=shared_view, personal_view=personal_view, personal_parts=personal_parts,
))
