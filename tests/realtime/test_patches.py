"""Patch updates: the patch between two views is RFC 6902 (checked with the jsonpatch library), and
the views a game shares between consecutive versions make it small."""

from __future__ import annotations

import copy
from typing import Any

import jsonpatch
import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

import shipmate.games  # noqa: F401  (registers every game)
from shipmate.room.patches import ViewPatches, json_patch
from shipmate.rules import HOST, PUBLIC, Viewer, Views, fold, view_for
from tests.rules.quest_play import new_game, play_turn

KEYS = st.sampled_from(["a", "b", "c/d", "e~f", "0", ""])
SCALARS = st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=3)
DOCS = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(KEYS, inner, max_size=4), max_leaves=12)


def same_json(a: Any, b: Any) -> bool:
    """Equal as JSON, types included (True is not 1)."""
    return orjson.dumps(a, option=orjson.OPT_SORT_KEYS) == orjson.dumps(b, option=orjson.OPT_SORT_KEYS)


@settings(max_examples=400, deadline=None)
@given(DOCS, DOCS)
def test_a_patch_turns_the_old_document_into_the_new_one(old: Any, new: Any) -> None:
    patched = jsonpatch.apply_patch(copy.deepcopy(old), json_patch(old, new))
    assert same_json(patched, new)


@settings(max_examples=200, deadline=None)
@given(DOCS, st.lists(st.tuples(st.lists(KEYS, max_size=3), DOCS), max_size=3))
def test_a_document_edited_in_place_of_its_parts_patches_alike(old: Any, edits: list[Any]) -> None:
    """Documents that share parts by identity, as consecutive views do."""
    new = copy.copy(old)
    for path, value in edits:
        if isinstance(new, dict) and path:
            new = {**new, path[0]: value}
    patched = jsonpatch.apply_patch(copy.deepcopy(old), json_patch(old, new))
    assert same_json(patched, new)


def test_views_of_consecutive_versions_patch_small_and_exact() -> None:
    """A game played by the engine, change by change: for every viewer, each change's patch turns its
    view before into exactly its view after, and most changes are told in a few operations. The
    patches are the hub's: the shared part's patch found once, each viewer's own places apart."""
    state, log = new_game(3, {}, "5e" * 32)
    for _ in range(30):
        if state["phase"] == "finished":
            break
        state, happened = play_turn(state)
        log += happened
    viewers = [PUBLIC, HOST, *(Viewer(player=p) for p in state["order"])]
    changes: dict[int, list[Any]] = {}
    for event in log:
        changes.setdefault(event["version"], []).append(event)
    state, views, sizes = {}, None, []
    for version in sorted(changes):
        state = fold(state, changes[version])
        before = views
        views = Views(state, before)
        patches = None if before is None else ViewPatches(before, views)
        for viewer in viewers:
            after = views.of(viewer)
            assert same_json(after, view_for(state, viewer))  # sharing changes nothing in a view
            if before is not None and patches is not None:
                patch = patches.of(viewer)
                assert same_json(jsonpatch.apply_patch(copy.deepcopy(before.of(viewer)), patch), after)
                sizes.append(len(orjson.dumps(patch)))
    sizes.sort()
    assert len(sizes) > 500 and sizes[len(sizes) // 2] < 400, sizes  # a whole view is ~3,000 bytes
