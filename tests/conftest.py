"""Fixtures for every test."""

from __future__ import annotations

import pytest

from heurist.cache import CACHE_VARIABLE


@pytest.fixture(scope="session")
def _session_cache(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("heurist-cache"))


@pytest.fixture(autouse=True)
def _cache_in_a_temporary_directory(_session_cache, monkeypatch):
    """Tables heurist caches between runs go to a directory of this test session, never the user's cache.

    The variable is inherited by the commands the tests start as subprocesses."""
    monkeypatch.setenv(CACHE_VARIABLE, _session_cache)
