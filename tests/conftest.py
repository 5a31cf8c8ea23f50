"""Settings for every test."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from heurist.cache import CACHE_VARIABLE

_cache_directory: str | None = None


def pytest_configure(config) -> None:
    """Tables heurist caches between runs go to a directory of this test session, never the user's cache.

    Set before the test modules are imported, so that environments they copy
    at import time for the commands they start carry it too."""
    global _cache_directory
    _cache_directory = tempfile.mkdtemp(prefix="heurist-test-cache-")
    os.environ[CACHE_VARIABLE] = _cache_directory


def pytest_unconfigure(config) -> None:
    if _cache_directory is not None:
        shutil.rmtree(_cache_directory, ignore_errors=True)


@pytest.fixture(autouse=True)
def _cache_in_a_temporary_directory(monkeypatch):
    """The session's cache directory, even after a test that changed the variable without monkeypatch."""
    monkeypatch.setenv(CACHE_VARIABLE, _cache_directory)
