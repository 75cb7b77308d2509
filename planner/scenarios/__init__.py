"""Clusters (VM types and counts) and workloads (frameworks and jobs): the two halves of a scenario."""
