"""Trade in Quest 1607 (M1–M3): offers between players, the market and the bank."""

from __future__ import annotations

import pytest

from shipmate.rules import HOST, Forbidden
from tests.rules.helpers import p, refused
from tests.rules.quest import (
    act,
    empty,
    events,
    game,
    give,
    lobby,
    resources,
    rolled,
)


def trading(players: int = 3) -> dict:
    """Return a game where p1 has rolled, with p1 holding 2 wood and p2 holding 1 iron."""
    state = rolled(game(players))
    for pid in ("p1", "p2"):
        state = empty(state, pid)
    return give(give(state, "p1", wood=2), "p2", iron=1)


def test_m1_a_trade_happens_when_both_agree() -> None:
    state = trading()
    offer = {"type": "offer", "to": "p2", "give": {"wood": 2}, "get": {"iron": 1}}
    made = events(state, offer, p("p1"))[0]
    assert made["type"] == "OfferMade" and made["offer"]["id"] == "o1"
    state = act(state, offer, p("p1"))
    state = act(state, {"type": "accept", "offer_id": "o1"}, p("p2"))
    assert resources(state, "p1") == {"iron": 1} and resources(state, "p2") == {"wood": 2}
    assert state["offers"] == []


def test_m1_accept_checks_both_sides_at_that_moment() -> None:
    state = trading()
    state = act(state, {"type": "offer", "to": "p2", "give": {"wood": 3}, "get": {}}, p("p1"))
    error = refused(state, {"type": "accept", "offer_id": "o1"}, p("p2"), "M1")
    assert "2 wood" in error.message["en"] and "2 hout" in error.message["nl"]


def test_m1_one_side_is_the_active_player() -> None:
    state = trading()
    refused(state, {"type": "offer", "to": "p3", "give": {"iron": 1}, "get": {}}, p("p2"), "M1")
    state = act(state, {"type": "offer", "to": "p1", "give": {"iron": 1}, "get": {}}, p("p2"))
    assert state["offers"][0]["from"] == "p2"


def test_m1_only_the_receiver_answers_and_only_the_sender_withdraws() -> None:
    state = act(trading(), {"type": "offer", "to": "p2", "give": {"wood": 1}, "get": {}},
                p("p1"))
    with pytest.raises(Forbidden):
        act(state, {"type": "accept", "offer_id": "o1"}, p("p3"))
    with pytest.raises(Forbidden):
        act(state, {"type": "withdraw", "offer_id": "o1"}, p("p2"))
    declined = act(state, {"type": "decline", "offer_id": "o1"}, p("p2"))
    refused(declined, {"type": "accept", "offer_id": "o1"}, p("p2"), "M1")
    withdrawn = act(state, {"type": "withdraw", "offer_id": "o1"}, p("p1"))
    assert withdrawn["offers"] == []


def test_m1_open_offers_lapse_when_the_turn_ends() -> None:
    state = act(trading(), {"type": "offer", "to": "p2", "give": {"wood": 1}, "get": {}},
                p("p1"))
    ended = events(state, {"type": "end_turn"}, p("p1"))[0]
    assert ended["lapsed"] == ["o1"]
    state = act(state, {"type": "end_turn"}, p("p1"))
    refused(state, {"type": "accept", "offer_id": "o1"}, p("p2"), "M1")


def test_m2_the_market_gives_1_resource_for_4_identical_ones() -> None:
    state = give(empty(rolled(game(2)), "p1"), "p1", coal=5)
    state = act(state, {"type": "market", "give": "coal", "get": "food"}, p("p1"))
    assert resources(state, "p1") == {"coal": 1, "food": 1}
    error = refused(state, {"type": "market", "give": "coal", "get": "food"}, p("p1"), "M2")
    assert "you have 1 coal" in error.message["en"]


def test_m3_the_bank_gives_1_resource_for_any_5() -> None:
    state = give(empty(rolled(game(2)), "p1"), "p1", coal=2, wood=2, iron=1)
    refused(state, {"type": "bank", "give": {"coal": 2, "wood": 2}, "get": "food"}, p("p1"),
            "M3")
    state = act(state, {"type": "bank", "give": {"coal": 2, "wood": 2, "iron": 1},
                        "get": "food"}, p("p1"))
    assert resources(state, "p1") == {"food": 1}
    refused(state, {"type": "bank", "give": {"coal": 5}, "get": "food"}, p("p1"), "M3")


def test_m1_without_lapsing_an_offer_waits_for_a_turn_of_one_of_its_sides() -> None:
    state = act(lobby(3, {"house_rules": {"offers_lapse": False}}), {"type": "start"}, HOST)
    state = give(rolled(state), "p1", wood=1)
    state = act(state, {"type": "offer", "to": "p2", "give": {"wood": 1}, "get": {}}, p("p1"))
    state = act(state, {"type": "end_turn"}, p("p1"))
    state = act(rolled(state), {"type": "end_turn"}, p("p2"))
    refused(rolled(state), {"type": "accept", "offer_id": "o1"}, p("p2"), "M1")
