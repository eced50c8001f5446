"""Schemathesis against /openapi.json: no 5xx, and every response matches the schema.

Each operation gets a modest number of generated examples, so the run stays well under a
minute. The game ids in paths are random text, so most game operations answer 404; one
more test drives the same checks through a real game id.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

import serving

CHECKS = [
    not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
    negative_data_rejection,
]


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return serving.make_app(tmp_path / "games.db", allowed_hosts=["testserver"])  # schemathesis's Host


# Data that breaks the schema is refused with 4xx; 413 (a body over 64 KB) and 415 (a body
# that is not JSON) are refusals too. Every case is sent with the token, as a script would.
CONFIG = {
    "checks": {"negative_data_rejection": {"expected-statuses": [400, 404, 405, 409, 413, 415, 422]}},
    "headers": serving.SCRIPT_HEADERS,
}


@pytest.fixture
def api_schema(app: FastAPI) -> schemathesis.BaseSchema:
    return schemathesis.openapi.from_asgi(
        "/openapi.json", app, config=schemathesis.Config.from_dict(CONFIG), headers=serving.AUTH
    )


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_keeps_its_schema(case: schemathesis.Case) -> None:
    response = case.call_and_validate(checks=CHECKS)
    assert response.status_code not in (401, 421), "the token and the Host were not sent"


@schema.parametrize()
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_keeps_its_schema_on_a_real_game(case: schemathesis.Case, app: FastAPI) -> None:
    if "game_id" in (case.path_parameters or {}):
        game = app.state.games.create(rules="app", deal=617)
        case.path_parameters["game_id"] = game.id
    case.call_and_validate(checks=CHECKS)
