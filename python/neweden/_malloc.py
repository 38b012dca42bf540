"""The C library's allocator, tuned where a process's pattern of memory needs it (glibc's
`mallopt`; nothing changes elsewhere: another C library, or another allocator serving
malloc, such as a sanitizer's)."""

from __future__ import annotations

import ctypes
import sys

__all__ = ["M_MMAP_THRESHOLD", "M_TRIM_THRESHOLD", "mallopt"]

#: mallopt's parameters (glibc's malloc.h).
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3


def mallopt(**settings: int) -> bool:
    """Each of `settings` (a parameter above, by its name without `M_`, lower case: e.g.
    `mmap_threshold=131072`) given to glibc's mallopt; whether every one took."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        call = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    codes = {"trim_threshold": M_TRIM_THRESHOLD, "mmap_threshold": M_MMAP_THRESHOLD}
    done = [call(codes[name], value) for name, value in settings.items()]
    return all(result == 1 for result in done)  # (1: done, glibc's mallopt)
