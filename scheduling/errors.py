"""The library's errors, named by outcome rather than by solver status codes.

The web layer maps these to field-level messages in one place; the CLI prints them
and exits 2.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FieldError:
    """One problem with the input, located by a path such as ``jobs[3].executor.cpu``."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message

    def to_dict(self) -> dict[str, str]:
        return {"path": self.path, "message": self.message}


class SchedulingError(Exception):
    """Base class of every error the library raises on purpose."""


class ScenarioError(SchedulingError):
    """The scenario (or an option) is invalid; ``errors`` lists every problem found."""

    def __init__(self, errors: list[FieldError]):
        self.errors = list(errors)
        super().__init__("\n".join(str(e) for e in self.errors) or "invalid scenario")

    @classmethod
    def single(cls, path: str, message: str) -> ScenarioError:
        return cls([FieldError(path, message)])


class SolverTimeout(SchedulingError):
    """A solver reached its time limit before proving optimality."""


class SolverFailure(SchedulingError):
    """A solver ended without a usable proven optimum, for a reason other than its time limit.

    The exact placement answers both solver outcomes by falling back to BFD (and records it), so
    a simulation never raises either; they reach a caller of the solver functions themselves.
    """
