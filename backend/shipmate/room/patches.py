"""RFC 6902 JSON Patches between two versions of a viewer's view, for sockets opened with updates=patch.

The views of consecutive versions share every object a change left alone (`rules.Views`), so the walk
skips those by identity and visits only what changed: a roll touches the turn and one player's
stock, and its patch says just that. The views of one version share a part too (every player's view
is the public view with a few places of its own): `ViewPatches` finds that part's patch once per
change and patches only each viewer's own places apart.
"""

from __future__ import annotations

import functools
from typing import Any, Protocol

from ..codec import dumpb_kept
from ..rules import State, Viewer
from ..rules.core import Path

Op = dict[str, Any]


def json_patch(old: Any, new: Any) -> list[Op]:
    """Return the operations that turn `old` into `new` (JSON documents of dicts, lists and scalars).

    Dicts are compared key by key, and one where more than half of the keys changed is replaced whole;
    a list that only grew gets its new items added at its end; any other changed list, or a value of
    another type, is replaced whole.
    """
    ops: list[Op] = []
    _diff(old, new, "", ops)
    return ops


class ViewsOf(Protocol):
    """Every viewer's view of one state (`rules.Views`)."""

    def of(self, viewer: Viewer) -> State:
        """Return `viewer`'s view."""

    def shared(self) -> State | None:
        """Return the part every viewer's view shares (None for a game without one)."""

    def parts(self, viewer: Viewer) -> tuple[Path, ...] | None:
        """Return where `viewer`'s view departs from the shared part (None without one)."""


class ViewPatches:
    """The patches of one change, viewer by viewer, between the views of two consecutive versions.

    Where the game's views share a part (`Views.parts`), the shared part's patch is found once; a
    viewer's patch is that patch, less what falls on the viewer's own places, plus those places
    patched apart. Where that cannot hold (the game has no shared part, the viewer's own places moved,
    or the shared patch replaces something that holds one of them), the viewer's two views are
    compared whole.
    """

    def __init__(self, before: ViewsOf, after: ViewsOf) -> None:
        self._before = before
        self._after = after
        self._shared: list[Op] | None = None
        self._shared_json: bytes | None = None

    def json_of(self, viewer: Viewer) -> bytes:
        """Return `of(viewer)` as JSON, kept at its own length (it stays with the change's update); a
        viewer whose own places the change left alone has the shared part's patch, whose JSON is
        made once for all of them."""
        ops = self.of(viewer)
        if ops is not self._shared:
            return dumpb_kept(ops)
        if self._shared_json is None:
            self._shared_json = dumpb_kept(ops)
        return self._shared_json

    def of(self, viewer: Viewer) -> list[Op]:
        """Return the patch that turns `viewer`'s view before into its view after (the very list
        of the shared part's patch when nothing of the viewer's own is in it)."""
        parts = self._after.parts(viewer)
        if parts is None or parts != self._before.parts(viewer):
            return self._whole(viewer)
        if self._shared is None:
            self._shared = json_patch(self._before.shared(), self._after.shared())
        pointers, own, holders = _places(parts)
        ops = []
        for op in self._shared:
            target = op["path"]
            if target in holders:  # it replaces what holds one of the viewer's own places
                return self._whole(viewer)
            if not _within(target, own):
                ops.append(op)
        shared = len(ops)
        old, new = self._before.of(viewer), self._after.of(viewer)
        for path, at in zip(parts, pointers, strict=True):
            _diff(_found(old, path), _found(new, path), at, ops)
        return self._shared if shared == len(ops) == len(self._shared) else ops

    def _whole(self, viewer: Viewer) -> list[Op]:
        """Return the patch between the viewer's two views, compared whole."""
        return json_patch(self._before.of(viewer), self._after.of(viewer))


@functools.lru_cache(maxsize=1024)
def _places(parts: tuple[Path, ...]) -> tuple[tuple[str, ...], frozenset[str], frozenset[str]]:
    """Return a viewer's own places as JSON Pointers, as a set, and the set of what holds them."""
    pointers = tuple(_pointer(path) for path in parts)
    holders = frozenset(_pointer(path[:end]) for path in parts for end in range(len(path)))
    return pointers, frozenset(pointers), holders


def _within(target: str, places: frozenset[str]) -> bool:
    """Whether the JSON Pointer `target` is one of `places` or lies below one."""
    end = 0
    while True:
        end = target.find("/", end + 1)
        if (target if end < 0 else target[:end]) in places:
            return True
        if end < 0:
            return False


@functools.lru_cache(maxsize=1024)
def _pointer(path: Path) -> str:
    """Return a place in a document as a JSON Pointer (RFC 6901)."""
    return "".join(f"/{_token(key)}" for key in path)


def _found(document: Any, path: Path) -> Any:
    """Return the value at `path` in `document`."""
    for key in path:
        document = document[key]
    return document


def _token(key: Any) -> str:
    """Return a key as a JSON Pointer reference token (RFC 6901: ~ and / escaped)."""
    token = str(key)
    return token.replace("~", "~0").replace("/", "~1") if "~" in token or "/" in token else token


LEAVES = (str, int, float, bool, type(None))


def _same(old: Any, new: Any) -> bool:
    """Whether two values are the same JSON at a glance: the same object, or equal leaves of one type."""
    return old is new or (type(old) is type(new) and isinstance(old, LEAVES) and old == new)


def _diff(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    if _same(old, new):
        return
    kind = type(old)
    if kind is not type(new):  # 1 and True, or 0 and None, are not the same JSON
        ops.append({"op": "replace", "path": path, "value": new})
    elif kind is dict:
        _diff_dict(old, new, path, ops)
    elif kind is list:
        _diff_list(old, new, path, ops)
    elif old != new:
        ops.append({"op": "replace", "path": path, "value": new})


def _diff_dict(old: dict[Any, Any], new: dict[Any, Any], path: str, ops: list[Op]) -> None:
    """Patch a dict key by key, or replace it whole when most of its keys changed (fewer bytes)."""
    mine: list[Op] = []
    changed = kept = 0
    for key, value in old.items():
        if key in new:
            kept += 1
            after = new[key]
            if _same(value, after):  # most keys: nothing to walk, no path to spell
                continue
            count = len(mine)
            _diff(value, after, f"{path}/{_token(key)}", mine)
            changed += len(mine) > count
        else:
            mine.append({"op": "remove", "path": f"{path}/{_token(key)}"})
            changed += 1
    if len(new) > kept:  # some key is new
        for key, value in new.items():
            if key not in old:
                mine.append({"op": "add", "path": f"{path}/{_token(key)}", "value": value})
                changed += 1
    if path and len(new) > 1 and 2 * changed > len(new):
        ops.append({"op": "replace", "path": path, "value": new})
    else:
        ops.extend(mine)


def _diff_list(old: list[Any], new: list[Any], path: str, ops: list[Op]) -> None:
    if len(old) == len(new):
        for index, (before, after) in enumerate(zip(old, new, strict=True)):
            if not _same(before, after):
                _diff(before, after, f"{path}/{index}", ops)
        return
    if len(new) > len(old) and all(a is b or a == b for a, b in zip(old, new, strict=False)):
        ops.extend({"op": "add", "path": f"{path}/-", "value": value} for value in new[len(old):])
        return
    ops.append({"op": "replace", "path": path, "value": new})
