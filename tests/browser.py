"""Headless Chromium for the browser tests, installed when missing.

:func:`chromium_paths` finds Debian's ``chromium`` and ``chromium-driver``; if
either is missing it installs both with ``apt-get`` (as root; one process at a
time, under a file lock, so parallel test workers do not collide) and fails
the test with the installer's own words if that does not work. A browser test
never skips: a missing browser is a failure to fix, not a pass.
:func:`start_chromium` opens headless Chromium through selenium.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

PACKAGES = ("chromium", "chromium-driver")
"""The Debian packages of the browser and its WebDriver."""


def _found() -> tuple[str, str] | None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
    return (browser, driver) if browser and driver else None


def _apt(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    return subprocess.run(["apt-get", *args], capture_output=True, text=True, env=env, timeout=900)


def chromium_paths() -> tuple[str, str]:
    """The paths of ``chromium`` and ``chromedriver``, installing Debian's packages first if needed.

    Returns
    -------
    (str, str)
        The browser and the driver executables.
    """
    found = _found()
    if found:
        return found
    from filelock import FileLock

    with FileLock(str(Path(tempfile.gettempdir()) / "unosim-chromium-install.lock"), timeout=1800):
        found = _found()  # another worker may have installed them meanwhile
        if found:
            return found
        if shutil.which("apt-get") is None:
            pytest.fail(f"The browser tests need Debian's {' and '.join(PACKAGES)}, and this machine has no apt-get to "
                        "install them: install Chromium and its chromedriver, then run the tests again.")
        if os.geteuid() != 0:
            pytest.fail(f"The browser tests need Debian's {' and '.join(PACKAGES)}; installing them takes root: run "
                        f"`sudo apt-get install -y {' '.join(PACKAGES)}` (or the tests as root).")
        done = _apt("install", "-y", *PACKAGES)
        if done.returncode != 0:  # the package lists may be stale or absent: refresh them once
            _apt("update")
            done = _apt("install", "-y", *PACKAGES)
        found = _found()
        if done.returncode != 0 or not found:
            pytest.fail(f"Installing {' and '.join(PACKAGES)} with apt-get failed (exit code {done.returncode}), so "
                        f"the browser tests cannot run:\n{(done.stdout + done.stderr)[-2000:]}")
        return found


def start_chromium(width: int = 1500, height: int = 1000):  # -> selenium.webdriver.Chrome
    """Headless Chromium driven by selenium (selenium's Chrome driver on Debian's chromedriver)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.fail("The browser tests drive Chromium through selenium: install the test extras (pip install -e '.[dev]').")
    browser, driver = chromium_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        options.add_argument(arg)
    try:
        return webdriver.Chrome(service=Service(executable_path=driver), options=options)
    except Exception as exc:  # the driver's message says what is wrong (versions that differ, a browser that crashed)
        pytest.fail(f"Headless Chromium ({browser}, driver {driver}) did not start: {exc}")
