"""Seats that move between phones, in real Chromium: four phones, the host, the TV.

Bram's phone dies (its browser context closes): once the grace of a reload is up (the server's
PRESENCE_GRACE, 15 s), the TV and the host panel mark him away, and when
the game waits on him the TV's headline and the other phones say so. The host gives his seat to a
new phone from the host panel; the new phone opens the link and plays Bram's turn; the TV tells that
he is back. Dirk's seat is handed over while his old phone is still open: that phone says so in
Dutch, forgets the seat and shows the join page; the used link then answers with the 410 words.
Cas moves himself to another phone. Last, the phone asks before the move that ends the game.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, expect

from tests.api.client import Game
from tests.api.test_whole_game import me as own_entry
from tests.api.test_whole_game import meet, supply

from .helpers import SHOTS, Device, api, close_all, quest_table, state_of, strip, top_shot

pytestmark = pytest.mark.e2e

PHONES = {"anna": ("Anna", "netherlands", "en-GB"), "bram": ("Bram", "england", "nl-NL"),
          "cas": ("Cas", "spain", "en-GB"), "dirk": ("Dirk", "portugal", "nl-NL")}
LOST = {"nl": "Je plaats is nu op een ander toestel.", "en": "Your seat is now on another phone."}
GONE = "This link was already used or has expired; ask the host for a new one."


@pytest.fixture(scope="module")
def table(browser: Browser, base_url: str) -> Iterator[dict[str, Any]]:
    game = quest_table(browser, base_url, PHONES, {"quests_per_level": 1})
    table = {"base": base_url, "browser": browser, **game}
    yield table
    close_all(table["devices"].values())  # the phones still open, and those that took a seat over


def act(table: dict[str, Any], key: str, action: dict[str, Any]) -> None:
    api(table["base"], "POST", f"/api/games/{table['code']}/actions", table["tokens"][key], action)


def key_of(table: dict[str, Any], player_id: str) -> str:
    return next(k for k, pid in table["ids"].items() if pid == player_id)


def play_until_the_turn_of(table: dict[str, Any], key: str) -> None:
    """Roll and end turns over the API until it is `key`'s turn, before their roll."""
    for _ in range(len(PHONES) + 1):
        turn = state_of(table)["turn"]
        if turn["player"] == table["ids"][key] and not turn["rolled"]:
            return
        active = key_of(table, turn["player"])
        if not turn["rolled"]:
            act(table, active, {"type": "roll"})
        act(table, active, {"type": "end_turn"})
    pytest.fail(f"{key}'s turn did not come")


def new_phone(table: dict[str, Any], name: str, locale: str, url: str) -> Device:
    """A phone that opens a hand-over link (on this server: its path and fragment)."""
    parts = urlsplit(url)
    assert parts.path == f"/join/{table['code']}" and parts.fragment.startswith("handover="), url
    phone = Device(table["browser"], table["base"], name, locale)
    table["devices"][name] = phone
    phone.goto(f"{parts.path}#{parts.fragment}")
    return phone


def hand_over_on_the_host_panel(table: dict[str, Any], key: str) -> str:
    """The host taps "Give X's seat to another phone"; return the link the panel then shows."""
    page, pid = table["devices"]["host"].page, table["ids"][key]
    page.locator(f"#handover-{pid}").click()
    link = page.locator(f"#handover-url-{pid}")
    expect(link).to_contain_text("#handover=")
    return link.inner_text().strip()


def card_shot(device: Device, selector: str, label: str) -> None:
    """A screenshot of one card of the page, whole, as it lies in the page (no sticky bar over it)."""
    box = device.page.locator(selector).bounding_box()
    assert box is not None, selector
    top = device.page.evaluate("window.scrollY")
    clip = {"x": box["x"], "y": box["y"] + top, "width": box["width"], "height": box["height"]}
    device.page.screenshot(path=str(SHOTS / f"{label}.png"), full_page=True, clip=clip)


def test_a_dead_phone_is_marked_away_and_its_seat_goes_to_a_new_phone(table: dict[str, Any]) -> None:
    devices, ids = table["devices"], table["ids"]
    tv, host, bram = devices["tv"], devices["host"], ids["bram"]
    expect(tv.page.locator(".sp")).to_have_count(4)
    expect(tv.page.locator(".screen-side .qr")).to_have_count(0)  # the join QR only in the lobby
    expect(tv.page.locator(".screen-code")).to_contain_text(table["code"])
    expect(host.page.locator(f"#seat-{bram} .tag.ok")).to_have_text("online")
    devices.pop("bram").context.close()  # the battery runs out
    mark = tv.page.locator(f"away-mark[player='{bram}'] .tag.away")
    expect(mark).to_contain_text("offline", timeout=45_000)  # after the grace, well within a minute
    expect(host.page.locator(f"#seat-{bram} .tag.away")).to_contain_text("offline")
    for key in ("anna", "cas", "dirk"):
        expect(tv.page.locator(f"away-mark[player='{ids[key]}'] .tag")).to_have_count(0)

    play_until_the_turn_of(table, "bram")  # the game now waits on Bram
    waiting = tv.page.locator(".screen-waiting")
    expect(waiting).to_contain_text("Waiting for Bram (offline for")
    expect(strip(devices["cas"])).to_contain_text("Waiting for Bram (offline for")
    expect(strip(devices["dirk"])).to_contain_text("Wacht op Bram (")
    tv.shot("seats-tv-bram-away")
    top_shot(devices["dirk"], "seats-phone-waiting-for-bram-nl")

    url = hand_over_on_the_host_panel(table, "bram")
    card = host.page.locator(f"#seat-{bram}")
    expect(card.locator(".handover .qr img")).to_be_visible()
    expect(card.locator(".seat-until")).to_contain_text("Works once, until")
    expect(card.locator(".seat-until")).to_contain_text("10 minutes left")
    card_shot(host, "seat-handover", "seats-host-handover")

    phone = new_phone(table, "bram-new", "nl-NL", url)
    page = phone.page
    expect(page).to_have_url(f"{table['base']}/play/{table['code']}")
    assert "handover" not in page.url
    assert phone.tokens(table["code"])["player"]["id"] == bram
    table["tokens"]["bram"] = phone.tokens(table["code"])["player"]["token"]
    expect(tv.page.locator(f"away-mark[player='{bram}'] .tag")).to_have_count(0)
    expect(tv.page.locator(".feed-big")).to_contain_text("Bram is back")
    expect(waiting).to_be_empty()
    expect(strip(devices["cas"])).not_to_contain_text("Waiting for Bram")
    expect(host.page.locator(f"#seat-{bram} .tag.ok")).to_have_text("online")
    expect(card.locator(".handover")).to_have_count(0)  # the link did its work: the panel lets go of it
    tv.shot("seats-tv-bram-back")
    page.locator("#do-roll").click()  # the new phone plays Bram's turn
    expect(tv.page.locator(".feed-big .feed-lines li").first).to_contain_text("Bram rolls")
    page.locator("#end-turn").click()
    expect(strip(devices["cas"])).to_contain_text("Your turn — roll the dice first.")
    assert state_of(table)["turn"]["player"] == ids["cas"]


def test_the_old_phone_learns_its_seat_moved_and_a_used_link_is_gone(table: dict[str, Any]) -> None:
    devices, code, dirk = table["devices"], table["code"], table["ids"]["dirk"]
    old = devices["dirk"]
    expect(strip(old)).to_be_visible()
    url = hand_over_on_the_host_panel(table, "dirk")
    phone = new_phone(table, "dirk-new", "nl-NL", url)
    expect(phone.page).to_have_url(f"{table['base']}/play/{code}")
    table["tokens"]["dirk"] = phone.tokens(code)["player"]["token"]
    # the old phone: told in its language, back on the join page, its seat forgotten, nothing to tap
    expect(old.page).to_have_url(f"{table['base']}/join/{code}")
    note = old.page.locator("#seat-note")
    expect(note).to_contain_text(LOST["nl"])
    expect(old.page.locator("main")).to_contain_text("Vraag de spelleider om een overdrachtslink")
    expect(old.page.get_by_role("link", name="Gedeeld scherm")).to_be_visible()
    expect(old.page.locator("#now, [data-act], #do-roll, #end-turn")).to_have_count(0)
    assert "player" not in old.tokens(code) or old.tokens(code)["player"] is None
    old.shot("seats-phone-lost-seat-nl")
    # The old phone stays on the join page: no error loop, no reconnecting badge.
    expect(old.page.locator("#conn")).to_be_hidden()
    expect(old.page).to_have_url(f"{table['base']}/join/{code}")
    # the same link a second time: gone, in words
    again = new_phone(table, "dirk-again", "en-GB", url)
    expect(again.page.locator("#seat-note")).to_contain_text(GONE)
    expect(again.page.locator("main")).to_contain_text("Ask the host for a hand-over link")
    assert "player" not in again.tokens(code)
    again.shot("seats-used-link")
    assert dirk == phone.tokens(code)["player"]["id"]


def test_a_phone_offline_during_the_hand_over_learns_it_when_it_is_back(table: dict[str, Any]) -> None:
    """Its token is refused at the socket's handshake: the API's 401 seat_moved tells it why."""
    devices, code = table["devices"], table["code"]
    asleep = devices["bram-new"]
    expect(strip(asleep)).to_be_visible()
    asleep.context.set_offline(True)
    expect(asleep.page.locator("#conn")).to_be_visible()
    phone = new_phone(table, "bram-third", "nl-NL", hand_over_on_the_host_panel(table, "bram"))
    expect(phone.page).to_have_url(f"{table['base']}/play/{code}")
    table["tokens"]["bram"] = phone.tokens(code)["player"]["token"]
    asleep.context.set_offline(False)
    expect(asleep.page.locator("#seat-note")).to_contain_text(LOST["nl"])
    expect(asleep.page).to_have_url(f"{table['base']}/join/{code}")
    assert "player" not in asleep.tokens(code)


def test_a_player_moves_their_own_seat_to_another_phone(table: dict[str, Any]) -> None:
    devices, code, cas = table["devices"], table["code"], table["ids"]["cas"]
    old = devices["cas"]
    old.page.locator("#seat-move-make").click()
    link = old.page.locator(f"#handover-url-{cas}")
    expect(link).to_contain_text("#handover=")
    expect(old.page.locator(".seat-move .handover .qr img")).to_be_visible()
    old.page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")  # the action bar below it
    card_shot(old, "seat-move", "seats-phone-move-link")
    phone = new_phone(table, "cas-new", "en-GB", link.inner_text().strip())
    expect(strip(phone)).to_contain_text("Your turn")
    table["tokens"]["cas"] = phone.tokens(code)["player"]["token"]
    expect(old.page.locator("#seat-note")).to_contain_text(LOST["en"])
    expect(old.page).to_have_url(f"{table['base']}/join/{code}")


def test_the_phone_asks_before_the_move_that_ends_the_game(table: dict[str, Any]) -> None:
    base, code = table["base"], table["code"]
    game = Game(base, code, table["host_token"], {table["ids"][k]: t for k, t in table["tokens"].items()})
    anna = table["ids"]["anna"]
    for _ in range(200):  # every player rolls; Anna works through her quests up to Gold (V1)
        state = state_of(table)
        active = state["turn"]["player"]
        if active == anna and own_entry(game, anna)["level"] == "done":
            break
        game.ok(game.players[active], {"type": "roll"})
        if active == anna:
            mine = own_entry(game, anna)
            doable = [q for q in mine["quests"] if q["level"] == mine["level"]
                      and all(r["kind"] != "win_fight" for r in q["requirements"])]
            if doable:
                meet(game, anna, doable[0])
            else:
                supply(game, anna)
                game.ok(game.players[anna], {"type": "buy_quest", "level": mine["level"]})
        game.ok(game.players[active], {"type": "end_turn"})
    else:
        pytest.fail("Anna did not complete Gold")
    page = table["devices"]["anna"].page
    page.locator("#do-roll").click()
    expect(page.locator("#sail-form")).to_have_attribute("open", "")  # it opens by itself after the roll
    edge = page.locator("#edge")
    expect(edge).to_be_enabled()
    edge.click()
    question = page.locator("dialog.ask")
    expect(question).to_contain_text("You reach the edge of the map and win the game. That ends it and "
                                     "shows the dice’s secret key, so anyone can check every roll. Win now?")
    expect(page.locator("#end-yes")).to_have_text("Win the game")
    table["devices"]["anna"].shot("seats-ask-before-the-end")
    page.locator("#end-no").click()  # an accidental tap: the evening goes on
    expect(question).to_have_count(0)
    assert state_of(table)["phase"] == "playing"
    edge.click()
    page.locator("#end-yes").click()
    expect(strip(table["devices"]["anna"])).to_contain_text("The game is over")
    assert state_of(table)["winner"] == anna
    host = table["devices"]["host"]
    expect(host.page.locator("#host-winner")).to_have_text("Anna wins!")
    expect(host.page.locator("#report svg[role=img]")).to_have_count(3)
    forms = "main form, main input, main select, #host-undo, seat-handover *"
    expect(host.page.locator(forms)).to_have_count(0)
    expect(host.page.locator("#record")).to_contain_text(f"shipmate export {base}/join/{code} -o game.json")
    top_shot(host, "seats-host-finished")
    tv = table["devices"]["tv"]
    expect(tv.page.locator(".screen-turn")).to_contain_text("Anna wins!")
    expect(tv.page.locator(".tag.away")).to_have_count(0)


def test_the_pure_seat_checks(table: dict[str, Any]) -> None:
    """logic/seats.js is pure: who each game waits on, which move ends it, and how long away is."""
    page = table["devices"]["anna"].page
    result = page.evaluate("""async () => {
      const S = await import('/js/logic/seats.js');
      const presence = { online: ['p1'], away: { p2: 125, p3: null, p4: 1 }, at: 1000 };
      const quest = { game: 'quest1607', phase: 'playing', you: 'p1', turn: { player: 'p2' },
        players: [{ id: 'p1', level: 'done' }, { id: 'p2', level: 'gold' }], combat: null };
      const sides = { attacker: { player: 'p1' }, defender: { player: 'p2' } };
      const fight = (combat) => S.waitingOn({ ...quest, combat: { ...sides, ...combat } });
      const sere = { game: 'serenissima', phase: 'playing', round: 3, round_phase: { number: 6 },
        players: [{ id: 'p1', finished_phase: true }, { id: 'p2', finished_phase: false }],
        bidding: null, active: 'p2' };
      const voy = { game: 'voyagers', phase: 'playing', stage: 'scoring',
        players: [{ id: 'p1', score: { reputation: 3 } }, { id: 'p2', score: null }] };
      const rounds = (n) => ({ phases: [1, 2, 3, 4, 5, 6], house_rules: { rounds: n } });
      return {
        words: [S.awayWords(S.awayFor(presence, 'p2', 1000)), S.awayWords(S.awayFor(presence, 'p2', 61000)),
                S.awayWords(S.awayFor(presence, 'p3', 1000)), S.awayWords(30)],
        away: ['p1', 'p2', 'p3', 'p4', 'p5'].map((p) => S.isAway(presence, p)),
        shown: S.shownAway(presence),
        back: S.cameBack(new Set(S.shownAway(presence)), { online: ['p1', 'p2', 'p3', 'p4'], away: {} }),
        waits: [S.waitingOn(quest), fight({ stage: 'firing', shooter: 'p1' }),
                fight({ stage: 'surrender_offered', surrendering: 'p2', shooter: 'p2' }),
                fight({ stage: 'salvage', sunk: 'p2' }), fight({ stage: 'fishing', winner: 'p1' }),
                S.waitingOn(sere),
                S.waitingOn({ ...sere, bidding: { revealed: false, waiting_for: ['p1', 'p2'] } }),
                S.waitingOn(voy), S.waitingOn({ ...voy, stage: 'order' })],
        ends: [S.endsGame(quest, {}, { type: 'reach_edge', ship: 1 }),
               S.endsGame(quest, {}, { type: 'roll' }),
               S.endsGame({ ...quest, you: 'p2' }, {}, { type: 'reach_edge' }),
               S.endsGame(sere, rounds(3), { type: 'finish_phase' }),
               S.endsGame(sere, rounds(4), { type: 'finish_phase' }),
               S.endsGame(sere, rounds(null), { type: 'end_game' }),
               S.endsGame(voy, {}, { type: 'score', player: 'p2' }),
               S.endsGame(voy, {}, { type: 'score', player: 'p1' })],
      };
    }""")
    assert result["words"] == ["offline for 2 minutes", "offline for 3 minutes", "offline",
                               "offline for less than a minute"]
    # The server's word, its grace already past: p4, away for a second, is gone; p5 is no player of it
    assert result["away"] == [False, True, True, True, False]
    assert result["shown"] == ["p2", "p4"]  # p3 was never seen online: their arrival is no return
    assert result["back"] == ["p2", "p4"]
    assert result["waits"] == [["p2"], ["p1"], ["p1"], ["p2"], ["p1"], ["p2"], ["p1", "p2"], ["p2"], []]
    assert result["ends"] == [True, False, False, True, False, True, True, False]


def test_serenissima_asks_before_the_host_ends_the_game(browser: Browser, base_url: str) -> None:
    """SE19: the host's end of a Serenissima game is asked first; then the panel keeps only the record."""
    created = api(base_url, "POST", "/api/games", body={"game": "serenissima", "options": {}})
    code, host_token = created["code"], created["host_token"]
    powers = [c["id"] for c in api(base_url, "GET", f"/api/games/{code}/ruleset")["characters"]]
    for name, power in zip(("Anna", "Bram", "Cas"), powers, strict=False):
        api(base_url, "POST", f"/api/games/{code}/players", body={"name": name, "character": power})
    api(base_url, "POST", f"/api/games/{code}/actions", host_token, {"type": "start"})
    host = Device(browser, base_url, "se-host", "en-GB")
    try:
        host.remember(code, {"host": host_token})
        page = host.goto(f"/host/{code}")
        expect(page.locator("seat-handover .seat")).to_have_count(3)
        expect(page.locator("seat-handover .tag.away")).to_have_count(3)  # no phone has opened the game
        expect(page.get_by_role("button", name="Give Bram’s seat to another phone")).to_be_visible()
        page.locator("#end-game").click()
        expect(page.locator("dialog.ask")).to_contain_text("This ends the game and shows the dice’s secret")
        page.keyboard.press("Escape")  # Esc is "not yet" too
        expect(page.locator("dialog.ask")).to_have_count(0)
        assert api(base_url, "GET", f"/api/games/{code}")["phase"] == "playing"
        page.locator("#end-game").click()
        page.locator("#end-yes").click()
        over = "The game is over after round 1. Count up the winner on the board."
        expect(page.locator("#host-over")).to_have_text(over)
        expect(page.locator("#record")).to_contain_text(f"shipmate verify {base_url}/join/{code}")
        expect(page.locator("#end-game, #host-undo, seat-handover *")).to_have_count(0)
        assert host.dialogs == [] and host.errors == []
    finally:
        host.context.close()
