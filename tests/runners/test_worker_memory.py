"""A validate worker keeps the memory it frees for its next task (runners.workers
._keep_freed_memory): the large buffers of every task (the block read, its lines, its
results) reuse pages instead of faulting in new ones each time."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

_TASKS = """
import resource, sys
from neweden.runners import workers
kept = sys.argv[1] == "kept" and workers._keep_freed_memory()
def task():  # a task's large buffers, freed at its end
    held = [b"\\x01" * (4 * workers.BLOCK_BYTES) for _ in range(3)]
    del held
for _ in range(3):
    task()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):
    task()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before, kept)
"""


def _page_faults(how: str) -> tuple[int, bool]:
    """The new pages 20 tasks took, and whether the memory was kept (mallopt took)."""
    done = subprocess.run(
        [sys.executable, "-c", _TASKS, how], capture_output=True, text=True, check=True
    )
    faults, kept = done.stdout.split()
    return int(faults), kept == "True"


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt is glibc's")
def test_a_worker_reuses_the_pages_its_tasks_free() -> None:
    usual, _ = _page_faults("usual")
    kept, took = _page_faults("kept")
    if not took:  # malloc is another allocator's here (a sanitizer's): nothing to keep
        pytest.skip("malloc is not glibc's in this process (mallopt did not take)")
    assert usual > 1000  # by default each task's buffers take new pages...
    assert kept * 10 < usual  # ...kept, they are reused
