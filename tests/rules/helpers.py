"""Helpers every game's rules tests share: viewers and refusals that must change nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shipmate.rules import RuleViolation, ShipmateError, State, Viewer, apply


def p(pid: str) -> Viewer:
    """Return the viewer of player `pid`."""
    return Viewer(player=pid)


def refused(state: State, action: dict[str, Any], actor: Viewer,
            expected: str | type[ShipmateError] = RuleViolation,
            rule: str | None = None) -> ShipmateError:
    """Assert that the action is refused and changes nothing; return the refusal.

    `expected` is the rule ID the refusal must cite, or the error class it must have (then
    `rule`, when given, is the rule a RuleViolation must cite).
    """
    if isinstance(expected, str):
        expected, rule = RuleViolation, expected
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(expected) as caught:
        apply(state, action, actor)
    if rule is not None:
        assert isinstance(caught.value, RuleViolation), caught.value
        assert caught.value.rule == rule, caught.value.message
    assert json.dumps(state, sort_keys=True) == before
    return caught.value
