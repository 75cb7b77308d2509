"""Sweeps: what if the cluster, its prices, its load or its schedulers were different?

A sweep varies a scenario along axes (VM counts, price factors, load, run options: declared
once in :data:`~scheduling.sweep.axes.AXES`), as a grid or a seeded random sample of it, runs
every setting with each scheduler and seed through the cost engine (paper 003's
:func:`scheduling.cost.simulate`), and says which points are on the Pareto front of cost
against deadline misses (and unfairness), with a band over the seeds per axis.

The package has the shape of a paper's: :mod:`.axes` and :mod:`.expand` (what varies, the
points), :mod:`.evaluate` (one point), :mod:`.analysis` (fronts, bands), :mod:`.document`
(the result document and the front door :func:`sweep`), :mod:`.params` (the declared
parameters), :mod:`.tables`, :mod:`.charts`, :mod:`.html`, :mod:`.cli` (``sweep``) and
:mod:`.setups` (presets).
"""

from .analysis import band, parameter_bands, pareto_front, t_quantile
from .axes import AXES, Axis
from .document import plan_points, sweep, sweep_document
from .evaluate import evaluate_point, evaluate_points
from .expand import Point, point_batches
from .params import SWEEP_PARAMS, sweep_run

__all__ = [
    "AXES",
    "SWEEP_PARAMS",
    "Axis",
    "Point",
    "band",
    "evaluate_point",
    "evaluate_points",
    "parameter_bands",
    "pareto_front",
    "plan_points",
    "point_batches",
    "sweep",
    "sweep_document",
    "sweep_run",
    "t_quantile",
]
