"""Each game's rulebook as data: `rules.json` beside its ruleset, served inside the ruleset as `rules`.

The file holds the chapters in the rulebook's order, each with its rules in order: an ID (the one
that code, tests and refusals cite), a short title and a text, each in Dutch and English. A text may
name a number of the ruleset as ``{path.in.the.ruleset}`` (``{caps.ships}``, ``{house_rules.rounds}``):
the numbers stay ruleset data, and the served text says the number this game is played with.

The served form is made for a rulebook page that shows the chapters in order and finds a rule by
its ID (a refusal's `rule`) or by a word in either language::

    {"source": {"nl", "en"},
     "chapters": [{"id": "upgrades", "title": {"nl", "en"}, "rules": ["U1", …, "U5"]}, …],
     "rules": {"U3": {"chapter": "upgrades", "title": {"nl", "en"}, "text": {"nl", "en"}}, …}}
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

LANGUAGES = ("nl", "en")
NUMBER = re.compile(r"\{([a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)*)\}")
"""A ruleset value named in a text: ``{caps.ships}`` is ``ruleset["caps"]["ships"]``."""


@dataclass(frozen=True, slots=True)
class Rulebook:
    """One game's rules, as its `rules.json` has them (texts with their ``{…}`` still in place)."""

    source: Mapping[str, str]
    chapters: tuple[Mapping[str, Any], ...]
    """Each chapter: ``{"id", "title", "rules": [rule ids in order]}``."""
    rules: Mapping[str, Mapping[str, Any]]
    """Each rule by ID: ``{"chapter", "title", "text"}``."""
    guide: tuple[Mapping[str, Any], ...] = ()
    """A first evening's steps: ``{"id", "part": "setup" | "turn", "rule", "title", "text"}``."""

    def served(self, ruleset: Mapping[str, Any]) -> dict[str, Any]:
        """Return the rules as the ruleset serves them, each ``{…}`` filled from `ruleset`."""
        return {
            "source": dict(self.source),
            "chapters": [{**chapter, "rules": list(chapter["rules"])} for chapter in self.chapters],
            "rules": {
                rule_id: {"chapter": rule["chapter"], "title": dict(rule["title"]),
                          "text": {lang: fill(rule["text"][lang], ruleset) for lang in LANGUAGES}}
                for rule_id, rule in self.rules.items()
            },
            "guide": [{**step, "text": {lang: fill(step["text"][lang], ruleset) for lang in LANGUAGES}}
                      for step in self.guide],
        }


def value_at(ruleset: Mapping[str, Any], path: str) -> str:
    """Return the number (or name) at a dotted path of the ruleset, as a text shows it."""
    value: Any = ruleset
    for key in path.split("."):
        value = value[key]
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TypeError(f"{{{path}}} is {value!r}, not a number or a name")
    return str(value)


def fill(text: str, ruleset: Mapping[str, Any]) -> str:
    """Return `text` with every ``{path}`` replaced by that value of `ruleset`."""
    return NUMBER.sub(lambda found: value_at(ruleset, found.group(1)), text)


def load(package: str) -> Rulebook:
    """Read the `rules.json` of a game's package (e.g. ``shipmate.games.quest1607``)."""
    data: dict[str, Any] = json.loads(files(package).joinpath("rules.json").read_text("utf-8"))
    chapters: list[Mapping[str, Any]] = []
    rules: dict[str, Mapping[str, Any]] = {}
    for chapter in data["chapters"]:
        for rule in chapter["rules"]:
            if rule["id"] in rules:
                raise ValueError(f"{package}: rule {rule['id']} appears twice")
            rules[rule["id"]] = {"chapter": chapter["id"], "title": rule["title"], "text": rule["text"]}
        chapters.append({"id": chapter["id"], "title": chapter["title"],
                         "rules": tuple(rule["id"] for rule in chapter["rules"])})
    guide = tuple(data.get("guide", ()))
    for step in guide:
        if step["rule"] not in rules:
            raise ValueError(f"{package}: guide step {step['id']} cites {step['rule']}, which is no rule")
    return Rulebook(source=data["source"], chapters=tuple(chapters), rules=rules, guide=guide)
