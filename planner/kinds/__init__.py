"""The run kinds, one package each: a kind's ``RunKind``, start page, results section, presets,
report content and script live in its package, a Django app added by one line of
``INSTALLED_APPS`` (``planner.runs.kinds.RunKindConfig``). Kinds import shared code, never each other.
"""
