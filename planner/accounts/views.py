"""The web side of signing out everywhere."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from . import services


@require_POST
@login_required
def sign_out_everywhere(request: HttpRequest) -> HttpResponse:
    """End every web session and revoke every API token of the signed-in user, this one too."""
    counts = services.sign_out_everywhere(user=request.user)
    logout(request)
    messages.info(
        request,
        f"Signed out everywhere: {counts['sessions']} sessions ended, {counts['tokens']} API tokens revoked.",
    )
    return redirect("login")
