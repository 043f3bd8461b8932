"""Measure the first load of a PWA page: every HTML, JS, CSS and manifest file it loads, gzipped.

The files are found the way the browser finds them: index.html's <link>/<script>, then each
module's static imports, plus the page module that the router imports for the route
(`/play/CODE` → js/views/quest1607/player.js; with `--game serenissima` → js/views/serenissima/player.js:
the module the router loads by `import()` for the game's page), and the words of the page's
language, which a module loads by `import(`./i18n.${code}.js`)` before the page draws (`--lang`, English
by default), and the sheets these modules add to the page themselves (tv.css, serenissima.css: a
`<link>` made from JavaScript, named in the module as '/css/NAME.css'). Icons and API calls are
left aside; so are modules a page loads later with `import()`, and their sheets (seats.css,
guide.css). tests/e2e/test_first_load.py adds the API's answers each page fetches in Chromium, and
checks these sheets against those the page fetches.

    python bench/pwa_size.py                      # the files on disk (pwa/)
    python bench/pwa_size.py --url http://127.0.0.1:5077 --page screen
    python bench/pwa_size.py --game voyagers --page player --lang nl
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
import urllib.request
from pathlib import Path, PurePosixPath

PWA = Path(__file__).resolve().parents[1] / "pwa"
BUDGET = 60 * 1024
PAGES = ("home", "lobby", "player", "screen", "host", "dice", "rulebook")
GAMES = ("quest1607", "serenissima", "voyagers")
LANGS = ("en", "nl")
# The pages each game has its own module for (pwa/js/games.js: OWN_PAGES); the rest are shared.
OWN_PAGES = {"quest1607": ("player", "screen", "host", "dice"), "serenissima": ("player", "screen", "host"),
             "voyagers": ("player", "screen", "host")}
HTML_REFS = re.compile(r'<(?:link|script)\b[^>]*\b(?:href|src)="(/[^"]+)"', re.I)
STATIC_IMPORTS = re.compile(
    r'^\s*(?:import|export)\b[^;]*?\bfrom\s*[\'"]([^\'"]+)[\'"]|^\s*import\s*[\'"]([^\'"]+)[\'"]', re.M
)
# A module's words in the page's language: import(`./i18n.${code}.js`), `code` the language
LANGUAGE_IMPORTS = re.compile(r"\bimport\(`(\.[^`$]*)\$\{code\}([^`$]*)`\)")
# A sheet a module adds to the page (a <link> it makes: sheet('/css/tv.css'), href: '/css/front.css')
SHEETS = re.compile(r"""['"](/css/[\w.-]+\.css)['"]""")
COUNTED = (".html", ".js", ".css", ".webmanifest", ".json")


def reader(url: str | None):
    """Return a function that reads a site path (/js/app.js) from disk or from a running server."""
    if url:
        def fetch(path: str) -> bytes:
            with urllib.request.urlopen(url.rstrip("/") + path, timeout=10) as response:
                return bytes(response.read())
        return fetch
    return lambda path: (PWA / path.lstrip("/")).read_bytes()


def page_module(game: str, page: str) -> str:
    """The module the router imports for `page` of `game` (as pwa/js/games.js pageModule does)."""
    if page in ("home", "lobby", "rulebook"):
        return f"/js/views/{page}.js"
    own = OWN_PAGES.get(game, OWN_PAGES["quest1607"])
    mine = page if page in own else "screen"  # only Quest 1607 has a dice device
    return f"/js/views/{game if game in OWN_PAGES else 'quest1607'}/{mine}.js"


def first_load(page: str, read, game: str = "quest1607", lang: str = "en") -> dict[str, bytes]:
    """Every counted file the page loads before it is usable, by site path."""
    files: dict[str, bytes] = {}
    html = read("/index.html")
    files["/index.html"] = html
    queue = [p for p in HTML_REFS.findall(html.decode()) if p.endswith(COUNTED)]
    queue.append(page_module(game, page))  # the router's import() for this route
    while queue:
        path = queue.pop()
        if path in files:
            continue
        body = read(path)
        files[path] = body
        if path.endswith(".js"):
            base = PurePosixPath(path).parent
            for a, b in STATIC_IMPORTS.findall(body.decode()):
                spec = a or b
                if spec.startswith("."):
                    queue.append(str(PurePosixPath(os_normpath(str(base / spec)))))
            for before, after in LANGUAGE_IMPORTS.findall(body.decode()):
                queue.append(os_normpath(str(base / f"{before}{lang}{after}")))
            queue.extend(SHEETS.findall(body.decode()))
    return files


def os_normpath(path: str) -> str:
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            parts.pop()
        elif part and part != ".":
            parts.append(part)
    return "/" + "/".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="base URL of a running server (default: the files on disk)")
    parser.add_argument("--page", default="player", choices=PAGES)
    parser.add_argument("--game", default="quest1607", choices=GAMES)
    parser.add_argument("--lang", default="en", choices=LANGS, help="the page's language (default: en)")
    parser.add_argument("--budget", type=int, default=BUDGET, help="bytes gzipped (default 60 KB)")
    args = parser.parse_args(argv)
    files = first_load(args.page, reader(args.url), args.game, args.lang)
    total_raw = total_gz = 0
    for path in sorted(files):
        raw = files[path]
        gz = len(gzip.compress(raw, compresslevel=6))
        total_raw += len(raw)
        total_gz += gz
        print(f"{gz:>8,} B gz {len(raw):>9,} B  {path}")
    verdict = "within" if total_gz <= args.budget else "OVER"
    print(f"{total_gz:>8,} B gz {total_raw:>9,} B  total: {len(files)} files for /{args.page} "
          f"({args.game}, {args.lang}) — {verdict} the budget of {args.budget:,} B")
    return 0 if total_gz <= args.budget else 1


if __name__ == "__main__":
    sys.exit(main())
