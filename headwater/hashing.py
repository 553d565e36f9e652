"""One digest for every content fingerprint: the lock, sources, releases, the cache."""

import hashlib


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def digest(data: bytes) -> str:
    """The spelled form used everywhere in files: `sha256:<hex>`."""
    return "sha256:" + sha256_hex(data)
