"""The web page's tests share one server and one browser a module (tests/browser.py: the
project's real browser)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import CHROMIUM, FLAGS
from tests.servers import running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    log = tmp_path_factory.mktemp("server") / "server.log"
    with running_server({}, log) as (port, _):
        yield port


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):  # .ci/run installs it: a missing browser there is a failure
            pytest.fail("Debian's chromium is not installed, and CI must run the browser tests")
        pytest.skip("Debian's chromium is not installed")
    playwright = pytest.importorskip("playwright.sync_api", reason="the playwright package")
    with playwright.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield launched
        launched.close()
