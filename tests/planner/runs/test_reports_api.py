"""Cost reports over the API: every format, for owner / member / outsider."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from planner.runs import services
from planner.runs.models import Run
from planner.teams.models import Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_run(team: Team, owner: Any, scenario_doc: dict[str, Any], execute_run: Any) -> Run:
    run = services.run_start(
        user=owner, team=team, scenario=scenario_doc, schedulers=["fifo-spread", "edf-bfd"]
    )
    execute_run(run.pk)
    return Run.objects.get(pk=run.pk)


@pytest.mark.parametrize(("who", "status"), [("owner", 200), ("member", 200), ("outsider", 404)])
@pytest.mark.parametrize(("fmt", "content_type", "magic"), [
    ("csv", "text/csv", b"\xef\xbb\xbf"),
    ("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", b"PK"),
    ("pdf", "application/pdf", b"%PDF"),
])
def test_report_downloads(api, trio, finished_run, who, status, fmt, content_type, magic):
    response = api(trio[who]).get(f"/api/runs/{finished_run.pk}/report/{fmt}/")
    assert response.status_code == status
    if status == 200:
        assert response["Content-Type"].startswith(content_type)
        assert response["Content-Disposition"].startswith("attachment; filename=")
        assert response.content.startswith(magic)


def test_report_numbers_match_the_results(api, member, finished_run):
    text = (
        api(member)
        .get(f"/api/runs/{finished_run.pk}/report/csv/?baseline=edf-bfd")
        .content.decode("utf-8-sig")
    )
    rows = list(csv.reader(io.StringIO(text)))
    costs = {r.variant: r.summary["total_cost"] for r in finished_run.results.all()}
    header = next(r for r in rows if r and r[0] == "Scheduler")
    col = header.index(next(h for h in header if h.lower().startswith("total cost")))
    section = rows[rows.index(header) + 1:]
    blank = next((k for k, r in enumerate(section) if not r), len(section))
    section = section[:blank]  # up to the blank line
    found = {r[0]: float(r[col]) for r in section}
    assert found == pytest.approx(costs, abs=0.005)  # the CSV keeps cents


def test_report_of_an_unfinished_run_or_unknown_format_is_404(
    api, owner, team, scenario_doc, execute_run: Any
):
    run = services.run_start(user=owner, team=team, scenario=scenario_doc, schedulers=["edf-bfd"])
    assert api(owner).get(f"/api/runs/{run.pk}/report/csv/").status_code == 404
    execute_run(run.pk)
    assert api(owner).get(f"/api/runs/{run.pk}/report/docx/").status_code == 404
    assert api(None).get(f"/api/runs/{run.pk}/report/csv/").status_code in (401, 403)


def test_stored_documents_read_lazily_are_the_documents(finished_run: Run) -> None:
    from planner.runs.selectors import run_results, run_results_lazy
    from scheduling.cost.document import DETAIL_SECTIONS

    full = run_results(run=finished_run)
    lazy = run_results_lazy(run=finished_run, large=(*DETAIL_SECTIONS, "no_such_key"))
    assert list(lazy) == list(full)
    for variant, doc in full.items():
        assert set(lazy[variant]) == set(doc)  # "no_such_key" is not one of them
        assert dict(lazy[variant]) == doc
        with pytest.raises(KeyError):
            lazy[variant]["no_such_key"]


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "pdf"])
def test_a_csv_report_is_the_one_built_from_whole_documents_without_reading_their_detail(
    finished_run: Run, fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from planner.runs import reporting, selectors
    from scheduling.cost.document import DETAIL_SECTIONS

    read: list[str] = []
    fetch = selectors.LazyResult.__getitem__

    def counting(self: selectors.LazyResult, key: str) -> Any:
        if key in DETAIL_SECTIONS and key not in self._values:
            read.append(key)
        return fetch(self, key)

    given: list[Any] = []

    def lazily(run: Run, large: tuple[str, ...]) -> Any:
        given.extend((found := selectors.run_results_lazy(run=run, large=large)).values())
        return found

    monkeypatch.setattr(selectors.LazyResult, "__getitem__", counting)
    monkeypatch.setattr(reporting, "run_results_lazy", lazily)
    lazy = reporting.run_report(run=finished_run, fmt=fmt, baseline="edf-bfd")
    assert given and all(isinstance(doc, selectors.LazyResult) for doc in given)
    if fmt != "csv":
        assert "timeline" in read and "jobs" in read  # the PDF and the XLSX draw figures from them
        return
    assert read == []  # no per-job column, no timeline
    monkeypatch.setattr(reporting, "run_results_lazy", lambda run, large: selectors.run_results(run=run))
    assert lazy.body == reporting.run_report(run=finished_run, fmt=fmt, baseline="edf-bfd").body
