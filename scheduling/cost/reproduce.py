"""Paper 003's claims (Figs. 3 and 5-8), measured on its set-ups (:mod:`scheduling.cost.setups`).

Each claim is one statement of the paper with ours beside it (:class:`scheduling.reproduce.Claim`).
The paper's FIFO is Spark's FIFO with its consolidation option (§6.1.3: ``fifo-consolidate``);
where the paper's figures match Spark's default round-robin better, the rows against
``fifo-spread`` say so, and issue 17 asks for the network-bound rows against it. Savings and
shortenings are percent of the baseline's figure (positive: ours is cheaper, or shorter).

Every simulation is cached per (set-up, seed, scheduler), so a claim that shares a run with
another costs nothing more: ``reproduce(claims(), seeds=5)`` runs about 110 simulations of
1,000 jobs each.

>>> [c.key for c in claims()][:2]
['003-fig3a-round-robin', '003-fig3b-consolidate']
>>> claims()[2].measure(0)  # Fig. 3c: BFD turns on VM-1 and VM-2 for an hour
6.0
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from functools import partial
from typing import Any

from ..reproduce import Claim, at_least, at_most, between, within
from ..scenario import Scenario, parse_scenario
from .bounds import lower_bound_cost
from .setups import PAGERANK_SENSITIVITY, fig3_scenario, paper_workload
from .simulator import simulate

__all__ = ["INTRO", "claims"]

PAPER = "003"

#: Paper 003's set-ups in words, for docs/reproductions.md (no results: those come from the claims).
INTRO: dict[str, str] = {
    PAPER: (
        "Set-ups (`scheduling/cost/setups.py`): the paper's 14-VM cluster (Table 3) and the authors' own "
        "light- and high-load workloads (RM-Simulator, 1,000 jobs each, every job with a deadline) stand "
        "for the WordCount and Sort workloads of Figs. 5-6, which the model runs as they are. The "
        "PageRank-like workload is the same jobs, every one network-bound (notes §8: a job of E executors "
        "on k VMs runs 1 + sigma (k - 1) / max(E - 1, 1) times its duration) with "
        f"sigma = {PAGERANK_SENSITIVITY:g}, "
        "calibrated on Fig. 6: the smallest sigma on a grid of 0.01 at which both BFD and ILP shorten the "
        "PageRank-like light-load workload's mean completion time (arrival to finish) by at least the "
        "paper's 14 % against Spark's round-robin (`fifo-spread`; `benchmarks/calibrate_network.py`). The "
        "mixed workload gives each job WordCount, Sort or PageRank at random (seeded, so it varies over "
        "the seeds). Fig. 7's experiment mixes priority and regular jobs: the mixed high-load workload "
        "with a seeded half of the jobs keeping their deadlines (the paper gives no share). Fig. 3 is its "
        "own two-job example, each VM costing its size per hour for an hour.\n\n"
        "The paper's FIFO is Spark's FIFO with its consolidation option (§6.1.3), `fifo-consolidate` "
        "here, which packs executors onto the VMs in their listed order; Morpheus packs them too. Rows "
        "against `fifo-spread` (Spark's default round-robin) are given beside them. Savings and "
        "shortenings are in percent of the baseline's cost or mean completion time. Table 4's scheduling "
        "delays are wall-clock times of the machine that runs the model, not claimed here "
        "(`benchmarks/RESULTS.md`)."
    ),
}

#: The baselines by what the paper calls them.
FIFO, SPREAD, MORPHEUS, BFD, ILP = "fifo-consolidate", "fifo-spread", "morpheus", "edf-bfd", "edf-ilp"
_NAMES = {
    FIFO: "FIFO", SPREAD: "FIFO round-robin (fifo-spread)", MORPHEUS: "Morpheus", BFD: "BFD", ILP: "ILP",
}
_WORKLOAD_NAMES = {"wordcount-sort": "WordCount and Sort", "pagerank": "PageRank-like", "mixed": "mixed"}
#: Fig. 7's share of priority (deadline) jobs.
PRIORITY_SHARE = 0.5


# --------------------------------------------------------------------------- the runs (cached)


@functools.lru_cache(maxsize=64)
def _scenario(load: str, workload: str, seed: int, deadline_share: float) -> tuple[Scenario, float]:
    scenario = parse_scenario(paper_workload(load, workload, seed=seed, deadline_share=deadline_share))
    return scenario, lower_bound_cost(scenario)


def _run(load: str, workload: str, seed: int, scheduler: str, deadline_share: float = 1.0) -> dict[str, Any]:
    """One simulation's figures; the seed matters only for the mixed workload and Fig. 7's share,
    so the others run once for every seed."""
    if workload != "mixed" and deadline_share == 1.0:
        seed = 0
    return _cached_run(load, workload, seed, scheduler, deadline_share)


@functools.cache
def _cached_run(load: str, workload: str, seed: int, scheduler: str, deadline_share: float) -> dict[str, Any]:
    scenario, bound = _scenario(load, workload, seed, deadline_share)
    doc = simulate(scenario, scheduler=scheduler, lower_bound=bound, seed=seed).to_dict()
    return {key: doc[key] for key in ("total_cost", "mean_completion_s", "deadline_violation_eq12_pct")}


def _figure(load: str, workload: str, seed: int, scheduler: str, metric: str) -> float:
    return float(_run(load, workload, seed, scheduler)[metric])


def _percent_below(load: str, workload: str, seed: int, ours: str, baseline: str, metric: str) -> float:
    """How much lower ``ours``' metric is than ``baseline``'s, in percent of the baseline's."""
    base = _figure(load, workload, seed, baseline, metric)
    return 100.0 * (1.0 - _figure(load, workload, seed, ours, metric) / base)


@functools.lru_cache(maxsize=8)
def _fig3(scheduler: str) -> float:
    return simulate(parse_scenario(fig3_scenario()), scheduler=scheduler).total_cost


@functools.cache
def _rut_cost(seed: int, scheduler: str, cpu_weight: float) -> float:
    scenario, bound = _scenario("light", "mixed", seed, 1.0)
    spec = f"{scheduler}:rut.cpu={cpu_weight:g},rut.mem={1 - cpu_weight:g}"
    return simulate(scenario, scheduler=spec, lower_bound=bound, seed=seed).total_cost


def _fig7(seed: int, scheduler: str) -> float | None:
    value = _run("high", "mixed", seed, scheduler, PRIORITY_SHARE)["deadline_violation_eq12_pct"]
    return None if value is None else float(value)


def _fig7_difference(seed: int) -> float | None:
    """ILP's deadline violations minus BFD's, in percentage points."""
    ilp, bfd = _fig7(seed, ILP), _fig7(seed, BFD)
    return None if ilp is None or bfd is None else ilp - bfd


def _least_saving(seed: int, ours: str, baseline: str) -> float:
    """The least of ``ours``' savings against ``baseline`` over the six workloads and loads."""
    return min(_percent_below(load, wl, seed, ours, baseline, "total_cost")
               for load in ("light", "high") for wl in ("wordcount-sort", "pagerank", "mixed"))


def _light_gain_minus_high(seed: int, workload: str) -> float:
    """The lesser over BFD and ILP of (light load's minus high load's) shortening against FIFO."""
    metric = "mean_completion_s"
    return min(_percent_below("light", workload, seed, ours, FIFO, metric)
               - _percent_below("high", workload, seed, ours, FIFO, metric) for ours in (BFD, ILP))


def _rut_increase(seed: int, scheduler: str) -> float:
    """How much more ``scheduler`` costs with RUT 0.2 / 0.8 than with 0.8 / 0.2, in percent."""
    return 100.0 * (_rut_cost(seed, scheduler, 0.2) / _rut_cost(seed, scheduler, 0.8) - 1.0)


def _fig3_cost(_seed: int, scheduler: str) -> float:
    return _fig3(scheduler)


# --------------------------------------------------------------------------- the rules


def _positive(x: float) -> bool:
    return x > 0


def _setup(load: str, workload: str) -> str:
    if workload == "wordcount-sort":
        return "python benchmarks/paper_comparison.py"
    if load == "light":
        return f"the comparison's preset 003-{'pagerank' if workload == 'pagerank' else 'mixed'}-light"
    return f"scheduling.cost.setups.paper_workload('{load}', '{workload}')"


# --------------------------------------------------------------------------- why ours differs

_PACKING_BASELINES = (
    "The paper's FIFO baseline is Spark's FIFO with its consolidation option (§6.1.3) and Morpheus packs "
    "executors too. In the model both fill the VMs in their listed order, and Table 3 lists the small "
    "m1.large VMs first, so their price-blind packing wastes little capacity (Fig. 3b's consolidation "
    "picks the largest VM); every VM type of Table 3 also costs the same per core and per GB, so packing "
    "alone captures most of what a price-aware placement saves. Against Spark's default round-robin (the "
    "fifo-spread rows) ours comes closer to the paper's figures. The paper's baselines ran on real Spark "
    "(dynamic allocation, stressed VMs), which a simulator of fixed durations does not model."
)
_SPREAD_MIXED = (
    "Against Spark's default round-robin ours saves more than the paper's figures for the mixed "
    "workload, which it gives against its consolidating FIFO: in the model round-robin spreads every job "
    "over as many VMs as it has executors (up to all 14), while the packing baselines (the "
    "fifo-consolidate and Morpheus rows) save almost as much as BFD. The paper's figure lies between the "
    "two."
)
_BFD_SMALL_VMS = (
    "BFD turns on the smallest VM that fits an executor (Algorithm 3), and the smallest VM that fits an "
    "executor of the authors' jobs (1-6 cores, 4-12 GB) holds only one or two of them, so BFD spreads a "
    "job over nearly as many VMs as round-robin does and a network-bound job gains little from it; the "
    "exact placement turns on fewer, larger VMs when they cost no more."
)
_PACKED_NETWORK = (
    "The paper's FIFO consolidates (§6.1.3) and Morpheus packs: in the model both put a job's executors "
    "on about as few VMs as BFD does, so they stretch a network-bound job about as little, and "
    "Morpheus's order of the queue (eq. 10) also starts jobs sooner. The paper measured its gain on "
    "real Spark, whose placements under dynamic allocation the model does not have; against "
    "round-robin the calibrated sensitivity gives Fig. 6's PageRank figure by construction."
)
_CALIBRATION = (
    f"The PageRank-like jobs' network sensitivity, {PAGERANK_SENSITIVITY:g}, is calibrated on one row "
    "alone: BFD and ILP shortening the PageRank-like light-load workload's mean completion time by at "
    "least 14 % against fifo-spread (which therefore reproduces by construction)."
)
_QUEUEING = (
    "The authors' high-load workload keeps the cluster saturated, so mean completion time is mostly "
    "queueing: stretched network-bound jobs hold their VMs longer and the queue grows, which multiplies "
    "small differences in run time. Algorithm 1's strict EDF, with every job a deadline job, blocks "
    "behind a job that does not fit, while Morpheus skips it and starts smaller ones (benchmarks/RESULTS.md "
    "§3), so against Morpheus EDF is slower, and against FIFO it is faster by more than the network "
    "effect. The paper's own high-load hour had 100 jobs."
)
_NO_CONTENTION = (
    "The model has no slowdown of executors packed onto one VM (the paper: 'these VMs are stressed'), so "
    "without network-bound jobs every placement runs a job for exactly its duration and completion "
    "times differ only by waiting; under high load the waiting differs a lot (strict EDF against "
    "FIFO's arrival order)."
)
_DEADLINES = (
    "Ours counts eq. 12 (missed over met) on the mixed high-load workload with half the jobs priority "
    "jobs. Morpheus, as the paper adapts it, skips a job that does not fit and starts smaller ones, which "
    "keeps the cluster busy and meets most deadlines in the model, while FIFO blocks behind its head. "
    "The simulator charges no decision "
    "time to jobs, so the ILP's solver delay, the paper's reason for its extra misses, plays no part."
)
_RUT = (
    "The three VM types of Table 3 have the same memory per core (4 GB), so the RUT weights (eq. 8) rank "
    "VMs the same whatever alpha is; only the job queue's order (RD_job, eq. 9) changes, which moves "
    "the cost by little and in either direction."
)


# --------------------------------------------------------------------------- the claims


def _vs(key: str, where: str, workload: str, load: str, ours: str, baseline: str, metric: str,
        paper_value: str, reproduced: Callable[[float], bool], reason: str,
        direction: Callable[[float], bool] | None = _positive) -> Claim:
    """``ours``' saving (cost) or shortening (mean completion time) against ``baseline``, in percent."""
    noun = "cost" if metric == "total_cost" else "mean completion time"
    verb = "saves" if metric == "total_cost" else "shortens"
    if workload != "wordcount-sort":
        reason += " " + _CALIBRATION
    return Claim(
        PAPER, key, where,
        f"{_NAMES[ours]} {verb} against {_NAMES[baseline]}: {noun}, {_WORKLOAD_NAMES[workload]}, {load} load",
        paper_value, "percent",
        measure=partial(_percent_below_seed, load, workload, ours, baseline, metric),
        reproduced=reproduced, direction=direction, seeded=workload == "mixed", reason=reason,
        setup=_setup(load, workload),
    )


def _percent_below_seed(load: str, workload: str, ours: str, baseline: str, metric: str, seed: int) -> float:
    return _percent_below(load, workload, seed, ours, baseline, metric)


def _fig3_claims() -> list[Claim]:
    setup = "scheduling.cost.setups.fig3_scenario()"
    rows = (
        ("003-fig3a-round-robin", "§4.1, Fig. 3a", SPREAD,
         "Round-robin placement (fifo-spread) of the two-job example: summed price of the VMs it uses",
         "all four VMs, the highest cost (2 + 4 + 6 + 8 = 20)", 20),
        ("003-fig3b-consolidate", "§4.1, Fig. 3b", FIFO,
         "Spark's price-blind consolidation (fifo-consolidate, VMs listed largest first): summed price",
         "both jobs on VM-4 (8)", 8),
        ("003-fig3c-bfd", "§4.1, Fig. 3c", BFD, "Cost-aware placement, BFD: summed price of the VMs it uses",
         "VM-1 and VM-2, the cheapest (2 + 4 = 6)", 6),
        ("003-fig3c-ilp", "§4.1, Fig. 3c", ILP, "Cost-aware placement, ILP: summed price of the VMs it uses",
         "VM-1 and VM-2, the cheapest (2 + 4 = 6)", 6),
    )
    return [Claim(PAPER, key, where, what, paper_value, "money",
                  measure=partial(_fig3_cost, scheduler=scheduler), reproduced=within(value, abs_tol=1e-6),
                  seeded=False, setup=setup)
            for key, where, scheduler, what, paper_value, value in rows]


def _fig5a_claims() -> list[Claim]:
    """Fig. 5a (light load): the savings of BFD and ILP against FIFO, Morpheus and round-robin."""
    network = " " + _BFD_SMALL_VMS
    out: list[Claim] = []
    for wl, ours, fifo, morpheus, exact in (
        ("wordcount-sort", BFD, 30, 30, False), ("wordcount-sort", ILP, 34, 34, False),
        ("pagerank", BFD, 12, 5, False), ("pagerank", ILP, 12, 5, False),
        ("mixed", BFD, 21, 17, True), ("mixed", ILP, 25, 22, True),
    ):
        extra = network if wl != "wordcount-sort" else ""
        for base, value in ((FIFO, fifo), (MORPHEUS, morpheus), (SPREAD, fifo)):
            paper_value = (f"{value} %" if exact else f"at least {value} %") + (
                " (against FIFO)" if base == SPREAD else "")
            rule = within(value, abs_tol=5) if exact else at_least(value)
            reason = (_SPREAD_MIXED if exact and base == SPREAD else _PACKING_BASELINES) + extra
            out.append(_vs(f"003-fig5a-{wl}-{ours[4:]}-vs-{base}", "§6.2, Fig. 5a", wl, "light", ours, base,
                           "total_cost", paper_value, rule, reason))
    return out


def _fig5b_claims() -> list[Claim]:
    """Fig. 5b (high load): "about 5-20 %" in every workload, against FIFO and round-robin."""
    return [_vs(f"003-fig5b-{wl}-{ours[4:]}-vs-{base}", "§6.2, Fig. 5b", wl, "high", ours, base, "total_cost",
                "about 5-20 %", between(5, 20), _PACKING_BASELINES)
            for wl in ("wordcount-sort", "pagerank", "mixed")
            for ours in (BFD, ILP)
            for base in (FIFO, SPREAD)]


def _fig5_direction_claims() -> list[Claim]:
    setup = "python benchmarks/paper_comparison.py"
    return [
        Claim(PAPER, "003-fig5-ilp-below-bfd", "§6.2, Fig. 5",
              "ILP saves against BFD in every workload and load (the least saving of the six)",
              "ILP slightly cheaper than BFD in all the scenarios", "percent",
              measure=partial(_least_saving, ours=ILP, baseline=BFD), reproduced=_positive,
              reason="The exact placement is cheaper per decision, but over a run the free capacity it "
              "leaves can make later jobs cost more.", setup=setup),
        Claim(PAPER, "003-fig5-morpheus-below-fifo", "§6.2, Fig. 5",
              "Morpheus saves against FIFO in every workload and load (the least saving of the six)",
              "Morpheus slightly cheaper than FIFO", "percent",
              measure=partial(_least_saving, ours=MORPHEUS, baseline=FIFO), reproduced=_positive,
              reason="Morpheus and FIFO pack executors the same way in the model (onto the VMs in their "
              "listed order) and differ only in which waiting job goes first, so their costs are nearly "
              "equal and either may be the cheaper.", setup=setup),
    ]


def _fig6_claims() -> list[Claim]:
    """Fig. 6: mean completion times; the network-bound rows against FIFO, Morpheus and round-robin."""
    where = "§6.3, Fig. 6"
    out = [_vs(f"003-fig6-wordcount-sort-{load}-{ours[4:]}-vs-{FIFO}", where, "wordcount-sort", load, ours,
               FIFO, "mean_completion_s", "similar (FIFO and Morpheus sometimes slightly better)",
               between(-5, 5), _NO_CONTENTION, direction=None)
           for load in ("light", "high") for ours in (BFD, ILP)]
    for wl, load, value in (("pagerank", "light", 14), ("pagerank", "high", 3), ("mixed", "light", 5),
                            ("mixed", "high", 5)):
        for ours in (BFD, ILP):
            for base in (FIFO, MORPHEUS, SPREAD):
                if load == "high":
                    reason = _QUEUEING
                else:
                    reason = _BFD_SMALL_VMS if base == SPREAD else _PACKED_NETWORK
                paper_value = f"at least {value} %" + (" (against FIFO)" if base == SPREAD else "")
                out.append(_vs(f"003-fig6-{wl}-{load}-{ours[4:]}-vs-{base}", where, wl, load, ours, base,
                               "mean_completion_s", paper_value, at_least(value), reason))
    out += [Claim(PAPER, f"003-fig6-{wl}-light-gains-more", where,
                  f"BFD's and ILP's shortening against FIFO, {_WORKLOAD_NAMES[wl]} workload: light load's "
                  "minus high load's (percentage points, the lesser of the two)",
                  "higher in the light-load hour than in the high-load hour", "percent",
                  measure=partial(_light_gain_minus_high, workload=wl), reproduced=_positive,
                  seeded=wl == "mixed", reason=_QUEUEING + " " + _CALIBRATION, setup=_setup("high", wl))
            for wl in ("pagerank", "mixed")]
    return out


def _fig7_claims() -> list[Claim]:
    where = "§6.4, Fig. 7"
    setup = f"scheduling.cost.setups.paper_workload('high', 'mixed', deadline_share={PRIORITY_SHARE:g})"
    out = [Claim(PAPER, f"003-fig7-{scheduler}", where,
                 f"Deadline violations (eq. 12: missed over met), {_NAMES[scheduler]}, priority and "
                 "regular jobs",
                 f"{value} %", "percent", measure=partial(_fig7, scheduler=scheduler),
                 reproduced=within(value, abs_tol=10),
                 direction=at_least(20) if scheduler in (FIFO, MORPHEUS) else at_most(20),
                 reason=_DEADLINES + " " + _CALIBRATION, setup=setup)
           for scheduler, value in ((FIFO, 41), (MORPHEUS, 35), (BFD, 8), (ILP, 12))]
    out.append(Claim(PAPER, "003-fig7-ilp-above-bfd", where,
                     "ILP's deadline violations minus BFD's (percentage points)",
                     "ILP slightly higher than BFD (12 % vs 8 %)", "percent", measure=_fig7_difference,
                     reproduced=_positive, reason=_DEADLINES + " " + _CALIBRATION, setup=setup))
    return out


def _fig8_claims() -> list[Claim]:
    return [Claim(PAPER, f"003-fig8-rut-{ours[4:]}", "§6.6, Fig. 8b",
                  f"{_NAMES[ours]}'s cost with alpha = 0.2, beta = 0.8 above its cost with 0.8 / 0.2 "
                  "(percent), mixed workload, light load",
                  "lower alpha, higher beta: higher cost", "percent",
                  measure=partial(_rut_increase, scheduler=ours),
                  reproduced=_positive, reason=_RUT + " " + _CALIBRATION,
                  setup=f"the comparison's preset 003-mixed-light, with {ours}:rut.cpu=0.2,rut.mem=0.8")
            for ours in (BFD, ILP)]


def claims() -> list[Claim]:
    """Paper 003's claims: Fig. 3's example, Fig. 5's costs, Fig. 6's completion times (with the
    network-bound workloads), Fig. 7's deadline violations and Fig. 8's RUT direction."""
    return [*_fig3_claims(), *_fig5a_claims(), *_fig5b_claims(), *_fig5_direction_claims(), *_fig6_claims(),
            *_fig7_claims(), *_fig8_claims()]
