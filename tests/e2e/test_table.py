"""A whole table in real Chromium: three phones, the host, the shared screen, the dice device.

One browser context per device. The dice come from the server's seed, so where an outcome is not
ours to choose (a fight, a dealt quest) the host prepares resources over the API and the test loops.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from playwright.sync_api import Browser, Page, Request, Route, WebSocketRoute, expect

from .helpers import (
    EVIL,
    INJECTED,
    PHONE,
    SHORT_EVIL,
    SHOTS,
    TV,
    Device,
    api,
    image_drawn,
    undo_on_host,
    wait_for_version,
)
from .layout import shot_of_the_end

pytestmark = pytest.mark.e2e


def show_faces(page: Page, faces: list[str], selector: str = "#dice-row") -> None:
    """Wait until a dice row has stopped tumbling and shows `faces` (from the dice's accessible
    labels, "Movement: 4")."""
    page.wait_for_function("""([selector, faces]) => {
      const row = document.querySelector(selector);
      if (!row || row.classList.contains('rolling')) return false;
      const shown = [...row.querySelectorAll('svg.die')]
        .map((e) => e.getAttribute('aria-label').split(':').pop().trim());
      return shown.join() === faces.join();
    }""", arg=[selector, faces])


def _evil_name(base: str) -> str:
    """EVIL if the server takes a name that long, else SHORT_EVIL (names are capped at 32 characters)."""
    code = api(base, "POST", "/api/games", body={"game": "quest1607", "options": {}})["code"]
    r = requests.post(f"{base}/api/games/{code}/players", json={"name": EVIL, "character": "spain"},
                      timeout=10)
    return EVIL if r.status_code == 201 else SHORT_EVIL


@pytest.fixture(scope="module")
def table(browser: Browser, base_url: str) -> Iterator[dict[str, Any]]:
    devices = {
        "host": Device(browser, base_url, "host", "en-GB"),
        "bram": Device(browser, base_url, "bram", "nl-NL"),
        "cas": Device(browser, base_url, "cas", "en-US"),
        "screen": Device(browser, base_url, "screen", "en-GB", TV),
    }
    data: dict[str, Any] = {"base": base_url, **devices, "evil": _evil_name(base_url)}
    yield data
    for device in devices.values():
        assert device.dialogs == [], f"{device.name}: a dialog fired: {device.dialogs}"
        assert device.errors == [], f"{device.name}: page errors: {device.errors}"
        device.context.close()


def test_create_game_and_lobby(table: dict[str, Any]) -> None:
    host: Device = table["host"]
    page = host.goto("/")
    expect(page.locator("h2", has_text="Create a game")).to_be_visible()
    host.shot("home-en")
    expect(page.get_by_label("Quest 1607")).to_be_checked()  # the game choice opens on Quest 1607
    page.locator("fieldset", has_text="Quests per level").locator("label.chip", has_text="1").click()
    page.get_by_label("Crew of a sunk ship when it returns (C7)").select_option("2")
    page.get_by_role("button", name="Create").click()
    page.wait_for_url(re.compile(r"/join/[A-Z0-9]{6}$"))
    code = page.url.rsplit("/", 1)[-1]
    table["code"] = code
    expect(page.locator(".big-code")).to_have_text(code)
    image_drawn(page.locator(".qr img"))
    assert host.tokens(code).get("host")
    ruleset = api(table["base"], "GET", f"/api/games/{code}/ruleset")
    assert ruleset["sunk_crew"] == 2  # the house rule reached the server
    # The host plays too: they join as a player from the same lobby.
    page.get_by_label("Your name").fill("Anna")
    page.locator("label.character", has_text="The Netherlands").click()
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.get_by_text("You joined as Anna.")).to_be_visible()
    start = page.get_by_role("button", name="Start the game")
    expect(start).to_be_disabled()
    expect(page.locator("#start-why")).to_contain_text("S1")
    host.shot("lobby-host")


def test_two_more_players_join_one_by_code_one_by_link(table: dict[str, Any]) -> None:
    code = table["code"]
    bram: Device = table["bram"]
    page = bram.goto("/")
    expect(page.locator("h2", has_text="Meedoen met een spel")).to_be_visible()  # Dutch phone
    bram.shot("home-nl")
    page.get_by_label("Spelcode").fill(code.lower())
    page.get_by_role("button", name="Meedoen").click()
    page.wait_for_url(f"**/join/{code}")
    page.get_by_label("Je naam").fill(table["evil"])
    expect(page.locator("label.character.taken", has_text="Nederland")).to_be_visible()
    page.locator("label.character", has_text="Engeland").click()
    page.get_by_role("button", name="Meedoen", exact=True).click()
    expect(page.get_by_text("Je doet mee als")).to_be_visible()
    expect(page.locator(".players")).to_contain_text(table["evil"])
    bram.shot("lobby-player-nl")

    cas: Device = table["cas"]
    page = cas.goto(f"/join/{code}")
    page.get_by_label("Your name").fill("Cas")
    page.locator("label.character", has_text="Spain").click()
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.get_by_text("You joined as Cas.")).to_be_visible()
    for device in (table["host"], bram, cas):
        expect(device.page.locator(".players li")).to_have_count(3)
        expect(device.page.locator(".players")).to_contain_text(table["evil"])
        assert device.page.locator(INJECTED).count() == 0
    table["screen"].goto(f"/screen/{code}")
    expect(table["screen"].page.locator(".screen-players")).to_contain_text(table["evil"])


def test_host_starts_and_phones_move_to_play(table: dict[str, Any]) -> None:
    code = table["code"]
    host: Device = table["host"]
    host.page.get_by_role("button", name="Start the game").click()
    for device in (host, table["bram"], table["cas"]):
        device.page.wait_for_url(f"**/play/{code}")
        expect(device.page.locator("#now")).to_be_visible()
    tokens = {name: table[name].tokens(code) for name in ("host", "bram", "cas")}
    table["host_token"] = tokens["host"]["host"]
    table["players"] = {name: t["player"] for name, t in tokens.items()}
    state = api(table["base"], "GET", f"/api/games/{code}")
    assert state["phase"] == "playing"
    table["order"] = [p["id"] for p in state["players"]]
    assert state["turn"]["player"] == table["players"]["host"]["id"]  # join order: Anna first
    # A status says whose turn it is in words, once, at the top; it cites no rule (a refusal does).
    bram = table["bram"].page
    expect(bram.locator("#now")).to_contain_text("Anna is aan de beurt")
    expect(bram.locator("#now")).not_to_contain_text("T5")
    expect(bram.locator("#end-turn")).to_be_disabled()
    expect(bram.locator("#end-turn")).to_have_attribute("aria-describedby", "now")
    expect(bram.locator("#end-turn-why")).to_have_count(0)


def test_a_roll_shows_the_same_dice_on_the_screen(table: dict[str, Any]) -> None:
    host: Device = table["host"]
    screen: Device = table["screen"]
    page = host.page
    expect(page.locator("#now")).to_contain_text("Your turn — roll the dice first.")
    expect(page.locator("#end-turn")).to_be_disabled()
    page.locator("#do-roll").click()
    expect(page.locator(".allowance")).to_be_visible()
    state = api(table["base"], "GET", f"/api/games/{table['code']}")
    dice = state["turn"]["dice"]
    expected = [str(dice["move"]["value"]), *(str(d["value"]) for d in dice["white"])]
    show_faces(page, expected)  # the tumble settles on the server's faces
    show_faces(screen.page, expected)
    expect(screen.page.locator(".screen-roll")).to_contain_text("Brought")
    expect(page.locator(".dicebox .brought")).to_contain_text("Brought")
    # T3: sail one square with ship 1; the phone counts it against the allowance
    expect(page.locator("#sail-form")).to_have_attribute("open", "")  # after one's own roll, sailing is open
    page.locator("#sail-1").click()
    expect(page.locator(".sail-row")).to_contain_text(f"1/{state['turn']['allowance']}")
    host.shot("player-host-rolled")


def test_trade_offered_and_accepted_on_two_phones(table: dict[str, Any]) -> None:
    base, code, host_token = table["base"], table["code"], table["host_token"]
    anna, bram = table["players"]["host"], table["players"]["bram"]
    api(base, "POST", f"/api/games/{code}/actions", host_token,
        {"type": "adjust", "player": anna["id"], "resources": {"wood": 2}, "reason": "e2e: trade"})
    api(base, "POST", f"/api/games/{code}/actions", host_token,
        {"type": "adjust", "player": bram["id"], "resources": {"iron": 1}, "reason": "e2e: trade"})
    before = {p["id"]: p["resources"] for p in api(base, "GET", f"/api/games/{code}")["players"]}
    page = table["host"].page
    page.locator("#offer-form summary").click()
    table["host"].shot("player-host-offer-form")
    page.locator("#offer-to").select_option(bram["id"])
    page.locator("[data-step='offer.give.wood'][data-d='1']").click()
    page.locator("[data-step='offer.get.iron'][data-d='1']").click()
    page.locator("#offer-send").click()
    offers = table["bram"].page.locator(".offer")
    expect(offers).to_have_count(1)
    expect(offers).to_contain_text("Anna")
    table["bram"].shot("player-bram-offer-nl")
    offers.get_by_role("button", name="Accepteren").click()
    expect(page.locator(".offers .offer")).to_have_count(0)
    after = {p["id"]: p["resources"] for p in api(base, "GET", f"/api/games/{code}")["players"]}
    assert after[anna["id"]]["wood"] == before[anna["id"]]["wood"] - 1
    assert after[anna["id"]]["iron"] == before[anna["id"]]["iron"] + 1
    assert after[bram["id"]]["wood"] == before[bram["id"]]["wood"] + 1
    expect(page.locator("#res-iron")).to_have_text(str(after[anna["id"]]["iron"]))


def test_upgrade_with_the_reason_when_refused(table: dict[str, Any]) -> None:
    base, code, host_token = table["base"], table["code"], table["host_token"]
    anna = table["players"]["host"]
    page = table["host"].page
    state = api(base, "GET", f"/api/games/{code}")
    have = next(p for p in state["players"] if p["id"] == anna["id"])["resources"]
    # Take away what sails cost, so the refusal and its reason show first.
    drop = {r: -have[r] for r in ("cotton", "wood") if have[r]}
    if drop:
        api(base, "POST", f"/api/games/{code}/actions", host_token,
            {"type": "adjust", "player": anna["id"], "resources": drop, "reason": "e2e: empty"})
    button = page.locator("#up-1-sails")
    expect(button).to_be_disabled()
    expect(page.locator("#up-1-sails-why")).to_contain_text(
        "U3 · Sails +1 costs 3 Cotton + 1 Wood; you have 0 Cotton, 0 Wood")
    api(base, "POST", f"/api/games/{code}/actions", host_token,
        {"type": "adjust", "player": anna["id"], "resources": {"cotton": 3, "wood": 1},
         "reason": "e2e: upgrade"})
    expect(button).to_be_enabled()
    button.click()
    expect(page.locator(".ship-card").first.locator("svg.die").nth(1)).to_have_attribute(
        "aria-label", "Sails: 3")
    table["host"].shot("player-host-upgraded")


def test_a_fight_to_a_sinking(table: dict[str, Any]) -> None:
    base, code, host_token = table["base"], table["code"], table["host_token"]
    anna, bram = table["players"]["host"], table["players"]["bram"]
    # Prepare: Anna's ship gets Cannons 6 (hits Crew 3 on a 2+), Bram holds resources to salvage.
    api(base, "POST", f"/api/games/{code}/actions", host_token,
        {"type": "adjust", "player": anna["id"], "resources": {"coal": 10, "iron": 10},
         "reason": "e2e: guns"})
    api(base, "POST", f"/api/games/{code}/actions", host_token,
        {"type": "adjust", "player": bram["id"], "resources": {"food": 3, "coal": 2, "wood": 1},
         "reason": "e2e: cargo"})
    for _ in range(5):
        api(base, "POST", f"/api/games/{code}/actions", anna["token"],
            {"type": "upgrade", "ship": 1, "part": "cannons"})
    pages = {anna["id"]: table["host"].page, bram["id"]: table["bram"].page}
    page = pages[anna["id"]]
    page.locator("#attack-form summary").click()
    page.locator("#attack-target").select_option(bram["id"])
    page.locator("#attack-send").click()
    expect(table["screen"].page.locator(".screen-combat")).to_be_visible()
    for _ in range(60):
        state = api(base, "GET", f"/api/games/{code}")
        combat = state["combat"]
        if combat is None or combat["stage"] != "firing":
            break
        shooter = pages[combat["shooter"]]
        fire = shooter.locator("#fire")
        expect(fire).to_be_enabled()
        fire.click()
        wait_for_version(base, code, state["version"])
    else:
        pytest.fail("no sinking after 60 shots")
    table["screen"].shot("screen-combat")
    assert combat is not None and combat["stage"] == "salvage", combat
    sunk, winner = combat["sunk"], combat["winner"]
    sunk_page, winner_page = pages[sunk], pages[winner]
    table["host" if sunk == anna["id"] else "bram"].shot("player-sunk-keep")
    held = next(p for p in state["players"] if p["id"] == sunk)["resources"]
    need = combat["keep"]
    for resource, n in held.items():
        for _ in range(min(n, need)):
            sunk_page.locator(f"[data-step='keep.{resource}'][data-d='1']").click()
        need -= min(n, need)
    sunk_page.locator("#keep-send").click()
    expect(winner_page.locator("#fish-send")).to_be_visible()
    state = api(base, "GET", f"/api/games/{code}")
    water, want = state["combat"]["water"], min(2, sum(state["combat"]["water"].values()))
    for resource, n in water.items():
        for _ in range(min(n, want)):
            winner_page.locator(f"[data-step='fish.{resource}'][data-d='1']").click()
        want -= min(n, want)
    winner_page.locator("#fish-send").click()
    expect(winner_page.locator(".combat")).to_have_count(0)
    sunk_ship = next(p for p in api(base, "GET", f"/api/games/{code}")["players"] if p["id"] == sunk)
    assert sunk_ship["ships"][0]["crew"] == 2  # C7 with the house rule sunk_crew = 2
    assert api(base, "GET", f"/api/games/{code}")["combat"] is None
    table["fight_winner"] = winner


def _prepare_quest(table: dict[str, Any], quest: dict[str, Any]) -> bool:
    """Meet a quest's requirements through the API (host adjust, Anna's own upgrades); False if not."""
    base, code, host_token = table["base"], table["code"], table["host_token"]
    anna = table["players"]["host"]
    for requirement, progress in zip(quest["requirements"], quest["progress"], strict=True):
        kind = requirement["kind"]
        if kind == "deliver":
            api(base, "POST", f"/api/games/{code}/actions", host_token,
                {"type": "adjust", "player": anna["id"], "resources": requirement["resources"],
                 "reason": "e2e: quest"})
        elif kind == "ship_level":
            state = api(base, "GET", f"/api/games/{code}", anna["token"])
            ship = state["players"][0]["ships"][0]
            for _ in range(max(0, requirement["at_least"] - ship[requirement["part"]])):
                api(base, "POST", f"/api/games/{code}/actions", host_token,
                    {"type": "adjust", "player": anna["id"],
                     "resources": {"cotton": 3, "wood": 2, "coal": 2, "iron": 2, "food": 1},
                     "reason": "e2e: quest"})
                body = {"type": "upgrade", "ship": 1, "part": requirement["part"]}
                if requirement["part"] == "crew":
                    body["pay_with"] = "wood"
                api(base, "POST", f"/api/games/{code}/actions", anna["token"], body)
        elif kind in ("win_fight", "fleet") and not progress["done"]:
            return False
    return True


def test_completing_a_quest_announces_an_event_on_the_screen(table: dict[str, Any]) -> None:
    base, code, host_token = table["base"], table["code"], table["host_token"]
    anna = table["players"]["host"]
    page = table["host"].page
    quest = None
    for _ in range(6):
        mine = api(base, "GET", f"/api/games/{code}", anna["token"])
        me = next(p for p in mine["players"] if p["id"] == anna["id"])
        quest = next((q for q in me["quests"] if q["level"] == me["level"]
                      and not any(r["kind"] in ("win_fight", "fleet") and not p["done"]
                                  for r, p in zip(q["requirements"], q["progress"], strict=True))),
                     None)
        if quest:
            break
        api(base, "POST", f"/api/games/{code}/actions", host_token,
            {"type": "adjust", "player": anna["id"],
             "resources": {"wood": 1, "food": 1, "iron": 1, "cotton": 1}, "reason": "e2e: quest"})
        api(base, "POST", f"/api/games/{code}/actions", anna["token"],
            {"type": "buy_quest", "level": me["level"]})
    assert quest, "no bronze quest without a fight requirement"
    assert _prepare_quest(table, quest)
    # The steps on the board (a visit, goods loaded and delivered) are reported in the UI.
    for index, requirement in enumerate(quest["requirements"]):
        if requirement["kind"] == "visit":
            page.locator(f"#step-{quest['id']}-{index}").click()
            expect(page.locator(f"#step-{quest['id']}-{index}")).to_have_count(0)
        elif requirement["kind"] == "cargo":
            page.locator(f"#step-{quest['id']}-{index}").click()  # loaded onto ship 1
            expect(page.locator(f"#step-{quest['id']}-{index}")).to_contain_text("Deliver")
            page.locator(f"#step-{quest['id']}-{index}").click()  # delivered
            expect(page.locator(f"#step-{quest['id']}-{index}")).to_have_count(0)
    table["host"].shot("player-host-quest")
    complete = page.locator(f"#complete-{quest['id']}")
    expect(complete).to_be_enabled()
    complete.click()
    expect(page.locator(f"#complete-{quest['id']}")).to_have_count(0)
    expect(page.locator(".event-banner")).to_be_visible()
    state = api(base, "GET", f"/api/games/{code}")
    assert state["event"], state
    title = state["event"]["title"]["en"]
    screen = table["screen"].page
    expect(screen.locator(".screen-event")).to_contain_text(title)
    expect(page.locator(".event-banner")).to_contain_text(title)
    screen.wait_for_function("t => window.__spoken.some(s => s.includes(t))", arg=title)
    table["screen"].shot("screen-event")


def test_the_dice_device_and_the_host_panel(table: dict[str, Any]) -> None:
    base, code = table["base"], table["code"]
    tokens = {p["id"]: p["token"] for p in table["players"].values()}
    for _ in range(7):  # a few more turns, so that the report has rounds to draw
        state = api(base, "GET", f"/api/games/{code}")
        active = state["turn"]["player"]
        if not state["turn"]["rolled"]:
            api(base, "POST", f"/api/games/{code}/actions", tokens[active], {"type": "roll"})
        api(base, "POST", f"/api/games/{code}/actions", tokens[active], {"type": "end_turn"})
    host: Device = table["host"]
    page = host.goto(f"/host/{code}")
    expect(page.locator("#seed-hash")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    expect(page.locator(".report svg[role=img]")).to_have_count(3)
    expect(page.locator(".report")).to_contain_text(table["evil"])
    assert page.locator(INJECTED).count() == 0
    host.shot("host-panel")
    host.shot("host-panel-full", full_page=True)
    page.locator(".report").screenshot(path=str(SHOTS / "host-report.png"))
    page.locator("#adjust-player").select_option(table["players"]["cas"]["id"])
    food = next(p for p in api(base, "GET", f"/api/games/{code}")["players"]
                if p["id"] == table["players"]["cas"]["id"])["resources"]["food"]
    page.get_by_label("Food").fill("7")
    page.get_by_label("Reason").fill("found a crate")
    page.get_by_role("button", name="Apply").click()
    cas_line = page.locator(".players li", has_text="Cas")
    expect(cas_line).to_contain_text(f"{food + 7} Food")
    undo_on_host(page)
    expect(cas_line).not_to_contain_text(f"{food + 7} Food")
    # The big dice on a table device: opened from the host's phone it rolls for whoever's turn it
    # is (T1), whoever that is; a device without a token only watches.
    watcher = table["screen"].context.new_page()
    watcher.set_viewport_size(PHONE)
    watcher.goto(f"/dice/{code}")
    expect(watcher.locator(".dice-device")).to_be_visible()
    expect(watcher.locator("#table-roll")).to_have_count(0)
    state = api(base, "GET", f"/api/games/{code}")
    if state["turn"]["player"] == table["players"]["host"]["id"]:  # let someone else's turn come
        api(base, "POST", f"/api/games/{code}/actions", tokens[state["turn"]["player"]], {"type": "roll"})
        api(base, "POST", f"/api/games/{code}/actions", tokens[state["turn"]["player"]], {"type": "end_turn"})
    dice = host.context.new_page()  # the host's phone opens the dice device beside its panel
    dice.set_viewport_size(PHONE)
    dice.goto(f"/dice/{code}")
    dice.locator("#table-roll").click()
    expect(dice.locator(".brought")).to_be_visible()
    rolled = api(base, "GET", f"/api/games/{code}")["turn"]["dice"]
    faces = [str(rolled["move"]["value"]), *(str(d["value"]) for d in rolled["white"])]
    show_faces(dice, faces)
    show_faces(watcher, faces)
    dice.screenshot(path=str(SHOTS / "dice-device.png"))
    dice.close()
    watcher.close()
    page.locator("#lang").click()
    expect(page.locator("h1")).to_contain_text("Spelleider")
    host.shot("host-panel-nl")
    page.locator("#lang").click()
    host.goto(f"/play/{code}")


def test_a_reload_rejoins_without_asking(table: dict[str, Any]) -> None:
    code = table["code"]
    bram: Device = table["bram"]
    bram.page.reload()
    bram.page.wait_for_url(f"**/play/{code}")
    expect(bram.page.locator(".me-name")).to_have_text(table["evil"])
    expect(bram.page.locator("#join-form")).to_have_count(0)
    expect(bram.page.locator("#res-h")).to_have_text("Grondstoffen")
    assert bram.page.locator(INJECTED).count() == 0
    bram.shot("player-bram-reloaded-nl")
    # A token the server does not know is dropped, and the phone asks to join again.
    stranger = Device(table["screen"].context.browser, table["base"], "stranger", "en-GB")
    stale = json.dumps({code: {"player": {"id": "p9", "token": "nope", "name": "X"}}})
    stranger.context.add_init_script(f"localStorage.setItem('shipmate.games', {json.dumps(stale)})")
    stranger.goto(f"/play/{code}")
    expect(stranger.page.get_by_role("link", name="Join")).to_be_visible()
    stranger.context.close()
    table["cas"].goto(f"/play/{code}")
    table["cas"].shot("player-cas")
    table["cas"].shot("player-cas-full", full_page=True)
    shot_of_the_end(table["cas"], "player-cas-end")
    table["screen"].shot("screen-end")
    assert table["screen"].page.locator(INJECTED).count() == 0


def test_offline_banner_and_resume_after_the_network_returns(table: dict[str, Any]) -> None:
    base, code, host_token = table["base"], table["code"], table["host_token"]
    cas: Device = table["cas"]
    page = cas.page
    expect(page.locator("#offline")).to_be_hidden()
    before = int(page.locator("#res-wood").inner_text())
    cas.context.set_offline(True)
    expect(page.locator("#offline")).to_be_visible()
    expect(page.locator("#conn")).to_be_visible()  # the socket dropped: "Reconnecting…"
    api(base, "POST", f"/api/games/{code}/actions", host_token,
        {"type": "adjust", "player": table["players"]["cas"]["id"], "resources": {"wood": 1},
         "reason": "e2e: while offline"})
    cas.shot("player-cas-offline")
    screen: Device = table["screen"]
    screen.context.set_offline(True)
    expect(screen.page.locator("#conn")).to_be_visible()
    screen.shot("screen-reconnecting")
    screen.context.set_offline(False)
    expect(screen.page.locator("#conn")).to_be_hidden()
    cas.context.set_offline(False)
    expect(page.locator("#offline")).to_be_hidden()
    expect(page.locator("#res-wood")).to_have_text(str(before + 1))
    expect(page.locator("#conn")).to_be_hidden()


def _device_of(table: dict[str, Any], player_id: str) -> Device:
    """The phone of the player with `player_id`."""
    return next(table[name] for name in ("host", "bram", "cas")
                if table["players"][name]["id"] == player_id)


def _is_action_post(request: Request) -> bool:
    return request.method == "POST" and request.url.endswith("/actions")


def test_taps_go_over_the_socket_and_change_the_game_once_each(table: dict[str, Any]) -> None:
    base, code = table["base"], table["code"]
    devices = [table[name] for name in ("host", "bram", "cas")]
    posts: list[str] = []

    def count(request: Request) -> None:
        if _is_action_post(request):
            posts.append(request.url)

    for device in devices:
        device.context.on("request", count)
    try:
        start = api(base, "GET", f"/api/games/{code}")["version"]
        taps = 0
        for _ in range(2):  # two turns, each a roll and an end of turn, on the active phone
            state = api(base, "GET", f"/api/games/{code}")
            page = _device_of(table, state["turn"]["player"]).page
            expect(page.locator(".now-strip.mine")).to_be_visible()
            for button in ("#do-roll", "#end-turn"):
                if button == "#do-roll" and state["turn"]["rolled"]:
                    continue
                page.locator(button).click()
                taps += 1
                state = wait_for_version(base, code, state["version"])
                assert state["version"] == start + taps  # one change per tap, never two
            expect(page.locator(".now-strip.mine")).to_have_count(0)
        assert api(base, "GET", f"/api/games/{code}")["version"] == start + taps
        assert posts == [], "an action went over HTTP while the socket was up"
    finally:
        for device in devices:
            device.context.remove_listener("request", count)


def test_without_a_result_on_the_socket_a_tap_goes_over_http_under_the_same_key(
        table: dict[str, Any]) -> None:
    """A lost result frame and a socket that is down: each tap still changes the game once."""
    base, code = table["base"], table["code"]
    state = api(base, "GET", f"/api/games/{code}")
    if state["turn"]["rolled"]:  # start on a turn that still has its roll
        token = next(p["token"] for p in table["players"].values() if p["id"] == state["turn"]["player"])
        api(base, "POST", f"/api/games/{code}/actions", token, {"type": "end_turn"})
        state = api(base, "GET", f"/api/games/{code}")
    device = _device_of(table, state["turn"]["player"])
    errors: list[str] = []
    sent_keys: list[str] = []

    def lose_results(ws: WebSocketRoute) -> None:
        """Pass everything through but the result frames: the action is applied, its answer lost."""
        server = ws.connect_to_server()

        def up(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "action":
                sent_keys.append(frame["idempotency_key"])
            server.send(message)

        def down(message: str | bytes) -> None:
            if json.loads(message).get("type") != "result":
                ws.send(message)

        ws.on_message(up)
        server.on_message(down)

    page = device.context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route_web_socket(re.compile(r"/ws/games/"), lose_results)
    page.goto(f"/play/{code}")
    expect(page.locator("#do-roll")).to_be_enabled()
    with page.expect_request(_is_action_post, timeout=15_000) as posted:
        page.locator("#do-roll").click()
    assert posted.value.response() is not None
    assert sent_keys == [posted.value.headers["idempotency-key"]]  # the retry kept the action's key
    expect(page.locator(".allowance")).to_be_visible()
    assert api(base, "GET", f"/api/games/{code}")["version"] == state["version"] + 1
    page.close()

    page = device.context.new_page()  # now the socket cannot connect at all
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route_web_socket(re.compile(r"/ws/games/"), lambda ws: ws.close())
    page.goto(f"/play/{code}")
    expect(page.locator("#conn")).to_be_visible()  # "Reconnecting…"
    with page.expect_request(_is_action_post) as posted:
        page.locator("#end-turn").click()
    assert posted.value.response() is not None
    expect(page.locator(".now-strip.mine")).to_have_count(0)
    assert api(base, "GET", f"/api/games/{code}")["version"] == state["version"] + 2
    page.close()
    assert errors == []


def test_the_socket_action_frames_are_pure_data(table: dict[str, Any]) -> None:
    """logic/actions.js: the action frame, which frame answers it, and the HTTP answer it stands for."""
    result = table["cas"].page.evaluate("""async () => {
      const A = await import('/js/logic/actions.js');
      const frame = A.actionFrame('a7', { type: 'roll' }, 'k-1', 'nl');
      const refusal = { type: 'result', id: 'a7', status: 422, error: 'rule_violation', rule: 'T1',
                        message: 'm' };
      return { frame, mine: A.answers(refusal, 'a7'), other: A.answers(refusal, 'a8'),
               update: A.answers({ type: 'update', id: 'a7' }, 'a7'), answer: A.answerOf(refusal),
               fresh: A.newKey() !== A.newKey() };
    }""")
    assert result["frame"] == {"type": "action", "id": "a7", "action": {"type": "roll"},
                               "idempotency_key": "k-1", "language": "nl"}
    assert (result["mine"], result["other"], result["update"], result["fresh"]) == (True, False, False, True)
    assert result["answer"] == {"status": 422,
                                "body": {"error": "rule_violation", "rule": "T1", "message": "m"}}


def test_the_service_worker_caches_the_app_shell(table: dict[str, Any]) -> None:
    version = re.search(r"const VERSION = '([^']+)'", (SHOTS.parent / "pwa" / "sw.js").read_text())
    assert version
    page = table["host"].page
    # a worker whose shell names a file the server lacks never installs: waited on with a bound, not for ever
    page.wait_for_function("v => caches.keys().then((keys) => keys.includes(v))", arg=version.group(1))
    cached = page.evaluate(
        "name => caches.open(name).then(c => c.keys()).then(ks => ks.map(r => new URL(r.url).pathname))",
        version.group(1))
    assert {"/index.html", "/js/app.js", "/js/views/quest1607/player.js", "/css/app.css"} <= set(cached)


def test_the_pure_rule_checks_explain_refusals(table: dict[str, Any]) -> None:
    """logic/quest1607.js and logic/format.js are pure: state + ruleset in, checks and words out."""
    page = table["cas"].page
    result = page.evaluate("""async (code) => {
      const R = await import('/js/logic/quest1607.js');
      const F = await import('/js/logic/format.js');
      const ruleset = await (await fetch(`/api/games/${code}/ruleset`)).json();
      F.useRuleset(ruleset);
      const ship = { number: 1, cannons: 1, sails: 6, crew: 6, sail_hits: 0, goods: [] };
      const me = { id: 'p1', name: 'A', resources: { wood: 1, cotton: 2, food: 1, coal: 9 },
                   ships: [ship], level: 'bronze', completed: {}, quests: [] };
      const other = { id: 'p2', name: 'B', resources: {}, ships: [] };
      const dice = { move: { index: 0, value: 2 }, white: [] };
      const state = { phase: 'playing', players: [me, other],
                      turn: { player: 'p1', rolled: true, dice, moved: {} },
                      offers: [], combat: null, event: null };
      const sails = R.canUpgrade(state, ruleset, 'p1', 1, 'sails');
      const crew = R.canUpgrade(state, ruleset, 'p1', 1, 'crew', 'wood');
      const notMine = R.canRoll({ ...state, turn: { ...state.turn, player: 'p2', rolled: false } }, 'p1');
      const market = R.canMarket(state, ruleset, 'p1', 'coal', 'iron');
      const fair = R.canUpgrade({ ...state, event: { id: 'G6', title: { en: 'Cheap iron' } } },
                                ruleset, 'p1', 1, 'cannons');
      return { sails: F.explain(sails), crew: F.explain(crew), notMine: F.explain(notMine),
               market: market.ok, allowance: R.allowance(state, me), fair: F.explain(fair) };
    }""", table["code"])
    assert result["sails"] == "U3 · Sails +1 is already at its maximum of 6."
    assert result["crew"] == ""  # U1/U2: 1 Food + 1 Wood launches ship 2 (1 of at most 3)
    assert result["notMine"] == "T5 · Not your turn — it is B’s."
    assert result["market"] is True
    assert result["allowance"] == 6  # T3: max(die 2, Sails 6)
    assert result["fair"] == "U4 · Cannons +1 costs 2 Coal + 1 Iron; you have 9 Coal, 0 Iron"


def test_a_page_whose_first_request_finds_no_network_asks_again_until_it_answers(
        browser: Browser, base_url: str) -> None:
    # A phone just back on the Wi-Fi: the lobby's first request (the ruleset) fails as a network
    # error twice; the page asks again by itself, and shows the lobby, never "no connection".
    code = requests.post(f"{base_url}/api/games", json={"game": "quest1607", "options": {}},
                         timeout=10).json()["code"]
    context = browser.new_context(service_workers="block", locale="nl-NL", viewport=PHONE, base_url=base_url)
    asked: list[str] = []

    def away_twice(route: Route) -> None:
        asked.append(route.request.url)
        if len(asked) <= 2:
            route.abort("internetdisconnected")
        else:
            route.continue_()

    context.route("**/api/games/*/ruleset*", away_twice)  # ?lang=nl: the page asks in its language
    page = context.new_page()
    page.goto(f"/join/{code}")
    expect(page.locator("h2", has_text="Spelers aan tafel")).to_be_visible()
    assert len(asked) == 3
    expect(page.get_by_text("Nu even geen verbinding")).to_have_count(0)
    context.close()
