"""The reproductions run kind: the papers' claims measured on the workers, one part per paper."""
