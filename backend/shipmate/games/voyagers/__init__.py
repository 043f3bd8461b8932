"""Voyagers' Venture, six years of sponsor division on the pure core: every rule of RULES.md (VV1–VV20)."""

from __future__ import annotations

from shipmate.rules import register
from shipmate.rules.table import PureGame

from .decide import decide
from .evolve import evolve
from .ruleset import ruleset, validate_options
from .views import event_view_for, view_for

GAME = register(PureGame(
    name="voyagers", end_rule="VV19", options=validate_options, decide=decide, evolve=evolve,
    view_for=view_for, event_view_for=event_view_for, ruleset=ruleset,
))
