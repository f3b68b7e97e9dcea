"""Deals anyone can verify (issue 35; DESIGN "Examples to follow" 4).

A deal the bot shuffles starts from a **seed**: 32 bytes from :mod:`secrets`, written as
64 lowercase hex digits. Before anyone sees a card the table shows the seed's
**commitment**, ``SHA-256(seed bytes)`` in hex; the seed itself stays in the stored game
(server only) until the deal is over, then the table and the record reveal it. Anyone
can then recompute the commitment, the deck and every hand (``tools/verify_deal.py``,
stdlib only; ``/verificar``).

The construction (docs/record-format.md "Verifiable deals", scheme :data:`SCHEME`):

* **Stream** for a label (``b"deck"`` or ``b"reshuffle"``): the concatenation of the
  blocks ``HMAC-SHA256(key=seed, msg=b"buraco-deal/1" + b"\\x00" + label + b"\\x00" +
  i.to_bytes(8, "big"))`` for ``i = 0, 1, 2, ...`` (HMAC-SHA256 in counter mode).
* **Draws**: successive 4-byte big-endian unsigned integers ``u`` of that stream.
* **Uniform below n** (rejection sampling, no modulo bias): ``limit = 2**32 -
  (2**32 % n)``; draw ``u`` until ``u < limit``; the result is ``u % n``.
* **Fisher-Yates**: for ``i`` from ``len(a) - 1`` down to 1, ``j = below(i + 1)``, swap
  ``a[i]`` and ``a[j]``.
* **Deck**: Fisher-Yates (stream ``deck``) of :func:`engine.cards.full_deck` (two times
  ``Ac 2c ... Kc Ad ... Kd Ah ... Kh As ... Ks``, then ``JK JK`` with jokers); the
  result is the deck top card first, dealt as docs/record-format.md says.
* **Reshuffle** (only where the pile goes back to the stock once, altaneira, RULES
  A26): Fisher-Yates (stream ``reshuffle``) of ``[0, 1, ..., deck size - 1]``.

Pure functions, stdlib only (hmac, hashlib, secrets).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator
from functools import lru_cache
from typing import Final, TypeVar

from engine.cards import Card, full_deck

SCHEME: Final = "hmac-sha256-ctr/1"
"""The construction's name, as the record writes it (``"shuffle"`` beside ``"seed"``)."""
DOMAIN: Final = b"buraco-deal/1"
"""The prefix of every HMAC message (domain separation)."""
SEED_BYTES: Final = 32
"""256 bits."""
_HEX64 = re.compile(r"[0-9a-f]{64}")

T = TypeVar("T")


def new_seed() -> str:
    """A fresh secret seed: 32 bytes from ``secrets``, as 64 lowercase hex digits."""
    return secrets.token_hex(SEED_BYTES)


def is_hex64(text: object) -> bool:
    """True when ``text`` is 64 lowercase hex digits (a seed or a commitment)."""
    return isinstance(text, str) and _HEX64.fullmatch(text) is not None


@lru_cache(maxsize=1024)
def commitment(seed: str) -> str:
    """``SHA-256`` of the seed's 32 bytes, in lowercase hex (what the table shows first).
    Remembered: a stored match writes its deals' commitments after every action.

    Raises ``ValueError`` when ``seed`` is not 64 lowercase hex digits."""
    return hashlib.sha256(_key(seed)).hexdigest()


def _key(seed: str) -> bytes:
    if not is_hex64(seed):
        raise ValueError("a seed is 64 lowercase hex digits")
    return bytes.fromhex(seed)


def _draws(key: bytes, label: bytes) -> Iterator[int]:
    """The stream's 4-byte big-endian unsigned integers, without end."""
    prefix = DOMAIN + b"\x00" + label + b"\x00"
    counter = 0
    while True:
        block = hmac.digest(key, prefix + counter.to_bytes(8, "big"), "sha256")
        for k in range(0, 32, 4):
            yield int.from_bytes(block[k:k + 4], "big")
        counter += 1


def _below(draws: Iterator[int], n: int) -> int:
    """Uniform in ``0..n-1`` by rejection sampling (``1 <= n <= 2**32``)."""
    limit = (1 << 32) - ((1 << 32) % n)
    while True:
        u = next(draws)
        if u < limit:
            return u % n


def shuffled(items: list[T], seed: str, label: bytes) -> list[T]:
    """A copy of ``items`` shuffled by Fisher-Yates from the stream ``label`` of ``seed``.
    Raises ``ValueError`` for a malformed seed."""
    out = list(items)
    draws = _draws(_key(seed), label)
    for i in range(len(out) - 1, 0, -1):
        j = _below(draws, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def deck_from_seed(seed: str, jokers: bool = False) -> list[Card]:
    """The deck (top card first) the seed deals: Fisher-Yates of ``full_deck(jokers)``."""
    return shuffled(full_deck(jokers), seed, b"deck")


def reshuffle_from_seed(seed: str, size: int) -> list[int]:
    """The order the pile goes back to the stock in (RULES A26, altaneira): a
    permutation of ``0..size-1`` (docs/record-format.md ``reshuffle``)."""
    return shuffled(list(range(size)), seed, b"reshuffle")
