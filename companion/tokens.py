"""Secrets given back by a client (a PIN, a join code, a seat's token), compared in constant time."""
from __future__ import annotations

import secrets


def same(given: str, wanted: str) -> bool:
    """Whether ``given`` is ``wanted``, in a time that does not tell how much of it was right (any text:
    ``compare_digest`` alone refuses non-ASCII str)."""
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"), wanted.encode())
