"""The glossary: every term defined once (meaning, paper, where), shown by the CLI's --help."""

from __future__ import annotations

import contextlib
import io

import pytest

from scheduling.cli import build_parser
from scheduling.glossary import TERMS, command_terms, help_text, terms_in

#: The terms issue 22 asks for, by their glossary keys.
ASKED = ["drf", "tsf", "ps-dsf", "rduc", "dominant-share", "unfairness-area", "mrsu", "ft-id", "theta-d",
         "exact-per-decision", "lower-bound"]


def test_every_asked_term_has_a_meaning_a_paper_and_a_place() -> None:
    keys = [t.key for t in TERMS]
    assert set(ASKED) <= set(keys) and len(keys) == len(set(keys))
    for t in TERMS:
        assert t.meaning.endswith(".") and "\n" not in t.meaning, t.key
        assert t.paper and t.where and t.commands, t.key
    spellings = [w for t in TERMS for w in t.written]
    assert len(spellings) == len(set(spellings))  # a spelling links to one entry


def test_spellings_are_whole_words() -> None:
    assert [t.key for t in terms_in("UDRF against BF-DRF")] == []
    assert [t.key for t in terms_in("rPS-DSF (joint) and DRF")] == ["drf", "ps-dsf"]


@pytest.mark.parametrize("command", sorted({c for t in TERMS for c in t.commands}))
def test_the_cli_help_shows_the_glossary_text(command: str) -> None:
    parser = build_parser()
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        parser.parse_args([command, "--help"])
    text = "".join(out.getvalue().split())  # wrapped anywhere, hyphens too
    for paragraph in help_text(command_terms(command)).split("\n\n"):
        assert "".join(paragraph.split()) in text
