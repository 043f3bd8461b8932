"""The first load of every page of every game stays under 60 KB compressed (bench/pwa_size.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "pwa_size.py"
spec = importlib.util.spec_from_file_location("pwa_size", BENCH)
assert spec is not None and spec.loader is not None
pwa_size = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pwa_size)


@pytest.mark.parametrize("lang", pwa_size.LANGS)
@pytest.mark.parametrize("game", pwa_size.GAMES)
@pytest.mark.parametrize("page", pwa_size.PAGES)
def test_a_page_loads_within_the_budget(
        game: str, page: str, lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert pwa_size.main(["--game", game, "--page", page, "--lang", lang]) == 0, capsys.readouterr().out


def test_the_words_of_the_pages_language_are_counted() -> None:
    for lang in pwa_size.LANGS:
        assert f"/js/i18n.{lang}.js" in pwa_size.first_load("home", pwa_size.reader(None), lang=lang)
