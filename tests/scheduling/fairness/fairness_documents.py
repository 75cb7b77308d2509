"""Hand-made fairness documents (the issue 8 contract's shapes), small enough to check by hand.

Allocation (paper 000, Table I set-up): servers c1 = (100 cpu, 30 mem), c2 = (30, 100);
frameworks f1 with d1 = (5, 1) and f2 with d2 = (1, 5).

* ``rps_dsf()``: rPS-DSF's allocation, one trial, x = 19, 2 / 2, 19 (42 tasks). c1 holds
  (97, 29), c2 (29, 97): residuals (3, 1) and (1, 3), where neither framework fits one more
  task, so 4 cpu and 4 mem of the 130 each are stranded.
* ``rrr_drf()``: four trials, three ending in 5, 5 / 5, 5 and one in 10, 4 / 4, 10. Each
  framework's tasks are 10, 10, 10, 14 (mean 11, sample std 2), the totals 20, 20, 20, 28
  (mean 22, std 4). Mean residual cpu: (3 x 70 + 46) / 4 = 64, all stranded (mem likewise).

Sharing (two frameworks ``a`` and ``b``, time 0-40 s, steps of 10 s):

=========  =====  =====  =====  =====
t          0      10     20     30
share a    0.5    0.2    0.5    0
fair a     0.5    0.5    0.5    1
share b    0.5    0.8    0.5    0
fair b     0.5    0.5    0.5    0
=========  =====  =====  =====  =====

Contention (both have work waiting) is 0-30 s; ``a`` is 0.3 below its fair share for
10-20 s: an unfairness area of 3.0 share·s; it receives 12 of 15 share·s: 80 %, unfairness
20 %. At 30-40 s ``a`` waits alone: no contention, nothing shaded.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from scheduling.fairness.allocation_doc import allocation_document
from scheduling.fairness.model import FairnessProblem
from scheduling.metrics import fairness_summary

EVIL = "<b>x</b>"


def table_one_problem(names: tuple[str, str] = ("f1", "f2"), weights: tuple[float, float] = (1.0, 1.0)
                      ) -> FairnessProblem:
    return FairnessProblem(
        resources=("cpu", "mem"), machines=("c1#1", "c2#1"), machine_types=("c1", "c2"),
        capacity=np.array([[100.0, 30.0], [30.0, 100.0]]), frameworks=names,
        demand=np.array([[5.0, 1.0], [1.0, 5.0]]), weight=np.asarray(weights, dtype=float),
        allowed=np.ones((2, 2), bool),
    )


def rps_dsf(**problem: Any) -> dict[str, Any]:
    return allocation_document(
        table_one_problem(**problem), np.array([[[19, 2], [2, 19]]], dtype=float),
        meta={"label": "rPS-DSF", "method": "progressive", "policy": "rpsdsf", "servers": "joint",
              "integer": True, "seed": 1},
    )


def rrr_drf(**problem: Any) -> dict[str, Any]:
    trials = np.array([[[5, 5], [5, 5]]] * 3 + [[[10, 4], [4, 10]]], dtype=float)
    return allocation_document(
        table_one_problem(**problem), trials,
        meta={"label": "RRR-DRF", "method": "progressive", "policy": "drf", "servers": "rrr",
              "integer": True, "seed": 1},
    )


def allocation_docs() -> dict[str, dict[str, Any]]:
    return {"RRR-DRF": rrr_drf(), "rPS-DSF": rps_dsf()}


T = [0.0, 10.0, 20.0, 30.0, 40.0]
SHARE = {"a": [0.5, 0.2, 0.5, 0.0, 0.0], "b": [0.5, 0.8, 0.5, 0.0, 0.0]}
FAIR = {"a": [0.5, 0.5, 0.5, 1.0, 0.0], "b": [0.5, 0.5, 0.5, 0.0, 0.0]}


def sharing_doc(label: str = "refuse 5 s", names: tuple[str, str] = ("a", "b")) -> dict[str, Any]:
    """The two-framework timeline above (``names`` renames a and b)."""
    a, b = names
    share = np.array([SHARE["a"], SHARE["b"]]).T
    fair = np.array([FAIR["a"], FAIR["b"]]).T
    summary = fairness_summary(np.array(T), share, fair, [a, b], np.ones(2))
    fw = {"weight": 1, "policy": "first-fit", "refuse_s": 5, "hold_s": 0, "tasks": 4,
          "task_demand": {"cpu": 1, "mem": 1}}
    return {
        "study": "sharing", "format": 1, "label": label, "mode": "offers", "criterion": "drf",
        "servers": "rrr", "allocation_interval_s": 1.0, "seed": 0, "resources": ["cpu", "mem"],
        "machines": [{"id": "node#1", "vm_type": "node", "capacity": {"cpu": 8, "mem": 16}}],
        "frameworks": [{"name": a, **fw}, {"name": b, **fw}],
        "timeline": {
            "t": list(T),
            "running": {a: [4, 1, 4, 0, 0], b: [4, 6, 4, 0, 0]},
            "share": {a: list(SHARE["a"]), b: list(SHARE["b"])},
            "held": {a: [0.0, 0.1, 0.0, 0.0, 0.0], b: [0.0] * 5},
            "fair_share": {a: list(FAIR["a"]), b: list(FAIR["b"])},
            "pending": {a: [3, 3, 0, 1, 0], b: [1, 0, 0, 0, 0]},
            "utilisation": {"cpu": [1.0, 0.875, 1.0, 0.0, 0.0], "mem": [0.5, 0.4, 0.5, 0.0, 0.0]},
        },
        "fairness": {"contention_s": summary["contention_s"], "window": [0.0, 30.0],
                     "frameworks": summary["frameworks"]},
        "makespan_s": 40.0,
        "completion": {
            a: {"tasks": 4, "finished": 3, "first_start_s": 0.0, "last_start_s": 30.0, "last_finish_s": 40.0,
                "mean_wait_s": 5.0, "max_wait_s": 30.0},
            b: {"tasks": 4, "finished": 1, "first_start_s": 0.0, "last_start_s": 10.0, "last_finish_s": 30.0,
                "mean_wait_s": 1.0, "max_wait_s": 10.0},
        },
        "offers": {name: {"made": 10, "accepted": 4, "declined": 6} for name in (a, b)},
    }


def sharing_docs() -> dict[str, dict[str, Any]]:
    """Two configurations: the timeline above, and one where ``b`` is the one cut short."""
    other = sharing_doc("refuse 1 s")
    tl = other["timeline"]
    tl["share"] = {"a": list(SHARE["b"]), "b": list(SHARE["a"])}
    tl["held"] = {"a": [0.0] * 5, "b": [0.0] * 5}
    share = np.array([tl["share"]["a"], tl["share"]["b"]]).T
    fair = np.array([FAIR["a"], FAIR["b"]]).T
    other["fairness"]["frameworks"] = fairness_summary(np.array(T), share, fair, ["a", "b"], np.ones(2))[
        "frameworks"]
    other["makespan_s"] = 35.0
    return {"refuse 5 s": sharing_doc(), "refuse 1 s": other}


def renamed(doc: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """``doc`` with framework ``old`` renamed ``new`` everywhere (keys and names)."""
    out = copy.deepcopy(doc)

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            return {(new if k == old else k): walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return new if node == old else node

    result: dict[str, Any] = walk(out)
    return result
