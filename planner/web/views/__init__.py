"""The server-rendered pages, one module per part of the planner."""
