"""Serenissima's rules (backend/shipmate/games/serenissima/RULES.md), read like the rulebook."""

from __future__ import annotations

import json
from typing import Any

import pytest

import shipmate.games.serenissima  # noqa: F401  (registers the game)
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
    die,
    event_view_for,
    replay,
    verify,
    view_for,
)
from tests.rules.helpers import p, refused

SEED = "5e" * 32
POWERS = ["venice", "genoa", "spain", "turkey"]
NAMES = ["Anna", "Bram", "Cato", "Daan"]


class Table:
    """A game being played: the state and every event so far (for replays and privacy checks)."""

    def __init__(self, powers: list[str] = POWERS, options: dict[str, Any] | None = None) -> None:
        self.state, first = create("serenissima", "K7QX2M", options or {}, SEED)
        self.log: list[Event] = [first]
        for name, power in zip(NAMES, powers, strict=False):
            self.do({"type": "join", "name": name, "character": power}, PUBLIC)

    def do(self, action: dict[str, Any], actor: Viewer) -> list[Event]:
        """Apply an action; keep its events."""
        self.state, events = apply(self.state, action, actor)
        self.log += events
        return events

    def started(self) -> Table:
        """Start the game (the host)."""
        self.do({"type": "start"}, HOST)
        return self

    def bids(self, **bids: int) -> Table:
        """Let every player bid (SE5), in seating order."""
        for pid, ducats in bids.items():
            self.do({"type": "bid", "ducats": ducats}, p(pid))
        return self

    def picks(self) -> Table:
        """Let each player pick the next free position, in the order of picking (SE7)."""
        for position, pid in enumerate(self.state["pick_order"], start=1):
            self.do({"type": "pick_position", "position": position}, p(pid))
        return self

    def finish(self, *pids: str) -> Table:
        """Let these players finish the phase, in this order."""
        for pid in pids:
            self.do({"type": "finish_phase"}, p(pid))
        return self


def in_phase_2() -> Table:
    """Return a 4-player game in phase 2 of round 1, turn order p1, p2, p3, p4."""
    table = Table().started().bids(p1=400, p2=300, p3=200, p4=100).picks()
    assert table.state["turn_order"] == ["p1", "p2", "p3", "p4"]
    return table


# ---- SE1–SE3: setup ---------------------------------------------------------------------------


def test_each_power_is_played_once_se1() -> None:
    table = Table(["venice"])
    refused(table.state, {"type": "join", "name": "Bram", "character": "venice"}, PUBLIC,
            LobbyConflict)
    refused(table.state, {"type": "join", "name": "Bram", "character": "france"}, PUBLIC,
            InvalidAction)


@pytest.mark.parametrize("powers", [["venice", "genoa"], ["spain", "turkey"],
                                    ["venice", "genoa", "spain"], POWERS])
def test_the_allowed_setups_start_se1(powers: list[str]) -> None:
    assert Table(powers).started().state["phase"] == "playing"


@pytest.mark.parametrize("powers", [["venice", "spain"], ["genoa", "turkey"],
                                    ["venice", "genoa", "turkey"], ["venice"]])
def test_other_setups_are_refused_at_the_start_se1(powers: list[str]) -> None:
    error = refused(Table(powers).state, {"type": "start"}, HOST, rule="SE1")
    assert str(len(powers)) in error.message["nl"] and str(len(powers)) in error.message["en"]


def test_only_the_host_starts_and_only_once_se1() -> None:
    table = Table()
    refused(table.state, {"type": "start"}, p("p1"), Forbidden)
    table.started()
    refused(table.state, {"type": "start"}, HOST, LobbyConflict)
    refused(table.state, {"type": "join", "name": "Eva", "character": "venice"}, PUBLIC,
            LobbyConflict)


def test_every_power_starts_with_2000_ducats_2_galleys_at_home_and_10_sailors_se2() -> None:
    state = Table().started().state
    venice = state["players"]["p1"]
    assert venice["ducats"] == 2000
    assert [(g["number"], g["port"]) for g in venice["galleys"]] == [(1, "venezia"), (2, "venezia")]
    assert venice["home_sailors"] + sum(g["sailors"] for g in venice["galleys"]) == 10
    assert state["players"]["p4"]["galleys"][0]["port"] == "istanbul"


def test_a_capital_nobody_plays_is_neutral_se14() -> None:
    state = Table(["venice", "genoa"]).started().state
    assert state["ports"]["venezia"] == "p1" and state["ports"]["barcelona"] is None


def test_sailors_are_split_between_the_home_port_and_the_galleys_se3() -> None:
    table = Table().started()
    error = refused(table.state, {"type": "place_sailors", "home": 5, "galleys": {"1": 3, "2": 3}},
                    p("p1"), rule="SE3")
    assert error.message["en"] == "You have 10 sailors; this split places 11."
    table.do({"type": "place_sailors", "home": 4, "galleys": {"1": 3, "2": 3}}, p("p1"))
    venice = table.state["players"]["p1"]
    assert (venice["home_sailors"], [g["sailors"] for g in venice["galleys"]]) == (4, [3, 3])


def test_sailors_move_in_the_set_up_and_in_phase_2_only_se3() -> None:
    table = in_phase_2().finish("p1", "p2", "p3", "p4")
    refused(table.state, {"type": "place_sailors", "home": 10}, p("p1"), rule="SE4")


# ---- SE4: the round ----------------------------------------------------------------------------


def test_the_round_marker_starts_at_1_in_phase_1_se4() -> None:
    view = view_for(Table().started().state, PUBLIC)
    assert view["round"] == 1 and view["round_phase"]["number"] == 1
    assert view["round_phase"]["name"]["nl"].startswith("Spelronden-aanduider")


def test_a_move_of_another_phase_is_refused_se4() -> None:
    table = Table().started()
    error = refused(table.state, {"type": "buy", "port": "venezia", "good": "cloth", "count": 1},
                    p("p1"), rule="SE4")
    assert "phase 2" in error.message["en"] and "fase 2" in error.message["nl"]


def test_the_next_phase_begins_only_when_every_player_has_finished_se4() -> None:
    table = in_phase_2().finish("p1", "p2", "p3")
    assert table.state["step"] == 2
    table.finish("p4")
    assert table.state["step"] == 3 and table.state["finished"] == []


def test_after_the_sixth_phase_a_new_round_begins_with_new_bids_se4() -> None:
    table = in_phase_2()
    for _ in range(5):
        table.finish("p1", "p2", "p3", "p4")
    assert (table.state["round"], table.state["step"]) == (2, 1)
    assert table.state["revealed"] is None and table.state["positions"] == {}


def test_phases_3_to_6_are_generic_phases_marked_done_se18() -> None:
    table = in_phase_2().finish("p1", "p2", "p3", "p4")
    assert view_for(table.state, PUBLIC)["round_phase"]["name"] == {"nl": "Fase 3", "en": "Phase 3"}
    refused(table.state, {"type": "finish_phase"}, p("p2"), rule="SE11")
    table.do({"type": "move_galley", "galley": 1, "port": "ragusa"}, p("p1"))
    table.finish("p1")
    assert table.state["finished"] == ["p1"]


# ---- SE5–SE10: sealed bids for turn order -----------------------------------------------------


def test_a_bid_is_at_most_the_players_own_ducats_se5() -> None:
    table = Table().started()
    error = refused(table.state, {"type": "bid", "ducats": 2100}, p("p1"), rule="SE5")
    assert error.message == {"nl": "Je hebt 2000 dukaten; dit bod is 2100.",
                             "en": "You have 2000 ducats; this bid is 2100."}
    refused(table.state, {"type": "bid", "ducats": -1}, p("p1"), InvalidAction)
    refused(table.state, {"type": "bid", "ducats": 100}, HOST, Forbidden)


def test_a_bid_may_change_until_every_bid_is_in_se5() -> None:
    table = Table().started().bids(p1=300)
    table.bids(p1=700)
    assert view_for(table.state, p("p1"))["players"][0]["bid"] == 700
    table.bids(p2=100, p3=0, p4=50)
    assert table.state["revealed"]["p1"] == 700


def test_a_bid_stays_hidden_from_everyone_else_until_every_player_has_bid_se5() -> None:
    table = Table().started()
    table.bids(p1=1357, p2=1246)
    outsiders = [PUBLIC, HOST, p("p3"), p("p4")]
    for viewer in outsiders:
        seen = json.dumps(view_for(table.state, viewer))
        heard = json.dumps([event_view_for(table.state, e, viewer) for e in table.log])
        assert "1357" not in seen and "1246" not in seen and "1357" not in heard
    p2_sees = json.dumps(view_for(table.state, p("p2"))) + json.dumps(
        [event_view_for(table.state, e, p("p2")) for e in table.log])
    assert "1357" not in p2_sees and "1246" in p2_sees
    public = view_for(table.state, PUBLIC)
    assert [q["has_bid"] for q in public["players"]] == [True, True, False, False]
    assert public["bidding"]["waiting_for"] == ["p3", "p4"]


def test_all_bids_are_revealed_at_once_in_one_event_se6() -> None:
    table = Table().started().bids(p1=1357, p2=1246, p3=0)
    events = table.do({"type": "bid", "ducats": 10}, p("p4"))
    assert [e["type"] for e in events] == ["BidPlaced", "BidsRevealed"]
    assert events[1]["bids"] == {"p1": 1357, "p2": 1246, "p3": 0, "p4": 10}
    assert "1357" in json.dumps(view_for(table.state, PUBLIC))
    refused(table.state, {"type": "bid", "ducats": 5}, p("p1"), rule="SE6")


def test_the_highest_bidder_picks_a_position_first_then_the_next_se7() -> None:
    table = Table().started().bids(p1=100, p2=400, p3=300, p4=200)
    assert table.state["pick_order"] == ["p2", "p3", "p4", "p1"]
    refused(table.state, {"type": "pick_position", "position": 1}, p("p3"), rule="SE7")
    refused(table.state, {"type": "pick_position", "position": 5}, p("p2"), InvalidAction)
    table.do({"type": "pick_position", "position": 3}, p("p2"))
    refused(table.state, {"type": "pick_position", "position": 3}, p("p3"), rule="SE7")
    table.do({"type": "pick_position", "position": 1}, p("p3"))
    table.do({"type": "pick_position", "position": 4}, p("p4"))
    events = table.do({"type": "pick_position", "position": 2}, p("p1"))
    assert [e["type"] for e in events] == ["PositionPicked", "TurnOrderSet", "PhaseBegan"]
    assert table.state["turn_order"] == ["p3", "p1", "p2", "p4"]  # I, II, III, IV
    assert table.state["step"] == 2


def test_phase_1_ends_by_itself_not_by_finishing_se7() -> None:
    table = Table().started()
    refused(table.state, {"type": "finish_phase"}, p("p1"), rule="SE7")


def test_equal_bids_are_settled_by_recorded_dice_se8() -> None:
    table = Table().started().bids(p1=300, p2=300, p3=500, p4=100)
    revealed = table.log[-1]
    rolls = revealed["rolls"]
    assert [r["die"]["index"] for r in rolls] == list(range(len(rolls)))
    assert all(r["die"]["value"] == die(SEED, r["die"]["index"]) for r in rolls)
    assert {r["player"] for r in rolls} == {"p1", "p2"}
    last = {r["player"]: r["die"]["value"] for r in rolls}
    first_of_tie = "p1" if last["p1"] > last["p2"] else "p2"
    assert revealed["pick_order"][0] == "p3" and revealed["pick_order"][1] == first_of_tie
    assert table.state["counters"]["dice"] == len(rolls)
    assert verify(table.log, SEED).ok


def test_players_who_bid_nothing_pick_last_se9() -> None:
    table = Table().started().bids(p1=0, p2=0, p3=50, p4=10)
    order = table.state["pick_order"]
    assert order[:2] == ["p3", "p4"] and set(order[2:]) == {"p1", "p2"}


def test_all_bids_leave_the_game_se10() -> None:
    table = Table().started().bids(p1=400, p2=0, p3=250, p4=2000)
    assert [table.state["players"][q]["ducats"] for q in ("p1", "p2", "p3", "p4")] == \
        [1600, 2000, 1750, 0]


def test_the_turn_order_holds_for_every_following_phase_se11() -> None:
    table = in_phase_2()
    assert view_for(table.state, PUBLIC)["active"] == "p1"
    error = refused(table.state, {"type": "move_galley", "galley": 1, "port": "ragusa"}, p("p2"),
                    rule="SE11")
    assert "Anna" in error.message["en"]
    refused(table.state, {"type": "finish_phase"}, p("p3"), rule="SE11")


# ---- SE12–SE17: phase 2, goods ------------------------------------------------------------------


def test_goods_are_bought_only_where_the_player_has_a_galley_se12() -> None:
    table = in_phase_2()
    refused(table.state, {"type": "buy", "port": "ragusa", "good": "timber", "count": 1}, p("p1"),
            rule="SE12")
    table.do({"type": "move_galley", "galley": 2, "port": "ragusa"}, p("p1"))
    table.do({"type": "buy", "port": "ragusa", "good": "timber", "count": 2}, p("p1"))
    assert table.state["players"]["p1"]["goods"] == {"timber": 2}


def test_a_galley_in_the_sea_area_next_to_a_port_is_in_that_port_se12() -> None:
    table = in_phase_2()
    table.do({"type": "move_galley", "galley": 1, "sea_area": "aegean"}, p("p1"))
    table.do({"type": "buy", "port": "athene", "good": "marble", "count": 1}, p("p1"))
    table.do({"type": "buy", "port": "candia", "good": "wine", "count": 1}, p("p1"))
    assert table.state["players"]["p1"]["goods"] == {"marble": 1, "wine": 1}


def test_a_port_sells_only_its_own_goods_se13() -> None:
    table = in_phase_2()
    error = refused(table.state, {"type": "buy", "port": "venezia", "good": "spices", "count": 1},
                    p("p1"), rule="SE13")
    assert "spices" in error.message["en"]


def test_a_good_costs_100_ducats_to_the_bank_in_a_neutral_or_own_port_se14() -> None:
    table = in_phase_2()
    before = {q: table.state["players"][q]["ducats"] for q in table.state["seats"]}
    events = table.do({"type": "buy", "port": "venezia", "good": "cloth", "count": 3}, p("p1"))
    assert events[0]["price"] == 100 and events[0]["paid_to"] is None
    after = {q: table.state["players"][q]["ducats"] for q in table.state["seats"]}
    assert after == {**before, "p1": before["p1"] - 300}
    error = refused(table.state, {"type": "buy", "port": "venezia", "good": "cloth", "count": 20},
                    p("p1"), rule="SE14")
    assert error.message["en"] == "You have 1300 ducats; 20 cloth cost 2000 (100 each)."


def test_a_foreign_port_charges_the_house_price_se15() -> None:
    table = in_phase_2()
    table.do({"type": "move_galley", "galley": 1, "port": "genova"}, p("p1"))
    events = table.do({"type": "buy", "port": "genova", "good": "wine", "count": 2}, p("p1"))
    assert (events[0]["price"], events[0]["paid"], events[0]["paid_to"]) == (200, 400, None)


def test_the_foreign_price_and_its_payee_are_settings_se15() -> None:
    options = {"house_rules": {"foreign_price": 150, "foreign_paid_to": "controller"}}
    table = Table(options=options).started().bids(p1=4, p2=3, p3=2, p4=1).picks()
    genoa = table.state["players"]["p2"]["ducats"]
    table.do({"type": "move_galley", "galley": 1, "port": "genova"}, p("p1"))
    table.do({"type": "buy", "port": "genova", "good": "wine", "count": 2}, p("p1"))
    assert table.state["players"]["p2"]["ducats"] == genoa + 300
    with pytest.raises(InvalidAction):
        create("serenissima", "K7QX2M", {"house_rules": {"foreign_paid_to": "pope"}}, SEED)
    with pytest.raises(InvalidAction):
        create("serenissima", "K7QX2M", {"rounds": 3}, SEED)


def _with_goods(table: Table) -> Table:
    table.do({"type": "buy", "port": "venezia", "good": "cloth", "count": 2}, p("p1"))
    table.do({"type": "offer_sale", "to": "p2", "good": "cloth", "count": 2, "price": 500}, p("p1"))
    return table


def test_players_sell_to_each_other_when_their_galleys_share_a_sea_area_se16() -> None:
    table = _with_goods(in_phase_2())
    offer = table.state["offers"][0]
    error = refused(table.state, {"type": "accept_sale", "offer_id": offer["id"]}, p("p2"),
                    rule="SE16")
    assert "same sea area" in error.message["en"]
    table.do({"type": "move_galley", "galley": 1, "port": "venezia"}, p("p1"))
    table.finish("p1")
    assert table.state["offers"] == []  # the seller's part of the phase ended: the offer lapsed
    table.do({"type": "move_galley", "galley": 1, "port": "venezia"}, p("p2"))
    table.do({"type": "offer_sale", "to": "p2", "good": "cloth", "count": 2, "price": 500}, p("p1"))
    offer = table.state["offers"][0]
    refused(table.state, {"type": "accept_sale", "offer_id": offer["id"]}, p("p3"), Forbidden)
    table.do({"type": "accept_sale", "offer_id": offer["id"]}, p("p2"))
    assert table.state["players"]["p2"]["goods"] == {"cloth": 2}
    assert table.state["players"]["p1"]["goods"] == {"cloth": 0}
    assert table.state["players"]["p1"]["ducats"] == 2000 - 400 - 200 + 500


def test_a_sale_is_checked_when_it_is_accepted_se16() -> None:
    table = in_phase_2()
    table.do({"type": "move_galley", "galley": 1, "port": "venezia"}, p("p1"))
    table.finish("p1")
    table.do({"type": "move_galley", "galley": 1, "port": "venezia"}, p("p2"))
    table.do({"type": "offer_sale", "to": "p2", "good": "cloth", "count": 2, "price": 9999}, p("p1"))
    offer_id = table.state["offers"][0]["id"]
    error = refused(table.state, {"type": "accept_sale", "offer_id": offer_id}, p("p2"), rule="SE16")
    assert error.message["en"] == "Anna has 0 cloth; the offer is 2."
    table.do({"type": "decline_sale", "offer_id": offer_id}, p("p2"))
    refused(table.state, {"type": "accept_sale", "offer_id": offer_id}, p("p2"), rule="SE16")


def test_one_side_of_a_sale_is_the_player_whose_turn_it_is_se16() -> None:
    table = in_phase_2()
    refused(table.state, {"type": "offer_sale", "to": "p3", "good": "wine", "count": 1, "price": 1},
            p("p2"), rule="SE11")
    table.do({"type": "offer_sale", "to": "p1", "good": "wine", "count": 1, "price": 1}, p("p2"))
    offer_id = table.state["offers"][0]["id"]
    refused(table.state, {"type": "withdraw_sale", "offer_id": offer_id}, p("p1"), Forbidden)
    table.do({"type": "withdraw_sale", "offer_id": offer_id}, p("p2"))
    assert table.state["offers"] == []


def test_players_claim_where_their_galleys_lie_se17() -> None:
    table = Table().started()
    refused(table.state, {"type": "move_galley", "galley": 1, "port": "ragusa"}, p("p1"), rule="SE4")
    table = in_phase_2()
    refused(table.state, {"type": "move_galley", "galley": 3, "port": "ragusa"}, p("p1"),
            InvalidAction)
    refused(table.state, {"type": "move_galley", "galley": 1}, p("p1"), InvalidAction)
    table.do({"type": "move_galley", "galley": 1, "port": "palermo"}, p("p1"))
    assert table.state["players"]["p1"]["galleys"][0] == {
        "number": 1, "port": "palermo", "sea_area": "tyrrhenian", "sailors": 0}


# ---- SE19: the end ------------------------------------------------------------------------------


def test_the_host_ends_the_game_and_the_seed_is_revealed_se19() -> None:
    table = in_phase_2()
    refused(table.state, {"type": "end_game"}, p("p1"), Forbidden)
    assert view_for(table.state, PUBLIC)["seed"] is None
    table.do({"type": "end_game"}, HOST)
    assert view_for(table.state, PUBLIC)["seed"] == SEED
    refused(table.state, {"type": "finish_phase"}, p("p1"), rule="SE19")


def test_a_set_number_of_rounds_ends_the_game_after_the_last_se19() -> None:
    table = Table(["venice", "genoa"], {"house_rules": {"rounds": 1}}).started()
    table.bids(p1=1, p2=0).picks()
    for _ in range(5):
        table.finish(*table.state["turn_order"])
    assert table.state["phase"] == "finished"


# ---- the contract ------------------------------------------------------------------------------


def test_the_created_event_commits_to_the_seed_and_hides_it() -> None:
    table = Table()
    created = table.log[0]
    assert created["seed"] == SEED and len(created["seed_hash"]) == 64
    assert SEED not in json.dumps(event_view_for(table.state, created, PUBLIC))
    assert SEED not in json.dumps(view_for(table.state, HOST))
    refused(table.state, {"type": "sail"}, HOST, InvalidAction)


def test_a_scripted_round_of_phases_1_and_2_with_4_players() -> None:
    """Play round 1's bidding and buying at a table of four, then replay it."""
    table = Table().started()
    for pid, home in (("p1", 4), ("p2", 6), ("p3", 10), ("p4", 2)):
        rest = 10 - home
        table.do({"type": "place_sailors", "home": home,
                  "galleys": {"1": rest // 2, "2": rest - rest // 2}}, p(pid))
    table.bids(p1=250, p2=250, p3=0, p4=600)
    order = table.state["pick_order"]
    assert order[0] == "p4" and order[-1] == "p3"
    for pid, position in zip(order, (1, 3, 2, 4), strict=True):
        table.do({"type": "pick_position", "position": position}, p(pid))
    turn = table.state["turn_order"]
    assert turn[0] == "p4" and turn[-1] == "p3" and table.state["step"] == 2
    moves = {"p1": "ragusa", "p2": "palermo", "p3": "napoli", "p4": "alexandrie"}
    goods = {"p1": "timber", "p2": "wine", "p3": "grain", "p4": "spices"}
    for pid in turn:
        table.do({"type": "move_galley", "galley": 2, "port": moves[pid]}, p(pid))
        table.do({"type": "buy", "port": moves[pid], "good": goods[pid], "count": 2}, p(pid))
        if pid == "p3":  # Naples and Palermo share the Tyrrhenian Sea
            table.do({"type": "offer_sale", "to": "p2", "good": "grain", "count": 1, "price": 150},
                     p("p3"))
            table.do({"type": "accept_sale", "offer_id": table.state["offers"][0]["id"]}, p("p2"))
        table.do({"type": "finish_phase"}, p(pid))
    assert table.state["step"] == 3
    ledger = {q: (table.state["players"][q]["ducats"], table.state["players"][q]["goods"])
              for q in table.state["seats"]}
    bid = {"p1": 250, "p2": 250, "p3": 0, "p4": 600}
    assert ledger["p2"] == (2000 - bid["p2"] - 200 - 150, {"wine": 2, "grain": 1})
    assert ledger["p3"] == (2000 - 200 + 150, {"grain": 1})
    assert ledger["p4"] == (2000 - 600 - 200, {"spices": 2})
    assert replay(table.log) == table.state
    assert verify(table.log, SEED).ok


def test_a_refused_action_leaves_the_replay_untouched() -> None:
    table = in_phase_2()
    refused(table.state, {"type": "bid", "ducats": 1}, p("p1"), rule="SE4")
    assert replay(table.log) == table.state


def test_the_host_can_undo_a_move_without_dice() -> None:
    table = in_phase_2()
    before = table.state["players"]["p1"]
    table.do({"type": "buy", "port": "venezia", "good": "cloth", "count": 1}, p("p1"))
    table.do({"type": "undo"}, HOST)
    assert table.state["players"]["p1"] == before
    assert replay(table.log) == table.state
