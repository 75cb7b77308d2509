"""Importers from public workload formats into the scenario document."""

from .rm_simulator import import_rm_csv

__all__ = ["import_rm_csv"]
