"""Malformed requests (a header over 8190 bytes, a request line that is no HTTP): aiohttp answers each with 400
and logs it at ERROR with its whole traceback, nine lines a request. One or two guests sending them made
thousands of lines a second, which journald would rate-limit (dropping the box's own faults with them) and
the card would keep. They are a guest's doing, not the box's: the log says how many, once a minute, in a line.
"""
from __future__ import annotations

import logging

from aiohttp.http_exceptions import HttpProcessingError

from .once import Once

SERVER = logging.getLogger("aiohttp.server")     # where aiohttp logs a request it could not handle


class Malformed(logging.Filter):
    """Lets aiohttp.server's records through but a malformed request's, which it says once a minute instead."""

    def __init__(self, said: Once):
        super().__init__()
        self.said = said

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, HttpProcessingError):
            return True
        self.said.warn(lambda: f"{record.getMessage()}: a malformed request ({type(error).__name__}), refused "
                               f"with {error.code}")
        return False


def quiet() -> None:
    """From now on, malformed requests are told once a minute (this process's aiohttp, once however many apps)."""
    if not any(isinstance(f, Malformed) for f in SERVER.filters):
        SERVER.addFilter(Malformed(Once(logging.getLogger("molebox.web"))))
