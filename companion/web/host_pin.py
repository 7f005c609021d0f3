"""The host PIN: random digits that only the box's own glass shows (:mod:`companion.hardware.host_pin_glass`), and the
key that signs host cookies.

Both live in a file beside the journal (``molebox.pin``, 0600, written whole): a restart (the
watchdog's, or a pulled plug) keeps the PIN the host already told the table and the phones that
already entered it. So do the host cookies logged out ("Lock it again"), the last ``REVOKED_KEPT`` of
them: such a cookie is refused even where someone kept a copy.

Beside the PIN the glass shows, on request, a QR code of the box's address and a login key made from the
cookie key (:func:`login_key`): scanned, it makes that device the host's at once, however many wrong PINs
a flood has made everyone wait for (:mod:`companion.web.guesses`): a key of 55 bits is never guessed.

``molebox pin`` prints the PIN for the host on the Pi; ``molebox pin --new`` makes a
new one, which a running box takes at its next PIN check and next table frame.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
from pathlib import Path

from companion.durable import write_new

from .phone_keys import ALPHABET      # the join codes' letters: a QR code's alphanumeric mode

log = logging.getLogger("molebox.pin")

DIGITS = 5
LOGIN_LENGTH = 11       # 55 bits, and the login address a 25-module QR code
REVOKED_KEPT = 64           # host cookies logged out, kept refused (more in one night than a table makes)


def new_pin(digits: int = DIGITS) -> str:
    return "".join(secrets.choice("0123456789") for _ in range(digits))


def pin_path(journal: Path) -> Path:
    return Path(journal).with_suffix(".pin")


def login_key(key: bytes) -> str:
    """The login key the host QR code carries, made from the cookie key (a new PIN makes a new one)."""
    made = hmac.new(key, b"molebox host login", hashlib.sha256).digest()
    return "".join(ALPHABET[byte % len(ALPHABET)] for byte in made[:LOGIN_LENGTH])


class Served:
    """Where phones open the box (``HTTP://IP:PORT``, the web panel says once it serves), and the host login
    address there: what the host QR code carries ("" before the panel serves)."""

    address = ""

    def serve_at(self, address: str) -> None:
        self.address = address

    @property
    def login(self) -> str:
        return login_key(self.key)

    @property
    def login_url(self) -> str:
        return f"{self.address}/H/{self.login}" if self.address else ""


class HostPin(Served):
    """The PIN and the cookie key of one box, read again whenever their file changes."""

    def __init__(self, path: Path | None):
        self.path = path
        self._seen: int | None = None
        self._pin, self._key, self._revoked = new_pin(), secrets.token_bytes(32), ()
        if path is None:
            return
        try:
            if not path.exists():
                self._write(path, self._pin, self._key)
            self._load()
        except (OSError, ValueError) as exc:    # a full or read-only card, another program's file: for this run only
            log.warning("the host PIN cannot be kept in %s (%s): it changes at every start", path, exc)
            self.path = None

    @classmethod
    def renew(cls, path: Path) -> "HostPin":
        """A new PIN and key in ``path`` (never over a file that is not molebox's): every phone must enter the new PIN."""
        if path.exists():
            _read(path)
        cls._write(path, new_pin(), secrets.token_bytes(32))
        return cls(path)

    @staticmethod
    def _write(path: Path, pin: str, key: bytes, revoked: tuple[str, ...] = ()) -> None:
        write_new(path, json.dumps({"pin": pin, "key": key.hex(), "revoked": list(revoked)}).encode())

    def _load(self) -> None:
        stat = self.path.stat()
        if stat.st_mtime_ns != self._seen:
            (self._pin, self._key, self._revoked), self._seen = _read(self.path), stat.st_mtime_ns

    def revoke(self, cookie: str) -> None:
        """A host cookie's id is logged out: refused from now on, and after a restart (it writes the file: call
        it off the loop)."""
        self._fresh()
        self._revoked = (*self._revoked, cookie)[-REVOKED_KEPT:]
        if self.path is not None:
            try:
                self._write(self.path, self._pin, self._key, self._revoked)
            except OSError as exc:
                log.warning("a logged-out host cookie cannot be kept in %s (%s): refused until the next start",
                            self.path, exc)

    def revoked(self, cookie: str) -> bool:
        self._fresh()
        return cookie in self._revoked

    def _fresh(self) -> None:
        if self.path is not None:
            try:
                self._load()
            except (OSError, ValueError):       # kept as it was; the file is left as it is
                pass

    @property
    def pin(self) -> str:
        self._fresh()
        return self._pin

    @property
    def key(self) -> bytes:
        self._fresh()
        return self._key


def _read(path: Path) -> tuple[str, bytes, tuple[str, ...]]:
    """The PIN, the key and the logged-out cookies in ``path``; ValueError if it is not molebox's PIN file (which
    is then left as it is)."""
    try:
        data = json.loads(path.read_bytes())
        pin, key, revoked = str(data["pin"]), bytes.fromhex(data["key"]), tuple(map(str, data.get("revoked", ())))
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path} is not molebox's PIN file ({exc}); molebox leaves it as it is") from None
    if not (pin.isdigit() and len(key) == 32):
        raise ValueError(f"{path} is not molebox's PIN file (not a PIN and a key); molebox leaves it as it is")
    return pin, key, revoked
