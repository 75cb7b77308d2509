"""Cluster What-If Planner: the Django project that stores scenarios, queues runs and serves results.

Importing the Celery app here binds ``@shared_task`` functions to it whenever Django starts.
"""

from celery_app import app as celery_app

__all__ = ["celery_app"]
