"""Run kinds: the one place that knows what a kind of run computes and shows.

A *run kind* (a scheduler comparison, an allocation study, a sharing study, MRSU sizing, a UDRF
study) is a Django app of its own under ``planner/kinds/<kind>/``, found by configuration alone:
its :class:`RunKindConfig` registers its :class:`RunKind` when Django starts, Django finds its
templates and static files, and the planner's URL configuration includes its start page's URLs
(:func:`kind_urlpatterns`). A kind declares, in one class:

* its parameters (:attr:`RunKind.params`: the library's declarations, from which the start
  page's fields, the API's schema and the checks are derived), how a request's parameters
  become the run's stored options and which *parts* the run is made of (:meth:`RunKind.plan`);
* what is computed once for the whole run before the parts (:meth:`RunKind.prepare`);
* what one part computes: a library entry point with progress and cancellation
  (:meth:`RunKind.execute`), returning one or more *variants* (labelled result documents);
* the headline summary of each variant (:meth:`RunKind.summary`), the comparison table
  (:meth:`RunKind.table`), the run list's one-line outcome (:meth:`RunKind.headline`);
* its figures (:meth:`RunKind.figures`: the library's pure functions; or, split, each
  variant's share built inside its part, :meth:`RunKind.variant_figures`, and joined when the
  last part ends, :meth:`RunKind.join_figures`), the content of its
  reports (:meth:`RunKind.report`; the shared shell adds the run's header and the currency) and
  its results section (:attr:`RunKind.results_template` with :meth:`RunKind.page_context`).

Services, the Celery task, the API, the run list, the run page and the report downloads look
the kind up here once (:func:`get_kind`) and call it; no shared module imports a kind (an
import-linter contract). ``docs/architecture.md`` walks through adding a kind.
"""


from __future__ import annotations

import abc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Any

from django.apps import AppConfig, apps
from django.urls import URLPattern, URLResolver, reverse
from django.utils.module_loading import import_string

from planner.core.errors import InputError
from scheduling.params import Param, Preset, settings_rows

if TYPE_CHECKING:
    from planner.reports.content import ReportBody
    from scheduling import Scenario

    from .models import Run

__all__ = [
    "Headline",
    "PartSpec",
    "Progress",
    "RunKind",
    "RunKindConfig",
    "RunPlan",
    "Variant",
    "all_kinds",
    "get_kind",
    "kind_for_request",
    "kind_urlpatterns",
    "register",
    "unregister",
]

#: The progress callback a part's computation receives: fraction done in [0, 1]. It raises
#: to stop the computation (the run was cancelled or deleted, or the part was given up on).
Progress = Callable[[float], None]


@dataclass(frozen=True)
class PartSpec:
    """One part of a run, as the kind plans it."""

    label: str  #: shown to people: "edf-bfd", "point 3 of 40"
    payload: dict[str, Any] = field(default_factory=dict)  #: JSON: what the part computes


@dataclass(frozen=True)
class RunPlan:
    """What :meth:`RunKind.plan` decided: the run's stored options, its parts and a default name."""

    options: dict[str, Any]
    parts: list[PartSpec]
    default_name: str


@dataclass(frozen=True)
class Variant:
    """One labelled result document computed by a part."""

    label: str
    document: dict[str, Any]


@dataclass(frozen=True)
class Headline:
    """A run's outcome in one line of the run list: ``value`` (e.g. a cost) and what it is."""

    value: str
    caption: str
    #: the rule behind it, shown on hover (e.g. how a recommendation weighs misses and cost)
    note: str = ""


class RunKind(abc.ABC):
    """A kind of run. Subclass it, fill in the class attributes and methods, :func:`register` it."""

    #: The stored ``Run.kind`` value and the API's ``kind``.
    key: str = ""
    #: What people call it: "Scheduler comparison".
    label: str = ""
    #: What one variant is called in tables and headings: "scheduler", "policy", "point".
    variant_name: str = "variant"
    #: The parameters a request of this kind takes, as the library declares them: the start
    #: page's fields, the API's schema and the settings rows are built from them.
    params: tuple[Param, ...] = ()
    #: The template of the run page's results section (gets :meth:`page_context`).
    results_template: str = ""
    #: Static scripts the results section needs, after the shared run-page script.
    scripts: tuple[str, ...] = ()
    #: Report formats offered for download (names of ``planner.reports.FORMATS``), in display
    #: order; every format lays out what :meth:`report` supplies.
    report_formats: tuple[str, ...] = ()
    #: Top-level keys of its result documents that hold per-job or per-row detail (most of a
    #: big run's document): a report reads each from the database only if it uses it.
    large_result_keys: tuple[str, ...] = ()
    #: The URL name of the kind's start page, or ``None`` (API only).
    start_url: str | None = None
    #: More pages of the kind in the navigation: ``(label, URL name)``.
    pages: tuple[tuple[str, str], ...] = ()
    #: The question it answers, in an operator's words (the dashboard's buttons): "Find the
    #: cheapest cluster". Empty: "New <label>".
    question: str = ""

    # ------------------------------------------------------------------ starting

    @abc.abstractmethod
    def plan(self, scenario: Scenario | None, params: Mapping[str, Any]) -> RunPlan:
        """Check ``params`` (the request's fields beyond the scenario and the name) and plan the parts.

        ``scenario`` is ``None`` when the scenario itself was invalid: check what can be
        checked without it so that one response reports every problem. Raise
        :class:`~planner.core.errors.InputError` (or the library's ``ScenarioError``) with
        paths into the request (``schedulers[1]``, ``options.rut``).
        """

    def plan_stored(self, scenario: Scenario, params: Mapping[str, Any], *, job_count: int) -> RunPlan:
        """:meth:`plan` of a run whose jobs are kept apart (a big stored workload, copied as chunks):
        ``scenario`` has the cluster, the frameworks and the options but none of its
        ``job_count`` jobs. By default :meth:`plan` itself; a kind whose plan reads the jobs
        (how many there are, to size its parts) overrides it."""
        return self.plan(scenario, params)

    def default_scenario(self, params: Mapping[str, Any]) -> Any | None:
        """The scenario document of a request that names none (no scenario, cluster or workload).

        ``None`` (the default): the request must give one. A kind whose parameters carry their
        own input (an MRSU input document) returns the scenario the run records for it.
        """
        return None

    def prepare(self, scenario: Scenario, options: Mapping[str, Any]) -> dict[str, Any]:
        """What every part needs that should be computed once per run (stored as ``Run.context``).

        Runs in the request that starts the run: keep it cheap. A run whose jobs are kept apart
        (``Run.jobs_stored``: the request never holds them) has it computed by each part, in
        the worker, from the same scenario: the same value.
        """
        return {}

    # ------------------------------------------------------------------ executing

    @abc.abstractmethod
    def execute(
        self,
        scenario: Scenario,
        options: Mapping[str, Any],
        context: Mapping[str, Any],
        payload: Mapping[str, Any],
        *,
        progress: Progress,
    ) -> list[Variant]:
        """Compute one part (a library call). ``progress`` may raise to stop it."""

    @abc.abstractmethod
    def summary(self, document: Mapping[str, Any]) -> dict[str, Any]:
        """The headline figures of one variant's document (stored as ``RunResult.summary``)."""

    # ------------------------------------------------------------------ tables

    @abc.abstractmethod
    def table(
        self, summaries: Mapping[str, Mapping[str, Any]], *, options: Mapping[str, Any], baseline: str | None,
        currency: str,
    ) -> dict[str, Any]:
        """The comparison table of the variants' summaries (the library's ``scheduling.tables``)."""

    def baseline(self, variants: Sequence[str], options: Mapping[str, Any], asked: str | None) -> str | None:
        """The variant savings are measured against: ``asked`` if it is one, else the run's choice."""
        if asked in variants:
            return asked
        chosen = options.get("baseline")
        return chosen if chosen in variants else (variants[0] if variants else None)

    def headline(self, summaries: Mapping[str, Mapping[str, Any]], *, currency: str) -> Headline | None:
        """The run's outcome in the run list (``None``: nothing to show)."""
        return None

    def figures(self, results: Mapping[str, Mapping[str, Any]], *, currency: str) -> dict[str, Any] | None:
        """The run's figures from its full result documents (``None``: no charts).

        Stored on the run before it is marked ended (in the team's currency: a change of
        currency clears the cache of the team's runs, and a worker builds them again). A kind
        whose :meth:`variant_figures` returns pieces has them joined by :meth:`join_figures`
        instead, and this is only the fallback for results stored without pieces."""
        return None

    def variant_figures(self, variant: Variant, *, options: Mapping[str, Any]) -> dict[str, Any] | None:
        """One variant's share of the run's figures, built inside the part that computed it.

        ``None`` (the default): the kind does not split its figures, and :meth:`figures` builds
        them from every full document when the last part ends. A kind that returns a piece
        (JSON, stored as ``RunResult.figures``) has the run's figures joined from the pieces by
        :meth:`join_figures`, so only the joining is left for the end and the full documents
        are never loaded again. Pieces must not depend on the team's currency (the join adds it)."""
        return None

    def join_figures(
        self, pieces: Mapping[str, Mapping[str, Any]], *, options: Mapping[str, Any], currency: str
    ) -> dict[str, Any] | None:
        """The run's figures from every variant's :meth:`variant_figures` piece (keyed by variant,
        in the run's order). Only called for a kind whose pieces all exist."""
        return None

    def figure_page(
        self, key: str, page: int, *, load: Callable[[str], Mapping[str, Any]], variants: Sequence[str],
        currency: str,
    ) -> dict[str, Any] | None:
        """Page ``page`` of a paged figure (``key`` as in :meth:`figures`; page 0 is the cached
        one), ``None`` when ``key`` has no pages. ``load(variant)`` reads one full result
        document; ``variants`` are the run's. Raise ``ValueError`` for a page that does not exist."""
        return None

    def report(
        self,
        *,
        results: Mapping[str, Mapping[str, Any]],
        options: Mapping[str, Any],
        baseline: str | None,
        currency: str,
    ) -> ReportBody:
        """What the run's reports hold (``planner.reports.ReportBody``): the shared shell adds
        the run's header rows, :meth:`settings` and the currency, and every format of
        :attr:`report_formats` lays it out. Only called for a kind that offers formats."""
        raise InputError.single("fmt", f"{self.label} runs have no reports")

    def settings(self, options: Mapping[str, Any]) -> list[tuple[str, Any]]:
        """The run's settings as ``(label, value)`` rows: the run page's and the reports'.

        By default, each declared parameter the stored options hold, by its label
        (:func:`scheduling.params.settings_rows`)."""
        return settings_rows(self.params, options)

    def presets(self) -> Sequence[Preset]:
        """The start page's presets (the papers' set-ups, from the library)."""
        return ()

    def start_link(self, query: str = "") -> str | None:
        """The URL of the start page (with ``query``, e.g. ``?clone=3``), or ``None``."""
        return f"{reverse(self.start_url)}{query}" if self.start_url else None

    def page_context(self, run: Run, summaries: Mapping[str, Mapping[str, Any]], *, baseline: str | None,
                     currency: str) -> dict[str, Any]:
        """Extra context of :attr:`results_template` (the shared shell gives run, table, baseline)."""
        return {}

    def api_fields(self, run: Run) -> dict[str, Any]:
        """Fields of the run the API shows at its top level (kept for compatibility)."""
        return {}


_KINDS: dict[str, RunKind] = {}


def register(kind: RunKind) -> RunKind:
    """Add ``kind`` to the registry (a kind's key is unique)."""
    if not kind.key:
        raise ValueError("a run kind needs a key")
    if kind.key in _KINDS and _KINDS[kind.key] is not kind:
        raise ValueError(f"run kind {kind.key!r} is registered twice")
    _KINDS[kind.key] = kind
    return kind


def unregister(key: str) -> None:
    """Remove a kind (tests register kinds of their own)."""
    _KINDS.pop(key, None)


def get_kind(key: str) -> RunKind:
    """The kind of a stored run. ``KeyError`` for a kind no longer registered."""
    return _KINDS[key]


def kind_for_request(key: Any, path: str = "kind") -> RunKind:
    """The kind a request asks for, or an :class:`InputError` naming the known ones."""
    if isinstance(key, str) and key in _KINDS:
        return _KINDS[key]
    return _raise_unknown(path)


def _raise_unknown(path: str) -> RunKind:
    raise InputError.single(path, f"must be one of {', '.join(sorted(_KINDS))}")


def all_kinds() -> list[RunKind]:
    """Every registered kind, in registration order (``INSTALLED_APPS``' order)."""
    return list(_KINDS.values())


# --------------------------------------------------------------------------- kinds as apps


class RunKindConfig(AppConfig):
    """The Django app of one run kind (``planner/kinds/<kind>/apps.py``).

    Installing the app is all it takes to add a kind: Django finds its templates and static
    files, :meth:`ready` registers its :class:`RunKind` (``kind_class``, a dotted path), and
    the planner's URLs include its ``urls.py`` (start page) and ``api_urls.py`` (extra API
    endpoints), when it has them (:func:`kind_urlpatterns`).
    """

    #: The dotted path of the kind's :class:`RunKind` subclass.
    kind_class: str = ""

    def ready(self) -> None:
        register(import_string(self.kind_class)())


def kind_configs() -> list[RunKindConfig]:
    """The installed kinds' apps, in ``INSTALLED_APPS``' order."""
    return [c for c in apps.get_app_configs() if isinstance(c, RunKindConfig)]


def kind_urlpatterns(module: str) -> list[URLPattern | URLResolver]:
    """The ``urlpatterns`` of every installed kind's ``<app>.<module>`` (``urls``: pages,
    ``api_urls``: API endpoints), for the planner's URL configuration to include."""
    patterns: list[URLPattern | URLResolver] = []
    for config in kind_configs():
        name = f"{config.name}.{module}"
        try:
            found = import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        patterns.extend(found.urlpatterns)
    return patterns
