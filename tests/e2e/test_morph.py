"""pwa/js/morph.js in Chromium: an update draws in place, and what the player was doing survives it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def page(browser: Browser, base_url: str) -> Iterator[Page]:
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{base_url}/")
    page.evaluate("async () => { window.morph = (await import('/js/morph.js')).morph; }")
    yield page
    context.close()


def run(page: Page, script: str) -> Any:
    """Run `script` (the body of a function of `root`, a fresh element in the page) and return its value."""
    return page.evaluate(f"""() => {{
      const root = document.createElement('div');
      document.body.append(root);
      try {{ {script} }} finally {{ root.remove(); }}
    }}""")


def test_nodes_the_update_left_alone_stay_the_same_nodes(page: Page) -> None:
    assert run(page, """
      morph(root, '<h2>Turn 1</h2><p class="a">Anna</p><ul><li>wood</li></ul>');
      const [h2, p, li] = [root.querySelector('h2'), root.querySelector('p'), root.querySelector('li')];
      morph(root, '<h2>Turn 2</h2><p class="b">Anna</p><ul><li>wood</li><li>iron</li></ul>');
      return [root.querySelector('h2') === h2, h2.textContent, root.querySelector('p') === p, p.className,
              root.querySelector('li') === li, root.querySelectorAll('li').length];
    """) == [True, "Turn 2", True, "b", True, 2]


def test_keyed_nodes_keep_their_identity_when_they_move_and_others_go(page: Page) -> None:
    assert run(page, """
      morph(root, '<div data-key="a">A</div><div data-key="b">B</div><div data-key="c">C</div>');
      const [a, b, c] = root.children;
      morph(root, '<div data-key="c">C!</div><div data-key="a">A</div>');
      return [root.children.length, root.children[0] === c, root.children[1] === a, c.textContent,
              b.isConnected];
    """) == [2, True, True, "C!", False]


def test_a_half_typed_reason_and_its_caret_and_focus_survive(page: Page) -> None:
    assert run(page, """
      const form = (n) => `<form><label for="why">Reason</label><input id="why" value=""><p>v${n}</p></form>`;
      morph(root, form(1));
      const input = root.querySelector('#why');
      input.focus();
      input.value = 'storm at se';
      input.setSelectionRange(5, 5);
      morph(root, form(2));
      return [root.querySelector('#why') === input, document.activeElement === input, input.value,
              input.selectionStart, root.querySelector('p').textContent];
    """) == [True, True, "storm at se", 5, "v2"]


def test_an_open_card_stays_open_and_a_closed_one_closed(page: Page) -> None:
    assert run(page, """
      const cards = (n) => `<details id="sail"><summary>Sail</summary><p>${n}</p></details>
                            <details id="trade" open><summary>Trade</summary></details>`;
      morph(root, cards(1));
      root.querySelector('#sail').open = true;   // the player opens one
      root.querySelector('#trade').open = false; // and closes the other
      morph(root, cards(2));
      return [root.querySelector('#sail').open, root.querySelector('#trade').open,
              root.querySelector('#sail p').textContent];
    """) == [True, False, "2"]


def test_the_pages_own_change_of_a_value_is_shown_but_not_over_a_focused_control(page: Page) -> None:
    assert run(page, """
      morph(root, '<input id="n" value="1"><input id="m" value="1"><input type="checkbox" id="c">');
      const [n, m, c] = root.querySelectorAll('input');
      n.value = '5';  // typed, then the page sets another value: the page's is shown
      m.focus();
      m.value = '3';  // being typed
      morph(root, '<input id="n" value="2"><input id="m" value="2"><input type="checkbox" id="c" checked>');
      const first = [n.value, m.value, c.checked];
      m.blur();
      n.value = '7';  // typed, while the markup stays the same: the player's value stays
      morph(root, '<input id="n" value="2"><input id="m" value="2"><input type="checkbox" id="c" checked>');
      return [...first, n.value];
    """) == ["2", "3", True, "7"]


def test_attributes_that_went_are_removed_and_text_is_escaped_as_given(page: Page) -> None:
    assert run(page, """
      morph(root, '<button id="go" disabled aria-describedby="why">Go</button>');
      const button = root.querySelector('#go');
      morph(root, '<button id="go">Go &amp; sail</button>');
      return [button.isConnected && root.querySelector('#go') === button, button.disabled,
              button.hasAttribute('aria-describedby'), button.textContent];
    """) == [True, False, False, "Go & sail"]


def test_a_custom_element_keeps_the_children_it_drew_itself(page: Page) -> None:
    assert run(page, """
      morph(root, '<x-mark data-player="p1"></x-mark>');
      const mark = root.querySelector('x-mark');
      mark.textContent = 'offline 2 min';  // drawn by the element itself
      morph(root, '<x-mark data-player="p2"></x-mark>');
      return [root.querySelector('x-mark') === mark, mark.dataset.player, mark.textContent];
    """) == [True, "p2", "offline 2 min"]
