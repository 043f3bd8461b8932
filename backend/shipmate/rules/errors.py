"""The one small error hierarchy of the rules: every refusal says what and why, in Dutch and English."""

from __future__ import annotations

from typing import Any

Text = dict[str, str]
"""A message in every language Shipmate speaks: ``{"nl": ..., "en": ...}``."""


def text(nl: str, en: str) -> Text:
    """Build a message in Dutch and English."""
    return {"nl": nl, "en": en}


class ShipmateError(ValueError):
    """A refused action: nothing changes, and the player is told why in their language."""

    status = 400
    code = "invalid"

    def __init__(self, message: Text, **details: Any) -> None:
        super().__init__(message["en"])
        self.message = message
        self.details = details

    def message_in(self, language: str) -> str:
        """Return the message in `language` ("nl" or "en"), English when unknown."""
        return self.message.get(language, self.message["en"])


class RuleViolation(ShipmateError):
    """The action breaks a rule of the game; `rule` is its ID in the game's rules.json (e.g. "U3")."""

    status = 422
    code = "rule_violation"

    def __init__(self, rule: str, message: Text, **details: Any) -> None:
        super().__init__(message, **details)
        self.rule = rule


class InvalidAction(ShipmateError):
    """The action is unknown or its parameters make no sense (HTTP 400)."""

    status = 400
    code = "invalid_action"


class Forbidden(ShipmateError):
    """The actor may not do this: another player's ship or offer, or a host-only action (HTTP 403)."""

    status = 403
    code = "forbidden"


class LobbyConflict(ShipmateError):
    """A conflict in the lobby: a taken character, or joining a game that has started (HTTP 409)."""

    status = 409
    code = "conflict"
