"""A power cut under the table's server: every acknowledged action is on disk afterwards.

The embedded Redis runs with power_cut.c preloaded: what it writes to its append-only file stays
in its memory, as in a disk's cache, until it syncs the file. Killing it with SIGKILL is then a
power cut: the unsynced writes are gone. A new Redis on what is left on disk, and a new server on
that Redis, must still show every action whose answer a phone received.

With `appendfsync always` (what Shipmate runs) nothing acknowledged is lost. With `everysec` (what
Redis's own default configuration and many hosts run) the actions answered since the last sync,
up to a second's worth, are lost: the test asserts that too, so that it shows what the power cut
takes when the file is not synced before the answer.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
import requests

from shipmate.embedded import EmbeddedRedis
from tests.api.client import Game
from tests.fixtures_server import TEST_LIMITS, StartServer, wait_for

SHIM = Path(__file__).with_name("power_cut.c")
TURNS = 3
"""Turns (a roll and its end each) answered between the last sync and the cut."""
WITHIN = 0.5
"""Seconds after a sync by which the turns must be answered and the power cut: `everysec` syncs at
most once a second, so no sync falls between them."""


@pytest.fixture(scope="module")
def power_cut(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The power-cut library, compiled for this run."""
    if shutil.which("gcc") is None:
        pytest.fail("the power-cut test needs gcc to build power_cut.c")
    library = tmp_path_factory.mktemp("power_cut") / "power_cut.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-o", str(library), str(SHIM),
                    "-ldl", "-lpthread"], check=True)
    return library


def syncs(log: Path) -> list[float]:
    """Return when (time.monotonic) the Redis synced its append-only file, as power_cut.c noted it."""
    lines = log.read_text().splitlines() if log.exists() else []
    return [int(line.split()[0]) / 1e9 for line in lines]


def turn(game: Game) -> list[int]:
    """Play a turn: its captain rolls (dice every phone shows) and ends it; return the versions answered."""
    captain = game.players[game.state()["turn"]["player"]]
    return [int(game.ok(captain, {"type": kind})["version"]) for kind in ("roll", "end_turn")]


@pytest.mark.slow
@pytest.mark.parametrize("appendfsync", ["always", "everysec"])
def test_a_power_cut_keeps_every_acknowledged_action_only_when_each_is_synced(
    appendfsync: str, power_cut: Path, start_server: StartServer, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data, log = tmp_path / "redis", tmp_path / "syncs.log"
    cut = EmbeddedRedis(data, appendfsync=appendfsync)
    with monkeypatch.context() as env:  # the Redis alone runs with the library, not the servers
        env.setenv("LD_PRELOAD", str(power_cut))
        env.setenv("POWER_CUT_LOG", str(log))
        cut.start()
    try:
        game = Game.create(start_server(cut.url, **TEST_LIMITS))
        with game.http:
            game.seat(2)
            while True:
                # One turn, then the sync after it: with `everysec` the next sync is a second away.
                synced = len(syncs(log))
                turn(game)
                wait_for(lambda since=synced: len(syncs(log)) > since, "the Redis to sync its file")
                last_sync = syncs(log)[-1]
                acknowledged = [version for _ in range(TURNS) for version in turn(game)]
                if time.monotonic() - last_sync < WITHIN:
                    break  # no sync can have come between the turns and the cut
        assert cut.process is not None
        os.kill(cut.process.pid, signal.SIGKILL)
    finally:
        cut.stop()

    with EmbeddedRedis(data) as restarted:
        base = start_server(restarted.url, **TEST_LIMITS)
        after = requests.get(f"{base}/api/games/{game.code}", timeout=10)
        assert after.status_code == 200, after.text
        version = after.json()["version"]
    assert acknowledged == sorted(set(acknowledged)), acknowledged
    if appendfsync == "always":
        assert version == acknowledged[-1], f"acknowledged up to version {acknowledged[-1]}, kept {version}"
    else:
        assert version < acknowledged[-1], (
            f"everysec: acknowledged up to version {acknowledged[-1]} within {WITHIN} s of a sync, and "
            f"kept {version}: the power cut should have taken what was not synced")
