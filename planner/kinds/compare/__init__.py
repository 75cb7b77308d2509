"""The Scheduler comparison (paper 003) run kind: everything that is this kind's."""
