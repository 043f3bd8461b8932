"""A table's core in WebKit, the engine of every iPhone browser: two phones join through the join page,
a roll tapped on one phone shows on the TV and on the other phone, a reload keeps the seat, the
rulebook finds a rule, and the keep decision after a sinking opens from the strip.

Each device is a MiniBrowser of its own (a phone's seat lives in its own localStorage). Game state
the page is not about is set up through the API.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.api.client import Game
from tests.e2e.helpers import api, fire_until, keep_choice
from tests.fixtures_server import wait_for

from .conftest import OpenDevice
from .device import WebKitDevice

pytestmark = pytest.mark.webkit

TV = {"width": 1280, "height": 720}
# The seat a phone keeps for game `arguments[0]` (session.js): its player's id, token and name.
SEAT = "return JSON.parse(localStorage.getItem('shipmate.games') || '{}')[arguments[0]]"


@pytest.fixture(scope="module")
def table(webkit: OpenDevice, base_url: str) -> Iterator[dict[str, Any]]:
    """A Quest 1607 lobby made through the API (the host is not one of the devices), and the devices
    that join it: Anna's phone (English), Bram's phone (Dutch) and the TV."""
    game = Game.create(base_url, quests_per_level=1)
    yield {"game": game, "anna": webkit("anna"), "bram": webkit("bram"), "tv": webkit("tv", **TV)}


def join(phone: WebKitDevice, code: str, name: str, land: str, joined: str) -> dict[str, Any]:
    """On the lobby link the QR code carries, pick a land and a name, tap Join; return the seat the
    phone keeps."""
    phone.type("#player-name", name)
    phone.tap(f"label.character[data-key='land-{land}']")
    phone.tap("#join-form button[type=submit]")
    phone.has_text("#lobby-joined", joined)
    seat = phone.until(SEAT, code, what="the seat kept")
    return dict(seat["player"])


def test_two_phones_join_through_the_join_page(table: dict[str, Any]) -> None:
    game: Game = table["game"]
    anna: WebKitDevice = table["anna"]
    bram: WebKitDevice = table["bram"]
    anna.goto(f"/join/{game.code}")
    table["seats"] = {"anna": join(anna, game.code, "Anna", "netherlands", "You joined as Anna.")}
    bram.goto(f"/join/{game.code}")
    bram.tap("#lang")  # the Dutch phone switches language on the page itself
    bram.has_text("#lobby-join h2", "Meedoen")
    table["seats"]["bram"] = join(bram, game.code, "Bram", "england", "Je doet mee als Bram.")
    for phone in (anna, bram):
        phone.until("return document.querySelectorAll('.players li').length === 2", what="both players")
    assert [p["name"] for p in game.state()["players"]] == ["Anna", "Bram"]
    anna.shot("lobby-joined")
    game.ok(game.host, {"type": "start"})
    for phone in (anna, bram):
        phone.until("return location.pathname === arguments[0]", f"/play/{game.code}", what="the game page")
        phone.element("#now")
    table["tv"].goto(f"/screen/{game.code}")
    table["tv"].has_text("h1", "Anna")


# Whether the dice row, its tumble settled, shows the faces `arguments[0]` (each die's accessible
# label: "Movement: 4").
SHOWS_FACES = """
const row = document.querySelector('#dice-row');
if (!row || row.classList.contains('rolling')) return false;
const shown = [...row.querySelectorAll('svg.die')]
  .map((d) => d.getAttribute('aria-label').split(':').pop().trim());
return shown.join() === arguments[0].join();
"""


def test_a_roll_tapped_on_one_phone_shows_on_the_tv_and_on_the_other_phone(table: dict[str, Any]) -> None:
    game: Game = table["game"]
    anna: WebKitDevice = table["anna"]
    anna.tap("#do-roll")
    wait_for(lambda: bool(game.state()["turn"]["rolled"]), "the roll on the server")
    dice = game.state()["turn"]["dice"]
    faces = [str(dice["move"]["value"]), *(str(d["value"]) for d in dice["white"])]
    for device in (anna, table["bram"], table["tv"]):
        device.until(SHOWS_FACES, faces, what=f"the faces {faces}")
    anna.element(".allowance")
    table["tv"].has_text("#q-roll", "Brought")
    table["tv"].shot("tv-rolled")
    anna.shot("phone-rolled")


def test_a_reload_keeps_the_seat(table: dict[str, Any]) -> None:
    code = table["game"].code
    bram: WebKitDevice = table["bram"]
    bram.reload()
    bram.has_text(".me-name", "Bram")
    assert bram.path() == f"/play/{code}"
    assert bram.driver.execute_script("return document.querySelector('#join-form')") is None
    bram.has_text("#res-h", "Grondstoffen")  # and the language it chose
    kept = bram.driver.execute_script(SEAT, code)
    assert kept["player"] == table["seats"]["bram"]


def test_the_rulebook_finds_a_rule_by_a_word_of_either_language(table: dict[str, Any], base_url: str) -> None:
    anna: WebKitDevice = table["anna"]
    total = len(api(base_url, "GET", "/api/rulesets/quest1607/rules")["rules"])
    anna.goto("/rules/quest1607")
    anna.until("return document.querySelectorAll('.rb-rule').length === arguments[0]", total,
               what="every rule")
    for word in ("kanon", "CANNON"):
        anna.type("#rb-q", word)
        anna.until("return !!document.querySelector('#U4') && !document.querySelector('#S1')",
                   what=f"U4 alone found by {word!r}")
        shown = anna.driver.execute_script("return document.querySelectorAll('.rb-rule').length")
        assert 0 < shown < total
        anna.has_text("#rb-count", f"{shown} rules found")
    anna.shot("rulebook-search")
    anna.goto(f"/play/{table['game'].code}")
    anna.has_text(".me-name", "Anna")


def test_after_a_sinking_the_keep_decision_opens_from_the_strip(table: dict[str, Any]) -> None:
    """The strip's #do-keep opens the decision; its steppers ([data-step='keep.<resource>']) and
    #keep-send make it."""
    game: Game = table["game"]
    seats = table["seats"]
    ids = {key: seats[key]["id"] for key in ("anna", "bram")}
    moves = {"base": game.base, "code": game.code, "game": game, "ids": ids,
             "tokens": {key: seats[key]["token"] for key in ids}}
    game.ok(game.host, {"type": "adjust", "player": ids["anna"], "resources": {"coal": 10, "iron": 10},
                        "reason": "guns"})
    game.ok(game.host, {"type": "adjust", "player": ids["bram"], "resources": {"food": 3, "wood": 3},
                        "reason": "cargo"})
    for _ in range(5):
        game.ok(seats["anna"]["token"], {"type": "upgrade", "ship": 1, "part": "cannons"})
    game.ok(seats["anna"]["token"], {"type": "attack", "ship": 1, "target": ids["bram"], "target_ship": 1})
    state = fire_until(moves, ("salvage", "fishing"))
    combat = state["combat"]
    assert combat is not None and combat["stage"] == "salvage", combat
    sunk = next(key for key, pid in ids.items() if pid == combat["sunk"])
    winner = next(key for key, pid in ids.items() if pid == combat["winner"])
    phone: WebKitDevice = table[sunk]
    phone.tap("#do-keep")
    phone.until("const r = document.querySelector('#keep-send').getBoundingClientRect();"
                "return r.top >= 0 && r.bottom <= innerHeight", what="the keep decision in view")
    phone.shot("keep-decision")
    held = next(p for p in state["players"] if p["id"] == combat["sunk"])["resources"]
    keep = keep_choice(held, combat["keep"])
    for resource, n in keep.items():
        for _ in range(n):
            phone.tap(f"[data-step='keep.{resource}'][data-d='1']")
    phone.tap("#keep-send")
    wait_for(lambda: (game.state()["combat"] or {}).get("stage") != "salvage", "the resources kept")
    after = game.state()
    left = next(p for p in after["players"] if p["id"] == combat["sunk"])["resources"]
    assert {resource: n for resource, n in left.items() if n} == keep
    water = after["combat"]["water"]
    fish = keep_choice(water, min(2, sum(water.values())))
    game.ok(seats[winner]["token"], {"type": "fish", "resources": fish})
    phone.until("return !document.querySelector('#fight')", what="the fight over")


# What an iPhone does that this engine does not (a home-screen app before iOS 18.4 has no wake lock;
# Low Power Mode refuses it): the TV's wake lock taken away, or refused, before its start is tapped.
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"
WAKE_LOCK_REFUSED = """
navigator.wakeLock.request = () => Promise.reject(new DOMException('Low Power Mode', 'NotAllowedError'));
"""


def start_screen(device: WebKitDevice, code: str, iphone: str | None = None) -> None:
    """Open the shared screen of game `code`, make it an iPhone's (`iphone`: a script) and tap its start."""
    device.goto(f"/screen/{code}")
    device.element("#screen-start")
    if iphone:
        device.driver.execute_script(iphone)
    device.tap("#screen-start")
    device.until("return !document.querySelector('#screen-start, #screen-hint')", what="the screen started")


def test_what_an_iphone_lacks_or_refuses_goes_by_quietly(table: dict[str, Any]) -> None:
    """No vibration and no install prompt (this engine lacks both, as Safari does): the turn cue tells
    by the tab's title, and its own button still turns it off and on; a screen without a wake lock,
    or refused one, starts all the same. No page logs an error or leaves a promise rejected."""
    game: Game = table["game"]
    anna: WebKitDevice = table["anna"]
    bram: WebKitDevice = table["bram"]
    for device in (anna, bram, table["tv"]):
        assert device.driver.execute_script("return 'vibrate' in navigator") is False
        assert device.driver.execute_script("return 'onbeforeinstallprompt' in window") is False
    turn = game.state()["turn"]["player"]
    waited, other = (anna, bram) if turn == table["seats"]["anna"]["id"] else (bram, anna)
    waited.until("return document.title.startsWith('● ')", what="the title telling whose turn it is")
    assert not other.driver.title.startswith("● ")
    for pressed in ("false", "true"):  # the cue's own button does what it says
        waited.tap("#cue")
        waited.until("return document.querySelector('#cue').getAttribute('aria-pressed') === arguments[0]",
                      pressed, what=f"the cue toggled to {pressed}")
    start_screen(table["tv"], game.code)  # this engine grants the wake lock
    start_screen(anna, game.code, NO_WAKE_LOCK)
    start_screen(bram, game.code, WAKE_LOCK_REFUSED)
    bram.shot("screen-started-wake-lock-refused")
    for device in (anna, bram, table["tv"]):
        device.no_errors()
