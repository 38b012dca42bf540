"""The project's real browser: Debian's chromium, driven by playwright, started as the
machine allows (no sandbox as root; no background networking, which the closed network
refuses)."""

from __future__ import annotations

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
