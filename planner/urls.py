"""The planner's URLs: the API, the admin, login pages and the web pages."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("api/", include("planner.api_urls")),
    path("admin/", admin.site.urls),
    path("accounts/", include("planner.accounts.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("planner.web.urls")),
]

# JSON under /api/, the pages' templates elsewhere (planner.core.handlers).
handler400 = "planner.core.handlers.bad_request"
handler403 = "planner.core.handlers.permission_denied"
handler404 = "planner.core.handlers.not_found"
handler500 = "planner.core.handlers.server_error"
