"""A validate worker keeps the memory it frees for its next task (runners.batch
._keep_freed_memory): the large buffers of every task (the block read, its lines, its
results) reuse pages instead of faulting in new ones each time."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

_TASKS = """
import resource, sys
from neweden.runners import batch
if sys.argv[1] == "kept":
    batch._keep_freed_memory()
def task():  # a task's large buffers, freed at its end
    held = [b"\\x01" * (4 * batch.BLOCK_BYTES) for _ in range(3)]
    del held
for _ in range(3):
    task()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):
    task()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _page_faults(how: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", _TASKS, how], capture_output=True, text=True, check=True
    )
    return int(done.stdout)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt is glibc's")
def test_a_worker_reuses_the_pages_its_tasks_free() -> None:
    usual = _page_faults("usual")
    kept = _page_faults("kept")
    assert usual > 1000  # by default each task's buffers take new pages...
    assert kept * 10 < usual  # ...kept, they are reused
