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

from ..durable import write_new

PADDED = 240
NONCE = 12
KEY_BYTES = 32


class SealError(ValueError):
    """A sealed record that cannot be opened: wrong key, or the row was tampered with."""


class KeyDamaged(SealError):
    """The key file is there but is no molebox key (empty after a power cut, or cut short)."""


def load_key(path: Path) -> bytes:
    """Read the key, creating it (0600) on first use; a key file of the wrong size raises KeyDamaged.

    A new key is written whole or not at all (:func:`companion.durable.write_new`): a power cut
    during the first start leaves no key, never an empty one.
    """
    try:
        key = path.read_bytes()
    except FileNotFoundError:
        key = AESGCM.generate_key(bit_length=8 * KEY_BYTES)
        write_new(path, key)
    if len(key) != KEY_BYTES:
        raise KeyDamaged(f"{path} is not a molebox key ({len(key)} bytes, not {KEY_BYTES})")
    return key


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
