"""Runs: a scheduler comparison queued to a Celery worker, its progress and its results."""
