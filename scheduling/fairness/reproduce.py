"""Papers 000 and 001's quantitative claims, measured on their set-ups (:mod:`scheduling.reproduce`).

:func:`claims` declares each claim once: where the paper says it, the paper's value as printed,
how ours is measured for one seed on the set-ups of :mod:`scheduling.fairness.setups`, and the
rule that says whether ours reproduces it (or follows its direction only), with the reason
where it does not. :data:`INTRO` describes the set-ups (no results: those come from the claims).

Runs are cached per (set-up, seed) (``functools.lru_cache``): several claims read one run, and a
sharing run is kept only as the few numbers the claims read, not its timeline.

>>> [c.key for c in claims()][:2]
['000-t1-drf-f1-c1', '000-t1-drf-f1-c2']
>>> by_key = {c.key: c for c in claims()}
>>> by_key["000-t1-rpsdsf-total"].measure(0), by_key["000-t1-rpsdsf-total"].reproduced(42.0)
(42.0, True)
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..reproduce import Claim, at_least, at_most, between, within
from ..scenario import parse_scenario
from .filling import progressive_filling
from .model import fairness_problem
from .setups import SETUPS
from .sharing import share

__all__ = ["INTRO", "TRIALS", "claims"]

#: Table I's trials per seed, as the paper ran them.
TRIALS = 200
#: The cells of Table I in the paper's order: (framework, server) = (1,1), (1,2), (2,1), (2,2).
CELLS = ((0, 0), (0, 1), (1, 0), (1, 1))

INTRO: dict[str, str] = {
    "000": (
        "**Table I and II** (§IV): two servers `c1 = (100 cpu, 30 mem)` and `c2 = (30, 100)`, two "
        "frameworks with tasks of `(5, 1)` and `(1, 5)`, whole tasks by progressive filling, 200 trials a "
        "seed (the planner's *Paper 000, Table I* preset; `scheduling.fairness.setups`). Randomised round "
        "robin (RRR) is read as a fresh random server order for every task (`rrr-task`) and best-fit DRF "
        "as the best fit over every server, a framework passed over when its task does not fit there "
        "(`best-fit-all`): the readings of §IV that give the paper's outcomes "
        "([table-one.md](table-one.md) has the arithmetic and the readings tried); the notes' RRR rounds "
        "(`rrr`) are measured beside them. Ties are broken at random (notes §2), so the deterministic "
        "rows (PS-DSF joint, BF-DRF) are means over their tied outcomes.\n\n"
        "**§V** (online, workload-characterized against oblivious allocation): six servers of three "
        "types (4 cpu 14 GB, 8 cpu 8 GB, 6 cpu 11 GB, two each), the Pi group (executors of 2 cpu, "
        "2 GB, 60 s) and the WordCount group (1 cpu, 3.5 GB, 40 s), five queues of fifty jobs of three "
        "executors each; oblivious is the Mesos offer cycle with frameworks packing whole offers. The "
        "paper reports execution-time comparisons, not numbers: the claims are its directions."
    ),
    "001": (
        "Four agents of 8 cpu and 16 GB (32,000 MB of disk in §V-C), a 1 s allocation interval, the "
        "offer cycle as Mesos 1.3 and Marathon 1.4 run it (notes §4: agents in random order, whole "
        "allocatable agents offered to the lowest dominant share, ties by fewest allocations then name, "
        "offers counting until the decision ends, frameworks registered when their first queue starts, "
        "Marathon's greedy at most 5 tasks an offer). Unfairness is §II's: over the window from 'every "
        "framework has started launching' to 'the first has launched all its tasks', against a constant "
        "fair line; where that window is empty there is no figure. The set-ups "
        "(`scheduling.fairness.setups`, the planner's sharing presets) give each parameter the paper "
        "leaves open in their notes: 100 tasks a framework, 100 s tasks where §V-B to §V-D give no "
        "duration, Scylla-B starting once Scylla-A fills the cluster (§V-A). §V-C is run twice, on the "
        "paper's 16 GB agents and on the 15 GB Mesos advertises on such a host (which the paper's "
        "Table 3 reflects); Figure 2 is run with §II's tasks of 1 cpu and 1 GB."
    ),
}


# --------------------------------------------------------------------------- runs, cached


@cache
def _allocation(key: str, seed: int) -> NDArray[np.int64]:
    """Table I's ``TRIALS`` trials of set-up ``key`` with ``seed``: (trials, 2, 2) tasks."""
    setup = SETUPS[key]
    args = setup.share_args
    problem = fairness_problem(parse_scenario(copy.deepcopy(setup.document)))
    x = progressive_filling(problem, policy=args["policy"], servers=args["servers"], trials=TRIALS, seed=seed)
    x.setflags(write=False)
    return x


@cache
def _sharing(key: str, seed: int) -> dict[str, Any]:
    """The numbers the claims read from set-up ``key``'s sharing run with ``seed``."""
    setup = SETUPS[key]
    doc = share(parse_scenario(copy.deepcopy(setup.document)), seed=seed, **setup.share_args).to_dict()
    tl = doc["timeline"]
    t = np.asarray(tl["t"], dtype=float)
    end = float(doc["makespan_s"]) if doc["makespan_s"] is not None else float(t[-1])
    dt = np.clip(np.diff(np.append(t, end)), 0.0, None)
    cpu = np.asarray(tl["utilisation"].get("cpu", np.zeros(t.size)), dtype=float)
    mean = float((cpu * dt).sum() / dt.sum()) if dt.sum() > 0 else 0.0
    holding = np.zeros(t.size, dtype=bool)
    for series in tl["held"].values():
        holding |= np.asarray(series, dtype=float) > 0
    return {
        "fairness": {fw: dict(v) for fw, v in doc["fairness"]["frameworks"].items()},
        "window": doc["fairness"]["window"],
        "makespan": doc["makespan_s"],
        "first_start": {fw: c["first_start_s"] for fw, c in doc["completion"].items()},
        "last_start": {fw: c["last_start_s"] for fw, c in doc["completion"].items()},
        "held_max": {fw: max(v, default=0.0) for fw, v in tl["held"].items()},
        "running_while_held": {
            fw: max((r for r, h in zip(v, holding, strict=True) if h), default=0)
            for fw, v in tl["running"].items()
        },
        "cpu_mean": mean,
        "cpu_std": float(np.sqrt(((cpu - mean) ** 2 * dt).sum() / dt.sum())) if dt.sum() > 0 else 0.0,
    }


@cache
def _preset(key: str) -> str:
    """Where to look at set-up ``key`` closely: the planner's preset that runs it."""
    from .presets import library_presets

    found = next((p for p in library_presets() if key in p.setups), None)
    if found is None:
        return f"scheduling.fairness.setups.run_setup({key!r})"
    return f"the planner's {found.study} preset '{found.title}' (set-up {key})"


def _unfairness(key: str, fw: str) -> Callable[[int], float | None]:
    def measure(seed: int) -> float | None:
        value = _sharing(key, seed)["fairness"][fw]["unfairness_pct"]
        return None if value is None else float(value)

    return measure


def _worst(key: str, seed: int) -> float | None:
    values = [
        f["unfairness_pct"]
        for f in _sharing(key, seed)["fairness"].values()
        if f["unfairness_pct"] is not None
    ]
    return max(values) if values else None


def _least_received(key: str, seed: int) -> float | None:
    values = [
        f["received_pct"] for f in _sharing(key, seed)["fairness"].values() if f["received_pct"] is not None
    ]
    return min(values) if values else None


def _above_fair(key: str, fw: str, seed: int) -> float | None:
    received = _sharing(key, seed)["fairness"][fw]["received_pct"]
    return None if received is None else float(received) - 100.0


def _ratio(key: str, base: str, seed: int) -> float | None:
    a, b = _sharing(key, seed)["makespan"], _sharing(base, seed)["makespan"]
    return None if a is None or not b else float(a) / float(b)


def _difference(
    first: Callable[[int], float | None], second: Callable[[int], float | None]
) -> Callable[[int], float | None]:
    def measure(seed: int) -> float | None:
        a, b = first(seed), second(seed)
        return None if a is None or b is None else a - b

    return measure


# --------------------------------------------------------------------------- paper 000

#: Table I as printed: the set-up, its label, the four cells and the total.
TABLE_I: tuple[tuple[str, str, tuple[float, ...], float], ...] = (
    ("000-table-1-drf", "RRR-DRF", (6.55, 4.69, 4.69, 6.55), 22.48),
    ("000-table-1-tsf", "RRR-TSF", (6.5, 4.7, 4.7, 6.5), 22.4),
    ("000-table-1-psdsf", "RRR-PS-DSF", (19.44, 1.15, 1.07, 19.42), 41.08),
    ("000-table-1-bf-drf", "BF-DRF", (20, 2, 0, 19), 41),
    ("000-table-1-psdsf-joint", "PS-DSF (joint)", (19, 0, 2, 20), 41),
    ("000-table-1-rpsdsf", "rPS-DSF", (19, 2, 2, 19), 42),
)
#: Table II as printed: the sample standard deviations of the RRR rows' cells.
TABLE_II: dict[str, tuple[float, ...]] = {
    "000-table-1-drf": (2.31, 0.46, 0.46, 2.31),
    "000-table-1-tsf": (2.29, 0.46, 0.46, 2.29),
    "000-table-1-psdsf": (0.59, 0.99, 1.0, 0.49),
}
#: Table I's DRF and TSF rows fit exactly two outcomes (notes §2; docs/table-one.md).
TWO_OUTCOMES = ((5, 5, 5, 5), (10, 4, 4, 10))

_TIES = (
    "Ties are broken at random (notes §2): the paper's row is one of the tied outcomes, "
    "and ours is their mean over the trials."
)
_REASONS = {
    "000-table-1-bf-drf": (
        "Every trial allocates 41 tasks; the paper's 20, 2 / 0, 19 is the outcome when DRF's ties go to f2, "
        "19, 0 / 2, 20 its mirror when they go to f1, and 19, 1 / 2, 19 or 19, 2 / 1, 19 the rest. "
        + _TIES
        + " Under the notes' best fit among the servers a task fits on (`best-fit`) every trial gives "
        "19, 2 / 2, 19 = 42: no best fit restricted so can give 41 (docs/table-one.md)."
    ),
    "000-table-1-psdsf-joint": (
        "Ties between pairs of equal PS-DSF value give 19, 0 / 2, 20 (the paper's), its mirror "
        "20, 2 / 0, 19, 19, 2 / 2, 19 and 20, 0 / 0, 20. "
        + _TIES
        + " With ties broken by position the paper's row comes out exactly (notes §2)."
    ),
}


def _cell(key: str, n: int, i: int) -> Callable[[int], float]:
    return lambda seed: float(_allocation(key, seed)[:, n, i].mean())


def _cell_sd(key: str, n: int, i: int) -> Callable[[int], float]:
    return lambda seed: float(_allocation(key, seed)[:, n, i].std(ddof=1))


def _total(key: str) -> Callable[[int], float]:
    return lambda seed: float(_allocation(key, seed).sum(axis=(1, 2)).mean())


def _outside(key: str, outcomes: Sequence[tuple[int, ...]]) -> Callable[[int], float]:
    """% of trials ending in none of ``outcomes`` (f1 on c1, f1 on c2, f2 on c1, f2 on c2)."""

    def measure(seed: int) -> float:
        rows = _allocation(key, seed).reshape(TRIALS, -1).tolist()
        return 100.0 * sum(tuple(r) not in outcomes for r in rows) / len(rows)

    return measure


def _table_one_claims() -> list[Claim]:
    out: list[Claim] = []
    setup_text = (
        "python -m scheduling allocate examples/paper000-table1.json --policy {} --servers {} --trials 200"
    )
    for key, label, cells, total in TABLE_I:
        args = SETUPS[key].share_args
        how = setup_text.format(args["policy"], args["servers"])
        rrr = key in TABLE_II
        reason = _REASONS.get(key, "")
        for (n, i), value in zip(CELLS, cells, strict=True):
            if rrr:
                # within three standard errors of the paper's 200-trial mean (its Table II deviation)
                rule = within(value, abs_tol=3 * TABLE_II[key][CELLS.index((n, i))] / math.sqrt(TRIALS))
            else:
                rule = within(value, abs_tol=0.25)
            out.append(
                Claim(
                    "000",
                    f"{key.replace('000-table-1', '000-t1')}-f{n + 1}-c{i + 1}",
                    "§IV, Table I",
                    f"{label}: tasks of f{n + 1} on c{i + 1} (mean of {TRIALS} trials)",
                    f"{value:g}",
                    "amount",
                    measure=_cell(key, n, i),
                    reproduced=rule,
                    reason=reason,
                    setup=how,
                )
            )
        bound = 3 * sum(TABLE_II[key]) / math.sqrt(TRIALS) if rrr else 0.25
        out.append(
            Claim(
                "000",
                f"{key.replace('000-table-1', '000-t1')}-total",
                "§IV, Table I",
                f"{label}: tasks in all (mean of {TRIALS} trials)",
                f"{total:g}",
                "amount",
                measure=_total(key),
                reproduced=within(total, abs_tol=bound),
                reason=reason,
                setup=how,
            )
        )
    for key, deviations in TABLE_II.items():
        label = next(lab for k, lab, _c, _t in TABLE_I if k == key)
        for (n, i), value in zip(CELLS, deviations, strict=True):
            out.append(
                Claim(
                    "000",
                    f"{key.replace('000-table-1', '000-t2')}-f{n + 1}-c{i + 1}",
                    "§IV, Table II",
                    f"{label}: sample standard deviation of f{n + 1} on c{i + 1} ({TRIALS} trials)",
                    f"{value:g}",
                    # within 25 %: the paper's own deviations of mirror-image cells, equal in distribution,
                    # differ by 20 % (PS-DSF: 0.59 and 0.49)
                    "amount",
                    measure=_cell_sd(key, n, i),
                    reproduced=within(value, rel_tol=0.25),
                    setup=setup_text.format(
                        SETUPS[key].share_args["policy"], SETUPS[key].share_args["servers"]
                    ),
                )
            )
    outcome_note = (
        "The paper's cells and deviations fit two outcomes, 5, 5 / 5, 5 and 10, 4 / 4, 10: "
        "(10 - 6.55) / 5 = 0.69 of the trials, and 5 x sqrt(0.69 x 0.31) = 2.31 (Table II). No other "
        "outcome in 200 trials: at a rate above 1.5 % that would happen less than 5 % of the time."
    )
    for key, label in (
        ("000-table-1-drf", "RRR-DRF"),
        ("000-table-1-tsf", "RRR-TSF"),
        ("000-table-1-drf-rounds", "RRR-DRF, the notes' rounds"),
    ):
        rounds = key.endswith("rounds")
        out.append(
            Claim(
                "000",
                f"{key.replace('000-table-1', '000-t1')}-outcomes",
                "§IV, Tables I and II",
                f"{label}: trials ending in neither 5, 5 / 5, 5 nor 10, 4 / 4, 10 (%)",
                "0 (of 200)",
                "percent",
                measure=_outside(key, TWO_OUTCOMES),
                reproduced=at_most(1.5),
                reason=(
                    outcome_note + " The notes' RRR rounds (every open server visited each round, `rrr`) "
                    "give each round's two servers to different frameworks, which makes 15, 3 / 3, 15 and "
                    "0, 6 / 6, 0 more frequent than that; a fresh server order for every task (`rrr-task`, "
                    "the set-ups' reading, the claims above) does not."
                )
                if rounds
                else outcome_note,
                setup=f"python -m scheduling allocate examples/paper000-table1.json --policy drf --servers "
                f"{'rrr' if rounds else 'rrr-task'} --trials 200",
            )
        )
    out.append(
        Claim(
            "000",
            "000-t1-rpsdsf-rrr",
            "§IV",
            "RRR-rPS-DSF 'performed just as rPS-DSF over 200 trials': trials ending in 19, 2 / 2, 19 (%)",
            "100 (of 200)",
            "percent",
            measure=lambda seed: 100.0 - _outside("000-table-1-rpsdsf-rrr", [(19, 2, 2, 19)])(seed),
            reproduced=at_least(98.5),
            setup=_preset("000-table-1-rpsdsf-rrr"),
        )
    )
    return out


def _section_v_claims() -> list[Claim]:
    base = "000-v-pi-wordcount-"
    preset = _preset(base + "drf")

    def ratio(a: str, b: str) -> Callable[[int], float | None]:
        return lambda seed: _ratio(base + a, base + b, seed)

    def stat(key: str, what: str) -> Callable[[int], float | None]:
        return lambda seed: _sharing(base + key, seed)[what]

    def over(
        a: Callable[[int], float | None], b: Callable[[int], float | None]
    ) -> Callable[[int], float | None]:
        def measure(seed: int) -> float | None:
            x, y = a(seed), b(seed)
            return None if x is None or not y else x / y

        return measure

    sooner = "finishes the batch sooner: makespan over"
    return [
        Claim(
            "000",
            "000-v-psdsf-sooner",
            "§V-E1-2, Figures 1-2",
            f"PS-DSF {sooner} DRF's (characterized)",
            "< 1 (PS-DSF packs better, the batch finishes earlier)",
            "ratio",
            measure=ratio("psdsf", "drf"),
            reproduced=at_most(0.995),
            setup=preset,
        ),
        Claim(
            "000",
            "000-v-psdsf-utilisation",
            "§V-E1-2, Figures 1-2",
            "PS-DSF's mean cpu utilisation over DRF's (characterized)",
            "> 1 (higher utilisation)",
            "ratio",
            measure=over(stat("psdsf", "cpu_mean"), stat("drf", "cpu_mean")),
            reproduced=at_least(1.005),
            setup=preset,
        ),
        Claim(
            "000",
            "000-v-rpsdsf-sooner",
            "§V-E2, Figure 3",
            f"rPS-DSF {sooner} TSF's",
            "< 1",
            "ratio",
            measure=ratio("rpsdsf", "tsf"),
            reproduced=at_most(0.995),
            setup=preset,
        ),
        Claim(
            "000",
            "000-v-bf-drf-sooner",
            "§V-E2, Figure 3",
            f"BF-DRF {sooner} TSF's",
            "< 1",
            "ratio",
            measure=ratio("bf-drf", "tsf"),
            reproduced=at_most(0.995),
            setup=preset,
        ),
        Claim(
            "000",
            "000-v-tsf-like-drf",
            "§V-E2, Figure 3",
            "TSF's makespan over DRF's",
            "about 1 (TSF comparable to DRF)",
            "ratio",
            measure=ratio("tsf", "drf"),
            reproduced=within(1.0, abs_tol=0.05),
            setup=preset,
        ),
        Claim(
            "000",
            "000-v-rpsdsf-like-psdsf",
            "§V-E2, Figure 3",
            "rPS-DSF's makespan over PS-DSF's",
            "about 1 (comparable)",
            "ratio",
            measure=ratio("rpsdsf", "psdsf"),
            reproduced=within(1.0, abs_tol=0.05),
            setup=preset,
        ),
        Claim(
            "000",
            "000-v-bf-drf-like-psdsf",
            "§V-E2, Figure 3",
            "BF-DRF's makespan over PS-DSF's",
            "about 1 (comparable)",
            "ratio",
            measure=ratio("bf-drf", "psdsf"),
            reproduced=within(1.0, abs_tol=0.05),
            setup=preset,
        ),
        Claim(
            "000",
            "000-v-characterized-sooner",
            "§V-E3, Figure 4",
            f"DRF characterized {sooner} DRF oblivious",
            "< 1 (the batch finishes sooner characterized)",
            "ratio",
            measure=ratio("drf", "drf-oblivious"),
            reproduced=at_most(0.995),
            setup=preset,
        ),
        Claim(
            "000",
            "000-v-characterized-steadier",
            "§V-E3, Figure 4",
            "Standard deviation of cpu utilisation over time, DRF characterized over oblivious",
            "< 1 (less variance characterized)",
            "ratio",
            measure=over(stat("drf", "cpu_std"), stat("drf-oblivious", "cpu_std")),
            reproduced=at_most(0.995),
            reason="No steadier in the model: the paper's sharper drops under oblivious allocation come from "
            "a job's executors releasing their resources at different times ('executors may not "
            "simultaneously release resources'), while the model ends a job's executors together; "
            "oblivious frameworks that pack whole offers then keep the cluster as full.",
            setup=preset,
        ),
    ]


# --------------------------------------------------------------------------- paper 001

_GB = {16: "16 GB agents", 15: "15 GB agents"}


def _held(key: str, fw: str) -> Callable[[int], float | None]:
    """The largest dominant share ``fw`` held in outstanding offers (%)."""
    return lambda seed: 100.0 * float(_sharing(key, seed)["held_max"][fw])


def _cpu_while_held(key: str, fw: str) -> Callable[[int], float | None]:
    """``fw``'s most running tasks of 1 cpu while some framework holds offers, over the 32 cpu (%)."""
    return lambda seed: 100.0 * float(_sharing(key, seed)["running_while_held"][fw]) / 32


def _starved_gap(key: str) -> Callable[[int], float | None]:
    """Aurora's first task start less Scylla's last (s): > 0 when Scylla launched all its tasks first."""

    def measure(seed: int) -> float | None:
        run = _sharing(key, seed)
        first, last = run["first_start"]["aurora"], run["last_start"]["scylla"]
        return None if first is None or last is None else float(first) - float(last)

    return measure


def _section_ii_to_v_b() -> list[Claim]:
    fig1 = "001-v-b-greedy-first-fit"
    return [
        Claim(
            "001",
            "001-fig1",
            "§II and §V-B, Figure 1",
            "Scylla's unfairness, Marathon answering greedily (Scylla first fit)",
            "38 %",
            "percent",
            measure=_unfairness(fig1, "scylla"),
            reproduced=between(30.0, 45.0),  # issue 17's range
            direction=at_least(5.0),
            reason="Scylla short of its share as in the paper, at the upper edge of 30-45 %: the model's "
            "Marathon takes more than the paper's, since Scylla's first-fit answers filter the agents it "
            "was offered for 5 s and every decision then offers Marathon those agents, 5 tasks on each, "
            "with no delay between an offer and its answer.",
            setup=_preset(fig1),
        ),
        Claim(
            "001",
            "001-fig6",
            "§V-B, Figure 6",
            "Scylla's share above its fair share, Scylla bin packing",
            "+5 %",
            "percent",
            measure=lambda seed: _above_fair("001-v-b-greedy-bin-packing", "scylla", seed),
            reproduced=within(5.0, abs_tol=2.5),
            direction=lambda m: m > 0,
            reason="Above fair, as in the paper, by less: on some seeds Scylla ends exactly at its share.",
            setup=_preset("001-v-b-greedy-bin-packing"),
        ),
        Claim(
            "001",
            "001-fig7",
            "§V-B, Figure 7",
            "Scylla's share above its fair share, bin packing, refuse 5 s",
            "+3 %",
            "percent",
            measure=lambda seed: _above_fair("001-v-b-greedy-bin-packing-refuse-5", "scylla", seed),
            reproduced=within(3.0, abs_tol=2.5),
            direction=lambda m: m > 0,
            reason="Above fair, as in the paper, by less.",
            setup=_preset("001-v-b-greedy-bin-packing-refuse-5"),
        ),
        Claim(
            "001",
            "001-fig6-fig7",
            "§V-B, Figures 6-7",
            "Figure 6's excess over fair less Figure 7's (percentage points)",
            "+2 (5 % then 3 %)",
            "percent",
            measure=_difference(
                lambda s: _above_fair("001-v-b-greedy-bin-packing", "scylla", s),
                lambda s: _above_fair("001-v-b-greedy-bin-packing-refuse-5", "scylla", s),
            ),
            reproduced=at_least(-1e-9),
            setup=_preset("001-v-b-greedy-bin-packing"),
        ),
        Claim(
            "001",
            "001-v-a-refusal",
            "§V-A, Figures 4-5",
            "Worst unfairness of two Scylla instances at refuse 0 s less at 5 s (percentage points)",
            "> 0 (5 s fairer: 15-16 tasks each, against 10-20)",
            "percent",
            measure=_difference(
                lambda s: _worst("001-v-a-scylla-pair-refuse-0", s),
                lambda s: _worst("001-v-a-scylla-pair-refuse-5", s),
            ),
            reproduced=at_least(-1e-9),
            setup=_preset("001-v-a-scylla-pair-refuse-0"),
        ),
        Claim(
            "001",
            "001-v-a-0s",
            "§VII (§V-A)",
            "Fair share received by the worse-off Scylla, refuse 0 s",
            "85 %",
            "percent",
            measure=lambda seed: _least_received("001-v-a-scylla-pair-refuse-0", seed),
            reproduced=within(85.0, abs_tol=5.0),
            direction=lambda m: m < 100.0,
            reason="Short of its share as in the paper, by less: without launch jitter the two instances "
            "settle at 16 tasks each as soon as Scylla-A's first tasks end.",
            setup=_preset("001-v-a-scylla-pair-refuse-0"),
        ),
        Claim(
            "001",
            "001-v-a-5s",
            "§VII (§V-A)",
            "Fair share received by the worse-off Scylla, refuse 5 s",
            "99 %",
            "percent",
            measure=lambda seed: _least_received("001-v-a-scylla-pair-refuse-5", seed),
            reproduced=within(99.0, abs_tol=2.0),
            setup=_preset("001-v-a-scylla-pair-refuse-0"),
        ),
        Claim(
            "001",
            "001-fig2",
            "§II, Figure 2",
            "Aurora's unfairness against Scylla (tasks of 1 cpu, 1 GB)",
            "67 % (Figure 8, §V-C's tasks: 89 %)",
            "percent",
            measure=_unfairness("001-ii-aurora-scylla", "aurora"),
            reproduced=within(67.0, abs_tol=8.0),
            reason="With Scylla answering first fit (its policy in §V-B) instead of packing, Aurora is not "
            "starved here.",
            setup=_preset("001-ii-aurora-scylla"),
        ),
    ]


def _section_v_c() -> list[Claim]:
    out: list[Claim] = []
    spread = "(Figure 2, the pair on 1 GB tasks: 67 %)"
    for mem in (16, 15):
        tail = "" if mem == 16 else f"-{mem}gb"
        hold, bigger, refuse = (
            f"001-v-c-aurora-{k}{tail}" for k in ("hold", "bigger-tasks", "scylla-refuse")
        )
        if mem == 16:
            fig8_reason = (
                "On 16 GB agents Scylla's 8 tasks of 2 GB leave only disk, which Mesos 1.3 does not "
                "offer (allocatable(): 0.01 cpu or 32 MB), so Aurora holds nothing and is not "
                "starved. The paper's explanation describes disk-only offers (§V-C), which the preset's "
                "configuration with minimum_offer none makes: Aurora then holds them and starves."
            )
        else:
            fig8_reason = (
                "Aurora launches nothing until Scylla has launched all its tasks (the claim below), "
                "so §II's window (every framework launching, none finished) is empty: no figure, "
                "as the notes (§5) require. The paper's Figure 2 caption says the same of its pair "
                "('able to launch its tasks only after Scylla is done'), yet prints 67 %."
            )
        out += [
            Claim(
                "001",
                f"001-fig8{tail or '-16gb'}",
                "§V-C, Figure 8",
                f"Aurora's unfairness, holding offers 300 s, {_GB[mem]}",
                f"89 % {spread}",
                "percent",
                measure=_unfairness(hold, "aurora"),
                reproduced=within(89.0, abs_tol=8.0),
                reason=fig8_reason,
                setup=_preset(hold),
            ),
            Claim(
                "001",
                f"001-v-c-ahead{tail or '-16gb'}",
                "§V-C, Figure 8",
                f"Aurora's first task start less Scylla's last, {_GB[mem]} (s)",
                "> 0 ('Scylla ... launch[es] all the tasks ahead of Aurora')",
                "seconds",
                measure=_starved_gap(hold),
                reproduced=at_least(-1e-9),
                reason="Not starved on 16 GB agents (above)." if mem == 16 else "",
                setup=_preset(hold),
            ),
            Claim(
                "001",
                f"001-table3{tail or '-16gb'}",
                "§V-C, Table 3",
                f"Aurora's dominant share held in offers (disk), {_GB[mem]}",
                "97.81 %",
                "percent",
                measure=_held(hold, "aurora"),
                reproduced=within(97.81, abs_tol=0.05),
                reason=(
                    "No disk-only offers on 16 GB agents (above): Aurora holds nothing. With "
                    "minimum_offer none it holds 4 x 31,200 MB (97.5 %)."
                )
                if mem == 16
                else "",
                setup=_preset(hold),
            ),
            Claim(
                "001",
                f"001-table3-scylla{tail or '-16gb'}",
                "§V-C, Table 3",
                f"Scylla's cpu share while Aurora holds offers, {_GB[mem]}",
                "87 %",
                "percent",
                measure=_cpu_while_held(hold, "scylla"),
                reproduced=within(87.5, abs_tol=1.0),
                reason="Aurora never holds an offer on 16 GB agents (above)." if mem == 16 else "",
                setup=_preset(hold),
            ),
            Claim(
                "001",
                f"001-fig9{tail or '-16gb'}",
                "§V-C, Figure 9",
                f"Aurora's unfairness, tasks of 4,096 MB disk, {_GB[mem]}",
                "35 %",
                "percent",
                measure=_unfairness(bigger, "aurora"),
                reproduced=within(35.0, abs_tol=8.0),
                direction=lambda m: 0 < m < 89,
                reason="Less unfair than Figure 8, as in the paper, by more: nothing is held, and Aurora "
                "only waits for Scylla's first tasks to end.",
                setup=_preset(bigger),
            ),
            Claim(
                "001",
                f"001-fig10{tail or '-16gb'}",
                "§V-C, Figure 10",
                f"Aurora's unfairness, Scylla refusing 10 s, {_GB[mem]}",
                "28 %",
                "percent",
                measure=_unfairness(refuse, "aurora"),
                reproduced=within(28.0, abs_tol=8.0),
                direction=lambda m: 0 < m < 35,
                reason="Below Figure 9's paper value; but equal to ours (next claim): packing Scylla never "
                "declines an offer it can use, so its refusal period does not apply.",
                setup=_preset(refuse),
            ),
            Claim(
                "001",
                f"001-fig9-fig10{tail or '-16gb'}",
                "§V-C, Figures 9-10",
                f"Figure 9's unfairness less Figure 10's, {_GB[mem]} (percentage points)",
                "+7 (35 % then 28 %)",
                "percent",
                measure=_difference(_unfairness(bigger, "aurora"), _unfairness(refuse, "aurora")),
                reproduced=at_least(1.0),  # the paper's improvement, by a point at least
                reason="Scylla's longer refusal changes nothing in the model: packing, it never declines an "
                "offer it can use, so its filter never applies.",
                setup=_preset(refuse),
            ),
        ]
    return out


def _section_v_d() -> list[Claim]:
    preset = _preset("001-v-d-idle-5")

    def threshold(seed: int) -> float:
        for idle in range(6):
            r = _ratio(f"001-v-d-idle-{idle}", "001-v-d-idle-0", seed)
            if r is not None and r >= 1.25:
                return float(idle)
        return 6.0

    cliff = (
        "In the model idle frameworks are a threshold, not a gradual rise: with four agents and 5 s "
        "filters, up to four idle frameworks decline and filter every agent without delaying the "
        "active one; from five on every agent is filtered by an idle one much of the time. The notes "
        "leave out Mesos' sub-second filter expiry, which would move the threshold by one (§4)."
    )
    return [
        Claim(
            "001",
            "001-v-d-threshold",
            "§V-D, Figure 11",
            "Fewest idle frameworks that lengthen the active one's makespan by a quarter or more",
            "5 ('doubles when ... up to five')",
            "count",
            measure=threshold,
            reproduced=within(5.0, abs_tol=0.01),
            setup=preset,
        ),
        Claim(
            "001",
            "001-v-d-five",
            "§V-D, Figure 11",
            "Makespan with five idle frameworks over the makespan alone",
            "2 (doubles)",
            "ratio",
            measure=lambda s: _ratio("001-v-d-idle-5", "001-v-d-idle-0", s),
            reproduced=within(2.0, abs_tol=0.25),
            direction=at_least(1.25),
            reason=cliff,
            setup=preset,
        ),
        Claim(
            "001",
            "001-v-d-gradual",
            "§V-D, Figure 11A-C",
            "Makespan with four idle frameworks over the makespan alone",
            "> 1 (rises with each idle framework)",
            "ratio",
            measure=lambda s: _ratio("001-v-d-idle-4", "001-v-d-idle-0", s),
            reproduced=at_least(1.1),
            reason=cliff,
            setup=preset,
        ),
        Claim(
            "001",
            "001-v-d-restored",
            "§V-D, Figure 11D-E",
            "Makespan with five idle frameworks refusing 10 s (the active one 2 s) over the makespan alone",
            "about 1 (restored)",
            "ratio",
            measure=lambda s: _ratio("001-v-d-idle-5-refuse-10", "001-v-d-idle-0", s),
            reproduced=at_most(1.1),
            setup=preset,
        ),
    ]


def _section_v_e() -> list[Claim]:
    preset = _preset("001-v-e-long-faster")
    same = _unfairness("001-v-e-long-short-same-rate", "scylla-s")
    long_faster = _unfairness("001-v-e-long-faster", "scylla-s")
    short_faster = _unfairness("001-v-e-short-faster", "scylla-s")

    def order(seed: int) -> float | None:
        a, b, c = long_faster(seed), same(seed), short_faster(seed)
        return None if a is None or b is None or c is None else min(a - b, b - c)

    return [
        Claim(
            "001",
            "001-fig12",
            "§V-E, Figure 12",
            "Short-task framework's unfairness, both every 5 s",
            "23 %",
            "percent",
            measure=same,
            reproduced=within(23.0, abs_tol=8.0),
            direction=lambda m: m > 0,
            reason="Short of its share as in the paper, by less: under DRF the framework with short tasks "
            "frees resources sooner and is offered them first.",
            setup=preset,
        ),
        Claim(
            "001",
            "001-fig13",
            "§V-E, Figure 13",
            "Short-task framework's unfairness, long tasks every 5 s, short every 10 s",
            "37 %",
            "percent",
            measure=long_faster,
            reproduced=within(37.0, abs_tol=8.0),
            setup=preset,
        ),
        Claim(
            "001",
            "001-fig14",
            "§V-E, Figure 14",
            "Short-task framework's unfairness, long tasks every 10 s, short every 5 s",
            "7 %",
            "percent",
            measure=short_faster,
            reproduced=within(7.0, abs_tol=8.0),
            setup=preset,
        ),
        Claim(
            "001",
            "001-v-e-order",
            "§V-E, Figures 12-14",
            "The order Figure 13 > Figure 12 > Figure 14: the smaller of the two gaps (percentage points)",
            "37 > 23 > 7 (gaps 14 and 16)",
            "percent",
            measure=order,
            reproduced=lambda m: m > 0,
            setup=preset,
        ),
    ]


def claims() -> list[Claim]:
    """Every claim of papers 000 and 001, in the papers' order (``scheduling.reproduce``)."""
    return [
        *_table_one_claims(),
        *_section_v_claims(),
        *_section_ii_to_v_b(),
        *_section_v_c(),
        *_section_v_d(),
        *_section_v_e(),
    ]
