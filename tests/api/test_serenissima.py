"""Serenissima over a real server: sealed bids that nobody else sees, the reveal, phase 2 and sales."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import requests

from shipmate.web.schemas import GAMES
from tests.api.client import TIMEOUT, Game, Socket, bearer, refused, unchanged

POWERS = ["venice", "genoa", "spain", "turkey"]
# p1 Venice, p2 Genoa, p3 Spain, p4 Turkey; amounts that appear nowhere else in a view or event
BIDS = {"p1": 158, "p2": 437, "p3": 291, "p4": 73}


@pytest.fixture
def game(live_server: str) -> Game:
    """A started 4-player game: every power at the table, round 1, phase 1 (the bids)."""
    game = Game.create(live_server, "serenissima")
    for number, power in enumerate(POWERS, start=1):
        assert game.join(f"Doge {number}", power) == f"p{number}"
    game.ok(game.host, {"type": "start"})
    return game


def shows(text: str, amount: int) -> bool:
    """Return whether a raw JSON text holds `amount` as a number of its own."""
    return re.search(rf"(?<![\w.]){amount}(?![\w.])", text) is not None


def raw_frame(socket: Socket) -> str:
    """Return the raw text of the socket's next message that is not a ping or presence."""
    while True:
        frame = socket.ws.recv()
        assert isinstance(frame, str)
        if json.loads(frame)["type"] not in ("ping", "presence"):
            return frame


def texts(game: Game, token: str | None) -> list[str]:
    """Return the raw JSON of the view and of every event so far, as `token` sees them."""
    view = game.http.get(game.url, headers=bearer(token), timeout=TIMEOUT)
    events = game.http.get(f"{game.url}/events", params={"since": -1}, headers=bearer(token),
                           timeout=TIMEOUT)
    assert view.status_code == events.status_code == 200
    return [view.text, events.text]


def bid_all(game: Game) -> None:
    """Let every player place their bid of BIDS."""
    for pid, ducats in BIDS.items():
        game.ok(game.players[pid], {"type": "bid", "ducats": ducats})


def pick_all(game: Game) -> list[str]:
    """Let the players pick positions I, II, … in the order of their bids; return the turn order."""
    order: list[str] = game.state()["bidding"]["pick_order"]
    for position, pid in enumerate(order, start=1):
        game.ok(game.players[pid], {"type": "pick_position", "position": position})
    return order


# ---- phase 1: sealed bids (SE5–SE7) ---------------------------------------------------------


def test_no_bid_shows_to_anyone_else_until_the_last_reveals_all_in_one_update(game: Game) -> None:
    sockets = {"public": game.socket(), "host": game.socket(game.host),
               **{pid: game.socket(token) for pid, token in game.players.items()}}
    try:
        for socket in sockets.values():
            assert json.loads(raw_frame(socket))["type"] == "snapshot"
        *first, (last, last_bid) = BIDS.items()
        placed: set[str] = set()
        for bidder, ducats in first:
            answer = game.act(game.players[bidder], {"type": "bid", "ducats": ducats})
            assert answer.status_code == 200 and shows(answer.text, ducats)  # the bidder sees it
            placed.add(bidder)
            for who, socket in sockets.items():
                frame = raw_frame(socket)
                assert json.loads(frame)["events"][0]["type"] == "BidPlaced"
                for pid, amount in BIDS.items():
                    # SE5: nobody else (no player, not the host, not the screen) sees a bid's size
                    assert shows(frame, amount) == (who == pid and pid in placed), (who, pid)
            for token in (None, game.host, *(t for p, t in game.players.items() if p != bidder)):
                assert not any(shows(text, ducats) for text in texts(game, token))
            assert all(shows(text, ducats) for text in texts(game, game.players[bidder]))
        public = game.state()
        assert [p["has_bid"] for p in public["players"]] == [True, True, True, False]
        assert all(p["bid"] is None for p in public["players"])
        assert public["bidding"]["waiting_for"] == [last]

        game.ok(game.players[last], {"type": "bid", "ducats": last_bid})
        for socket in sockets.values():
            update = json.loads(raw_frame(socket))  # SE6: one update holds the last bid and the reveal
            assert update["type"] == "update"
            assert [e["type"] for e in update["events"]] == ["BidPlaced", "BidsRevealed"]
            assert update["events"][1]["bids"] == BIDS
            assert {p["id"]: p["bid"] for p in update["state"]["players"]} == BIDS
            # SE7: the highest bid picks first; SE10: every bid leaves its bidder's ducats
            assert update["state"]["bidding"]["pick_order"] == ["p2", "p3", "p1", "p4"]
            assert {p["id"]: p["ducats"] for p in update["state"]["players"]} == {
                pid: 2000 - ducats for pid, ducats in BIDS.items()}
    finally:
        for socket in sockets.values():
            socket.close()


def test_a_bid_may_change_until_every_bid_is_in(game: Game) -> None:
    game.ok(game.players["p1"], {"type": "bid", "ducats": 900})
    game.ok(game.players["p1"], {"type": "bid", "ducats": 158})
    bid_all(game)
    assert {p["id"]: p["bid"] for p in game.state()["players"]} == BIDS
    refused(game, "p1", {"type": "bid", "ducats": 10}, "SE6")  # revealed: no bid changes now


def test_positions_are_picked_in_the_order_of_the_bids(game: Game) -> None:
    bid_all(game)
    refused(game, "p1", {"type": "pick_position", "position": 1}, "SE7")  # p2 bid most: p2 first
    game.ok(game.players["p2"], {"type": "pick_position", "position": 2})
    refused(game, "p3", {"type": "pick_position", "position": 2}, "SE7")  # II is taken
    game.ok(game.players["p3"], {"type": "pick_position", "position": 1})
    game.ok(game.players["p1"], {"type": "pick_position", "position": 4})
    answer = game.ok(game.players["p4"], {"type": "pick_position", "position": 3})
    # SE11: the positions set the order of every later phase; phase 2 begins
    assert [e["type"] for e in answer["events"]] == ["PositionPicked", "TurnOrderSet", "PhaseBegan"]
    state = answer["state"]
    assert state["turn_order"] == ["p3", "p2", "p4", "p1"]
    assert state["round_phase"]["number"] == 2 and state["active"] == "p3"
    assert [p["position"] for p in state["players"]] == ["IV", "II", "I", "III"]


# ---- phase 2: buying and selling (SE11–SE16) ------------------------------------------------


@pytest.fixture
def phase_2(game: Game) -> Game:
    """The game in phase 2 of round 1, turn order p2, p3, p1, p4 (Genoa to act)."""
    bid_all(game)
    assert pick_all(game) == ["p2", "p3", "p1", "p4"]
    return game


def test_the_active_player_buys_goods_in_a_port_next_to_a_galley(phase_2: Game) -> None:
    game = phase_2
    refused(game, "p1", {"type": "buy", "port": "venezia", "good": "cloth", "count": 1}, "SE11")
    refused(game, "p2", {"type": "buy", "port": "venezia", "good": "cloth", "count": 1}, "SE12")
    refused(game, "p2", {"type": "buy", "port": "genova", "good": "spices", "count": 1}, "SE13")
    refused(game, "p2", {"type": "buy", "port": "genova", "good": "cloth", "count": 16}, "SE14")
    answer = game.ok(game.players["p2"], {"type": "buy", "port": "genova", "good": "cloth", "count": 2})
    bought = {k: v for k, v in answer["events"][0].items() if k != "version"}
    assert bought == {"type": "GoodsBought", "player": "p2", "port": "genova", "good": "cloth",
                      "count": 2, "price": 100, "paid": 200, "paid_to": None}
    genoa = answer["state"]["players"][1]
    assert genoa["goods"] == {"cloth": 2} and genoa["ducats"] == 2000 - 437 - 200


def test_a_sale_between_players_sharing_a_sea_area_needs_both(phase_2: Game) -> None:
    game = phase_2
    genoa, venice, spain = game.players["p2"], game.players["p1"], game.players["p3"]
    game.ok(genoa, {"type": "buy", "port": "genova", "good": "cloth", "count": 3})
    # SE17: Genoa's galley 1 sails to Venice's port, where Venice's galleys lie (adriatic_north)
    game.ok(genoa, {"type": "move_galley", "galley": 1, "port": "venezia"})
    offer = game.ok(genoa, {"type": "offer_sale", "to": "p1", "good": "cloth", "count": 2,
                            "price": 350})["state"]["offers"][0]
    assert offer == {"id": "s1", "from": "p2", "to": "p1", "good": "cloth", "count": 2, "price": 350}
    # only the buyer answers: the seller cannot accept their own offer
    with unchanged(game):
        assert game.act(genoa, {"type": "accept_sale", "offer_id": "s1"}).status_code == 403
    state = game.ok(venice, {"type": "accept_sale", "offer_id": "s1"})["state"]
    ledgers = {p["id"]: (p["ducats"], p["goods"]) for p in state["players"]}
    assert ledgers["p2"] == (2000 - 437 - 300 + 350, {"cloth": 1})
    assert ledgers["p1"] == (2000 - 158 - 350, {"cloth": 2})
    assert state["offers"] == []

    # Spain's galleys lie in the Balearic Sea, where Genoa has none: the sale is refused, nothing moves
    game.ok(genoa, {"type": "offer_sale", "to": "p3", "good": "cloth", "count": 1, "price": 100})
    message = refused(game, "p3", {"type": "accept_sale", "offer_id": "s2"}, "SE16")
    assert "same sea area" in message
    game.ok(spain, {"type": "decline_sale", "offer_id": "s2"})
    assert game.state()["offers"] == []


# ---- the API's checks, in both languages ------------------------------------------------------


def test_refusals_speak_dutch_and_english(phase_2: Game) -> None:
    action = {"type": "buy", "port": "venezia", "good": "cloth", "count": 1}
    english = refused(phase_2, "p2", action, "SE12", "en")
    dutch = refused(phase_2, "p2", action, "SE12", "nl")
    assert "You have no galley in Venice" in english
    assert "Je hebt geen galei in Venetië" in dutch
    response = phase_2.act(phase_2.players["p2"], {"type": "bid", "ducats": "veel"}, language="nl")
    assert response.status_code == 400
    assert response.json()["fields"] == {"ducats": ["Geen geldig geheel getal."]}
    response = phase_2.act(phase_2.players["p2"], {"type": "roll"}, language="nl")
    assert response.status_code == 400 and response.json()["fields"]["type"][0].startswith(
        "Onbekende actie 'roll'. Bekend: start, place_sailors, bid,")


@pytest.mark.parametrize(("action", "fields"), [
    ({"type": "bid", "ducats": 10, "colour": "red"}, {"colour": ["Unknown field."]}),
    ({"type": "bid"}, {"ducats": ["Missing data for required field."]}),
    ({"type": "bid", "ducats": -1}, {"ducats": ["Must be greater than or equal to 0."]}),
    ({"type": "pick_position", "position": 5},
     {"position": ["Must be greater than or equal to 1 and less than or equal to 4."]}),
    ({"type": "place_sailors", "home": 4, "galleys": {"one": 6}},
     {"galleys.one": ["A galley's number is 1 to 99."]}),
])
def test_a_malformed_action_is_400_and_changes_nothing(
        game: Game, action: dict[str, Any], fields: dict[str, Any]) -> None:
    with unchanged(game):
        response = game.act(game.players["p1"], action)
    assert response.status_code == 400, response.text
    assert response.json()["error"] == "invalid" and response.json()["fields"] == fields


def test_another_games_action_is_unknown_here(game: Game) -> None:
    with unchanged(game):
        response = game.act(game.players["p1"], {"type": "upgrade", "ship": 1, "part": "sails"})
    assert response.status_code == 400
    assert response.json()["fields"]["type"][0].startswith("Unknown action 'upgrade'. Known: start,")


def test_a_game_is_created_with_its_own_house_rules(live_server: str) -> None:
    game = Game.create(live_server, "serenissima", house_rules={"rounds": 2, "foreign_paid_to": "controller"})
    assert requests.get(f"{game.url}/ruleset", timeout=TIMEOUT).json()["house_rules"] == {
        "foreign_price": 200, "foreign_paid_to": "controller", "rounds": 2}
    for options, field in [({"quests_per_level": 2}, "quests_per_level"),
                           ({"house_rules": {"sunk_crew": 1}}, "house_rules.sunk_crew")]:
        response = requests.post(f"{live_server}/api/games",
                                 json={"game": "serenissima", "options": options}, timeout=TIMEOUT)
        assert response.status_code == 400 and f"options.{field}" in response.json()["fields"]


def test_the_openapi_document_describes_every_serenissima_action(live_server: str) -> None:
    schemas = requests.get(f"{live_server}/api/openapi.json", timeout=TIMEOUT).json()["components"]["schemas"]
    mapping = schemas["SerenissimaAction"]["discriminator"]["mapping"]
    assert set(mapping) == set(GAMES["serenissima"].actions)
    bid = schemas[mapping["bid"].rsplit("/", 1)[1]]
    assert bid["required"] == ["ducats", "type"] and bid["additionalProperties"] is False
    assert schemas["GameStateView"]["discriminator"]["mapping"]["serenissima"].endswith(
        "/SerenissimaStateView")
    assert schemas["SerenissimaStateView"]["additionalProperties"] is True
