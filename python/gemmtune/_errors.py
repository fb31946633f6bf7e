"""gemmtune.Error: a failure the library reports, with its status and message."""
from __future__ import annotations


class Error(RuntimeError):
    """What the runtime refused or failed at: ``status`` is the Status's name ("invalid_value",
    "no_device", ...; docs/api.md) and ``message`` the library's (gemmtune::last_error())."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message


def raise_for(status: str, message: str) -> None:
    """Raises Error unless `status` is empty (success), as the extension reports calls."""
    if status:
        raise Error(status, message)
