"""Audit a Quest 1607 game from its stored stream: versions, replay, every resource, every offer.

The resource ledger is written again from docs/PROTOCOL.md, apart from `evolve`: each player's stock is the
sum of what the events say came in (dice, trades, corrections, salvage) and went out (costs, trades).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import shipmate.games  # noqa: F401  (registers quest1607)
from shipmate.rules import Event, State, replay

Stock = Counter[str]


def _add(stock: Stock, delta: Mapping[str, int], sign: int = 1) -> None:
    for resource, n in delta.items():
        stock[resource] += sign * n


def _resources(ledger: dict[str, Stock], event: Event) -> None:
    """Book one event's resource movements in `ledger` (player id → stock)."""
    kind = event["type"]
    if kind == "PlayerJoined":
        ledger[event["player_id"]] = Counter()
    elif kind == "DiceRolled":
        _add(ledger[event["player"]], event["gains"])
    elif kind == "OfferAccepted":
        giver, taker = ledger[event["from"]], ledger[event["to"]]
        _add(giver, event["give"], -1)
        _add(taker, event["give"])
        _add(taker, event["get"], -1)
        _add(giver, event["get"])
    elif kind in ("MarketTraded", "BankTraded"):
        _add(ledger[event["player"]], event["give"], -1)
        _add(ledger[event["player"]], event["get"])
    elif kind in ("SailsUpgraded", "CannonsUpgraded", "CrewUpgraded", "QuestBought", "QuestCompleted"):
        _add(ledger[event["player"]], event["paid"], -1)
    elif kind in ("ResourcesAdjusted", "ResourcesFished"):
        _add(ledger[event["player"]], event["resources"])
    elif kind == "ResourcesKept":
        _add(ledger[event["player"]], event["water"], -1)
    elif kind == "SurrenderAccepted":
        _add(ledger[event["player"]], event["resources"], -1)
        _add(ledger[event["to"]], event["resources"])
    elif kind == "EventDrawn":
        for pid, delta in event["changes"].items():
            _add(ledger[pid], delta)


def _offers(accepted: dict[str, list[int]], closed: set[str], event: Event) -> None:
    """Check that an offer is accepted at most once, and never after it was closed."""
    kind = event["type"]
    if kind == "OfferAccepted":
        assert event["offer_id"] not in closed, f"offer {event['offer_id']} accepted after it closed"
        accepted.setdefault(event["offer_id"], []).append(event["version"])
        closed.add(event["offer_id"])
    elif kind in ("OfferDeclined", "OfferWithdrawn"):
        closed.add(event["offer_id"])
    elif kind == "TurnEnded":
        closed.update(event["lapsed"])


def audit(events: list[Event], state: State) -> dict[str, int]:
    """Check a game's whole stream against its snapshot; return counts of what was checked.

    Versions are gapless from 0, the stream replays to the snapshot, each player's resources are
    the sum of their events and none is negative, and no offer is accepted twice.
    """
    assert sorted({e["version"] for e in events}) == list(range(state["version"] + 1))
    assert [e["version"] for e in events] == sorted(e["version"] for e in events)
    assert replay(events) == state
    ledger: dict[str, Stock] = {}
    accepted: dict[str, list[int]] = {}
    closed: set[str] = set()
    before: dict[int, tuple[dict[str, Stock], dict[str, list[int]], set[str]]] = {}
    for event in events:
        if event["version"] not in before:  # the books as they stood before this change
            before[event["version"]] = ({p: Counter(s) for p, s in ledger.items()},
                                        {o: list(v) for o, v in accepted.items()}, set(closed))
        if event["type"] == "ActionUndone":  # the host's undo puts the books back as they were
            kept, was_accepted, was_closed = before[event["undone_version"]]
            ledger = {p: Counter(s) for p, s in kept.items()}
            accepted = {o: list(v) for o, v in was_accepted.items()}
            closed = set(was_closed)
            continue
        _resources(ledger, event)
        _offers(accepted, closed, event)
        for pid, stock in ledger.items():
            assert min(stock.values(), default=0) >= 0, (event, pid, stock)
    for pid, player in state["players"].items():
        assert +ledger[pid] == +Counter(player["resources"]), (pid, ledger[pid], player["resources"])
    assert all(len(versions) <= 1 for versions in accepted.values()), accepted
    return {"events": len(events), "versions": state["version"],
            "accepted_offers": sum(len(versions) for versions in accepted.values()),
            "dice": state["counters"]["dice"]}
