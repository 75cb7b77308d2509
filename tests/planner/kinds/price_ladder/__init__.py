"""The worked example of docs/architecture.md: a whole run kind, "price ladder", as one package.

What would the scenario's lower bound be with every VM price scaled by each of a list of
factors? One part per factor. Everything that is the kind's is here: its parameters declared
once (``ladder.py``, where a real kind's library part would be ``scheduling/<paper>/``), its
``RunKind`` (``kind.py``), its start page (``views.py``, ``urls.py``, ``templates/kinds/ladder/``),
its preset, its results section and its report. It is added to the planner by one line of
configuration (``planner/settings/test.py``'s ``INSTALLED_APPS``) and by nothing else.
"""
