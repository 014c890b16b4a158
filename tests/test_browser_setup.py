"""The browser tests' set-up: a missing Chromium is installed, and a failed installation fails
the test with the installer's words (it never skips)."""

from __future__ import annotations

import subprocess

import browser
import pytest


def test_a_failed_installation_fails_with_the_installers_words(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, ...]] = []

    def apt(*args: str) -> subprocess.CompletedProcess[str]:
        calls.append(args)
        return subprocess.CompletedProcess(["apt-get", *args], 100, "", "E: Unable to locate package chromium")

    monkeypatch.setattr(browser, "_found", lambda: None)
    monkeypatch.setattr(browser, "_apt", apt)
    monkeypatch.setattr(browser.shutil, "which", lambda name: "/usr/bin/apt-get" if name == "apt-get" else None)
    monkeypatch.setattr(browser.os, "geteuid", lambda: 0)
    with pytest.raises(pytest.fail.Exception, match="Unable to locate package chromium"):
        browser.chromium_paths()
    assert calls == [("install", "-y", "chromium", "chromium-driver"), ("update",), ("install", "-y", "chromium", "chromium-driver")]


def test_without_root_the_failure_says_what_to_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser, "_found", lambda: None)
    monkeypatch.setattr(browser.shutil, "which", lambda name: "/usr/bin/apt-get" if name == "apt-get" else None)
    monkeypatch.setattr(browser.os, "geteuid", lambda: 1000)
    with pytest.raises(pytest.fail.Exception, match="sudo apt-get install -y chromium chromium-driver"):
        browser.chromium_paths()


def test_an_installed_browser_is_found() -> None:
    found, driver = browser.chromium_paths()  # installs them when missing
    assert found.endswith(("chromium", "chromium-browser")) and driver.endswith("chromedriver")
