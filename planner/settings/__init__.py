"""Settings per environment: ``dev`` (the default), ``prod`` and ``test``."""
