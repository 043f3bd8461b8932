"""An action under an Idempotency-Key makes the round trips to Redis of the same action without one.

A real server on a Redis of its own, whose every command is read off MONITOR: a command a Lua
script runs is no round trip (MONITOR names its client "lua"), each of the others is one. The
server's timers (presence, the subscription's idle check) are set beyond the test's length, so
every command between two markers is the action's. Measured over HTTP and over the socket, for a
change and for a refusal of the rules.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from shipmate.embedded import EmbeddedRedis
from tests.api.client import Game, Socket
from tests.fixtures_server import TEST_LIMITS, ServerProcess

QUIET = {"PRESENCE_REFRESH": "3600", "SUBSCRIPTION_IDLE_CHECK": "3600", "WS_PING_INTERVAL": "3600",
         "WS_KEEPALIVE": "3600"}
"""No timer of the server speaks to Redis while the test runs."""

ADJUST = {"type": "adjust", "player": "p1", "resources": {"wood": 1}, "reason": "round trips"}
"""A change the host may always make."""
OUT_OF_TURN = {"type": "roll"}
"""p2's roll while p1 is to play: refused by the rules (T5), every time."""


class Commands:
    """The commands Redis receives, read off one MONITOR connection between two markers."""

    def __init__(self, url: str) -> None:
        self._client = redis.Redis.from_url(url)
        self._watch = redis.Redis.from_url(url)
        self._monitor = self._watch.monitor()
        self._monitor.__enter__()

    def during(self, work: Callable[[], None]) -> Counter[str]:
        """Return the round trips (command names) Redis received while `work` ran."""
        marker = uuid.uuid4().hex
        self._client.echo(f"start-{marker}")
        self._until(f"start-{marker}")
        work()
        self._client.echo(f"end-{marker}")
        return Counter(name for name in self._until(f"end-{marker}") if name != "ECHO")

    def _until(self, marker: str) -> list[str]:
        seen: list[str] = []
        while True:
            command = self._monitor.next_command()
            if marker in command["command"]:
                return seen
            if command["client_type"] != "lua":
                seen.append(command["command"].split(" ", 1)[0].upper())

    def close(self) -> None:
        """Stop monitoring and close both connections."""
        self._monitor.__exit__(None, None, None)
        self._watch.close()
        self._client.close()


@pytest.fixture(scope="module")
def quiet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Commands]]:
    """A server on a Redis of its own (its base URL), and that Redis's commands."""
    folder: Path = tmp_path_factory.mktemp("round-trips")
    with EmbeddedRedis(folder / "redis") as server:
        process = ServerProcess(server.url, folder, {**TEST_LIMITS, **QUIET})
        commands: Commands | None = None
        try:
            base = process.start()
            commands = Commands(server.url)
            yield base, commands
        finally:
            if commands is not None:
                commands.close()
            process.stop()


def each_way(act: Callable[[str | None], tuple[int, Any]]) -> tuple[int, Any]:
    """Run `act` without a key and under a fresh key until each path has run once (scripts loaded,
    a host's role remembered); return the last answer."""
    act(None)
    return act(str(uuid.uuid4()))


def compare(commands: Commands, act: Callable[[str | None], tuple[int, Any]], status: int) -> None:
    """Check an action under a key makes no more round trips than without one, with `status`."""
    answers: list[tuple[int, Any]] = []
    assert each_way(act)[0] == status
    bare = commands.during(lambda: answers.append(act(None)))
    keyed = commands.during(lambda: answers.append(act(str(uuid.uuid4()))))
    assert [answer[0] for answer in answers] == [status, status]
    print(f"\n{status}: without a key {dict(bare)}, under a key {dict(keyed)}")
    assert bare, "no command was seen: the measure saw nothing"
    assert keyed.total() <= bare.total(), (bare, keyed)


def test_over_http(quiet: tuple[str, Commands]) -> None:
    base, commands = quiet
    game = Game.create(base)
    game.seat(2)

    def host_adjusts(key: str | None) -> tuple[int, Any]:
        response = game.act(game.host, ADJUST, key=key)
        return response.status_code, response.json()

    def p2_rolls(key: str | None) -> tuple[int, Any]:
        response = game.act(game.players["p2"], OUT_OF_TURN, key=key)
        return response.status_code, response.json()

    compare(commands, host_adjusts, 200)
    compare(commands, p2_rolls, 422)


def test_over_the_socket(quiet: tuple[str, Commands]) -> None:
    base, commands = quiet
    game = Game.create(base)
    game.seat(2)
    host, p2 = game.socket(game.host), game.socket(game.players["p2"])
    try:
        for sock in (host, p2):
            sock.until("snapshot")
        sent = iter(range(1, 1000))

        def over(sock: Socket, action: dict[str, Any]) -> Callable[[str | None], tuple[int, Any]]:
            def act(key: str | None) -> tuple[int, Any]:
                message_id = next(sent)
                sock.send({"type": "action", "id": message_id, "action": action, "idempotency_key": key})
                result = sock.until("result", id=message_id)
                return result["status"], result

            return act

        compare(commands, over(host, ADJUST), 200)
        compare(commands, over(p2, OUT_OF_TURN), 422)
    finally:
        host.close()
        p2.close()
