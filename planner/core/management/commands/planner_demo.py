"""``manage.py planner_demo``: a demo user, team, cluster and workload. Running it again changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from planner.scenarios.models import Cluster, Workload
from planner.scenarios.services import cluster_create, workload_create, workload_generate, workload_import_csv
from planner.teams.models import Membership, Team
from planner.teams.services import team_create

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-planner"
DEMO_TEAM = "Demo team"
DEMO_CLUSTER = "Paper 003 cluster (Table 3)"
DEMO_WORKLOAD = "RM-Simulator low load (1,000 jobs)"
DEMO_CSV = Path(__file__).resolve().parents[3] / "demo_data" / "workload_jobs_low_load.csv"
# Paper 003, Table 3: six m1.large, five m1.xlarge, three m2.xlarge (scheduling.presets).
DEMO_ENTRIES = [("m1.large", 6), ("m1.xlarge", 5), ("m2.xlarge", 3)]


class Command(BaseCommand):
    help = "Create the demo user (demo / demo-planner), its team, the paper-003 cluster and a workload."

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            user = self._user()
            team = self._team(user)
            self._cluster(team, user)
            self._workload(team, user)
        self.stdout.write(self.style.SUCCESS(f"Demo ready: log in as {DEMO_USERNAME} / {DEMO_PASSWORD}"))

    def _user(self) -> Any:
        User = get_user_model()
        user, created = User.objects.get_or_create(username=DEMO_USERNAME)
        if created or not user.check_password(DEMO_PASSWORD):
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
        return user

    def _team(self, user: Any) -> Team:
        membership = Membership.objects.filter(user=user, team__name=DEMO_TEAM).select_related("team").first()
        if membership is not None:
            if membership.role != Membership.Role.OWNER:
                membership.role = Membership.Role.OWNER
                membership.save(update_fields=["role"])
            return membership.team
        self.stdout.write(f"Creating the team {DEMO_TEAM!r} with the presets' VM types")
        return team_create(owner=user, name=DEMO_TEAM)

    def _cluster(self, team: Team, user: Any) -> None:
        if Cluster.objects.filter(team=team, name=DEMO_CLUSTER).exists():
            return
        self.stdout.write(f"Creating the cluster {DEMO_CLUSTER!r}")
        cluster_create(
            team=team,
            user=user,
            name=DEMO_CLUSTER,
            description="The 14-VM Nectar cluster of paper 003 (Table 3), priced as AWS Sydney "
            "on-demand instances.",
            entries=[{"vm_type": name, "count": count} for name, count in DEMO_ENTRIES],
        )

    def _workload(self, team: Team, user: Any) -> None:
        if Workload.objects.filter(team=team, name=DEMO_WORKLOAD).exists():
            return
        self.stdout.write(f"Creating the workload {DEMO_WORKLOAD!r}")
        workload = workload_create(
            team=team,
            user=user,
            name=DEMO_WORKLOAD,
            description="RM-Simulator's workload_jobs_low_load.csv (Apache-2.0), the paper-003 "
            "authors' Spark jobs.",
        )
        try:
            text = DEMO_CSV.read_text(encoding="utf-8")
        except OSError:
            self.stderr.write(f"{DEMO_CSV} is not readable; generating 200 synthetic jobs instead")
            workload_generate(workload=workload, user=user, seed=3, spec={"jobs": 200})
            return
        workload_import_csv(workload=workload, user=user, text=text, format="rm-simulator")
