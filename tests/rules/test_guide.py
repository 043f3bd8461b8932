"""A first evening, guided: the host ticks the table's set-up and the parts of a turn, or skips them."""

from __future__ import annotations

import pytest

import shipmate.games  # noqa: F401  (registers every game)
from shipmate.rules import HOST, PUBLIC, Forbidden, InvalidAction, Viewer, apply, create, ruleset, view_for
from shipmate.rules.guide import UNTOUCHED

GAMES = ("quest1607", "serenissima", "voyagers")


def lobby(game: str) -> dict[str, object]:
    state, _ = create(game, "GUIDE2", {}, "ab" * 32)
    return state


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_set_up_steps_then_the_parts_of_a_turn_each_citing_a_rule(game: str) -> None:
    served = ruleset(lobby(game))["rules"]
    steps = served["guide"]
    parts = [step["part"] for step in steps]
    assert parts == sorted(parts, key=["setup", "turn"].index) and set(parts) == {"setup", "turn"}
    for step in steps:
        assert step["rule"] in served["rules"]
        assert all(step[field][lang] for field in ("title", "text") for lang in ("nl", "en"))


def test_the_quick_starts_set_up_is_there_ship_card_daeventra_bronze() -> None:
    steps = {step["id"]: step for step in ruleset(lobby("quest1607"))["rules"]["guide"]}
    assert "1" in steps["ship_card"]["text"]["en"] and "Crew 3" in steps["ship_card"]["text"]["en"]
    assert steps["daeventra"]["rule"] == "S3" and steps["bronze"]["rule"] == "S4"
    turn = [s for s in steps if steps[s]["part"] == "turn"]
    assert turn == ["roll", "sail", "trade", "build", "quests", "end"]


def test_sailing_reads_as_an_allowance_up_to_the_die_or_the_sails_never_as_a_minimum() -> None:
    """T3 (#39 item 13): the guide and the rulebook say how far one may sail, never that one must."""
    served = ruleset(lobby("quest1607"))["rules"]
    sail = next(step for step in served["guide"] if step["id"] == "sail")
    for text in (sail["text"], served["rules"]["T3"]["text"]):
        assert "up to your Sails" in text["en"] and "at least" not in text["en"]
        assert "tot je Zeilen" in text["nl"] and "minstens" not in text["nl"]


@pytest.mark.parametrize("game", GAMES)
def test_the_host_ticks_steps_every_view_shows_them_and_an_untick_takes_one_back(game: str) -> None:
    state = lobby(game)
    first, second = (step["id"] for step in ruleset(state)["rules"]["guide"][:2])
    assert view_for(state, PUBLIC)["guide"] == UNTOUCHED
    state, events = apply(state, {"type": "guide", "step": first}, HOST)
    assert events[0]["type"] == "GuideStepTicked"
    state, _ = apply(state, {"type": "guide", "step": second}, HOST)
    assert view_for(state, PUBLIC)["guide"] == {"done": [first, second], "skipped": False}
    state, _ = apply(state, {"type": "guide", "step": first, "done": False}, HOST)
    assert view_for(state, HOST)["guide"]["done"] == [second]
    state, _ = apply(state, {"type": "guide", "skip": True}, HOST)
    assert view_for(state, PUBLIC)["guide"] == {"done": [second], "skipped": True}
    state, _ = apply(state, {"type": "undo"}, HOST)  # a tick is taken back like any host change
    assert view_for(state, PUBLIC)["guide"]["skipped"] is False


def test_only_the_host_ticks_and_only_known_steps() -> None:
    state = lobby("quest1607")
    with pytest.raises(Forbidden):
        apply(state, {"type": "guide", "step": "roll"}, Viewer(player="p1"))
    with pytest.raises(Forbidden):
        apply(state, {"type": "guide", "step": "roll"}, PUBLIC)
    with pytest.raises(InvalidAction) as refused:
        apply(state, {"type": "guide", "step": "board"}, HOST)
    assert "ship_card" in refused.value.message_in("en")
