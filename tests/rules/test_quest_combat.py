"""Fights in Quest 1607 (C1–C8): attack, the hit table, damage, firing back, sinking, surrender."""

from __future__ import annotations

import pytest

from shipmate.rules import HOST, PUBLIC, InvalidAction, apply, view_for
from tests.rules.helpers import p, refused
from tests.rules.quest import (
    act,
    empty,
    events,
    game,
    give,
    lobby,
    next_dice,
    patch_ship,
    resources,
    rolled,
    ship,
    with_quest,
)

ATTACK = {"type": "attack", "ship": 1, "target": "p2", "target_ship": 1}
FIRE = {"type": "fire"}


def fighting(players: int = 2) -> dict:
    """Return a game where p1's ship 1 has just attacked p2's ship 1."""
    return act(rolled(game(players)), ATTACK, p("p1"))


def test_c1_a_ship_attacks_another_players_ship() -> None:
    started = events(rolled(game(2)), ATTACK, p("p1"))[0]
    assert started["type"] == "AttackStarted"
    assert started["defender"] == {"player": "p2", "ship": 1}
    state = fighting()
    assert state["combat"]["shooter"] == "p1" and state["combat"]["stage"] == "firing"
    with pytest.raises(InvalidAction):
        apply(rolled(game(2)), {**ATTACK, "target": "p1"}, p("p1"))
    with pytest.raises(InvalidAction):
        apply(rolled(game(2)), {**ATTACK, "target_ship": 2}, p("p1"))


def test_c1_no_new_fight_while_one_is_on() -> None:
    refused(fighting(3), {**ATTACK, "target": "p3"}, p("p1"), "C6")


def test_c2_safe_squares_are_the_tables_call_so_the_engine_takes_the_attack_as_claimed() -> None:
    """C2: positions are physical; the players only attack ships that are not in a safe square."""
    assert fighting()["combat"] is not None


def pass_turn(state: dict) -> dict:
    """Let the active player roll (if needed) and end the turn."""
    if not state["turn"]["rolled"]:
        state = rolled(state)
    return act(state, {"type": "end_turn"}, p(state["turn"]["player"]))


def test_c3_a_ship_just_attacked_is_not_attacked_again_in_the_next_round() -> None:
    state = act(act(fighting(), {"type": "surrender"}, p("p2")),
                {"type": "accept_surrender"}, p("p1"))
    refused(state, ATTACK, p("p1"), "C3")
    state = pass_turn(state)  # p2 skips its turn after the surrender (C8)
    assert (state["round"], state["turn"]["player"]) == (2, "p1")
    refused(rolled(state), ATTACK, p("p1"), "C3")
    state = pass_turn(pass_turn(state))
    assert (state["round"], state["turn"]["player"]) == (3, "p1")
    assert act(rolled(state), ATTACK, p("p1"))["combat"] is not None


def test_c4_a_shot_hits_on_the_hit_tables_number_for_cannons_against_crew() -> None:
    state = next_dice(fighting(), 5)  # K1 against B3 needs a 6
    shot = events(state, FIRE, p("p1"))[0]
    assert (shot["needed"], shot["hit"], shot["damage"]) == (6, False, None)
    strong = patch_ship(state, "p1", cannons=4)  # K4 against B3 needs a 3
    shot = events(strong, FIRE, p("p1"))[0]
    assert (shot["needed"], shot["hit"]) == (3, True)


def test_c4_the_hit_table_is_a_house_setting() -> None:
    state = act(lobby(2, {"house_rules": {"hit_table": {"1": {"3": 2}}}}), {"type": "start"}, HOST)
    state = act(rolled(state), ATTACK, p("p1"))
    assert events(state, FIRE, p("p1"))[0]["needed"] == 2


@pytest.mark.parametrize(("face", "crew", "sail_hits"), [(1, 3, 0), (2, 3, 1), (3, 2, 0),
                                                          (5, 2, 0), (6, 1, 0)])
def test_c5_damage_misses_hits_the_sails_or_costs_crew(face: int, crew: int,
                                                       sail_hits: int) -> None:
    state = patch_ship(next_dice(fighting(), 6, face), "p1", cannons=6)
    state = act(state, FIRE, p("p1"))
    assert (ship(state, "p2")["crew"], ship(state, "p2")["sail_hits"]) == (crew, sail_hits)


def test_c5_the_second_sails_hit_costs_one_sails() -> None:
    state = patch_ship(next_dice(fighting(), 6, 2), "p1", cannons=6)
    state = patch_ship(state, "p2", sail_hits=1)
    state = act(state, FIRE, p("p1"))
    assert (ship(state, "p2")["sails"], ship(state, "p2")["sail_hits"]) == (1, 0)


def test_c6_the_defender_fires_back_and_the_two_alternate() -> None:
    state = next_dice(fighting(), 1)
    refused(state, FIRE, p("p2"), "C6")
    state = act(state, FIRE, p("p1"))
    assert state["combat"]["shooter"] == "p2"
    refused(state, FIRE, p("p1"), "C6")
    refused(state, {"type": "end_turn"}, p("p1"), "C6")
    state = act(state, FIRE, p("p2"))
    assert state["combat"]["shooter"] == "p1" and len(state["combat"]["shots"]) == 2


def sinking_p2(**have: int) -> dict:
    """Return a fight where p1's next shot sinks p2's ship 1 (crew 1, a 3 for damage)."""
    state = empty(empty(fighting(), "p1"), "p2")
    state = give(state, "p2", **have) if have else state
    return patch_ship(patch_ship(next_dice(state, 6, 3), "p1", cannons=6), "p2", crew=1)


def test_c7_crew_0_sinks_the_ship_which_returns_with_crew_1_and_skips_a_turn() -> None:
    state = act(sinking_p2(wood=3, iron=2), FIRE, p("p1"))
    assert ship(state, "p2")["crew"] == 1 and state["players"]["p2"]["skip_turns"] == 1
    assert state["players"]["p2"]["skip_reason"] == {"rule": "C7", "by": "p1"}
    assert state["combat"]["stage"] == "salvage" and state["combat"]["keep"] == 2


def test_c7_the_sunk_player_keeps_half_and_the_winner_fishes_two() -> None:
    state = act(sinking_p2(wood=3, iron=2), FIRE, p("p1"))
    refused(state, {"type": "keep", "resources": {"wood": 3}}, p("p2"), "C7")
    refused(state, {"type": "keep", "resources": {"wood": 2}}, p("p1"), "C7")
    state = act(state, {"type": "keep", "resources": {"wood": 1, "iron": 1}}, p("p2"))
    assert state["combat"]["water"] == {"wood": 2, "iron": 1}
    refused(state, {"type": "fish", "resources": {"iron": 2}}, p("p1"), "C7")
    state = act(state, {"type": "fish", "resources": {"wood": 1, "iron": 1}}, p("p1"))
    assert resources(state, "p1") == {"wood": 1, "iron": 1}
    assert resources(state, "p2") == {"wood": 1, "iron": 1} and state["combat"] is None


def test_c7_and_q3_goods_go_down_with_the_ship_and_the_quest_must_be_redone() -> None:
    state = sinking_p2()
    state = with_quest(state, "p2", "bronze-3")
    state = patch_ship(state, "p2", goods=[{"quest": "qx", "step": 0, "good": "pepper"}])
    quests = state["players"]["p2"]["quests"]
    quests[-1] = {**quests[-1], "progress": [{"done": False, "ship": 1}]}
    state = act(state, FIRE, p("p1"))
    assert ship(state, "p2")["goods"] == []
    assert state["players"]["p2"]["quests"][-1]["progress"] == [{"done": False, "ship": None}]
    assert state["combat"] is None  # nothing to salvage from an empty hold


def test_c8_surrender_hands_over_every_resource_but_keeps_the_goods() -> None:
    state = give(empty(fighting(), "p2"), "p2", food=2, coal=1)
    state = patch_ship(state, "p2", goods=[{"quest": "qz", "step": 0, "good": "silk"}])
    refused(state, {"type": "accept_surrender"}, p("p1"), "C8")
    state = act(state, {"type": "surrender"}, p("p2"))
    assert state["combat"]["stage"] == "surrender_offered"
    refused(state, {"type": "accept_surrender"}, p("p2"), "C8")
    before = resources(state, "p1")
    state = act(state, {"type": "accept_surrender"}, p("p1"))
    assert resources(state, "p2") == {} and state["combat"] is None
    assert resources(state, "p1") == {r: before.get(r, 0) + n
                                      for r, n in {"food": 2, "coal": 1}.items()} | {
        r: n for r, n in before.items() if r not in ("food", "coal")}
    assert ship(state, "p2")["goods"] == [{"quest": "qz", "step": 0, "good": "silk"}]
    assert state["players"]["p2"]["skip_turns"] == 1
    assert state["players"]["p2"]["skip_reason"] == {"rule": "C8", "by": "p1"}


def test_c8_the_reason_to_skip_lasts_until_the_skipped_turn_has_passed() -> None:
    state = act(act(fighting(), {"type": "surrender"}, p("p2")), {"type": "accept_surrender"}, p("p1"))
    assert view_for(state, PUBLIC)["players"][1]["skip_reason"] == {"rule": "C8", "by": "p1"}
    state = pass_turn(state)  # p2's turn is the one skipped
    assert state["players"]["p2"]["skip_turns"] == 0 and state["players"]["p2"]["skip_reason"] is None


def test_c8_a_fight_won_by_surrender_counts_for_a_fight_quest() -> None:
    state = with_quest(fighting(), "p1", "bronze-5")
    state = act(act(state, {"type": "surrender"}, p("p2")), {"type": "accept_surrender"}, p("p1"))
    assert state["players"]["p1"]["quests"][-1]["progress"] == [{"done": True}]
