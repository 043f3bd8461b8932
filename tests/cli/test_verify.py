"""`shipmate verify` and `shipmate export`: an honest finished game passes, a tampered one fails."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

import shipmate.games  # noqa: F401 - registers quest1607
from shipmate import cli
from shipmate.codec import dumps
from shipmate.room import Room
from shipmate.rules import HOST, Viewer, create
from shipmate.rules.dice import dice_in
from shipmate.store import GameStore, hash_token
from shipmate.store.keys import state as state_key
from tests.api.client import Game
from tests.api.test_whole_game import play_to_the_winner

from .conftest import StartServe, servers_in

SEED = "c4" * 32
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def finished_game(store: GameStore, code: str) -> None:
    """Store a Quest 1607 game played through the engine: two players, some rolled turns, a win.

    Completing every Gold quest takes a whole evening; the fixture marks the winner's quests done
    (as the rules tests do) and lets the engine take it from there to GameWon (V1).
    """
    state, event = create("quest1607", code, {}, SEED)
    store.create(code, state, event, hash_token("host"))
    for name, character in [("Anna", "netherlands"), ("Bram", "england")]:
        Room(code, store).act({"type": "join", "name": name, "character": character}, Viewer())
    Room(code, store).act({"type": "start"}, HOST)
    for _ in range(4):
        state = store.load(code)
        assert state is not None
        player = Viewer(player=state["turn"]["player"])
        Room(code, store).act({"type": "roll"}, player)
        Room(code, store).act({"type": "end_turn"}, player)
    state = store.load(code)
    assert state is not None
    winner = state["turn"]["player"]
    players = {**state["players"], winner: {**state["players"][winner], "level": "done"}}
    store.client.set(state_key(code), dumps({**state, "players": players}))
    Room(code, store).act({"type": "roll"}, Viewer(player=winner))
    Room(code, store).act({"type": "reach_edge", "ship": 1}, Viewer(player=winner))


@pytest.fixture
def code() -> str:
    """A fresh game code, so that the tests can run again on a Redis that keeps its data."""
    return "".join(secrets.choice(ALPHABET) for _ in range(6))


@pytest.fixture
def store(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[GameStore]:
    """A game store on the test Redis, which the command finds through REDIS_URL."""
    monkeypatch.setenv("REDIS_URL", redis_url)
    with redis.Redis.from_url(redis_url) as client:
        yield GameStore(client)


def exported(tmp_path: Path, code: str) -> dict[str, Any]:
    """Export a game with the command and return the record it wrote."""
    out = tmp_path / f"{code}.json"
    assert cli.main(["export", code, "-o", str(out)]) == 0
    record: dict[str, Any] = json.loads(out.read_text())
    return record


def verify_record(tmp_path: Path, record: dict[str, Any]) -> int:
    """Write a record to a file and return `shipmate verify FILE`'s exit status."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    return cli.main(["verify", str(path)])


def test_an_honest_finished_game_passes(
    code: str, store: GameStore, capsys: pytest.CaptureFixture[str]
) -> None:
    finished_game(store, code)
    rolled = sum(1 for event in store.events_since(code, -1) for _ in dice_in(event))
    assert rolled >= 10
    assert cli.main(["verify", code.lower()]) == 0
    assert f"{code}: OK, {rolled} dice checked" in capsys.readouterr().out


def test_the_export_is_public_and_verifies(code: str, store: GameStore, tmp_path: Path) -> None:
    finished_game(store, code)
    record = exported(tmp_path, code)
    assert record["seed"] == SEED
    assert record["events"][0]["type"] == "GameCreated"
    assert "seed" not in record["events"][0], "the public stream holds only the commitment"
    assert verify_record(tmp_path, record) == 0


def test_a_changed_die_fails(
    code: str, store: GameStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    finished_game(store, code)
    record = exported(tmp_path, code)
    rolled = next(e for e in record["events"] if e["type"] == "DiceRolled")
    move = rolled["dice"]["move"]
    move["value"] = move["value"] % 6 + 1
    capsys.readouterr()
    assert verify_record(tmp_path, record) == 1
    assert f"die {move['index']} shows {move['value']}" in capsys.readouterr().out


def test_another_seed_fails(
    code: str, store: GameStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    finished_game(store, code)
    record = {**exported(tmp_path, code), "seed": "d5" * 32}
    capsys.readouterr()
    assert verify_record(tmp_path, record) == 1
    assert "does not match the commitment" in capsys.readouterr().out


def test_a_game_still_playing_cannot_be_checked(
    code: str, store: GameStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state, event = create("quest1607", code, {}, SEED)
    store.create(code, state, event, hash_token("host"))
    assert cli.main(["verify", code]) == cli.NOT_FINISHED == 4
    assert "seed stays secret" in capsys.readouterr().err
    assert cli.main(["export", code]) == cli.NOT_FINISHED
    assert verify_record(tmp_path, {"seed": None, "events": [event]}) == cli.NOT_FINISHED


def test_an_unknown_game_or_a_bad_code_is_not_found(
    store: GameStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["verify", "NNKNWN"]) == cli.NOT_FOUND == 3
    assert "no game NNKNWN" in capsys.readouterr().err
    assert cli.main(["verify", "K7QX"]) == cli.NOT_FOUND
    assert "neither a game code" in capsys.readouterr().err
    assert cli.main(["export", "NNKNWN"]) == cli.NOT_FOUND
    (tmp_path / "notes.json").write_text('{"hello": 1}')
    assert cli.main(["verify", str(tmp_path / "notes.json")]) == cli.NOT_FOUND
    assert "not a game record" in capsys.readouterr().err


def test_the_exit_codes_are_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["verify", "--help"])
    shown = capsys.readouterr().out
    assert "3  no such game" in shown and "4  the game is not finished" in shown


def test_verify_shares_the_redis_of_a_running_server(
    start_serve: StartServe, data_dir: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    server = start_serve()
    code = requests.post(f"{server.url}/api/games", json={"game": "quest1607"}, timeout=5).json()["code"]
    assert cli.main(["verify", code, "--data-dir", str(data_dir)]) == cli.NOT_FINISHED
    assert "seed stays secret" in capsys.readouterr().err
    assert server.healthy()


def test_verify_without_a_server_starts_and_stops_its_own_redis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    data_dir = tmp_path / "data"
    assert cli.main(["verify", "NNKNWN", "--data-dir", str(data_dir)]) == cli.NOT_FOUND
    assert (data_dir / "redis" / "redis.log").exists()
    assert servers_in(data_dir) == []


def test_the_link_the_end_screen_shows_verifies_on_any_computer(
    start_serve: StartServe, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A server on its own --data-dir: its game's link is all `verify` and `export` need, no
    --data-dir nor REDIS_URL, for they read the public record from the server itself."""
    monkeypatch.delenv("REDIS_URL", raising=False)
    server = start_serve()
    game = Game.create(server.url, quests_per_level=1)
    hero = game.join("Anna", "netherlands")
    game.join("Bram", "england")
    game.ok(game.host, {"type": "start"})
    playing = Game.create(server.url)
    play_to_the_winner(game, hero)
    elsewhere = ["--data-dir", str(tmp_path / "another")]  # a folder that holds no game
    capsys.readouterr()
    assert cli.main(["verify", f"{server.url}/join/{game.code}", *elsewhere]) == cli.OK
    rolled = capsys.readouterr().out
    assert f"{server.url}/join/{game.code}: OK, " in rolled and "dice checked" in rolled
    assert cli.main(["verify", f"{server.url}/screen/{game.code.lower()}/"]) == cli.OK
    out = tmp_path / "game.json"
    assert cli.main(["export", f"{server.url}/join/{game.code}", "-o", str(out)]) == cli.OK
    record = json.loads(out.read_text())
    assert record["events"][0]["type"] == "GameCreated" and len(record["seed"]) == 64
    assert verify_record(tmp_path, record) == cli.OK
    tampered = next(e for e in record["events"] if e["type"] == "DiceRolled")
    tampered["dice"]["move"]["value"] = tampered["dice"]["move"]["value"] % 6 + 1
    assert verify_record(tmp_path, record) == cli.FAILED
    capsys.readouterr()
    assert cli.main(["verify", f"{server.url}/join/{playing.code}"]) == cli.NOT_FINISHED
    assert "seed stays secret" in capsys.readouterr().err
    assert cli.main(["verify", f"{server.url}/join/NNKNWN"]) == cli.NOT_FOUND
    assert f"no game NNKNWN at {server.url}" in capsys.readouterr().err
    assert cli.main(["verify", f"{server.url}/join/"]) == cli.NOT_FOUND
    assert "names no game" in capsys.readouterr().err
    server.stop()
    assert cli.main(["verify", f"{server.url}/join/{game.code}"]) == cli.UNAVAILABLE
    assert "Cannot verify:" in capsys.readouterr().err
