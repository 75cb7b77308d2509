"""The UDRF study (paper 004) run kind: everything that is this kind's."""
