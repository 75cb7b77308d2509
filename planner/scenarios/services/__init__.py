"""Writes of clusters and workloads, and the scenario document they make together.

* :mod:`.clusters`: clusters of the team's VM types;
* :mod:`.workloads`: workloads, with imports (the library's importer registry) and generation;
* :mod:`.documents`: the scenario document of a cluster and a workload, and the import of one;
* :mod:`.uploads`: files stored to be imported in the background, saved as a workload.

Everything is validated by the library before anything is stored; a failed check raises
:class:`~planner.core.errors.InputError` (paths into the request, such as
``entries[1].count``) or :class:`scheduling.ScenarioError` (paths into a scenario document,
such as ``jobs[3].executor.cpu``) and leaves the database unchanged.
"""

from .clusters import cluster_create, cluster_delete, cluster_update
from .documents import (
    ScenarioImport,
    scenario_document,
    scenario_document_and_parsed,
    scenario_document_chunked,
    scenario_head_and_parsed,
    scenario_head_checked,
    scenario_import,
)
from .uploads import inline_import_check, upload_create, upload_delete, upload_save
from .workloads import (
    frameworks_with,
    workload_create,
    workload_delete,
    workload_generate,
    workload_import,
    workload_import_csv,
    workload_update,
    workload_update_page,
)

__all__ = [
    "ScenarioImport",
    "cluster_create",
    "cluster_delete",
    "cluster_update",
    "frameworks_with",
    "inline_import_check",
    "scenario_document",
    "scenario_document_and_parsed",
    "scenario_document_chunked",
    "scenario_head_and_parsed",
    "scenario_head_checked",
    "scenario_import",
    "upload_create",
    "upload_delete",
    "upload_save",
    "workload_create",
    "workload_delete",
    "workload_generate",
    "workload_import",
    "workload_import_csv",
    "workload_update",
    "workload_update_page",
]
