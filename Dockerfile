# One image for the web and worker services of docker-compose.yml.
FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
RUN useradd --create-home --uid 1000 planner
COPY pyproject.toml README.md requirements.lock ./
COPY scheduling ./scheduling
COPY planner ./planner
COPY celery_app ./celery_app
COPY templates ./templates
COPY static ./static
COPY manage.py ./
# The pinned versions first (requirements.lock, audited by .ci/audit.py), then the planner alone,
# then the cost engine's compiled core (mypyc, scheduling/compiled.py: a C compiler for the build
# only, removed in the same layer; a failed build fails the image). A build lives beside the
# package it is of: it is made for /app's copy (gunicorn and celery put the working directory
# first on sys.path) and for the installed one (a process started elsewhere imports that).
RUN pip install -r requirements.lock && pip install --no-deps . \
    && apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && python -m scheduling compile && (cd / && python -m scheduling compile) \
    && apt-get purge -y --auto-remove gcc libc6-dev && rm -rf /var/lib/apt/lists/* \
    && DJANGO_SETTINGS_MODULE=planner.settings.prod SECRET_KEY=build ALLOWED_HOSTS=build \
    DATABASE_URL=postgres://build@localhost/build python manage.py collectstatic --noinput
USER planner
EXPOSE 8000
CMD ["gunicorn", "planner.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--timeout", "60"]
