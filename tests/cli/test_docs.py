"""The documents a host and a developer read stand alone: every link stays in the repository and leads
somewhere, and what README.md says of the command is what the command says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shipmate import cli

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "deploy" / "README.md"]
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_link_leads_to_a_file_of_the_repository(document: Path) -> None:
    for target in LINK.findall(document.read_text()):
        if target.startswith("#"):
            continue
        assert "://" not in target and not target.startswith("mailto:"), f"{target} leaves the repository"
        path = (document.parent / target.split("#", 1)[0]).resolve()
        assert path.is_relative_to(ROOT), f"{target} leaves the repository"
        assert path.exists(), f"{target} leads nowhere"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_document_sends_the_reader_outside_the_clone(document: Path) -> None:
    assert "../shared" not in document.read_text()
    assert "DESIGN.md" not in document.read_text()


@pytest.mark.parametrize("source", sorted((ROOT / "bench").glob("*.py")), ids=lambda path: path.name)
def test_no_benchmark_looks_outside_the_clone_by_default(source: Path) -> None:
    assert '"shared"' not in source.read_text() and "../shared" not in source.read_text()


def test_the_readme_shows_the_command_s_own_help(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "120")  # argparse wraps to the terminal's width
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    readme = (ROOT / "README.md").read_text()
    for line in capsys.readouterr().out.splitlines():
        assert line.rstrip() in readme, line
