"""The API is defined once (freecell.web.api.ENDPOINTS): the server's routes and OpenAPI,
the static site's dispatcher and docs/api.md all follow it; only the library's errors are
refusals, and anything else is a bug (a 500), never a 400."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import freecell
import freecell.web.service
import serving
from freecell.errors import FreecellError, InvalidInputError, NotFoundError, NotPossibleNowError, UnavailableError
from freecell.store import Store
from freecell.web.api import COMMON_REFUSALS, ENDPOINTS, dispatch
from freecell.web.assistance import Assistance
from freecell.web.service import Service

DOCS = Path(__file__).resolve().parents[1] / "docs" / "api.md"
ROW = re.compile(r"^\| `(?P<method>[A-Z]+) (?P<path>/api/\S+)` \|(?P<given>[^|]*(?:\\\|[^|]*)*)\|(?P<answer>.*)\|$")


def documented() -> dict[tuple[str, str], tuple[str, str]]:
    """The endpoint table of docs/api.md: (method, path) -> (body or query, answer)."""
    rows = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        found = ROW.match(line)
        if found:
            rows[(found["method"], found["path"])] = (found["given"], found["answer"])
    return rows


def test_the_docs_list_every_endpoint_with_its_fields_status_and_refusals() -> None:
    rows = documented()
    assert set(rows) == {(endpoint.method, endpoint.path) for endpoint in ENDPOINTS}
    for endpoint in ENDPOINTS:
        given, answer = rows[(endpoint.method, endpoint.path)]
        named = {name for names in re.findall(r'"(\w+)"|`(\w+)`|[?&](\w+)=', given) for name in names if name}
        for field in (*endpoint.body, *endpoint.query):
            assert field.name in named, (endpoint.path, field.name)
        statuses = {int(status) for status in re.findall(r"\*\*(\d{3})\*\*", answer)}
        assert statuses == {endpoint.status, *endpoint.refusals}, endpoint.path


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving.client(serving.make_app(tmp_path / "games.db"), raise_server_exceptions=False) as test_client:
        yield test_client


def test_the_servers_routes_are_made_from_the_definition(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    served = {(method.upper(), path) for path, operations in paths.items() for method in operations}
    assert served == {(endpoint.method, endpoint.path) for endpoint in ENDPOINTS}
    for endpoint in ENDPOINTS:
        operation = paths[endpoint.path][endpoint.method.lower()]
        answers = {int(status) for status in operation["responses"]}
        assert {endpoint.status, *endpoint.refusals} <= answers, endpoint.path
        if endpoint.answer is not None:
            assert set(COMMON_REFUSALS) <= answers, endpoint.path
        query = {parameter["name"] for parameter in operation.get("parameters", []) if parameter["in"] == "query"}
        assert query == {field.name for field in endpoint.query}, endpoint.path
        if endpoint.body:
            reference = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
            model = client.get("/openapi.json").json()["components"]["schemas"][reference.rsplit("/", 1)[1]]
            assert set(model["properties"]) == {field.name for field in endpoint.body}, endpoint.path
            assert set(model.get("required", [])) == {field.name for field in endpoint.body if field.required}
        else:
            assert "requestBody" not in operation, endpoint.path


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    running = Service(Store(tmp_path / "dispatched.db"), Assistance())
    yield running
    running.close()


def test_the_dispatcher_answers_unknown_paths_and_methods_as_the_server_does(
    service: Service, client: TestClient
) -> None:
    for method, path in [("GET", "/api/nothing"), ("DELETE", "/api/games"), ("GET", "/api/lessons/tableau")]:
        status, body = dispatch(service, method, path)
        response = client.request(method, path)
        assert (status, body) == (response.status_code, response.json()), (method, path)


def test_a_bug_is_a_500_in_the_server_and_raised_by_the_dispatcher(
    service: Service, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ValueError that the library did not mean as a refusal (a bug) is not taken for a
    refusal of the rules: the server answers 500 and the site's worker sees it raised."""

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("a bug")

    monkeypatch.setattr(freecell.web.service, "rules_entry", broken)
    assert client.get("/api/rules").status_code == 500
    with pytest.raises(ValueError, match="a bug"):
        dispatch(service, "GET", "/api/rules")


def test_each_kind_of_refusal_has_its_status(service: Service) -> None:
    created = dispatch(service, "POST", "/api/games", body={"deal": 1})[1]["id"]
    game = f"/api/games/{created}"
    assert dispatch(service, "POST", f"{game}/moves", body={"move": "zz"})[0] == 400  # InvalidInputError
    assert dispatch(service, "GET", "/api/games/nope")[0] == 404  # NotFoundError
    assert dispatch(service, "POST", f"{game}/undo")[0] == 409  # NotPossibleNowError
    assert dispatch(service, "POST", f"{game}/moves", body={"move": 38})[0] == 422  # a wrong shape


def _error_classes() -> Iterator[type[BaseException]]:
    """Every exception class that a module of the package defines, bar the solver's
    (another part of the project) and the command line's own signals."""
    for module_info in pkgutil.walk_packages(freecell.__path__, "freecell."):
        name = module_info.name
        if name.startswith(("freecell.solver", "freecell.cli", "freecell.__main__")):
            continue
        module = importlib.import_module(name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__ == name:
                yield value


def test_every_error_the_library_raises_is_a_freecell_error_of_one_kind() -> None:
    kinds = (InvalidInputError, NotFoundError, NotPossibleNowError, UnavailableError)
    found = list(_error_classes())
    assert len(found) > 20
    for error in found:
        if error is FreecellError or error in kinds:
            continue
        assert issubclass(error, kinds), error


API_JS = Path(__file__).resolve().parents[1] / "src" / "freecell" / "web" / "static" / "js" / "api.js"
CALL = re.compile(r'call\("(?P<method>[A-Z]+)", (?:"(?P<plain>[^"]+)"|`(?P<template>[^`]+)`|(?P<game>game\(id\)))')


def test_the_pages_client_calls_only_endpoints_of_the_definition() -> None:
    """js/api.js, the page's one transport, asks for paths and query fields that exist."""
    source = API_JS.read_text(encoding="utf-8")
    endpoints = {(endpoint.method, endpoint.path) for endpoint in ENDPOINTS}
    calls = list(CALL.finditer(source))
    assert len(calls) > 15
    for call in calls:
        written = call["plain"] or call["template"] or "${game(id)}"
        written = re.sub(r"\$\{(?!game\(|encodeURIComponent\()[^}]*\}$", "", written)  # an optional query
        path = written.replace("${game(id)}", "/api/games/{game_id}")
        path = path.replace("${encodeURIComponent(id)}", "{lesson_id}")
        assert (call["method"], path.partition("?")[0]) in endpoints, (call["method"], path)
    asked = set(re.findall(r"[?&](\w+)=", source))
    assert asked and asked <= {field.name for endpoint in ENDPOINTS for field in endpoint.query}
