"""The end is final over a real server: each game played to its end refuses every action after it.

The seed is revealed at the end, so any further die would be known in advance: the host's adjust
and undo, and any player's move, answer 422 citing the game's end rule, and the version stays.
"""

from __future__ import annotations

from typing import Any

from tests.api.client import Game, unchanged
from tests.api.test_serenissima import pick_all
from tests.api.test_voyagers import year_of_one_card
from tests.api.test_whole_game import play_to_the_winner

SCORE = {"type": "score", "tips": 0, "ships": 0, "nobles": 0, "ship_count": 0, "fastest_fleet": False,
         "gold": 0, "smuggled": 0, "resources": 0, "lowest_ship_card": None}


def refused_after_the_end(game: Game, token: str, action: dict[str, Any], rule: str) -> None:
    """Post an action to a finished game: 422 citing `rule` and why, in both languages; nothing changes."""
    version = game.state()["version"]
    for language, why in (("en", "seed"), ("nl", "zaad")):
        with unchanged(game):
            response = game.act(token, action, language=language)
        assert response.status_code == 422, (action, response.text)
        body = response.json()
        assert (body["error"], body["rule"]) == ("rule_violation", rule), body
        assert why in body["message"], body
    assert game.state()["version"] == version


def test_quest1607_refuses_adjust_undo_and_moves_after_the_winner_v1(live_server: str) -> None:
    game = Game.create(live_server, quests_per_level=1)
    hero, _rival = game.seat(2)
    play_to_the_winner(game, hero)
    assert game.state()["phase"] == "finished"
    assert game.state(game.host)["can_undo"] is False
    for token, action in [
        (game.host, {"type": "undo"}),
        (game.host, {"type": "adjust", "player": hero, "resources": {"wood": 1}, "reason": "late"}),
        (game.players[hero], {"type": "end_turn"}),
    ]:
        refused_after_the_end(game, token, action, "V1")


def test_serenissima_refuses_undo_and_moves_after_its_last_round_se19(live_server: str) -> None:
    game = Game.create(live_server, "serenissima", house_rules={"rounds": 1})
    game.join("Doge 1", "venice")
    game.join("Doge 2", "genoa")
    game.ok(game.host, {"type": "start"})
    game.ok(game.players["p1"], {"type": "bid", "ducats": 100})
    game.ok(game.players["p2"], {"type": "bid", "ducats": 50})
    order = pick_all(game)
    while game.state()["phase"] != "finished":  # phases 2 to 6 of the one round
        for pid in order:
            game.ok(game.players[pid], {"type": "finish_phase"})
    for token, action in [
        (game.host, {"type": "undo"}),
        (game.host, {"type": "end_game"}),
        (game.players["p1"], {"type": "finish_phase"}),
    ]:
        refused_after_the_end(game, token, action, "SE19")


def test_voyagers_refuses_corrections_undo_and_moves_after_the_ranking_vv19(live_server: str) -> None:
    game = Game.create(live_server, "voyagers")
    for number, colour in enumerate(["red", "blue", "green"], start=1):
        game.join(f"Captain {number}", colour)
    game.ok(game.host, {"type": "start"})
    for year in range(1, 7):
        year_of_one_card(game, f"y{year}")
        if year < 6:
            game.ok(game.host, {"type": "turn_order", "order": ["p1", "p2", "p3"]})
    game.ok(game.host, {"type": "close_purchases"})
    for tips, pid in enumerate(["p1", "p2", "p3"]):
        game.ok(game.host, {**SCORE, "player": pid, "tips": tips})
    assert game.state()["phase"] == "finished"
    for token, action in [
        (game.host, {"type": "undo"}),
        (game.host, {"type": "set_gold", "player": "p1", "gold": 5}),
        (game.players["p1"], {"type": "play_cards", "cards": ["y1"]}),
        (game.players["p3"], {**SCORE, "player": "p3", "tips": 9}),
    ]:
        refused_after_the_end(game, token, action, "VV19")
