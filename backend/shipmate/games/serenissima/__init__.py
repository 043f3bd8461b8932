"""Serenissima, trade of the sea powers on the pure core: every rule of RULES.md (SE1–SE19)."""

from __future__ import annotations

from shipmate.rules import register
from shipmate.rules.table import PureGame

from .decide import decide
from .evolve import evolve
from .ruleset import ruleset, validate_options
from .views import event_view_for, view_for

GAME = register(PureGame(
    name="serenissima", end_rule="SE19", options=validate_options, decide=decide, evolve=evolve,
    view_for=view_for, event_view_for=event_view_for, ruleset=ruleset,
))
