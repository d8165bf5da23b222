"""Headless Chromium for the browser tests: Debian's `chromium` package (scripts/setup-dev
installs it), driven by Playwright's Python API through `executable_path`, so no browser is
downloaded. A missing browser or Playwright fails the test with a message; it never skips."""

from __future__ import annotations

import os
import shutil
from typing import Any

import pytest

CHROMIUM_ENV = "COGS_CHROMIUM"
CANDIDATES = ("chromium", "chromium-browser", "google-chrome")
# Root in a container has no user namespace for Chromium's sandbox; the page is our own file.
LAUNCH_ARGS = ["--no-sandbox", "--disable-dev-shm-usage"]


def chromium_path() -> str:
    """The browser to drive: $COGS_CHROMIUM, else the first of CANDIDATES on PATH."""
    given = os.environ.get(CHROMIUM_ENV)
    if given:
        if not (os.path.isfile(given) and os.access(given, os.X_OK)):
            pytest.fail(f"${CHROMIUM_ENV} names {given!r}, which is not an executable file")
        return given
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    pytest.fail(
        "Chromium is missing: the browser tests need Debian's chromium package "
        "(`apt-get install -y chromium`, which scripts/setup-dev runs), or "
        f"${CHROMIUM_ENV}=/path/to/chromium",
        pytrace=False,
    )


def launch_options() -> dict[str, Any]:
    return {"executable_path": chromium_path(), "args": LAUNCH_ARGS, "headless": True}


def playwright_sync() -> Any:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright is missing: pip install -e '.[test]'", pytrace=False)
    return sync_playwright()


def playwright_async() -> Any:
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        pytest.fail("Playwright is missing: pip install -e '.[test]'", pytrace=False)
    return async_playwright()
