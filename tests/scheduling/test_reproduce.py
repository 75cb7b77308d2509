"""The reproduction registry and the ``reproduce`` command, on claims declared here.

The papers' own claims are tested beside their packages (tests/scheduling/<paper>/); this checks
the machinery every paper's claims go through: seeds, verdicts, undefined values, the table,
the document, the page, the generated markdown, and the command's flags and errors.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scheduling import cli
from scheduling.errors import ScenarioError
from scheduling.reproduce import (
    Claim,
    all_claims,
    at_least,
    between,
    reproduce,
    reproduction_document,
    reproduction_markdown,
    reproduction_run,
    reproduction_table,
    within,
)


def _claims() -> list[Claim]:
    return [
        Claim("000", "t-tasks", "Table I", "tasks in all", "41", "tasks",
              measure=lambda seed: 41.0 + seed % 2, reproduced=within(41, abs_tol=1)),
        Claim("001", "t-fig1", "§V-B, Figure 1", "unfairness | greedy", "38 %", "percent",
              measure=lambda seed: 50.0 + seed, reproduced=between(30, 45), direction=at_least(1),
              reason="Greedy answers hold more than Marathon's five tasks."),
        Claim("001", "t-none", "§V-D", "makespan ratio at five idle frameworks", "2x", "ratio",
              measure=lambda seed: None, reproduced=between(1.5, 2.5)),
        Claim("002", "t-order", "Fig. 5", "FT below VM-static", "yes", "ratio", seeded=False,
              measure=lambda seed: -1.0, reproduced=at_least(0), reason="The order is reversed."),
    ]


def test_outcomes_measure_each_seed_and_judge_the_mean() -> None:
    calls: list[int] = []

    def measure(seed: int) -> float:
        calls.append(seed)
        return float(seed)

    once = Claim("003", "once", "Fig. 3", "x", "1", "count", measure=measure, reproduced=at_least(0),
                 seeded=False)
    outcomes = reproduce([*_claims(), once], seeds=4)
    assert calls == [0]  # a claim that is not seeded is measured once
    by_key = {o.claim.key: o for o in outcomes}
    assert by_key["t-tasks"].values == (41.0, 42.0, 41.0, 42.0) and by_key["t-tasks"].mean == 41.5
    assert by_key["t-tasks"].verdict == "reproduced"
    assert by_key["t-fig1"].verdict == "direction only" and by_key["t-fig1"].low == 50.0
    assert by_key["t-none"].verdict == "not measured" and by_key["t-none"].ours_text() == "undefined"
    assert by_key["t-order"].verdict == "differs" and by_key["t-order"].values == (-1.0,)


def test_the_table_document_and_markdown_say_the_same() -> None:
    outcomes = reproduce(_claims(), seeds=2)
    table = reproduction_table(outcomes)
    assert [c["key"] for c in table["columns"]][:5] == ["paper", "where", "what", "paper_value", "ours"]
    doc = reproduction_document(outcomes, seeds=2)
    assert doc["counts"] == {"reproduced": 1, "direction only": 1, "differs": 1, "not measured": 1}
    assert doc["claims"][1]["reason"].startswith("Greedy") and doc["claims"][0]["reason"] == ""
    json.dumps(doc, allow_nan=False)
    text = reproduction_markdown(outcomes, seeds=2, command="python -m scheduling reproduce --seeds 2",
                                 intro={"001": "Two frameworks on a small cluster."})
    assert "## Paper 001" in text and "Two frameworks on a small cluster." in text
    assert "unfairness \\| greedy" in text  # a table cell's pipe is escaped
    assert "Greedy answers hold more" in text and "(direction only)" in text


def test_seeds_and_papers_are_read_by_their_declarations() -> None:
    assert reproduction_run({}) == {"papers": ["000", "001", "002", "003", "004"], "seeds": 5}
    with pytest.raises(ScenarioError) as err:
        reproduction_run({"papers": ["009"], "seeds": 0})
    assert {e.path for e in err.value.errors} == {"papers[0]", "seeds"}
    with pytest.raises(ValueError, match="unknown paper 009"):
        all_claims(["009"])


def test_the_command_prints_the_table_and_writes_every_output(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wanted: list[Any] = []

    def claims(papers: Any) -> list[Claim]:
        wanted.append(list(papers))
        return [c for c in _claims() if c.paper in papers]

    monkeypatch.setattr(cli, "all_claims", claims)
    monkeypatch.setattr(cli, "paper_intros", lambda papers: {p: f"Set-up of {p}." for p in papers})
    out, page, md = tmp_path / "r.json", tmp_path / "r.html", tmp_path / "r.md"
    assert cli.main(["reproduce", "--paper", "001", "--seeds", "3", "-o", str(out), "--html", str(page),
                     "--markdown", str(md)]) == 0
    assert wanted == [["001"]]
    err = capsys.readouterr().err
    assert "2 of 2 claims measured" in err and "direction only" in err and "Greedy answers" in err
    doc = json.loads(out.read_text())
    assert doc["papers"] == ["001"] and doc["seeds"] == 3 and len(doc["claims"]) == 2
    assert "Paper 001" in page.read_text() and "<script" in page.read_text()
    assert "python -m scheduling reproduce --paper 001 --seeds 3" in md.read_text()
    assert "Set-up of 001." in md.read_text()


def test_bad_flags_exit_2_naming_the_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["reproduce", "--paper", "009", "--seeds", "0"]) == 2
    err = capsys.readouterr().err
    assert "error: --paper[0]: must be one of 000, 001, 002, 003, 004" in err
    assert "error: --seeds: must be a whole number from 1 to 100" in err
