"""Per user UDRF against DRF (issue 17): who gets less than under DRF, and by how much, in the
offline document (``versus_drf``), its tables, the comparison table and the command's text."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scheduling.cli import main
from scheduling.scenario import parse_scenario
from scheduling.udrf.offline_doc import drf_comparison, offline_document
from scheduling.udrf.setups import below_drf_document, fig1_document
from scheduling.udrf.synthetic import synthetic_scenario
from scheduling.udrf.tables import below_drf_rows, udrf_summary, udrf_table, udrf_tables, udrf_text


@pytest.fixture(scope="module")
def below() -> dict[str, Any]:
    return offline_document(parse_scenario(below_drf_document()))


def test_the_document_names_who_gets_less_and_by_how_much(below: dict[str, Any]) -> None:
    # u1 under UDRF: A 10, B 5, level 1/2 (s full at round 1, line 25); under DRF: A = B = 10,
    # level 1. u2 and u3 at 1/2 under both (o full).
    versus = below["versus_drf"]
    assert (versus["below"], versus["equal"], versus["above"], versus["largest_loss"]) == (1, 2, 0, 0.5)
    first, *others = versus["users"]
    assert first == {
        "name": "u1", "rduc": 0, "dominant_share": 0.5, "drf_dominant_share": 1.0, "change": -0.5,
        "change_pct": -50.0, "job_count": 5.0, "drf_job_count": 10.0, "jobs": 15.0, "drf_jobs": 20.0,
        "verdict": "below",
    }
    assert [(u["name"], u["verdict"], u["change"]) for u in others] == [("u2", "equal", 0),
                                                                       ("u3", "equal", 0)]
    json.dumps(below, allow_nan=False)


def test_fig1_and_the_synthetic_trace() -> None:
    # The paper's example: nobody below (u1 and u2 at 1/2, u3 5/6, u4 1 under both).
    fig1 = offline_document(parse_scenario(fig1_document()))["versus_drf"]
    assert (fig1["below"], fig1["equal"], fig1["largest_loss"]) == (0, 4, 0)
    # Notes §7's trace (50 users, 200 jobs, 60 classes, seed 0): 4 users below DRF (30 before
    # the lockstep reading), the largest loss 46.6 points of dominant share (user044).
    trace = offline_document(synthetic_scenario(users=50, jobs=200, classes=60, seed=0))["versus_drf"]
    assert (trace["below"], trace["equal"] + trace["above"]) == (4, 46)
    assert [u["name"] for u in trace["users"][:4]] == ["user044", "user015", "user038", "user003"]
    assert trace["largest_loss"] == pytest.approx(0.4665, abs=1e-4)
    assert all(u["verdict"] == "below" for u in trace["users"][:4])


def test_without_drf_there_is_no_comparison() -> None:
    doc = offline_document(parse_scenario(below_drf_document()), compare_drf=False)
    assert "versus_drf" not in doc
    assert below_drf_rows(doc) == [] and "below_drf" not in [t["key"] for t in udrf_tables([doc])]


def test_the_table_lists_the_users_below_with_their_loss(below: dict[str, Any]) -> None:
    (row,) = below_drf_rows(below)
    assert row == {"user": "u1", "rduc": 1, "dominant_share": 50.0, "drf_dominant_share": 100.0, "loss": 50.0,
                   "loss_pct": 50.0, "job_count": 5.0, "drf_job_count": 10.0, "jobs": 15.0, "drf_jobs": 20.0}
    tables = {t["key"]: t for t in udrf_tables([below])}
    table = tables["below_drf"]
    assert table["title"] == "Users who get less than under DRF, and by how much"
    assert table["shown"] == [["u1", "1", "50.0%", "100.0%", "50.0%", "50.0%", "5", "10", "15", "20"]]
    # A page reads it from the summary's first rows, as from the document.
    summary = udrf_summary(below, rows=50)
    assert summary["row_counts"]["below_drf"] == 1
    assert {t["key"]: t["shown"] for t in udrf_tables([summary])}["below_drf"] == table["shown"]


def test_a_document_written_before_the_section_gets_the_same_rows(below: dict[str, Any]) -> None:
    older = {k: v for k, v in below.items() if k != "versus_drf"}
    assert below_drf_rows(older) == below_drf_rows(below)
    assert udrf_summary(older)["policies"]["udrf"]["users_below_drf"] == 1


def test_the_comparison_table_counts_them(below: dict[str, Any]) -> None:
    rows = {r["key"]: r for r in udrf_table({"offline": below})["rows"]}
    assert [c["shown"] for c in rows["users_below_drf"]["cells"]] == ["1", "—"]
    assert [c["shown"] for c in rows["largest_loss_vs_drf"]["cells"]] == ["50.0%", "—"]
    fig1 = offline_document(parse_scenario(fig1_document()))
    rows = {r["key"]: r for r in udrf_table({"offline": fig1})["rows"]}
    assert [c["shown"] for c in rows["users_below_drf"]["cells"]] == ["0", "—"]


def test_the_comparison_keeps_fractions_exact() -> None:
    from fractions import Fraction as F

    udrf = [{"name": "u", "rduc": 0, "dominant_share": F(1, 3), "job_count": F(1), "jobs": {"a": F(1)}}]
    drf = [{"name": "u", "rduc": 0, "dominant_share": F(1, 2), "job_count": F(2), "jobs": {"a": F(2)}}]
    out = drf_comparison(udrf, drf)
    assert out["largest_loss"] == F(1, 6) and out["users"][0]["change_pct"] == F(-100, 3)
    # A difference of rounding is no loss in floats, and is one in fractions.
    same = drf_comparison([{**udrf[0], "dominant_share": 0.5 - 1e-15}], [{**drf[0], "dominant_share": 0.5}])
    assert same["equal"] == 1 and same["users"][0]["change"] == 0


def test_the_command_prints_who_gets_less(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "below.json"
    path.write_text(json.dumps(below_drf_document()))
    assert main(["udrf", str(path), "--compare-drf", "--compact"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["offline"]["versus_drf"]["below"] == 1
    assert "Users below their DRF share" in err and "Users who get less than under DRF" in err
    assert udrf_text({"offline": json.loads(out)["offline"]}) in err
