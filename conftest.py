# Modules that pytest's doctest collection must not import: entry points that act on import,
# and settings modules that need a production environment.
collect_ignore = ["scheduling/__main__.py", "manage.py", "planner/wsgi.py", "planner/asgi.py"]
collect_ignore_glob = ["planner/settings/*", "planner/*/migrations/*", "benchmarks/*"]
