"""Sealed secret picks: what another process reading the database learns is nothing useful.

Threat: someone who can read the SQLite file (a player with a shell on the
box, a copied SD card image, a backup) but not the key file tries to learn a
secret pick before the reveal. Each secret record is sealed with AES-GCM under
a random 256-bit key kept in a separate file (mode 0600, owned by the service
user), bound to its game and position (the associated data), and padded to a
fixed length so even its size says nothing about how many holes were chosen.
Someone who can read the key file too (root, or the service user) is outside
this threat: they could read the process's memory as well.
"""
from __future__ import annotations

import os
from pathlib import Path

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

PADDED = 240
NONCE = 12


class SealError(ValueError):
    """A sealed record that cannot be opened: wrong key, or the row was tampered with."""


def load_key(path: Path) -> bytes:
    """Read the key, creating it (0600) on first use."""
    try:
        key = path.read_bytes()
    except FileNotFoundError:
        key = AESGCM.generate_key(bit_length=256)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key)
            f.flush()
            os.fsync(f.fileno())
        _fsync_dir(path.parent)
    if len(key) != 32:
        raise SealError(f"{path}: not a molebox key (expected 32 bytes, found {len(key)})")
    return key


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Sealer:
    def __init__(self, key: bytes):
        self._aead = AESGCM(key)

    def seal(self, plain: bytes, context: str) -> bytes:
        if len(plain) > PADDED:
            raise ValueError(f"secret record of {len(plain)} bytes is longer than {PADDED}")
        nonce = os.urandom(NONCE)
        return nonce + self._aead.encrypt(nonce, plain.ljust(PADDED), context.encode())

    def open(self, sealed: bytes, context: str) -> bytes:
        try:
            return self._aead.decrypt(sealed[:NONCE], sealed[NONCE:], context.encode()).rstrip()
        except Exception as exc:   # InvalidTag, or a truncated row
            raise SealError(f"sealed record {context} cannot be opened: wrong key or damaged row") from exc
