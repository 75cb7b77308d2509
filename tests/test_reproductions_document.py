"""docs/reproductions.md is the reproduce command's output, every number of it: regenerated here
from the claims and compared, so a change that moves a figure (or a reason) must regenerate it:

    python -m scheduling reproduce --seeds 5 --markdown docs/reproductions.md
"""

from __future__ import annotations

from pathlib import Path

from scheduling.reproduce import PAPERS, all_claims, paper_intros, reproduce, reproduction_markdown

ROOT = Path(__file__).resolve().parents[1]


def test_the_document_is_the_commands_output() -> None:
    outcomes = reproduce(all_claims(), seeds=5)
    text = reproduction_markdown(outcomes, seeds=5, command="python -m scheduling reproduce --seeds 5",
                                 intro=paper_intros(PAPERS))
    stored = (ROOT / "docs" / "reproductions.md").read_text(encoding="utf-8")
    regenerate = "python -m scheduling reproduce --seeds 5 --markdown docs/reproductions.md"
    assert text == stored, f"docs/reproductions.md is out of date: {regenerate}"
