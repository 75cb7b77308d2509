"""Progressive filling with whole tasks (paper 000, Section IV; notes §1-2).

Frameworks are served one task at a time: the framework with the smallest fairness criterion
(:mod:`~scheduling.fairness.criteria`) whose next task fits gets it, until no task fits
anywhere. Which server it lands on is the *server selection*:

* ``rrr``, randomised round robin (the Mesos default): rounds over the open servers in a fresh
  random order; each server visited gives one task to the framework with the smallest
  criterion among those whose task fits there (PS-DSF and rPS-DSF evaluate it for that
  server); a server where nothing fits is closed;
* ``joint``: each step the (framework, server) pair with the smallest criterion gets a task;
* ``best-fit``: the framework by its criterion (a per-server criterion by its smallest value
  over the servers it fits on), then the server whose residual capacity best matches its
  demand (:func:`~scheduling.fairness.criteria.best_fit_distance`) among those it fits on;
  BF-DRF is DRF with best fit.

Two readings of paper 000's Table I (``docs/table-one.md`` has the arithmetic; the notes' §2
readings above stay the defaults):

* ``rrr-task``, randomised round robin with a fresh server order for every task (every step
  of progressive filling is a round): the first server of a fresh random order where some
  task fits, which is a server drawn uniformly among those, gets one task of the framework
  with the smallest criterion there. Under DRF and TSF it gives Table I's two outcomes (5, 5
  and 10, 4 per server, 69 % and 31 %) and Table II's deviations; ``rrr`` also gives 15, 3
  and 0, 6 in about 4 % of trials, which the paper's 200 trials rule out;
* ``best-fit-all``, best fit over every server the framework may use, whether its task fits
  there or not: when it does not fit on that server, the framework with the next smallest
  criterion is served instead ("if a framework's resource demands cannot be accommodated
  ..., the framework with the next smallest fairness criterion will be allocated", §IV).
  BF-DRF then allocates Table I's 41 tasks in every trial, 20, 2 / 0, 19 among them (the
  outcome when DRF's ties go to f2). Unlike the others it may stop with a task that fits
  somewhere.

Every tie (frameworks with equal criteria, equal best-fit distances, equal pairs) is broken
at random, so that no framework gains from its place in the file. A joint step breaks ties in
two stages, the framework among the tied ones, then the server among that framework's tied
servers, each uniformly at random.

All trials run together, vectorised over the trials (Table I's 200 trials of a two-server
problem cost about as much as one), each with its own random choices drawn from one
generator seeded by ``seed``.

>>> from scheduling.fairness.model import FairnessProblem
>>> p = FairnessProblem(resources=("cpu", "mem"), machines=("c1#1", "c2#1"), machine_types=("c1", "c2"),
...     capacity=np.array([[100.0, 30.0], [30.0, 100.0]]), frameworks=("f1", "f2"),
...     demand=np.array([[5.0, 1.0], [1.0, 5.0]]), weight=np.ones(2), allowed=np.ones((2, 2), bool))
>>> x = progressive_filling(p, policy="rpsdsf", servers="joint", trials=3, seed=1)
>>> x.shape, x.sum(axis=(1, 2)).tolist()   # paper 000's Table I: rPS-DSF allocates 42 tasks
((3, 2, 2), [42, 42, 42])
>>> x[0].tolist()
[[19, 2], [2, 19]]
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from ..errors import FieldError, ScenarioError
from . import criteria
from .model import FairnessProblem

__all__ = [
    "MAX_TRIALS",
    "POLICIES",
    "SERVER_SELECTIONS",
    "progressive_filling",
    "server_selection",
]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

#: The progressive-filling policies: a criterion, or ``bf-drf`` (DRF with best-fit servers).
POLICIES = ("drf", "tsf", "psdsf", "rpsdsf", "bf-drf")
#: How a task's server is chosen: the notes' three (§2), then paper 000's Table I readings.
SERVER_SELECTIONS = ("rrr", "joint", "best-fit", "rrr-task", "best-fit-all")
#: The server selections of BF-DRF (DRF with best fit).
BEST_FIT = ("best-fit", "best-fit-all")
#: At most this many trials in one call.
MAX_TRIALS = 100_000

#: A task fits when every resource's residual covers its demand to within this.
FIT_TOLERANCE = 1e-9
#: Values this close (relatively) to the smallest are a tie.
TIE_TOLERANCE = 1e-12
#: The progress callback is called every this many steps.
PROGRESS_EVERY = 256
#: Per-server criteria (PS-DSF, rPS-DSF) under joint or best-fit selection are filled one
#: trial at a time with incrementally kept minima when trials x frameworks x servers exceeds
#: this; below it, every step recomputes the (trials, N, I) criteria, vectorised over trials.
INCREMENTAL_CELLS = 20_000


def server_selection(policy: str, servers: str | None) -> str:
    """The server selection of ``policy`` when ``servers`` is given or not (``None``).

    ``rrr`` by default; ``bf-drf`` means DRF with best-fit servers, so it takes no other (either
    reading of best fit: ``best-fit`` by default, or ``best-fit-all``).

    >>> server_selection("drf", None), server_selection("bf-drf", None), server_selection("tsf", "joint")
    ('rrr', 'best-fit', 'joint')
    >>> server_selection("bf-drf", "rrr")
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: servers: bf-drf chooses servers by best fit \
(use policy drf with servers rrr for DRF under randomised round robin)
    """
    errors: list[FieldError] = []
    if policy not in POLICIES:
        errors.append(FieldError("policy", f"unknown policy {policy!r} (policies: {', '.join(POLICIES)})"))
    if servers is not None and servers not in SERVER_SELECTIONS:
        errors.append(FieldError(
            "servers", f"unknown server selection {servers!r} (choose {', '.join(SERVER_SELECTIONS)})"))
    if policy == "bf-drf" and servers not in (None, *BEST_FIT):
        errors.append(FieldError(
            "servers",
            "bf-drf chooses servers by best fit (use policy drf with servers rrr for DRF under "
            "randomised round robin)",
        ))
    if errors:
        raise ScenarioError(errors)
    if servers is None:
        return "best-fit" if policy == "bf-drf" else "rrr"
    return servers


def progressive_filling(
    problem: FairnessProblem,
    *,
    policy: str,
    servers: str | None = None,
    trials: int = 1,
    seed: int | None = 0,
    rng: np.random.Generator | None = None,
    residual: FloatArray | None = None,
    tasks: FloatArray | None = None,
    limit: FloatArray | None = None,
    progress: Callable[[float], None] | None = None,
) -> IntArray:
    """Whole tasks of each framework on each server by progressive filling, per trial.

    Parameters
    ----------
    problem : FairnessProblem
        Frameworks (demand, weight, allowed servers) and servers (capacity).
    policy : {"drf", "tsf", "psdsf", "rpsdsf", "bf-drf"}
        The criterion that picks the framework (notes §1).
    servers : {"rrr", "joint", "best-fit", "rrr-task", "best-fit-all"}, optional
        The server selection (:func:`server_selection`'s default when ``None``; module docstring).
    trials : int
        Independent repetitions; each breaks ties and orders servers with its own draws.
    seed, rng
        The random choices come from ``rng`` when given, else from ``default_rng(seed)``.
    residual : array (I, R), optional
        The capacity left to allocate (default: every server's capacity). The online
        simulator passes what its running tasks leave.
    tasks : array (N, I), optional
        Tasks already placed: they count in the criteria (``x_n``) but are not returned.
    limit : array (N,), optional
        The most new tasks each framework takes (default: no limit).
    progress : callable, optional
        Called with the fraction done (the share of the initially fitting framework x server
        pairs that no longer fit), now and then; it may raise to stop the filling.

    Returns
    -------
    array (trials, N, I) of int
        The new tasks of each framework on each server, per trial.

    Raises
    ------
    ScenarioError
        For an unknown policy or server selection (paths ``policy``, ``servers``), or a
        number of trials out of range (``trials``).

    Examples
    --------
    Two frameworks on one server of 12 cpu; DRF with weights 2 and 1 (demands 1 and 2 cpu):
    the first ends with twice the dominant share of the second (8/12 against 4/12).

    >>> p = FairnessProblem(resources=("cpu",), machines=("s#1",), machine_types=("s",),
    ...     capacity=np.array([[12.0]]), frameworks=("a", "b"), demand=np.array([[1.0], [2.0]]),
    ...     weight=np.array([2.0, 1.0]), allowed=np.ones((2, 1), bool))
    >>> progressive_filling(p, policy="drf", seed=0)[0, :, 0].tolist()
    [8, 2]
    """
    servers = server_selection(policy, servers)
    if isinstance(trials, bool) or not isinstance(trials, int) or not 1 <= trials <= MAX_TRIALS:
        raise ScenarioError.single("trials", f"must be an integer from 1 to {MAX_TRIALS:,}")
    state = _Filling(
        problem, "drf" if policy == "bf-drf" else policy, trials,
        rng if rng is not None else np.random.default_rng(seed), residual, tasks, limit, progress,
    )
    if servers == "rrr":
        state.round_robin()
    elif servers == "rrr-task":
        state.round_robin_per_task()
    elif servers == "best-fit-all":
        state.best_fit_over_all()  # vectorised only: each step weighs every (framework, server)
    elif state.per_framework is None and state.x.size > INCREMENTAL_CELLS:
        state.incremental(best_fit=servers == "best-fit")
    elif servers == "joint":
        state.joint()
    else:
        state.best_fit()
    state.report(final=True)
    return state.x


class _Filling:
    """The state of ``T`` trials of progressive filling, advanced one task per trial per step."""

    def __init__(
        self,
        problem: FairnessProblem,
        criterion: str,
        trials: int,
        rng: np.random.Generator,
        residual: FloatArray | None,
        tasks: FloatArray | None,
        limit: FloatArray | None,
        progress: Callable[[float], None] | None,
    ) -> None:
        n, i = problem.allowed.shape
        self.problem = problem
        self.criterion = criterion
        self.rng = rng
        self.on_progress = progress
        self.demand = problem.demand
        start = problem.capacity if residual is None else np.asarray(residual, dtype=float)
        self.res: FloatArray = np.broadcast_to(start, (trials, i, start.shape[1])).copy()
        self.x: IntArray = np.zeros((trials, n, i), dtype=np.int64)
        placed = np.zeros(n) if tasks is None else np.asarray(tasks, dtype=float).sum(axis=1)
        self.xn: FloatArray = np.broadcast_to(placed, (trials, n)).astype(float)
        cap = np.full(n, np.inf) if limit is None else np.asarray(limit, dtype=float)
        self.left: FloatArray = np.broadcast_to(cap, (trials, n)).astype(float)
        fit = (self.res[:, None, :, :] >= self.demand[None, :, None, :] - FIT_TOLERANCE).all(axis=3)
        self.fits: BoolArray = fit & problem.allowed[None] & (self.left > 0)[:, :, None]
        self.done: BoolArray = np.zeros(trials, dtype=bool)
        self.pairs0 = max(1, int(self.fits.sum()))
        self.steps = 0
        # Criteria are linear in x_n: x_n times a coefficient (notes §1); the static ones
        # are computed once from the criteria's own definitions (x = 1).
        ones = np.ones(n)
        if criterion == "drf":
            self.per_framework: FloatArray | None = criteria.drf(problem, ones)
        elif criterion == "tsf":
            self.per_framework = criteria.tsf(problem, ones)
        else:
            self.per_framework = None
        self.per_server: FloatArray | None = criteria.psdsf(problem, ones) if criterion == "psdsf" else None
        self.weight = problem.weight

    # ------------------------------------------------------------------ criteria

    def _times(self, xn: FloatArray, coefficient: FloatArray) -> FloatArray:
        """``x_n * coefficient`` with ``inf`` where the coefficient is (a framework that fits nowhere)."""
        with np.errstate(invalid="ignore"):
            out: FloatArray = np.where(np.isinf(coefficient), np.inf, xn * coefficient)
        return out

    def framework_values(self, t: IntArray) -> FloatArray:
        """(L, N) criterion of each framework in trials ``t`` (drf, tsf only)."""
        assert self.per_framework is not None
        return self._times(self.xn[t], self.per_framework[None, :])

    def column_values(self, t: IntArray, i: IntArray) -> FloatArray:
        """(L, N) criterion of each framework for server ``i[k]`` in trial ``t[k]``."""
        if self.per_framework is not None:
            return self.framework_values(t)
        if self.per_server is not None:
            return self._times(self.xn[t], self.per_server[:, i].T)
        share = criteria.per_task_share(self.demand[None, :, :], self.res[t, i][:, None, :])
        return self._times(self.xn[t], share / self.weight[None, :])

    def pair_values(self, t: IntArray) -> FloatArray:
        """(L, N, I) criterion of each framework on each server in trials ``t``."""
        if self.per_framework is not None:
            values = self.framework_values(t)[:, :, None]
            return np.broadcast_to(values, (*values.shape[:2], self.x.shape[2]))
        if self.per_server is not None:
            return self._times(self.xn[t][:, :, None], self.per_server[None, :, :])
        share = criteria.per_task_share(self.demand[None, :, None, :], self.res[t][:, None, :, :])
        return self._times(self.xn[t][:, :, None], share / self.weight[None, :, None])

    # ------------------------------------------------------------------ choosing

    def pick(self, values: FloatArray) -> tuple[IntArray, BoolArray]:
        """Per row, the index of a smallest finite value (ties at random), and whether there is one."""
        best = values.min(axis=1)
        valid = np.isfinite(best)
        bound = np.where(valid, best + np.abs(best) * TIE_TOLERANCE, -np.inf)
        tie = values <= bound[:, None]
        count = tie.sum(axis=1)
        chosen = np.zeros(values.shape[0], dtype=np.int64)
        many = count > 1
        chosen[~many] = tie[~many].argmax(axis=1)
        if many.any():
            k = (self.rng.random(int(many.sum())) * count[many]).astype(np.int64)
            chosen[many] = (tie[many].cumsum(axis=1) > k[:, None]).argmax(axis=1)
        return chosen, valid

    def framework_choice(self, t: IntArray) -> tuple[IntArray, BoolArray, FloatArray | None]:
        """The framework of each trial by its criterion among those with a fitting server, and
        (per-server criteria) the pair values it was chosen from."""
        fits = self.fits[t]
        if self.per_framework is not None:
            values = np.where(fits.any(axis=2), self.framework_values(t), np.inf)
            n, ok = self.pick(values)
            return n, ok, None
        pairs = np.where(fits, self.pair_values(t), np.inf)
        n, ok = self.pick(pairs.min(axis=2))
        return n, ok, pairs

    # ------------------------------------------------------------------ the three selections

    def round_robin(self) -> None:
        trials, _, servers = self.x.shape
        # A server where no task fits is closed from the start (visiting it would only close it).
        closed: BoolArray = np.logical_not(self.fits.any(axis=1))
        order = np.zeros((trials, servers), dtype=np.int64)
        length = np.zeros(trials, dtype=np.int64)
        pos = np.zeros(trials, dtype=np.int64)

        def new_round(ts: IntArray) -> None:
            for t in ts.tolist():
                open_ = np.flatnonzero(~closed[t])
                if open_.size == 0:
                    self.done[t] = True
                    continue
                order[t, : open_.size] = self.rng.permutation(open_)
                length[t] = open_.size
                pos[t] = 0

        new_round(np.arange(trials))
        while True:
            t = np.flatnonzero(~self.done)
            if t.size == 0:
                return
            i = order[t, pos[t]]
            values = np.where(self.fits[t, :, i], self.column_values(t, i), np.inf)
            n, ok = self.pick(values)
            closed[t[~ok], i[~ok]] = True
            self.place(t[ok], n[ok], i[ok])
            # no task fits anywhere any more (limits reached, servers full): the trial is over
            self.done[t[~self.fits[t].any(axis=(1, 2))]] = True
            pos[t] += 1
            new_round(t[pos[t] >= length[t]])
            self.tick()

    def round_robin_per_task(self) -> None:
        """``rrr-task``: a fresh random server order for every task. The first server of a random
        order where some task fits is uniform among those servers, so one is drawn directly
        (servers where nothing fits would only be visited and closed)."""
        while True:
            t = np.flatnonzero(~self.done)
            if t.size == 0:
                return
            # (L, I): the servers where some framework's task fits
            open_: BoolArray = np.asarray(self.fits[t].any(axis=1), dtype=bool)
            ok: BoolArray = np.asarray(open_.any(axis=1), dtype=bool)
            self.done[t[~ok]] = True
            t, open_ = t[ok], open_[ok]
            if t.size == 0:
                return
            keys = np.where(open_, self.rng.random(open_.shape), np.inf)
            i = keys.argmin(axis=1)
            values = np.where(self.fits[t, :, i], self.column_values(t, i), np.inf)
            n, _ = self.pick(values)
            self.place(t, n, i)
            self.tick()

    def best_fit_over_all(self) -> None:
        """``best-fit-all``: each framework's best-fit server over every server it may use (of
        equally good fits, one its task fits on); the framework with the smallest criterion whose
        task fits on its best-fit server gets one there (the others are passed over for this
        step); none: the trial is over."""
        n_fw = self.x.shape[1]
        while True:
            t = np.flatnonzero(~self.done)
            if t.size == 0:
                return
            distance = criteria.best_fit_distance(self.demand[None, :, :], self.res[t][:, None, :, :])
            distance = np.where(self.problem.allowed[None], distance, np.inf)  # (L, N, I)
            low = distance.min(axis=2, keepdims=True)
            tied = np.isfinite(distance) & (distance <= low + np.abs(low) * TIE_TOLERANCE)
            # among equally good fits, one the task fits on (at random), else any of them
            rank = np.where(tied & self.fits[t], 0.0, np.where(tied, 1.0, np.inf))
            best, found = self.pick(rank.reshape(t.size * n_fw, -1))
            best = best.reshape(t.size, n_fw)
            rows = np.arange(t.size)[:, None]
            takes = found.reshape(t.size, n_fw) & self.fits[t[:, None], np.arange(n_fw)[None, :], best]
            if self.per_framework is not None:
                values = np.where(takes, self.framework_values(t), np.inf)
            else:
                pairs = np.where(self.fits[t], self.pair_values(t), np.inf).min(axis=2)
                values = np.where(takes, pairs, np.inf)
            n, ok = self.pick(values)
            self.done[t[~ok]] = True
            self.place(t[ok], n[ok], best[rows[ok, 0], n[ok]])
            self.tick()

    def joint(self) -> None:
        while True:
            t = np.flatnonzero(~self.done)
            if t.size == 0:
                return
            n, ok, pairs = self.framework_choice(t)
            self.done[t[~ok]] = True
            t, n = t[ok], n[ok]
            if pairs is None:  # drf, tsf: every server the framework fits on ties
                servers = np.where(self.fits[t, n], 0.0, np.inf)
            else:
                servers = pairs[ok][np.arange(t.size), n]
            i, _ = self.pick(servers)
            self.place(t, n, i)
            self.tick()

    def best_fit(self) -> None:
        while True:
            t = np.flatnonzero(~self.done)
            if t.size == 0:
                return
            n, ok, _ = self.framework_choice(t)
            self.done[t[~ok]] = True
            t, n = t[ok], n[ok]
            distance = criteria.best_fit_distance(self.demand[n], self.res[t])
            i, _ = self.pick(np.where(self.fits[t, n], distance, np.inf))
            self.place(t, n, i)
            self.tick()

    def incremental(self, *, best_fit: bool) -> None:
        """Joint or best-fit selection under a per-server criterion, one trial at a time.

        The same choices as :meth:`joint` and :meth:`best_fit`, at a cost per step of a few
        rows instead of the whole (N, I) matrix: the criterion matrix ``V`` (N, I) and each
        framework's smallest value over its fitting servers are kept up to date. A task of
        ``n`` on ``i`` changes only row ``n`` (``x_n`` grew) and column ``i`` (its residual
        shrank, so rPS-DSF's values there grew, and some tasks stopped fitting): a row's
        minimum is recomputed only when it was at column ``i``.
        """
        rpsdsf = self.per_server is None
        for t in range(self.x.shape[0]):
            tt = np.array([t])
            fits = self.fits[t]
            if rpsdsf:
                coef = criteria.per_task_share(self.demand[:, None, :], self.res[t][None, :, :])
                coef = coef / self.weight[:, None]
            else:
                assert self.per_server is not None
                coef = self.per_server.copy()
            values = np.where(fits, self._times(self.xn[t][:, None], coef), np.inf)
            row_min = values.min(axis=1)
            while True:
                best = row_min.min()
                if not np.isfinite(best):
                    self.done[t] = True
                    break
                n = self._one_of(row_min <= best + abs(best) * TIE_TOLERANCE)
                if best_fit:
                    distance = criteria.best_fit_distance(self.demand[n], self.res[t])
                    distance = np.where(fits[n], distance, np.inf)
                    low = distance.min()
                    i = self._one_of(distance <= low + abs(low) * TIE_TOLERANCE)
                else:
                    i = self._one_of(values[n] <= row_min[n] + abs(row_min[n]) * TIE_TOLERANCE)
                self.place(tt, np.array([n]), np.array([i]))
                if rpsdsf:
                    coef[:, i] = criteria.per_task_share(self.demand, self.res[t, i]) / self.weight
                old = values[:, i].copy()
                values[:, i] = np.where(fits[:, i], self._times(self.xn[t], coef[:, i]), np.inf)
                values[n] = np.where(fits[n], self._times(self.xn[t][n], coef[n]), np.inf)
                stale = (old <= row_min + np.abs(row_min) * TIE_TOLERANCE) & (values[:, i] > old)
                stale[n] = True
                for k in np.flatnonzero(stale).tolist():
                    row_min[k] = values[k].min()
                row_min = np.minimum(row_min, values[:, i])
                self.tick()

    def _one_of(self, mask: BoolArray) -> int:
        """A uniformly random index where ``mask`` holds (the only one, without a draw)."""
        where = np.flatnonzero(mask)
        if where.size == 1:
            return int(where[0])
        return int(where[self.rng.integers(where.size)])

    # ------------------------------------------------------------------ bookkeeping

    def place(self, t: IntArray, n: IntArray, i: IntArray) -> None:
        """One task of ``n[k]`` on server ``i[k]`` in trial ``t[k]`` (at most one per trial)."""
        if t.size == 0:
            return
        self.x[t, n, i] += 1
        self.xn[t, n] += 1.0
        self.left[t, n] -= 1.0
        self.res[t, i] -= self.demand[n]
        fit = (self.res[t, i][:, None, :] >= self.demand[None, :, :] - FIT_TOLERANCE).all(axis=2)
        self.fits[t, :, i] = fit & self.problem.allowed[:, i].T & (self.left[t] > 0)
        spent = self.left[t, n] <= 0
        if spent.any():
            self.fits[t[spent], n[spent], :] = False

    def tick(self) -> None:
        self.steps += 1
        if self.on_progress is not None and self.steps % PROGRESS_EVERY == 0:
            self.report(final=False)

    def report(self, *, final: bool) -> None:
        if self.on_progress is None:
            return
        self.on_progress(1.0 if final else min(1.0, 1.0 - float(self.fits.sum()) / self.pairs0))
