"""A lower bound on the cost of running a whole scenario, whatever the scheduler.

Let ``f(D)`` be the cheapest *fractional* mix of VM types whose capacity covers a demand
vector ``D`` (a linear program: minimise ``sum_t p_t y_t`` subject to
``sum_t c_tr y_t >= D_r``, ``y >= 0``). Any schedule pays at least ``f(D(t))`` per unit of
time at every instant ``t``, where ``D(t)`` is the demand of the executors running then.
``f`` is convex and positively homogeneous, so ``integral f(D(t)) dt >= f(integral D(t) dt)``,
and ``integral D(t) dt`` is at least the work ``W_r = sum_jobs executors * demand_r * duration``.
Hence ``f(W)``, with ``W`` in resource-hours and ``y`` in VM-hours, bounds every scheduler's
cost from below. It relaxes VM counts, framework VM-type restrictions and the packing of whole
executors, so it is valid but not always tight; billing options only raise real costs.

A network-bound job (notes §8) whose executors span several VMs runs longer than its
``duration_s`` (its stretch is at least 1) and holds its executors all that time, so the work it
does is at least its unstretched work: ``W`` counts every job at its ``duration_s``, which stays
a lower bound whatever placement a scheduler chooses (and is the bound of a scheduler that puts
every such job on one VM).

**Reserved and spot prices** (scenario version 4). A reserved VM is billed its reserved price for
the whole horizon ``H`` (from 0 until the last job finishes), on or not, and costs nothing more
while on; a spot VM is billed its spot price per second while on. Let, per VM type ``t``,
``u_t``, ``z_t`` and ``y_t`` be the VM-hours a schedule has reserved, spot and on-demand VMs of
the type on, ``r_t`` its reserved VMs and ``R = sum_t r_t * reserved price_t`` the reservations'
hourly price. Every schedule gives a feasible point of the linear programme

    minimise   R H + sum_t (s_t z_t + p_t y_t)
    subject to sum_t c_tr (u_t + z_t + y_t) >= W_r   for every resource r
               u_t <= r_t H,   H >= H_min,   u, z, y >= 0

(its VMs on cover its executors at every instant, hence the work; a reserved VM is on at most
``H`` hours; ``H`` is at least ``H_min = max_j (arrival_j + duration_j)``, the earliest any job
can finish; spot interruptions only add work; billing options only raise real costs), with
an objective no larger than its bill. So the programme's optimum is a lower bound. Only the
markets a type has machines in get a column; counts are relaxed as before. A scenario without
reserved or spot prices is solved as ``f(W)`` above, exactly as before version 4.
"""

from __future__ import annotations

import highspy
import numpy as np

from ..scenario import JobShapes, Scenario

# A row of a linear programme: its columns, their coefficients, its lower and upper bounds.
_Row = tuple[list[int], list[float], float, float]
_INF = highspy.kHighsInf


def work_resource_hours(scenario: Scenario) -> np.ndarray:
    """The scenario's total work per resource, in resource-hours, every job at its unstretched
    ``duration_s`` (a network-bound job's stretch only adds to it: see the module docstring)."""
    jobs = scenario.jobs
    n = len(scenario.resources)
    if not jobs:
        return np.zeros(n)
    shapes = JobShapes.of_jobs(jobs)  # the executors and their demand, one pass
    demand, executors = shapes.executor, shapes.executors.astype(float)
    hours = executors * np.fromiter((j.duration_s for j in jobs), dtype=float, count=len(jobs)) / 3600.0
    # Added job by job in listed order (a running sum, not numpy's pairwise one), from +0.0:
    # the floats of ``w = 0; w += executor * (executors * duration / 3600)`` over the jobs.
    w: np.ndarray = np.cumsum(demand * hours[:, None], axis=0)[-1] + 0.0
    return w


def cheapest_cover_cost(capacity: np.ndarray, price: np.ndarray, demand: np.ndarray) -> float:
    """``f(demand)``: the cheapest fractional VM mix covering ``demand``.

    >>> cheapest_cover_cost(np.array([[4.0, 16.0], [8.0, 32.0]]), np.array([0.24, 0.50]),
    ...                     np.array([8.0, 8.0]))
    0.48
    """
    if not (demand > 0).any():
        return 0.0
    n = len(price)
    rows = [
        (list(range(n)), [float(capacity[t, r]) for t in range(n)], float(demand[r]), _INF)
        for r in range(capacity.shape[1])
        if demand[r] > 0
    ]
    return _minimise([float(p) for p in price], [0.0] * n, rows)


def lower_bound_cost(scenario: Scenario) -> float:
    """A cost no scheduler can beat on this scenario (see the module docstring).

    >>> from scheduling.scenario import parse_scenario
    >>> doc = {"resources": ["cpu"], "vm_types": [{"name": "vm", "capacity": {"cpu": 4},
    ...     "price_per_hour": 1.0, "count": 4, "reserved": {"price_per_hour": 0.5, "count": 1}}],
    ...     "jobs": [{"id": "a", "arrival_s": 0, "executors": 2, "executor": {"cpu": 4},
    ...               "duration_s": 7200}]}
    >>> lower_bound_cost(parse_scenario(doc))  # 4 VM-hours of work, all on the reserved VM: 4 h at $0.50
    2.0
    >>> doc["vm_types"][0]["reserved"]["price_per_hour"] = 1.5  # H = 2 h: $3 reserved, 2 h on demand
    >>> lower_bound_cost(parse_scenario(doc))
    5.0
    """
    capacity = np.array([t.capacity for t in scenario.vm_types], dtype=float)
    price = np.array([t.price_per_hour for t in scenario.vm_types], dtype=float)
    work = work_resource_hours(scenario)
    if not scenario.has_market_prices:
        return cheapest_cover_cost(capacity, price, work)
    return _market_cover_cost(scenario, capacity, work)


def earliest_horizon_hours(scenario: Scenario) -> float:
    """``H_min``: no schedule's horizon is shorter than the earliest its last job can finish."""
    return max((j.arrival_s + j.duration_s for j in scenario.jobs), default=0.0) / 3600.0


def _market_cover_cost(scenario: Scenario, capacity: np.ndarray, work: np.ndarray) -> float:
    """The linear programme of the module docstring (reserved and spot prices)."""
    # Columns: H first, then one per VM type and market with machines.
    price: list[float] = [0.0]
    lower: list[float] = [earliest_horizon_hours(scenario)]
    rows: list[_Row] = []
    cover: list[tuple[list[int], list[float]]] = [([], []) for _ in scenario.resources]
    for t, vt in enumerate(scenario.vm_types):
        counts = vt.market_counts()
        for market, n in counts.items():
            if n <= 0:
                continue
            column = len(price)
            price.append(0.0 if market == "reserved" else vt.market_price(market))
            lower.append(0.0)
            if market == "reserved":  # billed n * price for the whole horizon; on at most n * H hours
                price[0] += n * vt.market_price(market)
                rows.append(([column, 0], [1.0, -float(n)], -_INF, 0.0))
            for r in range(len(scenario.resources)):
                if capacity[t, r] > 0:
                    cover[r][0].append(column)
                    cover[r][1].append(float(capacity[t, r]))
    for r, (columns, values) in enumerate(cover):
        if work[r] > 0:
            rows.append((columns, values, float(work[r]), _INF))
    return _minimise(price, lower, rows)



def _minimise(price: list[float], lower: list[float], rows: list[_Row]) -> float:
    """The optimum of ``minimise price . x`` over ``x >= lower`` and the ``rows`` (each its
    columns, their coefficients and its lower and upper bounds), solved by HiGHS in-process,
    rounded to 9 digits. Its programmes are feasible and bounded for every valid scenario."""
    h = highspy.Highs()  # type: ignore[no-untyped-call]  # highspy's constructor has no hints
    h.setOptionValue("output_flag", False)
    n = len(price)
    h.addCols(n, np.array(price, dtype=float), np.array(lower, dtype=float), np.full(n, _INF), 0,
              np.zeros(n + 1, np.int32), np.zeros(0, np.int32), np.zeros(0, float))
    for columns, values, low, high in rows:
        h.addRow(low, high, len(columns), np.array(columns, dtype=np.int32), np.array(values, dtype=float))
    h.run()
    status = h.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal:  # cannot happen for a validated scenario
        raise RuntimeError(f"lower-bound LP ended {h.modelStatusToString(status)}")
    total = 0.0
    for p, x in zip(price, h.getSolution().col_value, strict=True):
        total += x * p
    return round(total, 9)
