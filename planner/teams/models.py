"""A team owns VM types, clusters, workloads and runs; its members see all of them."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Team(models.Model):
    name = models.CharField(max_length=100)
    # How the team's money is shown (display only: prices are whatever unit the VM types use).
    currency = models.CharField(max_length=8, default="$")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", "Owner"  # manages members; may change or delete anything of the team
        MEMBER = "member", "Member"  # views, creates and runs; changes only what they made

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["team_id", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["team", "user"], name="membership_unique_user_per_team")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.team} ({self.role})"


class Invitation(models.Model):
    """An owner's invitation of a username to the team, until that user accepts or declines.

    Kept by username whether or not such a user exists: inviting tells the owner nothing about
    which usernames are taken (the member list shows only who accepted).
    """

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="invitations")
    username = models.CharField(max_length=150)
    role = models.CharField(max_length=10, choices=Membership.Role.choices, default=Membership.Role.MEMBER)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["team_id", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["team", "username"], name="invitation_unique_username_per_team")
        ]

    def __str__(self) -> str:
        return f"{self.username} invited to {self.team} ({self.role})"
