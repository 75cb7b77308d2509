"""The MRSU sizing (paper 002) run kind: everything that is this kind's."""
