# Modules that must not be imported by pytest's doctest collection.
collect_ignore = ["scheduling/__main__.py", "manage.py"]
