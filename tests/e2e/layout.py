"""Layout checks that the end-to-end tests share: what a phone's sticky action bar may cover."""

from __future__ import annotations

from .helpers import Device

BAR_GAP = """() => {
  const bar = document.querySelector('.actionbar');
  const before = bar && bar.previousElementSibling;
  if (!before) return null;
  return bar.getBoundingClientRect().top - before.getBoundingClientRect().bottom;
}"""


def shot_of_the_end(device: Device, label: str) -> None:
    """Scroll to the page's end, check the action bar covers nothing above it, and take a shot."""
    page = device.page
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    gap = page.evaluate(BAR_GAP)
    assert gap is not None, f"{label}: no action bar after the content"
    assert gap > -1, f"{label}: the action bar covers {-gap:.1f} px of the last card"
    device.shot(label)
    page.evaluate("window.scrollTo(0, 0)")
