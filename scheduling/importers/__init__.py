"""Importers from public workload formats into the scenario document, behind one registry.

Each format is an entry of :data:`IMPORTERS` (see :mod:`scheduling.importers.registry`):
the paper-003 RM-Simulator CSV, the planner's jobs CSV and the scenario JSON document, and
the public traces read as streams: :mod:`.swim`, :mod:`.google2011` and :mod:`.google2019`
(one job rule, :mod:`.google_events`), :mod:`.alibaba2018`; the rules every trace shares are
:mod:`.traces`, their files :mod:`.sources`, a multi-table trace's tables (each file's table,
a CSV table's rows, its machines as VM types) :mod:`.trace_tables` (``docs/traces.md``).
"""

from . import jobs_csv, rm_simulator, scenario_json

# isort: off
# The traces register after the plain formats: IMPORTERS lists formats in this order.
from . import swim, google2011, google2019, alibaba2018
# isort: on
from .jobs_csv import read_jobs_csv
from .registry import (
    IMPORTERS,
    Imported,
    Importer,
    TraceStream,
    get_importer,
    guess_importer,
    register,
    row_path,
)
from .rm_simulator import import_rm_csv, read_rm_csv
from .scenario_json import read_scenario_json
from .sources import Source, sources_from_paths

__all__ = [
    "IMPORTERS",
    "Imported",
    "Importer",
    "Source",
    "TraceStream",
    "alibaba2018",
    "get_importer",
    "google2011",
    "google2019",
    "guess_importer",
    "import_rm_csv",
    "jobs_csv",
    "read_jobs_csv",
    "read_rm_csv",
    "read_scenario_json",
    "register",
    "rm_simulator",
    "row_path",
    "scenario_json",
    "sources_from_paths",
    "swim",
]
