"""Path converters of the planner's URLs.

A variant's label (a scheduler spec, a policy, a sharing configuration's label, a sweep point)
is free text by the name rule: it may hold ``/``, ``?``, ``#``, ``%`` or spaces. Django's ``str``
converter matches no ``/``, so reversing a URL for a label with one raised ``NoReverseMatch``
(a 500 on the run's detail and on the team's whole run list). :class:`VariantConverter`
matches the rest of the path, so ``reverse`` writes the label with its slashes as they are
and percent-encodes everything else a URL cannot hold (``?`` is ``%3F``); a client that
encodes the label whole (``encodeURIComponent``: ``a%2Fb``) reaches the same view, because
Django decodes the path before it is matched.
"""

from __future__ import annotations

from django.urls import register_converter


class VariantConverter:
    """Any non-empty text, slashes included (``<variant:variant>``)."""

    regex = ".+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


def register() -> None:
    """Register ``variant`` (once, from :class:`planner.core.apps.CoreConfig`)."""
    register_converter(VariantConverter, "variant")
