"""What every app of the planner shares: error mapping, parsing, pagination, the demo command."""
