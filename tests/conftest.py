"""Fixtures for every test under tests/ (this file also puts tests/ on the import path, so
that the browser tests can import ``serving`` too)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from serving import client, make_app


@pytest.fixture
def api_client(tmp_path: Path) -> Iterator[TestClient]:
    """A client of a fresh app on its own store, sending the token as a script does."""
    with client(make_app(tmp_path / "games.db")) as test_client:
        yield test_client
