"""A ruleset in the page's language (GET …/ruleset?lang=en): a page shows one language, so it loads one.

Without `lang` a ruleset's texts are {"nl": …, "en": …}, as they always were; with it each text holds
that language alone, and the rest of the ruleset is the same.
"""

from __future__ import annotations

from typing import Any

import pytest
import requests

from shipmate.web.schemas import GAMES
from tests.api.client import TIMEOUT, Game

LANGUAGES = ("en", "nl")


def texts(value: Any, path: str = "") -> dict[str, dict[str, str]]:
    """Every text of a ruleset ({"nl", "en"} or one of them), by its path."""
    if isinstance(value, dict):
        if value and set(value) <= set(LANGUAGES) and all(isinstance(v, str) for v in value.values()):
            return {path: value}
        return {k: v for key, part in value.items() for k, v in texts(part, f"{path}.{key}").items()}
    if isinstance(value, list):
        return {k: v for i, part in enumerate(value) for k, v in texts(part, f"{path}[{i}]").items()}
    return {}


def without_texts(value: Any) -> Any:
    """A ruleset with its texts left out: what no language changes."""
    if isinstance(value, dict):
        if texts(value) == {"": value}:
            return None
        return {key: without_texts(part) for key, part in value.items()}
    if isinstance(value, list):
        return [without_texts(part) for part in value]
    return value


def check_languages(both: dict[str, Any], each: dict[str, dict[str, Any]]) -> None:
    every = texts(both)
    assert every and all(set(text) == set(LANGUAGES) for text in every.values())
    for language, alone in each.items():
        assert texts(alone) == {path: {language: text[language]} for path, text in every.items()}
        assert without_texts(alone) == without_texts(both)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_games_default_ruleset_comes_in_one_language_when_asked(live_server: str, game: str) -> None:
    url = f"{live_server}/api/rulesets/{game}"
    both = requests.get(url, timeout=TIMEOUT)
    each = {}
    for language in LANGUAGES:
        answer = requests.get(url, params={"lang": language}, timeout=TIMEOUT)
        assert answer.status_code == 200 and answer.headers["Cache-Control"] == "public, max-age=3600"
        assert len(answer.content) < len(both.content)
        each[language] = answer.json()
    check_languages(both.json(), each)


def test_a_games_ruleset_comes_in_one_language_with_its_own_house_rules(live_server: str) -> None:
    game = Game.create(live_server, house_rules={"sunk_crew": 2})
    both = game.http.get(f"{game.url}/ruleset", timeout=TIMEOUT).json()
    each = {language: game.http.get(f"{game.url}/ruleset", params={"lang": language}, timeout=TIMEOUT).json()
            for language in LANGUAGES}
    check_languages(both, each)
    assert each["nl"]["sunk_crew"] == 2 and each["nl"]["quests"][0]["title"].keys() == {"nl"}


@pytest.mark.parametrize("path", ["/api/rulesets/quest1607", "/api/games/{code}/ruleset"])
def test_a_ruleset_in_a_language_there_is_not_is_refused_in_the_players_language(
        live_server: str, path: str) -> None:
    code = Game.create(live_server).code
    url = f"{live_server}{path.format(code=code)}"
    for asked, message in (("en", "Must be one of: en, nl."), ("nl", "Moet een van deze zijn: en, nl.")):
        answer = requests.get(url, params={"lang": "fr"}, headers={"Accept-Language": asked}, timeout=TIMEOUT)
        assert answer.status_code == 400 and answer.json()["fields"] == {"lang": [message]}
