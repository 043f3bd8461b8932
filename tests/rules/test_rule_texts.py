"""Every rule a game cites has its text, in Dutch and English, in the game's rules.json, and the
ruleset serves them: what a rulebook page needs to show a refusal's rule and to find a rule by word."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

import shipmate
import shipmate.games
from shipmate.games import rulebook
from shipmate.rules import create, game_named, ruleset

SEED = "ab" * 32
GAMES = shipmate.games.__all__
PACKAGE = Path(shipmate.__file__).parent
PHONE_LOGIC = PACKAGE.parents[1] / "pwa" / "js" / "logic"
NUMBERED = r"(?:SE|VV|[STMUQECV])\d+"
RULE_ID = re.compile(rf"\b{NUMBERED}\b")
"""A rule ID inside a text or a comment: U3, SE12, VV7 (never an event, G1–G20)."""
WHOLE_ID = re.compile(rf"{NUMBERED}\Z")
CHAPTERS = {
    "quest1607": [("setup", "S"), ("turn", "T"), ("trade", "M"), ("upgrades", "U"),
                  ("quests", "QE"), ("combat", "C"), ("end", "V"), ("shipmate", "")],
    "serenissima": [("setup", "SE"), ("round", "SE"), ("phase1", "SE"), ("phase2", "SE"),
                    ("end", "SE"), ("shipmate", "")],
    "voyagers": [("game", "VV"), ("round", "VV"), ("end", "VV"), ("shipmate", "")],
}
"""Each game's chapters in its rulebook's order, with the letters of the IDs each one holds
("" for Shipmate's own rules, which have names instead of numbers)."""
HOUSE = {"nl": "Huisregel", "en": "House default"}


def served(game: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The rules as the ruleset of a new game serves them."""
    state, _ = create(game, "K7QX2M", options or {}, SEED)
    rules: dict[str, Any] = ruleset(state)["rules"]
    return rules


def prefix(rule_id: str) -> str:
    return rule_id.rstrip("0123456789")


def is_rule_violation(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
    return name == "RuleViolation"


def refusals(path: Path) -> set[str]:
    """The rule IDs spelled out as the first argument of RuleViolation(…) in a module."""
    return {
        node.args[0].value for node in ast.walk(ast.parse(path.read_text()))
        if is_rule_violation(node) and isinstance(node, ast.Call) and node.args
        and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
    }


def strings(value: Any) -> list[str]:
    """Every string inside a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def engine_cites(game: str) -> set[str]:
    """Every rule ID the engine of `game` names: its refusals (the core's too, and its end rule), the
    IDs its code passes on to be cited (UPGRADE_RULE, `_stage(…, "VV2")`, skip reasons), the IDs its
    comments and docstrings name, and those its ruleset data names (house default notes)."""
    cited = {game_named(game).end_rule}
    for path in sorted((PACKAGE / "rules").glob("*.py")):
        cited |= refusals(path)
    for path in sorted((PACKAGE / "games" / game).glob("*.py")):
        cited |= refusals(path)
        tree = ast.parse(path.read_text())
        cited |= {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                  and isinstance(node.value, str) and WHOLE_ID.match(node.value)}
        cited |= set(RULE_ID.findall(path.read_text()))
    data = json.loads((PACKAGE / "games" / game / "ruleset.json").read_text())
    cited |= {found for text in strings(data) for found in RULE_ID.findall(text)}
    return cited


def phone_cites() -> dict[str, set[str]]:
    """Every rule ID the phone's rule checks (pwa/js/logic) name, by game."""
    cited: dict[str, set[str]] = {game: set() for game in GAMES}
    for path in sorted(PHONE_LOGIC.glob("*.js")):
        source = path.read_text()
        own = next((g for g in GAMES if path.stem.startswith(g)), None)
        for rule in re.findall(r"\bno\('([^']+)'", source):
            if not WHOLE_ID.match(rule):  # a named rule (undo, adjust): the file's game, or every game
                for game in [own] if own else (GAMES if path.stem == "checks" else ["quest1607"]):
                    cited[game].add(rule)
        for rule in re.findall(rf"'({NUMBERED})'", source):
            cited[{"SE": "serenissima", "VV": "voyagers"}.get(rule[:2], "quest1607")].add(rule)
    return cited


def search(rules: dict[str, Any], word: str) -> list[str]:
    """The rulebook page's search: the rules whose title or text holds `word`, in either language."""
    word = word.casefold()
    return [rule_id for rule_id, rule in rules["rules"].items()
            if any(word in rule[part][lang].casefold()
                   for part in ("title", "text") for lang in ("nl", "en"))]


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_the_engine_cites_has_its_text(game: str) -> None:
    rules = served(game)["rules"]
    cited = engine_cites(game)
    assert {"undo", game_named(game).end_rule} <= cited  # the collection finds the core's rules too
    missing = sorted(cited - set(rules))
    assert not missing, f"{game} cites {missing}, which have no text in {game}/rules.json"
    for rule_id in cited:
        assert all(rules[rule_id]["text"][lang].strip() for lang in ("nl", "en")), rule_id


def test_the_collection_finds_what_each_engine_cites() -> None:
    """The IDs that reach a refusal by another way than RuleViolation("X", …) are found too."""
    assert {"U1", "U3", "U4", "M2", "U5", "adjust", "C7", "C8", "V1"} <= engine_cites("quest1607")
    assert {"SE14", "SE15", "SE19"} <= engine_cites("serenissima")
    assert {"VV2", "VV8", "VV9", "VV13", "VV15", "VV19"} <= engine_cites("voyagers")


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_the_phone_cites_has_its_text(game: str) -> None:
    cited = phone_cites()[game]
    assert cited, f"no rule found in {PHONE_LOGIC} for {game}"
    missing = sorted(cited - set(served(game)["rules"]))
    assert not missing, f"the phone cites {missing} for {game}, which have no text"


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_has_a_title_and_a_text_in_dutch_and_english(game: str) -> None:
    rules = served(game)
    assert all(rules["source"][lang].strip() for lang in ("nl", "en"))
    assert rules["rules"]
    for rule_id, rule in rules["rules"].items():
        for part in ("title", "text"):
            assert set(rule[part]) == {"nl", "en"}, (rule_id, part)
            for lang in ("nl", "en"):
                assert isinstance(rule[part][lang], str) and rule[part][lang].strip(), (rule_id, part, lang)
                assert "{" not in rule[part][lang] and "}" not in rule[part][lang], (rule_id, part, lang)
        assert rule["text"]["nl"] != rule["text"]["en"], rule_id


@pytest.mark.parametrize("game", GAMES)
def test_a_text_names_only_rules_that_exist(game: str) -> None:
    rules = served(game)
    texts = [(rule_id, rule[part][lang]) for rule_id, rule in rules["rules"].items()
             for part in ("title", "text") for lang in ("nl", "en")]
    texts += [("source", rules["source"][lang]) for lang in ("nl", "en")]
    for where, text in texts:
        unknown = [found for found in RULE_ID.findall(text) if found not in rules["rules"]]
        assert not unknown, f"{game} {where} names {unknown}, which no rule has"


@pytest.mark.parametrize("game", GAMES)
def test_the_chapters_follow_the_rulebook_and_hold_every_rule(game: str) -> None:
    rules = served(game)
    chapters = rules["chapters"]
    assert [c["id"] for c in chapters] == [c for c, _ in CHAPTERS[game]]
    letters = dict(CHAPTERS[game])
    in_order = [rule_id for chapter in chapters for rule_id in chapter["rules"]]
    assert sorted(in_order) == sorted(rules["rules"]), "every rule in exactly one chapter"
    assert len(in_order) == len(set(in_order))
    for chapter in chapters:
        assert all(chapter["title"][lang].strip() for lang in ("nl", "en"))
        for rule_id in chapter["rules"]:
            assert rules["rules"][rule_id]["chapter"] == chapter["id"]
            numbered = WHOLE_ID.match(rule_id) is not None
            assert numbered == bool(letters[chapter["id"]]), rule_id
            if numbered:
                assert prefix(rule_id) in (letters[chapter["id"]], *letters[chapter["id"]]), rule_id
    numbers: dict[str, list[int]] = {}
    for rule_id in in_order:
        if WHOLE_ID.match(rule_id):
            numbers.setdefault(prefix(rule_id), []).append(int(rule_id[len(prefix(rule_id)):]))
    for letter, found in numbers.items():
        assert sorted(found) == list(range(1, len(found) + 1)), f"{letter}: {found} has a gap"
        within = [n for chapter in chapters for n in
                  [int(r[len(letter):]) for r in chapter["rules"] if prefix(r) == letter]]
        assert within == found
    if game == "quest1607":  # one letter a chapter: the numbers ascend through the book
        assert all(found == sorted(found) for found in numbers.values())


def rules_md(game: str) -> list[tuple[str, str]]:
    """(chapter heading, rule ID) of every rule in a game's RULES.md, in order."""
    heading, found = "", []
    for line in (PACKAGE / "games" / game / "RULES.md").read_text().splitlines():
        if line.startswith("## "):
            heading = line[3:].strip()
        listed = re.match(r"- \*\*(\w+)\*\*", line)
        if listed:
            found.append((heading, listed.group(1)))
    return found


@pytest.mark.parametrize("game", ["serenissima", "voyagers"])
def test_the_rule_data_agrees_with_the_games_rules_md(game: str) -> None:
    rules = served(game)
    data = [(chapter["title"]["en"], rule_id)
            for chapter in rules["chapters"] for rule_id in chapter["rules"]]
    assert data == rules_md(game)


@pytest.mark.parametrize("game", GAMES)
def test_house_defaults_are_marked_in_both_languages(game: str) -> None:
    for rule_id, rule in served(game)["rules"].items():
        marks = {lang: HOUSE[lang] in rule["text"][lang] for lang in ("nl", "en")}
        assert marks["nl"] == marks["en"], rule_id
        if not WHOLE_ID.match(rule_id):  # Shipmate's own rules are all its own decisions
            assert marks["en"], rule_id


@pytest.mark.parametrize("game", GAMES)
def test_undo_names_the_games_end(game: str) -> None:
    undo = served(game)["rules"]["undo"]
    assert all(game_named(game).end_rule in undo["text"][lang] for lang in ("nl", "en"))


@pytest.mark.parametrize("game", GAMES)
def test_the_ruleset_of_a_game_carries_its_rules(game: str) -> None:
    state, _ = create(game, "K7QX2M", {}, SEED)
    data = ruleset(state)
    book = rulebook.load(f"shipmate.games.{game}")
    assert data["rules"] == book.served(data)
    assert set(data["rules"]) == {"source", "chapters", "rules", "guide"}
    json.dumps(data)  # plain JSON, as the API answers it


def test_a_rule_says_the_numbers_the_game_is_played_with() -> None:
    default = served("quest1607")["rules"]
    assert "at most 3 ships" in default["U2"]["text"]["en"]
    assert "hoogstens 3 schepen" in default["U2"]["text"]["nl"]
    assert "3 cotton + 1 wood" in default["U3"]["text"]["en"]
    house = served("quest1607", {"quests_per_level": 3, "house_rules": {"caps": {"ships": 2}}})["rules"]
    assert "at most 2 ships" in house["U2"]["text"]["en"]
    assert "this game plays 3" in house["S6"]["text"]["en"]
    sold = served("serenissima", {"house_rules": {"foreign_price": 350}})["rules"]
    assert "350 dukaten" in sold["SE15"]["text"]["nl"] and "350 ducats" in sold["SE15"]["text"]["en"]
    assert "2000 ducats" in sold["SE2"]["text"]["en"]
    gold = served("voyagers", {"house_rules": {"starting_gold": 4}})["rules"]
    assert "starts with 4 gold doubloons" in gold["VV20"]["text"]["en"]


def test_a_number_a_text_names_must_be_in_the_ruleset() -> None:
    assert rulebook.fill("Kanonnen tot {caps.cannons}", {"caps": {"cannons": 6}}) == "Kanonnen tot 6"
    with pytest.raises(KeyError):
        rulebook.fill("{caps.masts}", {"caps": {"cannons": 6}})
    with pytest.raises(TypeError):
        rulebook.fill("{caps}", {"caps": {"cannons": 6}})


def test_a_search_by_word_finds_the_rule_in_either_language() -> None:
    rules = served("quest1607")
    assert "U4" in search(rules, "kanon") and "U4" in search(rules, "Cannon")
    assert search(rules, "kanon") == search(rules, "KANON")
    assert "M2" in search(rules, "markt") and "M2" in search(rules, "market")
    assert "SE5" in search(served("serenissima"), "geheim")
    assert "VV12" in search(served("voyagers"), "face-down")
    assert search(rules, "zzzz") == []
