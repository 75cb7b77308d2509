"""Importers from public workload formats into the scenario document, behind one registry.

Each format is an entry of :data:`IMPORTERS` (see :mod:`scheduling.importers.registry`):
the paper-003 RM-Simulator CSV, the planner's jobs CSV and the scenario JSON document.
"""

from . import jobs_csv, rm_simulator, scenario_json
from .jobs_csv import read_jobs_csv
from .registry import IMPORTERS, Imported, Importer, get_importer, guess_importer, register, row_path
from .rm_simulator import import_rm_csv, read_rm_csv
from .scenario_json import read_scenario_json

__all__ = [
    "IMPORTERS",
    "Imported",
    "Importer",
    "get_importer",
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
]
