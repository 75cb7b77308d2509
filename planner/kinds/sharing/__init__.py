"""The Sharing study (papers 000 §V, 001) run kind: everything that is this kind's."""
