"""The misallocation coefficient as paper 002 counts it (§IV-B, ALGORITHM-NOTES §6, issue 17):
over-allocation only in the (slot, dimension) cells where some application is short of its
requirement, the every-cell figure kept beside it as ``over_every_cell``; worked by hand, and the
same in the result document, the per-dimension figures and the sweep."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scheduling.mrsu import mrsu_result, parse_mrsu_input
from scheduling.mrsu.metrics import (
    contended,
    misallocation,
    misallocation_parts,
    misallocation_summary,
    over_allocated,
)
from scheduling.mrsu.sweep import METRICS, combine_sweeps, mrsu_sweep, sweep_chunk
from scheduling.mrsu.tables import MRSU_METRICS, dimension_rows, result_summary
from scheduling.mrsu.workload import synthetic_workload
from scheduling.tables import comparison_table

# Three applications, two slots, two dimensions (cpu, mem). Allocated Y and required Z:
#   slot 0: a (6, 4) for (4, 4); b (2, 6) for (2, 8); c (3, 2) for (3, 1)
#   slot 1: a (6, 4) for (6, 2); b (2, 6) for (2, 6); c (3, 2) for (3, 2)
# rho, slot 0: a cpu 2/6 = 1/3, mem 0; b cpu 0, mem -2/8 = -1/4; c cpu 0, mem 1/2.
# rho, slot 1: a cpu 0, mem 2/4 = 1/2; b 0, 0; c 0, 0.
# Contended cells: only (slot 0, mem), where b is short. So of the positive rhos only c's 1/2 in
# (slot 0, mem) counts; a's 1/3 of cpu in slot 0 (nobody short of cpu) and a's 1/2 of mem in
# slot 1 (nobody short in slot 1) do not.
Y = np.array([[[6, 4], [6, 4]], [[2, 6], [2, 6]], [[3, 2], [3, 2]]])
Z = np.array([[[4, 4], [6, 2]], [[2, 8], [2, 6]], [[3, 1], [3, 2]]])


def test_the_contended_cells_by_hand() -> None:
    assert contended(Y, Z).tolist() == [[False, True], [False, False]]


def test_the_parts_by_hand() -> None:
    rho = misallocation(Y, Z)
    assert rho[:, 0].ravel().tolist() == pytest.approx([1 / 3, 0, 0, -1 / 4, 0, 1 / 2])
    over, under = misallocation_parts(rho, contended=contended(Y, Z))
    assert float(over) == pytest.approx((1 / 2) / 12)  # c's surplus in (slot 0, mem), over 12 cells
    assert float(under) == pytest.approx((1 / 4) / 12)
    every, _ = misallocation_parts(rho)
    assert float(every) == pytest.approx((1 / 3 + 1 / 2 + 1 / 2) / 12)
    # per application (over its 4 cells) and per dimension (over its 6 cells)
    by_app, _ = misallocation_parts(rho, axis=(1, 2), contended=contended(Y, Z))
    assert by_app.tolist() == pytest.approx([0, 0, 1 / 8])
    by_dim, _ = misallocation_parts(rho, axis=(0, 1), contended=contended(Y, Z))
    assert by_dim.tolist() == pytest.approx([0, 1 / 12])


def test_the_amounts_by_hand() -> None:
    # c's 1 GB in slot 0, over two slots: 0.5 GB a slot; every slot: cpu a's 2 in slot 0 -> 1,
    # mem c's 1 in slot 0 and a's 2 in slot 1 -> 1.5
    assert over_allocated(Y, Z, contended=contended(Y, Z)).tolist() == [0.0, 0.5]
    assert over_allocated(Y, Z).tolist() == [1.0, 1.5]


def test_the_summary_by_hand() -> None:
    s = misallocation_summary(Y, Z)
    assert s["over"] == pytest.approx(1 / 24) and s["over_every_cell"] == pytest.approx(4 / 36)
    assert s["under"] == pytest.approx(1 / 48)
    assert s["dissatisfied_pct"] == pytest.approx(100 / 6)  # b in slot 0, of six application-slots
    assert s["dissatisfied_apps_pct"] == pytest.approx(100 / 3)  # b, of three applications


def test_nobody_short_means_no_over_allocation_counts() -> None:
    z = np.minimum(Y, Z)  # every application gets at least its requirement
    s = misallocation_summary(Y, z)
    assert s["over"] == 0 and s["over_every_cell"] > 0 and s["under"] == 0
    assert not contended(Y, z).any()


def test_a_whole_batch_is_the_cells_of_each_workload() -> None:
    # Leading axes are workloads: contention is per workload, never across them.
    ys, zs = np.stack([Y, Y]), np.stack([Z, np.minimum(Y, Z)])
    assert contended(ys, zs).tolist() == [contended(Y, Z).tolist(), [[False, False], [False, False]]]
    over, _ = misallocation_parts(misallocation(ys, zs), contended=contended(ys, zs))
    assert over.tolist() == pytest.approx([1 / 24, 0])


# --- the same figures everywhere ------------------------------------------------------------------


def _problem_doc() -> dict:
    # An input whose weighted-fair allocation leaves someone short: the sweep's workload at 110 %.
    p = synthetic_workload(load=1.1, applications=6, slots=5, seed=3)
    return {"capacity": dict(zip(p.dimensions, p.capacity.tolist(), strict=True)), "applications": [
        {"name": n, "priority": float(w), "requirements": [dict(zip(p.dimensions, row, strict=True))
                                                          for row in p.requirements[i].tolist()]}
        for i, (n, w) in enumerate(zip(p.names, p.priorities, strict=True))]}


def test_the_document_the_sweep_and_the_summary_agree() -> None:
    # The sweep's figures for one seed are the front door's document's for the same workload.
    doc = mrsu_result(parse_mrsu_input(_problem_doc()), composition="gcd", mode="ft")
    seed = sweep_chunk(1.1, [3], applications=6, slots=5)["gcd"]
    for metric in METRICS:
        mine = doc["misallocation"].get(metric, doc.get(metric))
        assert seed["mrsu-ft"][metric][0] == pytest.approx(mine), metric
        vm = doc["baselines"]["vm-static"]
        assert seed["vm-static"][metric][0] == pytest.approx(vm["misallocation"].get(metric, vm.get(metric)))
    m = doc["misallocation"]
    assert 0 < m["over"] <= m["over_every_cell"]  # someone is short here, but not in every cell
    # per dimension, the overall mean is the mean of the dimensions' (equal cell counts)
    dims = m["by_dimension"].values()
    assert m["over"] == pytest.approx(np.mean([d["over"] for d in dims]))
    assert m["over_every_cell"] == pytest.approx(np.mean([d["over_every_cell"] for d in dims]))
    # and per application
    apps = m["by_application"].values()
    assert m["over"] == pytest.approx(np.mean([a["over"] for a in apps]))
    summary = json.loads(json.dumps(result_summary(doc)))
    assert summary["over"] == m["over"] and summary["over_every_cell"] == m["over_every_cell"]


# --- documents and summaries stored before issue 17 -------------------------------------------------


def test_a_sweep_stored_before_keeps_its_every_cell_figure_under_that_name() -> None:
    new = mrsu_sweep(loads=[1.0], seeds=1, applications=3, slots=2)
    old = json.loads(json.dumps(new))
    old["loads"], old["loads_pct"] = [0.5], [50.0]
    for methods in old["curves"].values():
        for c in methods.values():
            c["over"] = c.pop("over_every_cell")  # what a sweep before issue 17 called "over"
            c["std"]["over"] = c["std"].pop("over_every_cell")
    joined = combine_sweeps([new, old])
    assert joined is not None
    ft = joined["curves"]["gcd"]["mrsu-ft"]
    assert ft["over"] == [None, new["curves"]["gcd"]["mrsu-ft"]["over"][0]]  # not measured at 50 %
    assert ft["over_every_cell"] == [old["curves"]["gcd"]["mrsu-ft"]["over"][0],
                                     new["curves"]["gcd"]["mrsu-ft"]["over_every_cell"][0]]
    assert set(ft) == {*METRICS, "std"}


def test_a_summary_stored_before_shows_its_over_figure_as_every_cell() -> None:
    doc = mrsu_result(parse_mrsu_input(_problem_doc()), composition="gcd", mode="ft")
    old = result_summary(doc)
    old["over"] = old.pop("over_every_cell")  # its "over" counted every cell
    for f in old["by_dimension"].values():
        if isinstance(f, dict) and "over_every_cell" in f:
            f["over"] = f.pop("over_every_cell")
            f["over_allocated"] = f.pop("over_allocated_every_cell")
    table = comparison_table({"old": old, "new": result_summary(doc)}, metrics=MRSU_METRICS, detail=True)
    rows = {r["key"]: r for r in table["rows"]}
    assert rows["over"]["cells"][0]["raw"] is None  # the paper's figure was not measured
    assert rows["over"]["cells"][1]["raw"] == doc["misallocation"]["over"]
    assert rows["over_every_cell"]["cells"][0]["raw"] == rows["over_every_cell"]["cells"][1]["raw"]
    old_rows, new_rows = dimension_rows({"old": old}), dimension_rows({"new": result_summary(doc)})
    assert [r["over"] for r in old_rows] == [None] * len(old_rows)
    assert [r["over_allocated_every_cell"] for r in old_rows] == [r["over_allocated_every_cell"]
                                                                  for r in new_rows]
