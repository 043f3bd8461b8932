"""The game-independent core: a registry of games, and decide → events → evolve → view.

State and events are plain JSON data (dicts). Every game keeps these keys in its state:
``game``, ``code``, ``version``, ``seed`` (hex, secret until the game ends) and ``counters``
(``{"dice": n, "draws": m}``: how many dice and card draws the seed has given so far); a game that
ends keeps ``phase``, which is ``"finished"`` once it has. A finished game is final: `decide`
refuses every action on it, the host's undo included, citing the game's `end_rule`. The core adds
``_undo``: what the most recent change altered and how to put it back (its ``restore`` patch), so
that the host can take one step back; never a whole copy of the state.

``evolve`` never mutates its input: it returns a new state that shares unchanged parts with the
old one. A change (one action) raises ``version`` by exactly one; all its events carry that version.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .dice import dice_in
from .errors import Forbidden, InvalidAction, RuleViolation, text
from .guide import decide_guide, evolve_guide

State = dict[str, Any]
Event = dict[str, Any]
Action = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who acts or looks: a player (by id), the host, the table's dice device, or nobody in particular.

    The dice device sees the public view and may only roll for whoever's turn it is (T1).
    """

    player: str | None = None
    host: bool = False
    dice: bool = False


PUBLIC = Viewer()
HOST = Viewer(host=True)
DICE = Viewer(dice=True)


SharedView = Callable[[State, "tuple[State, State] | None"], State]
"""Make the shared part of the views of a state; given (the state before, its shared part), reuse
what the change left alone: the same objects for the same data."""

PersonalView = Callable[[State, State, Viewer, "tuple[State, State] | None"], State]
"""Make one viewer's view of a state from its shared part (shared, state, viewer, before); given
(the state before, this viewer's view of it), reuse what the change left alone."""

Path = tuple[str | int, ...]
"""A place in a view: its keys and list indexes from the top."""

PersonalParts = Callable[[State, Viewer], "tuple[Path, ...]"]
"""Where a viewer's view differs from the shared part (state, viewer): the personal view is the
shared part with these places set to the viewer's own values, and is the same everywhere else."""


class Game(Protocol):
    """What a game package provides to the core."""

    name: str
    dice_device: bool
    """Whether a table device may be linked that rolls the dice for whoever's turn it is."""

    end_rule: str
    """The ID of the rule that ends the game (e.g. "V1"): every action after the end cites it."""

    def created(self, code: str, options: Mapping[str, Any], seed_hex: str) -> Event:
        """Return the game's first event, or raise InvalidAction for bad options."""

    def decide(self, state: State, action: Action, actor: Viewer) -> list[Event]:
        """Check the rules and return the events of the action, or raise a ShipmateError."""

    def evolve(self, state: State, event: Event) -> State:
        """Fold one event into a new state; never fails, never mutates `state`."""

    def view_for(self, state: State, viewer: Viewer) -> State:
        """Return the state as `viewer` may see it (docs/PROTOCOL.md's state view)."""

    shared_view: SharedView | None
    """The part of every viewer's view that they share, made once for them all (see `Views`)."""

    personal_view: PersonalView | None
    """One viewer's view made from the shared part (see `Views`)."""

    personal_parts: PersonalParts | None
    """Where `personal_view` departs from the shared part (see `Views.parts`)."""

    def event_view_for(self, event: Event, viewer: Viewer) -> Event:
        """Return the event as `viewer` may see it: private cards only for their owner."""

    def ruleset(self, state: State) -> dict[str, Any]:
        """Return the game's ruleset data with the game's house rules applied."""


_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Make a game available to the core under its name."""
    _GAMES[game.name] = game
    return game


def game_named(name: str) -> Game:
    """Return the registered game called `name`, or refuse."""
    try:
        return _GAMES[name]
    except KeyError:
        raise InvalidAction(
            text(f"Onbekend spel: {name!r}", f"Unknown game: {name!r}"), field="game"
        ) from None


def game_names() -> list[str]:
    """Return the names of every registered game."""
    return sorted(_GAMES)


def _game_of(state: State) -> Game:
    return _GAMES[state["game"]]


def create(game: str, code: str, options: Mapping[str, Any], seed_hex: str) -> tuple[State, Event]:
    """Start a new game: return its state at version 0 and its first event."""
    event = {**game_named(game).created(code, options, seed_hex), "version": 0}
    return fold({}, [event]), event


def decide(state: State, action: Action, actor: Viewer) -> list[Event]:
    """Return the events of `action` stamped with the next version, or raise a ShipmateError."""
    game = _game_of(state)
    if state.get("phase") == "finished" and action.get("type") != "join":  # a join: 409, the lobby's
        raise game_over(game)
    kind = action.get("type")
    if kind == "undo":
        events = _decide_undo(state, action, actor)
    elif kind == "guide":
        events = decide_guide(action, actor.host, game.ruleset(state)["rules"]["guide"])
    else:
        events = game.decide(state, action, actor)
    version = state["version"] + 1
    return [{**event, "version": version} for event in events]


def game_over(game: Game) -> RuleViolation:
    """Return the refusal of any action, by anyone, once the game has ended (its `end_rule`).

    The end reveals the seed that every die and draw derives from, so a game that went on would
    let everyone know its next dice in advance; an undo or a host's correction would change a
    record that anyone may now verify.
    """
    return RuleViolation(game.end_rule, text(
        "Het spel is afgelopen en het zaad van de dobbelstenen is onthuld: elke volgende worp zou "
        "vooraf bekend zijn. Niemand kan nog iets doen, ook de gastheer niet (terugdraaien, "
        "aanpassen).",
        "The game is over and its dice seed is revealed: any further die would be known in "
        "advance. Nobody can act any more, not even the host (undo, adjust)."))


def _decide_undo(state: State, action: Action, actor: Viewer) -> list[Event]:
    if not actor.host:
        raise Forbidden(
            text("Alleen de gastheer kan een actie terugdraaien.", "Only the host can undo."),
        )
    last = state.get("_undo")
    if not last:
        raise RuleViolation(
            "undo",
            text(
                "Er is niets om terug te draaien (één stap terug, en niet twee keer achter elkaar).",
                "There is nothing to undo (one step back, and not twice in a row).",
            ),
        )
    if last["rolled"]:
        raise RuleViolation(
            "undo",
            text(
                "Deze actie gooide een dobbelsteen of trok een kaart: een worp blijft staan.",
                "That action rolled a die or drew a card: a roll stays rolled.",
            ),
        )
    undone = {"type": "ActionUndone", "undone_version": last["version"], "restore": last["restore"]}
    reason = action.get("reason")
    reason = reason.strip() if isinstance(reason, str) else ""
    if len(reason) > UNDO_REASON_MAX:
        raise InvalidAction(text(f"Een reden is hoogstens {UNDO_REASON_MAX} tekens.",
                                 f"A reason is at most {UNDO_REASON_MAX} characters."), field="reason")
    return [{**undone, "reason": reason} if reason else undone]


UNDO_REASON_MAX = 200
"""The longest reason the host may give for an undo (told in the table's story)."""


GUIDE_EVENTS = frozenset({"GuideStepTicked", "GuideSkipped"})


def evolve(state: State, event: Event) -> State:
    """Fold one event into the state: the game's evolve, or the host's undo; and the version."""
    if event["type"] == "ActionUndone":
        restored = restore(state, event["restore"])
        restored["counters"] = state["counters"]  # a die once rolled stays rolled
    elif event["type"] in GUIDE_EVENTS:
        restored = evolve_guide(state, event)
    else:
        restored = _GAMES[state["game"] if state else event["game"]].evolve(state, event)
    restored["version"] = event["version"]
    return restored


def fold(state: State, events: list[Event]) -> State:
    """Fold the events of one change and note how to take the change back (``_undo``).

    An undo cannot itself be undone (one step back, not two), nor can a change that rolled a die
    or drew a card (a roll stays rolled): their ``_undo`` is None or says `rolled`.
    """
    before = state
    for event in events:
        state = evolve(state, event)
    if not before or events[0]["type"] == "ActionUndone":
        state["_undo"] = None
    elif any(True for event in events for _ in dice_in(event)) or any("draw" in e for e in events):
        state["_undo"] = {"version": state["version"], "rolled": True}
    else:
        state["_undo"] = {"version": state["version"], "rolled": False,
                          "restore": changes_back(state, before)}
    return state


UNDONE_KEYS = frozenset({"_undo", "version"})
"""Top-level keys a restore patch leaves alone: the undo slot and the version, set by `fold`."""


def changes_back(after: State, before: State) -> dict[str, list[Any]]:
    """Return the patch that turns `after` back into `before` (what one change altered).

    ``{"set": [[path, value], …], "drop": [path, …]}``, paths as lists of keys. States share the
    parts a change left alone (evolve copies only the path it changes), so the walk skips them by
    identity and costs what the change touched, not the size of the state.
    """
    patch: dict[str, list[Any]] = {"set": [], "drop": []}
    for key, old in before.items():
        if key in UNDONE_KEYS:
            continue
        if key in after:
            _walk(old, after[key], [key], patch)
        else:
            patch["set"].append([[key], old])
    patch["drop"] += [[key] for key in after if key not in before and key not in UNDONE_KEYS]
    return patch


def _walk(old: Any, new: Any, path: list[Any], patch: dict[str, list[Any]]) -> None:
    if old is new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in old.items():
            if key in new:
                _walk(value, new[key], [*path, key], patch)
            else:
                patch["set"].append([[*path, key], value])
        patch["drop"] += [[*path, key] for key in new if key not in old]
    elif old != new:
        patch["set"].append([path, old])


def restore(state: State, patch: Mapping[str, list[Any]]) -> State:
    """Return `state` with a `changes_back` patch applied, copying only the paths it touches."""
    new = dict(state)
    for path, value in patch["set"]:
        _at(new, path[:-1])[path[-1]] = value
    for path in patch["drop"]:
        _at(new, path[:-1]).pop(path[-1], None)
    return new


def _at(root: dict[str, Any], path: list[Any]) -> dict[str, Any]:
    """Return the dict at `path` under `root`, copying every dict on the way (`root` is a copy)."""
    node = root
    for key in path:
        node[key] = dict(node[key])
        node = node[key]
    return node


def apply(state: State, action: Action, actor: Viewer) -> tuple[State, list[Event]]:
    """Decide an action and fold its events: the new state and the events, or a ShipmateError."""
    events = decide(state, action, actor)
    return fold(state, events), events


def replay(events: Iterable[Event]) -> State:
    """Rebuild a game's state from its whole event stream."""
    state: State = {}
    change: list[Event] = []
    for event in events:
        if change and event["version"] != change[0]["version"]:
            state = fold(state, change)
            change = []
        change.append(event)
    return fold(state, change) if change else state


def view_for(state: State, viewer: Viewer) -> State:
    """Return the state view of docs/PROTOCOL.md for this viewer."""
    return _game_of(state).view_for(state, viewer)


class Views:
    """Every viewer's view of one state, each made once, and the part they all share made once too.

    A game whose views share a part (the public view, which a player's view adds its own cards to)
    provides `shared_view` and `personal_view`. Given the Views of the change before (`before`), the
    shared part reuses what the change left alone, so the same objects stand for the same data in
    the views of both versions: a patch between them is found by walking only what changed.
    """

    def __init__(self, state: State, before: Views | None = None) -> None:
        self.state = state
        self._game = _game_of(state)
        self._before = before
        if before is not None:
            before._before = None  # one step back is all it needs: no chain of versions is kept
        self._shared: State | None = None
        self._views: dict[Viewer, State] = {}

    def shared(self) -> State | None:
        """Return the shared part (None for a game without one), made once."""
        if self._shared is None and self._game.shared_view is not None:
            before = self._before
            known = None if before is None or before._shared is None else (before.state, before._shared)
            self._shared = self._game.shared_view(self.state, known)
        return self._shared

    def parts(self, viewer: Viewer) -> tuple[Path, ...] | None:
        """Return where `viewer`'s view departs from the shared part (None for a game without one).

        A patch between the views of two versions is then the shared part's patch, found once for
        every viewer, with these places patched apart (`room.patches.ViewPatches`).
        """
        if self._game.personal_parts is None or self.shared() is None:
            return None
        return self._game.personal_parts(self.state, viewer)

    def of(self, viewer: Viewer) -> State:
        """Return the view for `viewer`, made once."""
        view = self._views.get(viewer)
        if view is None:
            shared = self.shared()
            if shared is None or self._game.personal_view is None:
                view = self._game.view_for(self.state, viewer)
            else:
                before = self._before
                known = None if before is None else before._views.get(viewer)
                earlier = None if before is None or known is None else (before.state, known)
                view = self._game.personal_view(shared, self.state, viewer, earlier)
            self._views[viewer] = view
        return view


def event_view_for(state: State, event: Event, viewer: Viewer) -> Event:
    """Return an event as this viewer may see it (an undo's patch may hold private cards: never sent)."""
    if event["type"] == "ActionUndone":
        return {k: v for k, v in event.items() if k != "restore"}
    return _game_of(state).event_view_for(event, viewer)


def has_dice_device(state: State) -> bool:
    """Return whether the game's table may link a dice device (a token that only rolls)."""
    return _game_of(state).dice_device


def ruleset(state: State) -> dict[str, Any]:
    """Return the ruleset data the game is played with."""
    return _game_of(state).ruleset(state)
