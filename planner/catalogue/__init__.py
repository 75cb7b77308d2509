"""The team's catalogue of VM types: capacities per resource and hourly prices."""
