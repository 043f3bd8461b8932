"""Voyagers' Venture's rules (backend/shipmate/games/voyagers/RULES.md), read like the rulebook."""

from __future__ import annotations

import json
from typing import Any

import pytest

import shipmate.games.voyagers  # noqa: F401  (registers the game)
from shipmate.rules import (
    HOST,
    PUBLIC,
    Event,
    Forbidden,
    InvalidAction,
    LobbyConflict,
    Viewer,
    apply,
    create,
    event_view_for,
    replay,
    view_for,
)
from tests.rules.helpers import p, refused

SEED = "a7" * 32
COLOURS = ["red", "blue", "green", "yellow", "purple"]
NAMES = ["Anna", "Bram", "Cato", "Daan", "Eva"]


class Table:
    """A game being played: the state and every event so far."""

    def __init__(self, players: int = 3, options: dict[str, Any] | None = None) -> None:
        self.state, first = create("voyagers", "K7QX2M", options or {}, SEED)
        self.log: list[Event] = [first]
        self.cards = 0
        for name, colour in zip(NAMES[:players], COLOURS, strict=False):
            self.do({"type": "join", "name": name, "character": colour}, PUBLIC)

    def do(self, action: dict[str, Any], actor: Viewer) -> list[Event]:
        """Apply an action; keep its events."""
        self.state, events = apply(self.state, action, actor)
        self.log += events
        return events

    def started(self, **action: Any) -> Table:
        """Start the game (the host)."""
        self.do({"type": "start", **action}, HOST)
        return self

    def displayed(self, n: int = 6) -> list[str]:
        """Let the host display `n` new cards (VV2); return their ids."""
        cards = [{"id": f"c{self.cards + i + 1}", "kind": "common" if i % 2 else "fleet",
                  "name": f"Card {self.cards + i + 1}"} for i in range(n)]
        self.cards += n
        self.do({"type": "display", "cards": cards}, HOST)
        return [c["id"] for c in cards]

    def bid(self, pid: str, cards: list[str]) -> Table:
        """Let `pid` name a bid (VV3)."""
        self.do({"type": "name_bid", "cards": cards}, p(pid))
        return self

    def all_agree(self) -> Table:
        """Let every remaining voter agree (VV4, VV5)."""
        while self.state["stage"] == "voting":
            self.do({"type": "agree"}, p(self.state["bid"]["voters"][0]))
        return self


def hand(table: Table, pid: str) -> list[str]:
    """Return the ids of the cards in a player's hand."""
    return [c["id"] for c in table.state["players"][pid]["hand"]]


def dividing() -> tuple[Table, list[str]]:
    """Return a 3-player game in round 1 with six cards on display, p1 to name a bid."""
    table = Table().started()
    return table, table.displayed()


# ---- VV1, VV20: the game -----------------------------------------------------------------------


def test_the_game_starts_in_1486_with_the_host_displaying_cards_vv1() -> None:
    view = view_for(Table().started().state, PUBLIC)
    assert (view["round"], view["year"], view["rounds"], view["stage"]) == (1, 1486, 6, "display")


def test_players_take_a_colour_each_and_the_host_starts_vv20() -> None:
    table = Table(1)
    refused(table.state, {"type": "join", "name": "Bram", "character": "red"}, PUBLIC, LobbyConflict)
    refused(table.state, {"type": "start"}, HOST, rule="VV20")
    table = Table(3)
    refused(table.state, {"type": "start"}, p("p1"), Forbidden)
    refused(table.state, {"type": "start", "order": ["p1", "p2"]}, HOST, InvalidAction)
    table.started(order=["p3", "p1", "p2"])
    assert table.state["turn_order"] == ["p3", "p1", "p2"]
    assert [table.state["players"][q]["gold"] for q in ("p1", "p2", "p3")] == [2, 2, 2]
    with pytest.raises(InvalidAction):
        create("voyagers", "K7QX2M", {"house_rules": {"starting_gold": -1}}, SEED)


# ---- VV2–VV11: the sponsor division ------------------------------------------------------------


def test_the_host_displays_this_years_cards_vv2() -> None:
    table = Table().started()
    refused(table.state, {"type": "name_bid", "cards": []}, p("p1"), rule="VV3")
    refused(table.state, {"type": "display", "cards": [{"id": "x", "kind": "common"}]}, p("p1"),
            Forbidden)
    refused(table.state, {"type": "display", "cards": [{"id": "x", "kind": "deck"}]}, HOST,
            InvalidAction)
    refused(table.state, {"type": "display", "cards": [{"id": "x", "kind": "common"},
                                                        {"id": "x", "kind": "fleet"}]},
            HOST, InvalidAction)
    table.displayed(4)
    assert [c["id"] for c in table.state["display"]] == ["c1", "c2", "c3", "c4"]
    refused(table.state, {"type": "display", "cards": [{"id": "y", "kind": "common"}]}, HOST,
            rule="VV2")


def test_the_starting_player_names_the_cards_they_want_vv3() -> None:
    table, cards = dividing()
    refused(table.state, {"type": "name_bid", "cards": cards[:2]}, p("p2"), rule="VV3")
    refused(table.state, {"type": "name_bid", "cards": ["nope"]}, p("p1"), InvalidAction)
    refused(table.state, {"type": "name_bid", "cards": []}, p("p1"), rule="VV3")
    table.bid("p1", cards[:3])
    assert table.state["bid"] == {"bidder": "p1", "cards": cards[:3], "voters": ["p2", "p3"],
                                  "cutter": None}


def test_clockwise_from_the_bidder_each_other_player_agrees_or_not_vv4() -> None:
    table, cards = dividing()
    table.bid("p1", cards[:3])
    refused(table.state, {"type": "agree"}, p("p3"), rule="VV4")
    refused(table.state, {"type": "agree"}, p("p1"), rule="VV4")
    table.do({"type": "agree"}, p("p2"))
    assert table.state["bid"]["voters"] == ["p3"]


def test_when_all_agree_the_bidder_takes_the_cards_into_hand_vv5() -> None:
    table, cards = dividing()
    table.bid("p1", cards[:3]).all_agree()
    assert hand(table, "p1") == cards[:3]
    assert [c["id"] for c in table.state["display"]] == cards[3:]
    assert table.state["received"] == ["p1"] and table.state["stage"] == "naming"


def test_the_first_to_disagree_must_cut_the_bid_vv6() -> None:
    table, cards = dividing()
    table.bid("p1", cards[:3])
    table.do({"type": "disagree"}, p("p2"))
    assert table.state["stage"] == "cutting"
    refused(table.state, {"type": "agree"}, p("p3"), rule="VV4")
    refused(table.state, {"type": "cut", "kind": "remove", "cards": ["c1"]}, p("p3"), rule="VV6")
    refused(table.state, {"type": "cut", "kind": "bribe"}, p("p2"), InvalidAction)


def test_a_bid_that_cannot_be_cut_cannot_be_disagreed_with_vv6() -> None:
    table = Table().started()
    only = table.displayed(1)
    table.do({"type": "set_gold", "player": "p2", "gold": 0}, HOST)
    table.bid("p1", only)
    error = refused(table.state, {"type": "disagree"}, p("p2"), rule="VV6")
    assert "0 doubloons" in error.message["en"]


def test_a_doubloon_on_another_card_keeps_the_bid_and_rides_with_that_card_vv7() -> None:
    table, cards = dividing()
    table.bid("p1", cards[:3])
    table.do({"type": "disagree"}, p("p2"))
    refused(table.state, {"type": "cut", "kind": "doubloon", "card": cards[0]}, p("p2"), rule="VV7")
    table.do({"type": "cut", "kind": "doubloon", "card": cards[5]}, p("p2"))
    assert table.state["bid"]["bidder"] == "p2" and table.state["bid"]["cards"] == cards[:3]
    assert table.state["players"]["p2"]["gold"] == 1
    assert view_for(table.state, PUBLIC)["display"][-1]["doubloons"] == 1
    table.all_agree()
    assert hand(table, "p2") == cards[:3]
    table.bid("p1", [cards[5]]).all_agree()
    assert table.state["players"]["p1"]["gold"] == 3  # the doubloon came with the card


def test_a_doubloon_needs_gold_vv7() -> None:
    table, cards = dividing()
    table.do({"type": "set_gold", "player": "p2", "gold": 0}, HOST)
    table.bid("p1", cards[:3])
    table.do({"type": "disagree"}, p("p2"))
    error = refused(table.state, {"type": "cut", "kind": "doubloon", "card": cards[4]}, p("p2"),
                    rule="VV7")
    assert error.message["en"] == "You have 0 gold doubloons; 1 is needed."


def test_a_cut_may_remove_one_or_more_cards_of_the_bid_vv8() -> None:
    table, cards = dividing()
    table.bid("p1", cards[:3])
    table.do({"type": "disagree"}, p("p2"))
    refused(table.state, {"type": "cut", "kind": "remove", "cards": [cards[4]]}, p("p2"), rule="VV8")
    refused(table.state, {"type": "cut", "kind": "remove", "cards": cards[:3]}, p("p2"), rule="VV8")
    table.do({"type": "cut", "kind": "remove", "cards": [cards[0]]}, p("p2"))
    assert table.state["bid"]["cards"] == cards[1:3]


def test_a_cut_may_swap_two_or_more_cards_for_one_on_display_vv9() -> None:
    table, cards = dividing()
    table.bid("p1", cards[:3])
    table.do({"type": "disagree"}, p("p2"))
    swap = {"type": "cut", "kind": "swap"}
    refused(table.state, {**swap, "remove": [cards[0]], "add": cards[5]}, p("p2"), rule="VV9")
    refused(table.state, {**swap, "remove": cards[:2], "add": cards[2]}, p("p2"), rule="VV9")
    table.do({**swap, "remove": cards[:2], "add": cards[5]}, p("p2"))
    assert table.state["bid"]["cards"] == [cards[2], cards[5]]


def test_after_a_cut_agreeing_goes_on_clockwise_from_the_cutter_vv10() -> None:
    table, cards = dividing()
    table.bid("p1", cards[:3])
    table.do({"type": "agree"}, p("p2"))
    table.do({"type": "disagree"}, p("p3"))
    table.do({"type": "cut", "kind": "remove", "cards": [cards[2]]}, p("p3"))
    assert table.state["bid"]["voters"] == ["p1", "p2"]
    table.all_agree()
    assert hand(table, "p3") == cards[:2]
    assert table.state["received"] == ["p3"]


def test_every_player_receives_exactly_one_bid_a_round_vv11() -> None:
    table, cards = dividing()
    table.bid("p1", cards[:2]).all_agree()
    table.bid("p2", cards[2:4]).all_agree()
    assert table.state["bid"] is None
    events = table.do({"type": "name_bid", "cards": cards[4:5]}, p("p3"))
    assert [e["type"] for e in events] == ["BidNamed", "BidReceived", "DivisionEnded", "RoundEnded"]
    assert table.state["stage"] == "order"
    refused(table.state, {"type": "name_bid", "cards": cards[5:]}, p("p1"), rule="VV3")


# ---- VV12, VV13: the hand limit and the next year ----------------------------------------------


def test_a_player_over_8_cards_discards_down_to_8_before_the_round_goes_on_vv12() -> None:
    table = Table(2).started()
    cards = table.displayed(11)
    table.bid("p1", cards[:10]).all_agree()
    table.bid("p2", cards[10:])
    assert table.state["stage"] == "discarding"
    refused(table.state, {"type": "turn_order", "order": ["p1", "p2"]}, HOST, rule="VV13")
    error = refused(table.state, {"type": "discard", "cards": cards[:1]}, p("p1"), rule="VV12")
    assert error.message["en"] == "You hold 10 cards; discard 2 down to 8, not 1."
    refused(table.state, {"type": "discard", "cards": cards[10:]}, p("p1"), InvalidAction)
    table.do({"type": "discard", "cards": cards[:2]}, p("p1"))
    assert len(hand(table, "p1")) == 8 and table.state["stage"] == "order"


def test_discards_are_face_down_vv12() -> None:
    table = Table(2).started()
    cards = table.displayed(10)
    table.bid("p1", cards[:9]).all_agree()
    table.bid("p2", cards[9:])
    events = table.do({"type": "discard", "cards": ["c7"]}, p("p1"))
    for viewer in (PUBLIC, HOST, p("p2")):
        assert "c7" not in json.dumps(event_view_for(table.state, events[0], viewer))
        assert "c2" not in json.dumps(view_for(table.state, viewer)["players"])
    assert event_view_for(table.state, events[0], p("p1"))["cards"] == ["c7"]


def test_the_host_enters_next_years_turn_order_from_the_track_vv13() -> None:
    table, cards = dividing()
    for pid in ("p1", "p2", "p3"):
        table.bid(pid, [cards.pop(0)]).all_agree()
    refused(table.state, {"type": "turn_order", "order": ["p2", "p3", "p1"]}, p("p1"), Forbidden)
    refused(table.state, {"type": "turn_order", "order": ["p2", "p2", "p1"]}, HOST, InvalidAction)
    table.do({"type": "turn_order", "order": ["p2", "p3", "p1"]}, HOST)
    assert (table.state["round"], table.state["year"], table.state["stage"]) == (2, 1487, "display")
    assert [c["id"] for c in table.state["display"]] == cards  # left over, still on display
    table.displayed(2)
    refused(table.state, {"type": "name_bid", "cards": cards[:1]}, p("p1"), rule="VV3")
    table.bid("p2", cards[:1])
    assert table.state["bid"]["voters"] == ["p3", "p1"]


# ---- VV14–VV19: the end ------------------------------------------------------------------------


def _score(player: str, **numbers: Any) -> dict[str, Any]:
    base = {"tips": 0, "ships": 0, "nobles": 0, "ship_count": 0, "fastest_fleet": False, "gold": 0,
            "smuggled": 0, "resources": 0, "lowest_ship_card": None}
    return {"type": "score", "player": player, **base, **numbers}


def _after_round_6(players: int = 3) -> Table:
    table = Table(players).started()
    for _ in range(6):
        cards = table.displayed(players)
        for pid in list(table.state["turn_order"]):
            table.bid(pid, [cards.pop(0)]).all_agree()
        if table.state["stage"] == "order":
            table.do({"type": "turn_order", "order": table.state["turn_order"]}, HOST)
    return table


def test_after_round_6_comes_one_last_purchase_then_the_count_vv14() -> None:
    table = _after_round_6()
    assert table.state["stage"] == "purchase" and table.state["round"] == 6
    refused(table.state, _score("p1"), HOST, rule="VV15")
    table.do({"type": "play_cards", "cards": hand(table, "p1")[:2]}, p("p1"))
    refused(table.state, {"type": "close_purchases"}, p("p1"), Forbidden)
    table.do({"type": "close_purchases"}, HOST)
    refused(table.state, {"type": "play_cards", "cards": hand(table, "p2")[:1]}, p("p2"), rule="VV14")


def test_reputation_adds_tips_ships_nobles_fastest_fleet_and_gold_less_smuggling_vv15_to_vv18() -> None:
    table = _after_round_6()
    table.do({"type": "close_purchases"}, HOST)
    events = table.do(_score("p1", tips=3, ships=7, nobles=4, ship_count=2, fastest_fleet=True,
                             gold=5, smuggled=2, lowest_ship_card=12), p("p1"))
    assert events[0]["reputation"] == 3 + 7 + 4 + 2 + 2 - 2


def test_only_one_player_holds_the_fastest_fleet_token_vv16() -> None:
    table = _after_round_6()
    table.do({"type": "close_purchases"}, HOST)
    table.do(_score("p1", fastest_fleet=True), HOST)
    error = refused(table.state, _score("p2", fastest_fleet=True), HOST, rule="VV16")
    assert "Anna" in error.message["en"]


def test_a_player_enters_only_their_own_numbers_vv15() -> None:
    table = _after_round_6()
    table.do({"type": "close_purchases"}, HOST)
    refused(table.state, _score("p2"), p("p1"), Forbidden)
    refused(table.state, _score("p1", gold=-2), p("p1"), InvalidAction)
    refused(table.state, _score("p1", ship_count=1), p("p1"), InvalidAction)


def test_ties_go_to_most_ships_then_most_resources_then_the_lowest_ship_card_vv19() -> None:
    table = _after_round_6(5)
    table.do({"type": "close_purchases"}, HOST)
    table.do(_score("p1", tips=10, ship_count=2, resources=4, lowest_ship_card=30), HOST)
    table.do(_score("p2", tips=10, ship_count=3, resources=0, lowest_ship_card=40), HOST)
    table.do(_score("p3", tips=10, ship_count=2, resources=4, lowest_ship_card=7), HOST)
    table.do(_score("p4", tips=10, ship_count=2, resources=5, lowest_ship_card=50), HOST)
    events = table.do(_score("p5", tips=12, ship_count=0), HOST)
    assert events[-1]["type"] == "GameRanked"
    ranking = view_for(table.state, PUBLIC)["ranking"]
    assert [(r["player"], r["place"], r["behind_by"]) for r in ranking] == [
        ("p5", 1, None), ("p2", 2, "reputation"), ("p4", 3, "ships"), ("p3", 4, "resources"),
        ("p1", 5, "ship_card")]
    assert table.state["phase"] == "finished" and view_for(table.state, PUBLIC)["seed"] == SEED


def test_players_equal_in_every_way_share_a_place_vv19() -> None:
    table = _after_round_6(2)
    table.do({"type": "close_purchases"}, HOST)
    table.do(_score("p1", nobles=4), HOST)
    table.do(_score("p2", nobles=4), HOST)
    assert [r["place"] for r in table.state["ranking"]] == [1, 1]


# ---- privacy and the contract ------------------------------------------------------------------


def test_a_hand_is_seen_only_by_its_owner() -> None:
    table, cards = dividing()
    table.bid("p1", cards[:2]).all_agree()
    own = view_for(table.state, p("p1"))["players"][0]
    assert [c["id"] for c in own["hand"]] == cards[:2]
    for viewer in (PUBLIC, HOST, p("p2")):
        seen = view_for(table.state, viewer)["players"][0]
        assert seen["hand"] is None and seen["hand_count"] == 2
    assert SEED not in json.dumps(event_view_for(table.state, table.log[0], PUBLIC))


def test_a_whole_game_of_six_rounds_to_a_ranking_replays_to_the_same_state() -> None:
    """Play six years at a table of four, with cuts of every kind, to the final ranking."""
    table = Table(4).started()
    for year in range(1486, 1492):
        assert table.state["year"] == year
        cards = table.displayed(7)
        first, second, third, fourth = table.state["turn_order"]
        table.bid(first, cards[:3])
        table.do({"type": "agree"}, p(table.state["bid"]["voters"][0]))
        cutter = table.state["bid"]["voters"][0]
        table.do({"type": "disagree"}, p(cutter))
        kind = year % 3
        if kind == 0:
            table.do({"type": "cut", "kind": "doubloon", "card": cards[6]}, p(cutter))
        elif kind == 1:
            table.do({"type": "cut", "kind": "remove", "cards": [cards[0]]}, p(cutter))
        else:
            table.do({"type": "cut", "kind": "swap", "remove": cards[:2], "add": cards[3]}, p(cutter))
        table.all_agree()
        while table.state["stage"] == "naming":
            chooser = view_for(table.state, PUBLIC)["waiting_for"]
            shown = [c["id"] for c in table.state["display"]]
            table.bid(chooser, shown[:1]).all_agree()
        assert sorted(table.state["received"]) == sorted([first, second, third, fourth])
        for pid in table.state["seats"]:
            over = len(hand(table, pid)) - 8
            if over > 0 and table.state["stage"] == "discarding":
                table.do({"type": "discard", "cards": hand(table, pid)[:over]}, p(pid))
        if year < 1491:
            table.do({"type": "turn_order", "order": [second, third, fourth, first]}, HOST)
    assert table.state["stage"] == "purchase"
    table.do({"type": "close_purchases"}, HOST)
    for n, pid in enumerate(table.state["seats"]):
        table.do(_score(pid, tips=n, ships=2 * n, nobles=3, ship_count=n,
                        lowest_ship_card=10 - n if n else None, gold=n, smuggled=1,
                        fastest_fleet=n == 1), p(pid))
    ranking = table.state["ranking"]
    assert [r["player"] for r in ranking] == ["p4", "p3", "p2", "p1"]
    assert [r["reputation"] for r in ranking] == [3 + 6 + 3 + 1 - 1, 2 + 4 + 3 + 1 - 1,
                                                  1 + 2 + 3 + 2 + 0 - 1, 0 + 0 + 3 + 0 - 1]
    assert replay(table.log) == table.state
