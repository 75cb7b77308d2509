"""The Allocation study (paper 000) run kind: everything that is this kind's."""
