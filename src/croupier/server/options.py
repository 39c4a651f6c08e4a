"""Table options per account over HTTP (issue #15; the store's :mod:`croupier.store.options`).

* ``GET /api/options`` — ``{"options": {...}, "known": [...]}``: the options the player
  set (an option absent keeps the client's default);
* ``PUT /api/options`` ``{"auto_muck": true, "animations": null, …}`` — set some options
  (``null`` forgets one, back to its default); every name must be known and every value
  ``true``, ``false`` or ``null``, else 422 ``unknown_option`` / ``invalid_option`` and
  nothing changes. Answers like ``GET``.

Both need the session (cookie or ``Authorization: Bearer``): 401 ``login_required``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import BaseModel, ConfigDict
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from croupier.store import StoreError
from croupier.store.options import OPTIONS

__all__ = ["OptionsRequest", "options_openapi_paths", "options_routes"]


class OptionsRequest(BaseModel):
    """Some options by name, each ``true``, ``false`` or ``null`` (checked by the store)."""

    model_config = ConfigDict(extra="allow")


def _answer(values: dict[str, bool]) -> JSONResponse:
    return JSONResponse({"options": values, "known": list(OPTIONS)})


async def get_options(request: Request) -> Response:
    from croupier.server.http import _account, _sv

    sv = _sv(request)
    account = await _account(request, sv)
    if isinstance(account, Response):
        return account
    return _answer(await asyncio.to_thread(sv.store.options.get, account.id))


async def put_options(request: Request) -> Response:
    from croupier.server.http import _account, _body, _sv, fail

    sv = _sv(request)
    account = await _account(request, sv)
    if isinstance(account, Response):
        return account
    body = await _body(request, OptionsRequest, sv)
    if isinstance(body, Response):
        return body
    try:
        values = await asyncio.to_thread(sv.store.options.put, account.id, body.model_extra or {})
    except StoreError as exc:
        return fail(422, exc.code, str(exc))
    return _answer(values)


def options_routes() -> list[Route]:
    return [
        Route("/api/options", get_options, methods=["GET"]),
        Route("/api/options", put_options, methods=["PUT"]),
    ]


def options_openapi_paths(
    authed: list[dict[str, list[str]]], json_: Any, error: dict[str, str]
) -> dict[str, Any]:
    """The OpenAPI entries of ``/api/options`` (merged by ``server/openapi.py``)."""
    schema = {
        "type": "object",
        "properties": {k: {"type": ["boolean", "null"]} for k in OPTIONS},
        "additionalProperties": False,
    }
    return {
        "/api/options": {
            "get": {
                "summary": "Your table options (four-colour deck, animations, sounds,"
                " auto-muck): those you set",
                "security": authed,
                "responses": {"200": json_(), "401": error},
            },
            "put": {
                "summary": "Set options (true/false) or forget them (null)",
                "security": authed,
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": schema}},
                },
                "responses": {"200": json_(), "401": error, "422": error},
            },
        }
    }
