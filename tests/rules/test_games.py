"""What every registered game gives the server and the phones, whatever its rules."""

from __future__ import annotations

import pytest

import shipmate.games
from shipmate.rules import HOST, PUBLIC, create, ruleset, view_for

SEED = "ab" * 32
GAMES = shipmate.games.__all__  # the games the server plays (tests may register toy games)
HEADER = {"code", "game", "version", "phase", "host", "you", "players", "seed_hash", "seed"}


@pytest.mark.parametrize("game", GAMES)
def test_every_ruleset_names_its_seats_characters_in_both_languages(game: str) -> None:
    state, _ = create(game, "K7QX2M", {}, SEED)
    characters = ruleset(state)["characters"]
    assert len(characters) >= 2
    for character in characters:
        assert character["id"] and character["colour"].startswith("#")
        assert set(character["name"]) >= {"nl", "en"}


@pytest.mark.parametrize("game", GAMES)
def test_every_view_opens_with_the_common_header_and_hides_the_seed(game: str) -> None:
    state, _ = create(game, "K7QX2M", {}, SEED)
    for viewer in (PUBLIC, HOST):
        view = view_for(state, viewer)
        assert set(view) >= HEADER
        assert view["seed"] is None and SEED not in str(view)
