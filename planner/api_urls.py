"""Every API endpoint, under /api/ (namespace ``api``)."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from planner.accounts import apis as accounts
from planner.catalogue import apis as catalogue
from planner.core import apis as core
from planner.runs import apis as runs
from planner.runs.kinds import kind_urlpatterns
from planner.scenarios import apis as scenarios
from planner.teams import apis as teams

app_name = "api"

# The root lists every route here that takes no id (planner.core.apis.endpoint_links).
urlpatterns = [
    path("", core.ApiRootApi.as_view(), name="root"),
    path("auth/token/", accounts.TokenObtainApi.as_view(), name="auth-token"),
    path("auth/tokens/", accounts.TokenListApi.as_view(), name="auth-tokens"),
    path("auth/tokens/<str:token_id>/", accounts.TokenDetailApi.as_view(), name="auth-token-detail"),
    path("auth/sign-out/", accounts.SignOutApi.as_view(), name="auth-sign-out"),
    path(
        "auth/sign-out-everywhere/", accounts.SignOutEverywhereApi.as_view(), name="auth-sign-out-everywhere"
    ),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view loads its set-up script from ?script, not inline (the Content-Security-Policy).
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    # teams
    path("teams/", teams.TeamListApi.as_view(), name="team-list"),
    path("teams/<int:pk>/", teams.TeamDetailApi.as_view(), name="team-detail"),
    path("teams/<int:pk>/members/", teams.TeamMemberListApi.as_view(), name="team-members"),
    path("teams/<int:pk>/members/<int:user_id>/", teams.TeamMemberDetailApi.as_view(), name="team-member"),
    path("teams/<int:pk>/invitations/", teams.TeamInvitationListApi.as_view(), name="team-invitations"),
    path(
        "teams/<int:pk>/invitations/<int:invitation_id>/",
        teams.TeamInvitationDetailApi.as_view(),
        name="team-invitation",
    ),
    path("invitations/", teams.MyInvitationListApi.as_view(), name="invitation-list"),
    path(
        "invitations/<int:invitation_id>/accept/",
        teams.InvitationAcceptApi.as_view(),
        name="invitation-accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline/",
        teams.InvitationDeclineApi.as_view(),
        name="invitation-decline",
    ),
    # catalogue
    path("vm-types/", catalogue.VMTypeListApi.as_view(), name="vm-type-list"),
    path("vm-types/<int:pk>/", catalogue.VMTypeDetailApi.as_view(), name="vm-type-detail"),
    # clusters and workloads
    path("clusters/", scenarios.ClusterListApi.as_view(), name="cluster-list"),
    path("clusters/<int:pk>/", scenarios.ClusterDetailApi.as_view(), name="cluster-detail"),
    path("clusters/<int:pk>/export/", scenarios.ClusterExportApi.as_view(), name="cluster-export"),
    path("workloads/", scenarios.WorkloadListApi.as_view(), name="workload-list"),
    path("workloads/<int:pk>/", scenarios.WorkloadDetailApi.as_view(), name="workload-detail"),
    path("workloads/<int:pk>/generate/", scenarios.WorkloadGenerateApi.as_view(), name="workload-generate"),
    path(
        "workloads/<int:pk>/import-csv/", scenarios.WorkloadImportCsvApi.as_view(), name="workload-import-csv"
    ),
    path("workloads/<int:pk>/jobs/", scenarios.WorkloadJobsApi.as_view(), name="workload-jobs"),
    path("scenarios/import/", scenarios.ScenarioImportApi.as_view(), name="scenario-import"),
    # uploads imported in the background
    path("importers/", scenarios.ImporterListApi.as_view(), name="importer-list"),
    path("uploads/", scenarios.UploadListApi.as_view(), name="upload-list"),
    path("uploads/<int:pk>/", scenarios.UploadDetailApi.as_view(), name="upload-detail"),
    path("uploads/<int:pk>/save/", scenarios.UploadSaveApi.as_view(), name="upload-save"),
    # runs
    path("runs/", runs.RunListApi.as_view(), name="run-list"),
    path("runs/<int:pk>/", runs.RunDetailApi.as_view(), name="run-detail"),
    path("runs/<int:pk>/cancel/", runs.RunCancelApi.as_view(), name="run-cancel"),
    path("runs/<int:pk>/progress/", runs.RunProgressApi.as_view(), name="run-progress"),
    path("runs/<int:pk>/figures/", runs.RunFiguresApi.as_view(), name="run-figures"),
    path("runs/<int:pk>/figure-page/", runs.RunFigurePageApi.as_view(), name="run-figure-page"),
    path("runs/<int:pk>/scenario/", runs.RunScenarioApi.as_view(), name="run-scenario"),
    path("runs/<int:pk>/results/<variant:variant>/", runs.RunResultApi.as_view(), name="run-result"),
    path("runs/<int:pk>/report/<str:fmt>/", runs.RunReportApi.as_view(), name="run-report"),
    # endpoints of one run kind (the comparison's replay), from each kind's api_urls.py
    *kind_urlpatterns("api_urls"),
]
