"""RFC 6902 JSON Patches between two versions of a viewer's view, for sockets opened with updates=patch.

The views of consecutive versions share every object a change left alone (`rules.Views`), so the walk
skips those by identity and visits only what changed: a roll touches the turn and one player's
stock, and its patch says just that.
"""

from __future__ import annotations

from typing import Any

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
    changed = 0
    for key, value in old.items():
        if key in new:
            after = new[key]
            if _same(value, after):  # most keys: nothing to walk, no path to spell
                continue
            count = len(mine)
            _diff(value, after, f"{path}/{_token(key)}", mine)
            changed += len(mine) > count
        else:
            mine.append({"op": "remove", "path": f"{path}/{_token(key)}"})
            changed += 1
    if len(new) > len(old) - changed:  # some key is new
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
