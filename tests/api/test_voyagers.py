"""Voyagers' Venture over a real server: the display, dividing the sponsor, the hand limit, the count."""

from __future__ import annotations

from typing import Any

import pytest
import requests

import shipmate.games
from shipmate.web.schemas import GAMES
from tests.api.client import TIMEOUT, Game, refused, unchanged

COLOURS = ["red", "blue", "green"]


@pytest.fixture
def game(live_server: str) -> Game:
    """A started 3-player game (p1 red, p2 blue, p3 green; turn order p1, p2, p3), year 1486."""
    game = Game.create(live_server, "voyagers")
    for number, colour in enumerate(COLOURS, start=1):
        assert game.join(f"Captain {number}", colour) == f"p{number}"
    state = game.ok(game.host, {"type": "start"})["state"]
    assert (state["year"], state["stage"], state["turn_order"]) == (1486, "display", ["p1", "p2", "p3"])
    return game


def display(game: Game, *ids: str) -> dict[str, Any]:
    """Let the host display cards with these ids (alternately common and fleet); return the state."""
    cards = [{"id": i, "kind": ("common", "fleet")[n % 2], "name": f"Card {i}"} for n, i in enumerate(ids)]
    state: dict[str, Any] = game.ok(game.host, {"type": "display", "cards": cards})["state"]
    return state


def act(game: Game, pid: str, action: dict[str, Any]) -> dict[str, Any]:
    """Let player `pid` act (must succeed); return the answer."""
    return game.ok(game.players[pid], action)


def hand(game: Game, pid: str) -> list[str]:
    """Return the ids of a player's hand, as its owner sees it."""
    player = next(p for p in game.state(game.players[pid])["players"] if p["id"] == pid)
    return [card["id"] for card in player["hand"]]


def test_only_the_host_displays_the_years_cards(game: Game) -> None:
    with unchanged(game):
        response = game.act(game.players["p1"], {"type": "display",
                                                 "cards": [{"id": "c1", "kind": "common"}]})
    assert response.status_code == 403
    state = display(game, "c1", "c2")
    assert [(c["id"], c["kind"], c["doubloons"]) for c in state["display"]] == [
        ("c1", "common", 0), ("c2", "fleet", 0)]
    assert (state["stage"], state["waiting_for"]) == ("naming", "p1")


def test_dividing_the_sponsor_with_each_kind_of_cut(game: Game) -> None:
    display(game, "c1", "c2", "c3", "c4", "c5", "c6")
    refused(game, "p2", {"type": "name_bid", "cards": ["c1"]}, "VV3")  # p1 names first
    voters = act(game, "p1", {"type": "name_bid", "cards": ["c1", "c2", "c3"]})["state"]["bid"]["voters"]
    assert voters == ["p2", "p3"]  # VV4: clockwise from the bidder
    refused(game, "p3", {"type": "agree"}, "VV4")  # out of turn
    act(game, "p2", {"type": "agree"})
    act(game, "p3", {"type": "disagree"})
    refused(game, "p2", {"type": "cut", "kind": "remove", "cards": ["c3"]}, "VV6")  # p3 must cut

    # (a) a doubloon goes on a displayed card outside the bid (VV7)
    refused(game, "p3", {"type": "cut", "kind": "doubloon", "card": "c1"}, "VV7")
    bid = act(game, "p3", {"type": "cut", "kind": "doubloon", "card": "c4"})["state"]
    assert bid["bid"] == {"bidder": "p3", "cards": ["c1", "c2", "c3"], "voters": ["p1", "p2"],
                          "cutter": None}
    assert [c["doubloons"] for c in bid["display"]] == [0, 0, 0, 1, 0, 0]
    assert [p["gold"] for p in bid["players"]] == [2, 2, 1]

    # (b) remove one or more cards of the bid (VV8)
    act(game, "p1", {"type": "disagree"})
    refused(game, "p1", {"type": "cut", "kind": "remove", "cards": ["c5"]}, "VV8")
    refused(game, "p1", {"type": "cut", "kind": "remove", "cards": ["c1", "c2", "c3"]}, "VV8")
    state = act(game, "p1", {"type": "cut", "kind": "remove", "cards": ["c3"]})["state"]
    assert (state["bid"]["bidder"], state["bid"]["cards"], state["bid"]["voters"]) == (
        "p1", ["c1", "c2"], ["p2", "p3"])

    # (c) remove two or more and add one displayed card (VV9)
    act(game, "p2", {"type": "agree"})
    act(game, "p3", {"type": "disagree"})
    refused(game, "p3", {"type": "cut", "kind": "swap", "remove": ["c1"], "add": "c5"}, "VV9")
    refused(game, "p3", {"type": "cut", "kind": "swap", "remove": ["c1", "c2"], "add": "c1"}, "VV9")
    state = act(game, "p3", {"type": "cut", "kind": "swap", "remove": ["c1", "c2"], "add": "c5"})["state"]
    assert state["bid"]["cards"] == ["c5"]
    # a bid of one card cannot shrink, and p1 may still place a doubloon: p1 agrees instead
    act(game, "p1", {"type": "agree"})
    answer = act(game, "p2", {"type": "agree"})  # VV5: all agree, the cutter takes the cards
    assert answer["events"][1]["type"] == "BidReceived" and answer["events"][1]["player"] == "p3"
    assert hand(game, "p3") == ["c5"]

    # VV7: the doubloon goes with its card; VV11: the last player takes what they name
    act(game, "p1", {"type": "name_bid", "cards": ["c1", "c4"]})
    act(game, "p2", {"type": "agree"})
    answer = act(game, "p2", {"type": "name_bid", "cards": ["c2", "c3", "c6"]})
    assert [e["type"] for e in answer["events"]] == ["BidNamed", "BidReceived", "DivisionEnded",
                                                     "RoundEnded"]
    state = answer["state"]
    assert [p["gold"] for p in state["players"]] == [3, 2, 1]
    assert (hand(game, "p1"), hand(game, "p2")) == (["c1", "c4"], ["c2", "c3", "c6"])
    assert all(p["hand"] is None for p in game.state()["players"])  # hands are private
    assert (state["stage"], state["display"]) == ("order", [])


@pytest.mark.parametrize(("action", "fields"), [
    ({"type": "cut", "kind": "doubloon", "cards": ["c4"]},
     {"card": ["Missing data for required field."], "cards": ["Unknown field."]}),
    ({"type": "cut", "kind": "swap", "remove": ["c1", "c2"]}, {"add": ["Missing data for required field."]}),
    ({"type": "cut", "kind": "steal", "card": "c4"}, {"kind": ["Must be one of: doubloon, remove, swap."]}),
    ({"type": "cut", "kind": "remove", "cards": "c1"}, {"cards": ["Not a valid list."]}),
])
def test_a_cut_takes_exactly_the_parameters_of_its_kind(
        game: Game, action: dict[str, Any], fields: dict[str, Any]) -> None:
    display(game, "c1", "c2", "c3", "c4")
    act(game, "p1", {"type": "name_bid", "cards": ["c1", "c2", "c3"]})
    act(game, "p2", {"type": "disagree"})
    with unchanged(game):
        response = game.act(game.players["p2"], action)
    assert response.status_code == 400, response.text
    assert response.json()["fields"] == fields


def year_of_one_card(game: Game, card: str) -> dict[str, Any]:
    """Play a year in which p1 takes one card and the others take nothing; return the state."""
    display(game, card)
    act(game, "p1", {"type": "name_bid", "cards": [card]})
    act(game, "p2", {"type": "agree"})
    act(game, "p3", {"type": "agree"})
    act(game, "p2", {"type": "name_bid", "cards": []})  # VV3: an empty display gives an empty bid
    return act(game, "p3", {"type": "name_bid", "cards": []})["state"]


def test_a_hand_over_8_is_discarded_face_down_to_exactly_8(game: Game) -> None:
    cards = [f"d{n}" for n in range(1, 11)]
    display(game, *cards)
    act(game, "p1", {"type": "name_bid", "cards": cards})
    act(game, "p2", {"type": "agree"})
    act(game, "p3", {"type": "agree"})
    act(game, "p2", {"type": "name_bid", "cards": []})
    state = act(game, "p3", {"type": "name_bid", "cards": []})["state"]
    assert state["stage"] == "discarding" and state["players"][0]["over_limit"] == 2
    refused(game, "p1", {"type": "discard", "cards": ["d1"]}, "VV12")  # down to 8, not 9
    refused(game, "p1", {"type": "discard", "cards": ["d1", "d2", "d3"]}, "VV12")
    with unchanged(game):
        assert game.act(game.players["p1"], {"type": "discard", "cards": ["x1", "x2"]}).status_code == 400
    answer = act(game, "p1", {"type": "discard", "cards": ["d9", "d10"]})
    assert answer["events"][0]["cards"] == ["d9", "d10"]
    assert hand(game, "p1") == cards[:8] and answer["state"]["stage"] == "order"
    # VV12: face-down: everyone else learns only how many
    seen = game.http.get(f"{game.url}/events", params={"since": answer["version"] - 1},
                         headers={"Authorization": f"Bearer {game.players['p2']}"}, timeout=TIMEOUT).json()
    assert {k: v for k, v in seen["events"][0].items() if k != "version"} == {
        "type": "CardsDiscarded", "player": "p1", "count": 2}


def test_six_years_then_the_count_ranks_by_reputation_and_tie_breaks(game: Game) -> None:
    for year in range(1, 7):
        state = year_of_one_card(game, f"y{year}")
        if year < 6:
            state = game.ok(game.host, {"type": "turn_order", "order": ["p1", "p2", "p3"]})["state"]
            assert state["year"] == 1486 + year
    assert state["stage"] == "purchase"  # VV14: one last purchase
    act(game, "p1", {"type": "play_cards", "cards": ["y1", "y2"]})
    game.ok(game.host, {"type": "close_purchases"})

    def numbers(**given: Any) -> dict[str, Any]:
        base = {"type": "score", "tips": 0, "ships": 0, "nobles": 0, "ship_count": 0,
                "fastest_fleet": False, "gold": 0, "smuggled": 0, "resources": 0}
        return base | given

    # p1: 3 + 5 + 2 + 2 (fastest fleet) + 1 (3 gold) − 1 (smuggled) = 12 with 3 ships
    act(game, "p1", numbers(player="p1", tips=3, ships=5, nobles=2, ship_count=3, fastest_fleet=True,
                            gold=3, smuggled=1, resources=9, lowest_ship_card=4))
    with unchanged(game):  # only one's own numbers (or the host)
        assert game.act(game.players["p2"], numbers(player="p3")).status_code == 403
    refused(game, "p2", numbers(player="p2", fastest_fleet=True), "VV16")  # one token, p1 has it
    # p2 and p3: 12 with 4 ships; p3 has more resources
    act(game, "p2", numbers(player="p2", tips=4, ships=6, nobles=2, ship_count=4, resources=5,
                            lowest_ship_card=2))
    answer = game.ok(game.host, numbers(player="p3", tips=2, ships=8, nobles=2, ship_count=4,
                                        resources=7, lowest_ship_card=9))
    assert answer["events"][-1]["type"] == "GameRanked"
    final = answer["state"]
    assert final["phase"] == "finished" and len(final["seed"]) == 64
    assert final["ranking"] == [
        {"player": "p3", "place": 1, "reputation": 12, "behind_by": None},
        {"player": "p2", "place": 2, "reputation": 12, "behind_by": "resources"},
        {"player": "p1", "place": 3, "reputation": 12, "behind_by": "ships"},
    ]


def test_refusals_speak_dutch_and_english(game: Game) -> None:
    display(game, "c1", "c2", "c3")
    act(game, "p1", {"type": "name_bid", "cards": ["c1", "c2"]})
    act(game, "p2", {"type": "disagree"})
    action = {"type": "cut", "kind": "doubloon", "card": "c1"}
    assert "outside the bid" in refused(game, "p2", action, "VV7", "en")
    assert "buiten het bod" in refused(game, "p2", action, "VV7", "nl")
    response = game.act(game.players["p2"], {"type": "cut", "kind": "remove", "cards": "c1"}, language="nl")
    assert response.status_code == 400 and response.json()["fields"] == {"cards": ["Geen geldige lijst."]}
    response = game.act(game.players["p2"], {"type": "bid", "ducats": 5}, language="nl")
    assert response.status_code == 400
    assert response.json()["fields"]["type"][0].startswith("Onbekende actie 'bid'. Bekend: start, display,")


def test_the_openapi_document_describes_every_voyagers_action(live_server: str) -> None:
    assert set(GAMES) == set(shipmate.games.__all__)  # every game the server plays has its schemas
    schemas = requests.get(f"{live_server}/api/openapi.json", timeout=TIMEOUT).json()["components"]["schemas"]
    mapping = schemas["VoyagersAction"]["discriminator"]["mapping"]
    assert set(mapping) == set(GAMES["voyagers"].actions)
    cut = schemas[mapping["cut"].rsplit("/", 1)[1]]
    assert cut["properties"]["kind"]["enum"] == ["doubloon", "remove", "swap"]
    assert {"#/components/schemas/CreateVoyagersGame"} <= {
        ref["$ref"] for ref in schemas["CreateGame"]["oneOf"]}
