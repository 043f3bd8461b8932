"""One change as the sockets receive it: made once per viewer kind, shared by every socket of a game.

A published change (``{"version", "events", "state"}``) becomes one `Update`. Its JSON for each viewer
is made on first need and shared by every socket of that viewer; when the update of the version just
before is known, a socket at that version gets an RFC 6902 patch of its view instead of the whole
view (`room.patches`).
"""

from __future__ import annotations

from typing import Any, Protocol

import orjson

from ..codec import dumpb_kept
from ..rules import Event, State, Viewer, Views, event_view_for
from .patches import ViewPatches, ViewsOf


class Show(Protocol):
    """How a change is shown: the views of its state, and its events as each viewer may see them."""

    def views(self, state: State, before: ViewsOf | None) -> ViewsOf:
        """Return the views of `state`; `before`, the views of the version before, may be reused."""

    def events(self, state: State, events: list[Event], viewer: Viewer) -> list[Event]:
        """Return `events` as `viewer` may see them."""


class RulesShow:
    """The game's own views and event views (`rules.Views`, `rules.event_view_for`)."""

    def views(self, state: State, before: ViewsOf | None) -> ViewsOf:
        """Return the views of `state`, sharing what the change left alone with `before`."""
        return Views(state, before if isinstance(before, Views) else None)

    def events(self, state: State, events: list[Event], viewer: Viewer) -> list[Event]:
        """Return `events` as `viewer` may see them."""
        return [event_view_for(state, event, viewer) for event in events]


RULES_SHOW = RulesShow()


class Update:
    """One published change, shared by every socket of its game; its JSON made once per viewer.

    `before` is the update of the version just before, when known: its views are shared with this
    one's where the change left them alone, and a patch socket at that version gets a patch. Only
    one step back is kept, so no chain of versions builds up. Two threads that ask for the same JSON
    at once may both make it; both get the same text.
    """

    def __init__(self, message: dict[str, Any], show: Show = RULES_SHOW,
                 before: Update | None = None) -> None:
        self.version: int = message["version"]
        self.events: list[Event] = message["events"]
        self.state: State = message["state"]
        self.first = self.events[0]["version"] if self.events else self.version
        self._show = show
        follows = before is not None and before.version == self.first - 1 and self.first == self.version
        self.before = before if follows else None
        if self.before is not None:  # it is kept for its views only: a socket behind makes its JSON again
            self.before.before = None
            self.before.forget_json()
        self.views: ViewsOf = show.views(self.state, self.before.views if self.before is not None else None)
        self._events: dict[tuple[Viewer, int], bytes] = {}
        self._states: dict[Viewer, bytes] = {}
        self._messages: dict[tuple[Viewer, int], str] = {}
        self._view_patches: ViewPatches | None = None
        self._patches: dict[Viewer, str] = {}
        self._patch_messages: dict[tuple[bytes, bytes], str] = {}

    def forget_json(self) -> None:
        """Let go of the JSON made so far (a newer change took this one's place)."""
        self._events, self._states, self._messages, self._patches = {}, {}, {}, {}
        self._patch_messages = {}
        self._view_patches = None

    def _events_json(self, viewer: Viewer, since: int) -> bytes:
        key = (viewer, since)
        made = self._events.get(key)
        if made is None:
            events = [event for event in self.events if event["version"] > since]
            made = self._events[key] = dumpb_kept(self._show.events(self.state, events, viewer))
        return made

    def _state_json(self, viewer: Viewer) -> bytes:
        made = self._states.get(viewer)
        if made is None:
            made = self._states[viewer] = dumpb_kept(self.views.of(viewer))
        return made

    def message_for(self, viewer: Viewer, since: int) -> str:
        """Return the ``{"type": "update"}`` message for `viewer`, with the events after `since`."""
        key = (viewer, max(since, self.first - 1))
        made = self._messages.get(key)
        if made is None:
            made = self._messages[key] = b"".join((
                b'{"type":"update","version":', str(self.version).encode(), b',"events":',
                self._events_json(*key), b',"state":', self._state_json(viewer), b"}")).decode()
        return made

    def body_for(self, viewer: Viewer, with_state: bool = True) -> dict[str, Any]:
        """Return this change's ``{"version", "events", "state"}`` for `viewer`, made of the very JSON
        its update carries: an action's answer over a socket costs no view again. Without the state
        (`with_state` False) for a socket that gets the state in the patch the whole table gets."""
        body: dict[str, Any] = {"version": self.version,
                                "events": orjson.Fragment(self._events_json(viewer, self.first - 1))}
        if with_state:
            body["state"] = orjson.Fragment(self._state_json(viewer))
        return body

    def patch_for(self, viewer: Viewer, since: int) -> str | None:
        """Return the ``{"type": "patch"}`` message for a socket of `viewer` at version `since`, or None
        when this update is not the one change after `since`, or its version before is not known here."""
        before = self.before
        if before is None or since != before.version:
            return None
        made = self._patches.get(viewer)
        if made is None:
            if self._view_patches is None:
                self._view_patches = ViewPatches(before.views, self.views)
            # Viewers who see the same events and the same patch (those whose own places the change
            # left alone) share one message.
            said = (self._events_json(viewer, since), self._view_patches.json_of(viewer))
            made = self._patch_messages.get(said)
            if made is None:
                made = self._patch_messages[said] = b"".join((
                    b'{"type":"patch","version":', str(self.version).encode(), b',"base":',
                    str(since).encode(), b',"events":', said[0], b',"patch":', said[1], b"}")).decode()
            self._patches[viewer] = made
        return made
