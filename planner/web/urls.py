"""The server-rendered pages (namespace ``web``). Sign-in is django.contrib.auth's, under /accounts/.

Each run kind's pages (its start page, and the comparison's side-by-side page) come from its
own ``urls.py``, included by discovery (:func:`planner.runs.kinds.kind_urlpatterns`).
"""

from __future__ import annotations

from django.urls import path

from planner.runs.kinds import kind_urlpatterns

from .views import base, catalogue, clusters, invitations, runs, teams, uploads, workloads

app_name = "web"

urlpatterns = [
    path("", base.dashboard, name="dashboard"),
    path("glossary/", base.glossary, name="glossary"),
    path("team/switch/", base.team_switch, name="team-switch"),
    path("teams/new/", base.team_new, name="team-new"),
    path("invitations/<int:invitation_id>/accept/", invitations.invitation_accept, name="invitation-accept"),
    path(
        "invitations/<int:invitation_id>/decline/", invitations.invitation_decline, name="invitation-decline"
    ),
    path(
        "teams/<int:pk>/invitations/<int:invitation_id>/withdraw/",
        invitations.invitation_withdraw,
        name="invitation-withdraw",
    ),
    path("teams/<int:pk>/members/", teams.team_members_page, name="team-members"),
    path("teams/<int:pk>/settings/", teams.team_settings, name="team-settings"),
    path("teams/<int:pk>/members/<int:user_id>/role/", teams.team_member_role, name="team-member-role"),
    path("teams/<int:pk>/members/<int:user_id>/remove/", teams.team_member_remove, name="team-member-remove"),
    # VM type catalogue
    path("catalogue/", catalogue.catalogue, name="catalogue"),
    path("catalogue/add/", catalogue.vm_type_add, name="vm-type-add"),
    path("catalogue/presets/", catalogue.vm_type_presets, name="vm-type-presets"),
    path("catalogue/<int:pk>/", catalogue.vm_type_edit, name="vm-type-edit"),
    path("catalogue/<int:pk>/delete/", catalogue.vm_type_remove, name="vm-type-delete"),
    # clusters
    path("clusters/", clusters.cluster_index, name="clusters"),
    path("clusters/new/", clusters.cluster_new, name="cluster-new"),
    path("clusters/<int:pk>/", clusters.cluster_edit, name="cluster-edit"),
    path("clusters/<int:pk>/delete/", clusters.cluster_remove, name="cluster-delete"),
    # workloads
    path("workloads/", workloads.workload_index, name="workloads"),
    path("workloads/new/", workloads.workload_new, name="workload-new"),
    path("workloads/import/", workloads.scenario_upload, name="scenario-upload"),
    path("workloads/<int:pk>/", workloads.workload_edit, name="workload-edit"),
    path("workloads/<int:pk>/csv/", workloads.workload_csv, name="workload-csv"),
    path("workloads/<int:pk>/generate/", workloads.workload_generator, name="workload-generate"),
    path("workloads/<int:pk>/export.json", workloads.workload_export, name="workload-export"),
    path("workloads/<int:pk>/delete/", workloads.workload_remove, name="workload-delete"),
    path("workloads/<int:pk>/jobs.csv", workloads.workload_jobs_csv, name="workload-jobs-csv"),
    # uploads imported in the background
    path("uploads/", uploads.upload_new, name="upload-new"),
    path("uploads/<int:pk>/", uploads.upload_detail, name="upload-detail"),
    path("uploads/<int:pk>/delete/", uploads.upload_remove, name="upload-delete"),
    # runs
    path("runs/", runs.run_index, name="runs"),
    path("runs/<int:pk>/", runs.run_detail, name="run-detail"),
    path("runs/<int:pk>/cancel/", runs.run_cancel_view, name="run-cancel"),
    path("runs/<int:pk>/delete/", runs.run_remove, name="run-delete"),
    path("runs/<int:pk>/report.<str:fmt>", runs.run_report, name="run-report"),
    # assets
    path("vendor/plotly-<str:version>.min.js", base.plotly_js, name="plotly-js"),
    # every run kind's pages
    *kind_urlpatterns("urls"),
]
