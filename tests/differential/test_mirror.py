"""The phone never guesses what the server decides: its rule checks (pwa/js/logic) against the engine.

For games of all three kinds with varied house rules, states are reached by random play through the
real engine; in each, every player, the host (and Quest 1607's dice device) tries every kind of
action with generated, well-formed parameters. The engine's outcome (applied, refused by which rule,
forbidden, a lobby conflict) must be the phone's: its check runs on that player's state view with the
game's ruleset, as on the phone. Where an action is applied, the numbers the phone shows with it (a
price, a to-hit number, an exchange rate) must be the ones the server used.

The checks run in one Node process (mirror.mjs) for the whole module, thousands of cases a batch.
SHIPMATE_DIFFERENTIAL_EXAMPLES sets how many games of each kind are played (more for a deeper run).
"""

from __future__ import annotations

import os
import random
import re
from collections import Counter
from importlib import import_module
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shipmate.rules import HOST, Event, State, Viewer, apply, ruleset
from tests.differential.games import GAMES, Case, quest_event
from tests.differential.mirror import Batch, Mirror, engine_outcome, mirror_outcome
from tests.rules.quest_play import new_game, play_turn

EXAMPLES = int(os.environ.get("SHIPMATE_DIFFERENTIAL_EXAMPLES", "25"))
STEPS = {"quest1607": 90, "serenissima": 80, "voyagers": 140}
"""Moves of random play per game: each state on the way is compared."""

WEIGHTS = {
    "quest1607": {"end_turn": 0.3, "undo": 0.1, "adjust": 0.3, "fire": 3, "roll": 3, "upgrade": 2,
                  "complete_quest": 8, "quest_step": 4, "reach_edge": 20, "keep": 5, "fish": 5,
                  "accept_surrender": 2, "attack": 0.7, "buy_quest": 1.5, "join": 2, "start": 2},
    "serenissima": {"end_game": 0.02, "undo": 0.1, "bid": 2, "pick_position": 3, "join": 2, "start": 2},
    "voyagers": {"agree": 3, "name_bid": 3, "display": 2, "discard": 5, "turn_order": 3, "score": 4,
                 "close_purchases": 3, "set_gold": 0.2, "play_cards": 0.3, "undo": 0.1, "join": 2,
                 "start": 2},
}
"""How much random play likes each kind of applied move: enough progress to reach every stage."""

STATS: dict[str, Counter[str]] = {}


def _numbers_agree(game: str, state: State, action: dict[str, Any], events: list[Event],
                   numbers: dict[str, Any]) -> str | None:
    """Return how the phone's numbers differ from the server's for an applied action, or None."""
    kind = action["type"]
    first = events[0] if events else {}
    server: Any = None
    phone: Any = None
    if game == "quest1607" and kind == "fire":
        server, phone = first["needed"], numbers["needed"]
    elif game == "quest1607" and kind in ("upgrade", "buy_quest"):
        server, phone = first["paid"], numbers["cost"]
    elif game == "quest1607" and kind == "market":
        server, phone = first["give"][action["give"]], numbers["rate"]
    elif game == "quest1607" and kind == "keep":
        server, phone = state["combat"]["keep"], numbers["keep"]
    elif game == "quest1607" and kind == "fish":
        server, phone = sum(first["resources"].values()), numbers["fish"]
    elif game == "serenissima" and kind == "buy":
        server, phone = first["price"], numbers["price"]
    return None if server == phone else f"server {server!r}, phone {phone!r}"


def _readable(words: str) -> bool:
    """A refusal in words: every placeholder filled, no string key or missing value left."""
    text = words.split(" · ", 1)[-1]
    return bool(text) and not re.search(r"\{\w+\}|undefined|NaN|\bnull\b|^(se_|vv_)?r_\w+$", text)


def play(mirror: Mirror, game: str, rng: random.Random) -> list[str]:
    """Random play through the engine; every case of every state on the way is put to the engine and
    the mirror. Return each disagreement."""
    spec = GAMES[game]
    state = spec.start(rng, spec.options(rng))
    batch = Batch(game, ruleset(state))
    told: list[tuple[str, list[Event]]] = []
    stats = STATS.setdefault(game, Counter())
    for step in range(STEPS[game] + 1):
        stats["states"] += 1
        applied: list[Case] = []
        for actor, action in spec.cases(state, rng):
            batch.add(state, actor, action)
            told.append(engine_outcome(state, action, actor))
            if told[-1][0] == "applied":
                applied.append((actor, action))
        if step == STEPS[game] or not applied:
            break
        weights = [WEIGHTS[game].get(action["type"], 1.0) for _, action in applied]
        actor, action = rng.choices(applied, weights)[0]
        state, _ = apply(state, action, actor)
        if game == "quest1607" and state["phase"] == "playing":
            if rng.random() < 0.04:
                state = quest_event(state, rng)
            if rng.random() < 0.15:
                state = _supplies(state, rng)
    return _judge(mirror, batch, told)


def _judge(mirror: Mirror, batch: Batch, told: list[tuple[str, list[Event]]]) -> list[str]:
    """Put the batch to the mirror; return each disagreement with the engine's answers (`told`)."""
    game = batch.game
    stats = STATS.setdefault(game, Counter())
    stats["cases"] += len(batch.cases)
    problems = []
    for (state, actor, action, _), (server, events), answer in zip(batch.cases, told, mirror.ask(batch),
                                                                   strict=True):
        phone = mirror_outcome(answer)
        who = actor.player or ("host" if actor.host else "dice")
        where = f"{game} v{state['version']} {state['phase']} {who} {action}"
        if server.startswith("invalid"):
            problems.append(f"{where}: ill-formed case ({server})")
        elif server != phone:
            problems.append(f"{where}: server {server}, phone {phone}")
        elif "words" in answer and not _readable(answer["words"]):
            problems.append(f"{where}: the refusal reads {answer['words']!r}")
        elif server == "applied" and "numbers" in answer:
            differ = _numbers_agree(game, state, action, events, answer["numbers"])
            if differ:
                problems.append(f"{where}: numbers differ: {differ}")
        stats[f"outcome {server}"] += 1
        stats[f"kind {action['type']} {server}"] += 1
    return problems


def _supplies(state: State, rng: random.Random) -> State:
    """The host hands a player resources (adjust), so upgrades, quests and fights come within reach."""
    pid = rng.choice(state["order"])
    gift = {r["id"]: rng.randint(0, 4) for r in ruleset(state)["resources"][:5]}
    state, _ = apply(state, {"type": "adjust", "player": pid, "resources": gift, "reason": "supplies"}, HOST)
    return state


def _check(mirror: Mirror, game: str, seed: int) -> None:
    problems = play(mirror, game, random.Random(seed))
    assert not problems, f"{len(problems)} disagreements, the first:\n" + "\n".join(problems[:15])


def purposeful(mirror: Mirror, rng: random.Random) -> list[str]:
    """Quest 1607 played with purpose (tests/rules/quest_play.py: supplies, quests, fights given up)
    until a player has done every level and sails to the edge (V1): the states random play seldom
    reaches. Each turn's end and the next player's roll are compared."""
    options = GAMES["quest1607"].options(rng)
    state, _ = new_game(rng.randint(2, 4), {**options, "quests_per_level": 1}, f"{rng.getrandbits(256):064x}")
    batch = Batch("quest1607", ruleset(state))
    told: list[tuple[str, list[Event]]] = []
    stats = STATS.setdefault("quest1607", Counter())
    for _ in range(40):
        rolled, _ = apply(state, {"type": "roll"}, Viewer(player=state["turn"]["player"]))
        for seen in (state, rolled):
            stats["states"] += 1
            for actor, action in GAMES["quest1607"].cases(seen, rng):
                batch.add(seen, actor, action)
                told.append(engine_outcome(seen, action, actor))
        state, _ = play_turn(state)
        if state["phase"] == "finished":
            break
    return _judge(mirror, batch, told)


RUN = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@RUN
@given(seed=st.integers(0, 2**32 - 1))
def test_quest1607_phone_checks_agree_with_the_engine(mirror: Mirror, seed: int) -> None:
    _check(mirror, "quest1607", seed)


@RUN
@given(seed=st.integers(0, 2**32 - 1))
def test_serenissima_phone_checks_agree_with_the_engine(mirror: Mirror, seed: int) -> None:
    _check(mirror, "serenissima", seed)


@RUN
@given(seed=st.integers(0, 2**32 - 1))
def test_voyagers_phone_checks_agree_with_the_engine(mirror: Mirror, seed: int) -> None:
    _check(mirror, "voyagers", seed)


@settings(RUN, max_examples=max(EXAMPLES // 5, 2))
@given(seed=st.integers(0, 2**32 - 1))
def test_quest1607_purposeful_play_to_the_edge_agrees_with_the_engine(mirror: Mirror, seed: int) -> None:
    problems = purposeful(mirror, random.Random(seed))
    assert not problems, f"{len(problems)} disagreements, the first:\n" + "\n".join(problems[:15])


def test_every_action_kind_was_compared_both_applied_and_refused() -> None:
    """Each game's every action kind (as the engine knows them) came up in the runs above, applied and
    refused; this test runs after them (pytest -s prints the counts)."""
    if not STATS:
        pytest.skip("runs with the differential tests above")
    for game, stats in STATS.items():
        seen: dict[str, set[str]] = {}
        for key in stats:
            if key.startswith("kind "):
                _, kind, outcome = key.split(" ", 2)
                seen.setdefault(kind, set()).add(outcome)
        print(f"{game}: {stats['states']} states, {stats['cases']} cases;",
              {k: v for k, v in sorted(stats.items()) if k.startswith(("outcome", "gap"))})
        kinds = {*import_module(f"shipmate.games.{game}.decide").decides.table, "undo"}
        assert kinds <= set(seen), f"{game}: never tried {sorted(kinds - set(seen))}"
        assert not [k for k in kinds if "applied" not in seen[k]], f"{game}: never applied: " + str(
            sorted(k for k in kinds if "applied" not in seen[k]))
        assert not [k for k in kinds if seen[k] == {"applied"}], f"{game}: never refused: " + str(
            sorted(k for k in kinds if seen[k] == {"applied"}))
