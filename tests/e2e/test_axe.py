"""Every page of the three games passes axe-core's WCAG 2.2 AA rules: no serious or critical violation.

axe-core comes from npm at the version tests/e2e/package-lock.json pins (scripts/test installs it in
tests/e2e/node_modules). Each page of the tour (layout.py: home, the lobby as a stranger, the host and a
joined player, the player's phone, the host panel, the shared screen and the dice device, in the lobby,
in play, in a fight and after the end) is opened on a 390 × 844 phone, the shared screen on a
1920 × 1080 TV, and axe runs on it as drawn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .layout import GAMES, tour

pytestmark = pytest.mark.e2e

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
FAILING = ("serious", "critical")
RUN = """(tags) => axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
  .then((result) => result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
  })))"""


def violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical WCAG 2.2 AA violations on the page as it is now."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(RUN, TAGS)
    return [v for v in found if v["impact"] in FAILING]


def told(label: str, found: list[dict[str, Any]]) -> str:
    lines = [f"{label}:"]
    for v in found:
        lines.append(f"  {v['impact']} {v['id']}: {v['help']}")
        lines += [f"    {n['target']} — {' '.join(n['summary'].split())}" for n in v["nodes"][:6]]
    return "\n".join(lines)


@pytest.mark.parametrize("game", GAMES)
def test_no_page_has_a_serious_or_critical_violation(browser: Browser, base_url: str, game: str) -> None:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: `bash scripts/test` installs axe-core (npm ci --prefix tests/e2e)")
    report = []
    for stop in tour(browser, base_url, game, bypass_csp=True):  # the script tag carries axe inline
        if not stop.settled:
            report.append(f"{stop.label}: the page never finished drawing (errors: {stop.device.errors})")
            continue
        found = violations(stop.device.page)
        if found:
            report.append(told(stop.label, found))
    print("\n\n".join(report))
    assert not report, "\n\n".join(report)
