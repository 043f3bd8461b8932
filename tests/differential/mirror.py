"""The phone's rule checks in a Node process (mirror.mjs), and the engine's answer to the same cases.

Both answers take the same shape, an outcome: "applied", a rule ID ("U3"), "forbidden" or "conflict".
"""

from __future__ import annotations

import json
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shipmate.rules import (
    Event,
    Forbidden,
    InvalidAction,
    LobbyConflict,
    RuleViolation,
    State,
    Viewer,
    decide,
    view_for,
)

HARNESS = Path(__file__).with_name("mirror.mjs")


def engine_outcome(state: State, action: dict[str, Any], actor: Viewer) -> tuple[str, list[Event]]:
    """What the server says to `action` by `actor`: its outcome, and its events when applied."""
    try:
        return "applied", decide(state, action, actor)
    except RuleViolation as refusal:
        return refusal.rule, []
    except Forbidden:
        return "forbidden", []
    except LobbyConflict:
        return "conflict", []
    except InvalidAction as refusal:
        return f"invalid: {refusal.message['en']}", []


def mirror_outcome(answer: dict[str, Any]) -> str:
    if "error" in answer:
        return f"error: {answer['error']}"
    if answer["ok"]:
        return "applied"
    return str(answer["kind"] or answer["rule"])


@dataclass
class Batch:
    """Cases of one game to put to the mirror at once: each a view (by name), an actor and an action."""

    game: str
    ruleset: dict[str, Any]
    lines: list[str] = field(default_factory=list)
    cases: list[tuple[State, Viewer, dict[str, Any], str]] = field(default_factory=list)
    _views: dict[tuple[int, Viewer], str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.lines.append(json.dumps({"define": "ruleset", "value": self.ruleset}))

    def add(self, state: State, actor: Viewer, action: dict[str, Any]) -> None:
        key = (id(state), actor)
        name = self._views.get(key)
        if name is None:
            name = self._views[key] = f"v{len(self._views)}"
            self.lines.append(json.dumps({"define": name, "value": view_for(state, actor)}))
        self.lines.append(json.dumps({"game": self.game, "view": name, "ruleset": "ruleset",
                                      "me": actor.player, "dice": actor.dice, "action": action}))
        self.cases.append((state, actor, action, name))


class Mirror:
    """One Node process running mirror.mjs, asked batch after batch."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            ["node", str(HARNESS)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            bufsize=1 << 20, cwd=HARNESS.parent,
        )

    def ask(self, batch: Batch) -> Iterator[dict[str, Any]]:
        """Return the mirror's answers to the batch's cases, in order."""
        assert self.process.stdin and self.process.stdout
        if not batch.cases:
            return iter(())
        lines = list(batch.lines)
        last = json.loads(lines[-1])
        lines[-1] = json.dumps({**last, "flush": True})
        stdin = self.process.stdin

        def write() -> None:  # the answers flow back while the cases still go in
            stdin.write("\n".join(lines) + "\n")
            stdin.flush()

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        answers = [json.loads(self.process.stdout.readline()) for _ in batch.cases]
        writer.join()
        return iter(answers)

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        self.process.wait(timeout=10)
        if self.process.stdout:
            self.process.stdout.close()
