"""Receivers that keep tokens and sessions honest whichever way a user changes.

A password can change through the password pages, the admin, ``manage.py changepassword``, a
shell or a service: the one place all of them pass is the user's ``save()``, which is why
this is a signal and not a service call (STYLE.md prefers services; here a service would be
bypassed by the admin and the management command).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model, user_logged_in
from django.db.models.signals import post_save, pre_save

from .models import ApiToken, SignedInSession


def _remember_old_password(sender: Any, instance: Any, **kwargs: Any) -> None:
    if instance.pk is None:
        instance._planner_password_was = None
        return
    instance._planner_password_was = (
        sender._default_manager.filter(pk=instance.pk).values_list("password", flat=True).first()
    )


def _revoke_tokens_on_password_change(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    """A new password revokes every API token (Django already ends the other web sessions)."""
    before = getattr(instance, "_planner_password_was", None)
    if not created and before is not None and before != instance.password:
        ApiToken.objects.filter(user=instance).delete()


def _record_session(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    if session is None:
        return
    if session.session_key is None:
        session.save()
    SignedInSession.objects.get_or_create(user=user, session_key=session.session_key)


def connect() -> None:
    user_model = get_user_model()
    pre_save.connect(_remember_old_password, sender=user_model, dispatch_uid="planner-password-was")
    post_save.connect(
        _revoke_tokens_on_password_change, sender=user_model, dispatch_uid="planner-password-revokes-tokens"
    )
    user_logged_in.connect(_record_session, dispatch_uid="planner-record-session")
