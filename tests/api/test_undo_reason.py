"""The host's reason for an undo: told in the event everyone reads, bounded, in the caller's language."""

from __future__ import annotations

import pytest

from shipmate.rules.core import UNDO_REASON_MAX
from tests.api.client import Game, unchanged


@pytest.fixture
def adjusted(live_server: str) -> Game:
    """A game in play whose last change (the host's correction of p2's wood) can be taken back."""
    game = Game.create(live_server)
    game.seat(2)
    game.ok(game.host, {"type": "adjust", "player": "p2", "resources": {"wood": 2}, "reason": "e2e"})
    return game


def test_an_undo_with_a_reason_puts_it_in_the_event(adjusted: Game) -> None:
    wood = adjusted.state()["players"][1]["resources"]["wood"]
    adjusted.ok(adjusted.host, {"type": "undo", "reason": "the wrong player"})
    undone = adjusted.events()[-1]
    assert (undone["type"], undone["reason"]) == ("ActionUndone", "the wrong player")
    assert "restore" not in undone
    assert adjusted.state()["players"][1]["resources"]["wood"] == wood - 2


def test_an_undo_without_a_reason_says_none(adjusted: Game) -> None:
    adjusted.ok(adjusted.host, {"type": "undo"})
    assert "reason" not in adjusted.events()[-1]


@pytest.mark.parametrize(("language", "message"), [
    ("en", f"Longer than maximum length {UNDO_REASON_MAX}."),
    ("nl-NL", f"Langer dan de maximale lengte {UNDO_REASON_MAX}."),
])
def test_a_reason_too_long_is_400_at_its_field_and_changes_nothing(
        adjusted: Game, language: str, message: str) -> None:
    with unchanged(adjusted):
        answer = adjusted.act(adjusted.host, {"type": "undo", "reason": "x" * (UNDO_REASON_MAX + 1)},
                              language=language)
    assert answer.status_code == 400, answer.text
    assert answer.json()["fields"] == {"reason": [message]}
    assert adjusted.events()[-1]["type"] == "ResourcesAdjusted"


def test_a_reason_that_is_not_text_is_400(adjusted: Game) -> None:
    with unchanged(adjusted):
        answer = adjusted.act(adjusted.host, {"type": "undo", "reason": 7})
    assert answer.status_code == 400, answer.text
    assert list(answer.json()["fields"]) == ["reason"]
