"""Signing in: lockout after repeated failures, throttled token endpoints, API tokens."""
