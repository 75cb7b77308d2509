"""Paper 004 §III-B: the numerical example on the system of Fig. 1, reproduced exactly.

The instance (``examples/paper004-fig1.json``) is reconstructed from the shares the text gives;
every share below is the paper's, compared as a fraction.
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import pytest

from scheduling.scenario import parse_scenario
from scheduling.udrf.graph import rducs
from scheduling.udrf.model import UdrfProblem
from scheduling.udrf.offline_doc import offline_document, policy_outcome

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "paper004-fig1.json"


@pytest.fixture(scope="module")
def problem() -> UdrfProblem:
    return UdrfProblem.from_scenario(parse_scenario(json.loads(EXAMPLE.read_text())), exact=True)


def shares(problem: UdrfProblem, jobs: dict[str, F], user: int, cls: str) -> tuple[F, F]:
    """The user's share of ``cls``'s cpu and memory when it runs ``jobs`` (job id -> count)."""
    k = len(problem.kinds)
    c = problem.classes.index(cls)
    out = [F(0), F(0)]
    for j in problem.user_jobs[user]:
        for r, d in problem.demands[j].items():
            if r // k == c:
                out[r % k] += d * jobs[problem.jobs[j].id] / problem.capacity[r]
    return out[0], out[1]


def test_rducs_are_u1_u2_u3_and_u4(problem: UdrfProblem) -> None:
    groups = rducs([problem.positive_demand(u) for u in range(4)])
    assert [[problem.users[u] for u in g] for g in groups] == [["u1", "u2", "u3"], ["u4"]]


def test_udrf_reproduces_every_share_of_section_iii_b(problem: UdrfProblem) -> None:
    groups = rducs([problem.positive_demand(u) for u in range(4)])
    out = policy_outcome(problem, groups, "udrf")
    first, second, third = out["rounds"]
    assert (first["rduc"], first["level"]) == (0, F(1, 2))
    it = first["iterations"]
    # u1 and u2 in standard <1/2, 2/5> and <1/2, 1/5>; u1 in hadoop <1/7, 1/8> then <1/2, 7/16>.
    assert shares(problem, it["u1"][0], 0, "standard") == (F(1, 2), F(2, 5))
    assert shares(problem, it["u2"][-1], 1, "standard") == (F(1, 2), F(1, 5))
    assert shares(problem, it["u1"][0], 0, "hadoop") == (F(1, 7), F(1, 8))
    assert shares(problem, it["u1"][1], 0, "hadoop") == (F(1, 2), F(7, 16))
    # u2 in public-IP <1/3, 1/6>; u3 <1/4, 1/2> in the first round, then <5/12, 5/6>.
    assert shares(problem, it["u2"][-1], 1, "public-ip") == (F(1, 3), F(1, 6))
    assert shares(problem, it["u3"][-1], 2, "public-ip") == (F(1, 4), F(1, 2))
    assert first["saturated_users"] == ["u1", "u2"]
    assert (second["level"], second["saturated_users"]) == (F(5, 6), ["u3"])
    assert shares(problem, second["iterations"]["u3"][-1], 2, "public-ip") == (F(5, 12), F(5, 6))
    # u4, alone in its RDUC: <1, 25/32>.
    assert (third["rduc"], third["saturated_users"]) == (1, ["u4"])
    assert shares(problem, third["iterations"]["u4"][-1], 3, "high-memory") == (F(1), F(25, 32))
    # The RDUC-wise dominant shares of u1, u2, u3 after the first round are all 1/2.
    assert [u["dominant_share"] for u in out["users"]] == [F(1, 2), F(1, 2), F(5, 6), F(1)]


def test_drf_lets_u1_run_8_and_8_udrf_28_and_8(problem: UdrfProblem) -> None:
    groups = rducs([problem.positive_demand(u) for u in range(4)])
    udrf = policy_outcome(problem, groups, "udrf")["users"][0]["jobs"]
    drf = policy_outcome(problem, groups, "drf")["users"][0]["jobs"]
    assert (drf, udrf) == ({"job1": 8, "job2": 8}, {"job1": 28, "job2": 8})
    # "job1 consumes only around 12% of the resources available in the hadoop class" under DRF.
    assert shares(problem, drf, 0, "hadoop") == (F(1, 7), F(1, 8))


def test_global_dominant_shares_pool_the_classes(problem: UdrfProblem) -> None:
    # The cluster pooled: cpu 56 + 16 + 24 + 32 = 128, memory 64 + 40 + 48 + 1,024 = 1,176.
    # UDRF: u1 holds 28 + 8 cpu -> 36/128 = 9/32 (memory 44/1,176); u2 16 cpu -> 1/8; u3 10 cpu
    # and 40 memory -> 5/64; u4 32 cpu and 800 memory -> 800/1,176 = 100/147. DRF: u1 16 cpu.
    # The online simulation measures with the same function (test_online.py).
    assert problem.pooled_capacity == (128, 1176)
    groups = rducs([problem.positive_demand(u) for u in range(4)])
    udrf = [u["global_dominant_share"] for u in policy_outcome(problem, groups, "udrf")["users"]]
    drf = [u["global_dominant_share"] for u in policy_outcome(problem, groups, "drf")["users"]]
    assert udrf == [F(9, 32), F(1, 8), F(5, 64), F(100, 147)]
    assert drf[0] == F(1, 8)


def test_document_reports_drf_waste_that_udrf_uses() -> None:
    doc = offline_document(parse_scenario(json.loads(EXAMPLE.read_text())))
    hadoop = {p: next(c for c in doc["policies"][p]["classes"] if c["name"] == "hadoop")
              for p in ("udrf", "drf")}
    assert hadoop["drf"]["wasted"] == {"cpu": 48.0, "mem": 56.0}
    assert hadoop["udrf"]["wasted"] == {"cpu": 28.0, "mem": 36.0}
    u1 = {p: doc["policies"][p]["users"][0] for p in ("udrf", "drf")}
    assert u1["udrf"]["job_count"] == u1["drf"]["job_count"] == 8.0  # whole gross demands: 8 either way
    assert u1["udrf"]["waste"]["hadoop"] == {"cpu": 28.0, "mem": 36.0}


def test_the_document_checks_each_allocation_and_names_drfs_pareto_witness() -> None:
    doc = offline_document(parse_scenario(json.loads(EXAMPLE.read_text())))
    verdicts = {p: {v["property"]: v for v in doc["policies"][p]["properties"]["verdicts"]}
                for p in ("udrf", "drf")}
    assert all(v["holds"] for v in verdicts["udrf"].values())
    pareto = verdicts["drf"]["pareto_efficiency"]
    assert not pareto["holds"]
    witness = pareto["witness"]
    assert (witness["user"], witness["job"], witness["count"]) == ("u1", "job1", 8)
    assert witness["most"] == pytest.approx(28, rel=1e-6)
    assert all(v["holds"] for k, v in verdicts["drf"].items() if k != "pareto_efficiency")
