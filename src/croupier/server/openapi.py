"""The OpenAPI 3.1 document of the HTTP API, written here and filled with the JSON
schemas of the pydantic request models.

>>> doc = openapi_document()
>>> doc["openapi"], sorted(doc["paths"])[:2]
('3.1.0', ['/api/arcade', '/api/exchange'])
"""

from __future__ import annotations

from typing import Any

from croupier.server.arcade import BuyRequest, EquipRequest, arcade_openapi_paths
from croupier.server.http import Credentials, ExchangeRequest
from croupier.server.options import options_openapi_paths

__all__ = ["openapi_document"]


def _json(schema_ref: str | None = None, description: str = "") -> dict[str, Any]:
    content: dict[str, Any] = {"application/json": {"schema": {"type": "object"}}}
    if schema_ref:
        content = {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema_ref}"}}}
    return {"description": description or "OK", "content": content}


_ERROR = {"$ref": "#/components/responses/Error"}


def openapi_document() -> dict[str, Any]:
    """The document served at ``/openapi.json``."""
    body = {"required": True, "content": {"application/json": {"schema": {"$ref": ""}}}}

    def req(name: str) -> dict[str, Any]:
        out = {
            **body,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{name}"}}},
        }
        return out

    authed: list[dict[str, list[str]]] = [{"bearer": []}, {"cookie": []}]
    doc: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {
            "title": "croupier",
            "version": "1",
            "description": "The HTTP API of the croupier poker room. Live play is over the"
            " WebSocket at /ws (see docs/protocol.md).",
        },
        "paths": {
            "/health": {"get": {"summary": "Liveness", "responses": {"200": _json()}}},
            "/metrics": {
                "get": {
                    "summary": "Plain-text counters (connections, tables, hands)",
                    "responses": {"200": {"description": "text/plain counters"}},
                }
            },
            "/api/register": {
                "post": {
                    "summary": "Create an account (welcome diamonds granted)",
                    "requestBody": req("Credentials"),
                    "responses": {
                        "201": _json("Account"),
                        "400": _ERROR,
                        "409": _ERROR,
                        "413": _ERROR,
                        "422": _ERROR,
                        "429": _ERROR,
                    },
                }
            },
            "/api/login": {
                "post": {
                    "summary": "Log in: token in the body and an HttpOnly cookie",
                    "requestBody": req("Credentials"),
                    "responses": {
                        "200": _json(),
                        "400": _ERROR,
                        "401": _ERROR,
                        "413": _ERROR,
                        "422": _ERROR,
                        "429": _ERROR,
                    },
                }
            },
            "/api/logout": {
                "post": {
                    "summary": "End the session and close its WebSockets (code 4002)",
                    "security": authed,
                    "responses": {"200": _json(), "401": _ERROR},
                }
            },
            "/api/me": {
                "get": {
                    "summary": "Balance, diamonds, points, level",
                    "security": authed,
                    "responses": {"200": _json("Account"), "401": _ERROR},
                }
            },
            "/api/exchange": {
                "post": {
                    "summary": "Buy chips with diamonds 1:1 (R-ACC-1), idempotent by key",
                    "security": authed,
                    "requestBody": req("ExchangeRequest"),
                    "responses": {
                        "200": _json("Account"),
                        "400": _ERROR,
                        "401": _ERROR,
                        "409": _ERROR,
                        "413": _ERROR,
                        "422": _ERROR,
                    },
                }
            },
            "/api/tables": {
                "get": {"summary": "The lobby: public tables", "responses": {"200": _json()}}
            },
            "/api/tournaments": {
                "get": {
                    "summary": "Tournaments: terms, levels, prizes, status (R-TOUR-1..3)",
                    "responses": {"200": _json()},
                }
            },
            "/api/tournaments/{tournament_id}/{action}": {
                "post": {
                    "summary": "register, unregister (buy-in refunded) or fill (bots fill a"
                    " Sit & Go's free seats where the event allows them)",
                    "security": authed,
                    "parameters": [
                        {
                            "name": name,
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        }
                        for name in ("tournament_id", "action")
                    ],
                    "responses": {"200": _json(), "401": _ERROR, "404": _ERROR, "409": _ERROR},
                }
            },
            "/api/hands": {
                "get": {
                    "summary": "The account's archived hands, newest first",
                    "security": authed,
                    "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer"}}],
                    "responses": {"200": _json(), "401": _ERROR},
                }
            },
            "/api/hands/{table_id}/{hand}": {
                "get": {
                    "summary": "Download one hand: `<hand>.phh` (PHH), `<hand>.txt`"
                    " (PokerStars-style) or `<hand>.json` (the replayer's engine events);"
                    " other players' unshown cards are hidden",
                    "security": authed,
                    "parameters": [
                        {
                            "name": "table_id",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        },
                        {
                            "name": "hand",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        },
                    ],
                    "responses": {
                        "200": {"description": "text/plain (.phh, .txt) or JSON (.json)"},
                        "401": _ERROR,
                        "404": _ERROR,
                    },
                }
            },
        },
        "components": {
            "schemas": {
                "Credentials": Credentials.model_json_schema(),
                "ExchangeRequest": ExchangeRequest.model_json_schema(),
                "Account": {
                    "type": "object",
                    "properties": {
                        **{
                            k: {"type": "integer"} if k != "name" else {"type": "string"}
                            for k in (
                                "id",
                                "name",
                                "level",
                                "experience",
                                "hands_played",
                                "chips",
                                "diamonds",
                                "points",
                                "bound_diamonds",
                                "next_level_experience",
                            )
                        },
                        # the tables where the account holds a seat (back to the table)
                        "seated": {"type": "array", "items": {"type": "object"}},
                    },
                },
                "Error": {
                    "type": "object",
                    "properties": {
                        "error": {
                            "type": "object",
                            "properties": {
                                "code": {"type": "string"},
                                "message": {"type": "string"},
                            },
                        }
                    },
                },
            },
            "responses": {
                "Error": {
                    "description": "An error with a stable code",
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}
                    },
                }
            },
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "cookie": {"type": "apiKey", "in": "cookie", "name": "croupier_session"},
            },
        },
    }
    doc["paths"].update(arcade_openapi_paths(authed, _json, _ERROR))  # server/arcade.py
    doc["paths"].update(options_openapi_paths(authed, _json, _ERROR))  # server/options.py
    doc["components"]["schemas"].update(
        {
            "BuyRequest": BuyRequest.model_json_schema(),
            "EquipRequest": EquipRequest.model_json_schema(),
        }
    )
    return doc
