"""HTTP routes: health, metrics, OpenAPI, accounts (register, login, logout, me, exchange),
the lobby list and hand-history downloads (PHH and PokerStars text)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from croupier.accounts import Account, AccountError, ThrottledError
from croupier.accounts.sessions import token_hash
from croupier.history.download import DownloadError, render
from croupier.server.arcade import arcade_routes, next_level_experience
from croupier.server.handrows import hand_row
from croupier.server.options import options_routes
from croupier.server.protocol import CloseCode
from croupier.server.seated import seated_tables
from croupier.server.security import BodyError, connection_ip, connection_is_https, parse_json_body
from croupier.store import StoreError
from croupier.store.groupcommit import GroupCommitJournal
from croupier.tournament import TournamentError

if TYPE_CHECKING:
    from croupier.server.app import Services

__all__ = ["Credentials", "ExchangeRequest", "routes"]


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=256)


class ExchangeRequest(BaseModel):
    """Buy chips with diamonds, 1:1 (R-ACC-1). ``key`` makes a retry safe (idempotent)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    diamonds: int = Field(ge=1, le=10**9)
    key: str = Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")


def fail(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _sv(request: Request) -> Services:
    services: Services = request.app.state.services
    services.hub.metrics.http_requests += 1
    return services


def _token(request: Request, services: Services) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return request.cookies.get(services.cookie_name) or None


async def _account(request: Request, services: Services) -> Account | JSONResponse:
    token = _token(request, services)
    if token is None:
        return fail(401, "login_required", "log in first")
    try:
        account = await asyncio.to_thread(services.accounts.authenticate, token)
    except AccountError as exc:
        return fail(401, exc.code, str(exc))
    if await services.registry.archived(account.id):  # its hands settled so far archived
        # read again: the account above was read before that archive (which credits a
        # tournament hand's experience; a cash hand's settlement credited its own)
        fresh = await asyncio.to_thread(services.accounts.account, account.id)
        if fresh is not None:
            return fresh
    return account


async def _body(request: Request, model: type[BaseModel], services: Services) -> Any:
    """The JSON body as ``model``. The body is read under the cap (SecurityMiddleware
    answers 413 as soon as it goes over); nesting over ``max_json_depth`` is 400
    ``too_deep``; anything else that does not fit is 422 ``invalid``."""
    origin = request.headers.get("origin")
    if origin and not services.origin_allowed(origin):
        return fail(403, "bad_origin", "origin not allowed")
    raw = await request.body()
    try:
        data = parse_json_body(raw, max_depth=services.settings.max_json_depth)
        return model.model_validate(data)
    except BodyError as exc:
        return fail(exc.status, exc.code, str(exc))
    except (ValueError, ValidationError) as exc:
        return fail(422, "invalid", str(exc).splitlines()[0][:200])


def client_ip(request: Request, services: Services) -> str:
    """The client's address (``X-Forwarded-For`` only from ``trusted_proxies``)."""
    return connection_ip(request, services.settings)


async def health(request: Request) -> Response:
    sv = _sv(request)
    body: dict[str, Any] = {"status": "ok", "tables": len(sv.registry.tables)}
    if sv.node is not None:  # a room of several processes: which one this is
        body.update(node=sv.node.name, takeovers=sv.node.takeovers)
    body["online"] = sv.online()
    return JSONResponse(body)


async def metrics(request: Request) -> Response:
    sv = _sv(request)
    m = sv.hub.metrics
    reg = sv.registry
    lines = [
        f"croupier_connections_open {m.connections_open}",
        f"croupier_connections_opened_total {m.connections_opened}",
        f"croupier_messages_in_total {m.messages_in}",
        f"croupier_messages_refused_total {m.messages_refused}",
        f"croupier_frames_out_total {m.frames_out}",
        f"croupier_messages_out_total {m.messages_out}",
        f"croupier_http_requests_total {m.http_requests}",
        f"croupier_tables {len(reg.tables)}",
        f"croupier_tables_alive {sum(1 for t in reg.tables.values() if t.actor.alive)}",
        f"croupier_hands_settled_total {reg.hands_settled}",
        f"croupier_hands_voided_total {reg.hands_voided}",
        f"croupier_hands_in_play {sum(1 for t in reg.tables.values() if t.actor.table.hand)}",
        f"croupier_archive_backlog {reg.archive_backlog}",
        f"croupier_tables_put_off {reg.tables_put_off}",
        f"croupier_online {sv.online()}",
    ]
    if isinstance(reg.journal, GroupCommitJournal):  # how long the journal's writes wait
        lines += reg.journal.waits.prometheus("croupier_journal_wait_seconds")
        lines += reg.journal.writes.prometheus("croupier_journal_transaction_seconds")
        lines += reg.journal.sync_writes.prometheus("croupier_journal_sync_write_seconds")
    if sv.node is not None:  # a room of several processes: its leases (server/cluster.py)
        lines += [
            f"croupier_lease_takeovers_total {sv.node.takeovers}",
            f"croupier_lease_tables_lost_total {sv.node.lost}",
            f"croupier_lease_round_seconds_max {sv.node.slowest_round:.3f}",
            f"croupier_lease_renewal_gap_seconds_max {sv.node.longest_gap:.3f}",
            f"croupier_room_services_here {int(sv.node.room)}",
            f"croupier_room_services_taken_over_total {sv.node.rooms_taken}",
            f"croupier_room_services_lost_total {sv.node.rooms_lost}",
        ]
    if sv.bus is not None:  # the room's Redis (server/bus.py)
        lines += [
            f"croupier_bus_sent_total {sv.bus.published}",
            f"croupier_bus_tables_published {len(sv.bus.shared)}",
            f"croupier_bus_tables_relayed {len(sv.bus.relays)}",
        ]
    return PlainTextResponse("\n".join(lines) + "\n")


async def openapi(request: Request) -> Response:
    from croupier.server.openapi import openapi_document

    return JSONResponse(openapi_document())


def _account_json(account: Account, services: Services) -> dict[str, Any]:
    b = services.store.ledger.balances(account.id)
    return {
        "id": account.id,
        "name": account.name,
        "level": account.level,
        "experience": account.experience,
        "hands_played": account.hands_played,
        "chips": b.chips,
        "diamonds": b.diamonds,
        "points": b.points,
        "seated": seated_tables(services.registry, account.id),
        "bound_diamonds": b.bound_diamonds,
        "next_level_experience": next_level_experience(account.level),
    }


async def register(request: Request) -> Response:
    sv = _sv(request)
    ip = client_ip(request, sv)
    if not sv.ip_buckets.allow(f"register:{ip}", sv.now()):
        return fail(429, "throttled", "too many registrations from this address")
    body = await _body(request, Credentials, sv)
    if isinstance(body, Response):
        return body
    try:
        account = await asyncio.to_thread(sv.accounts.register, body.name, body.password)
    except AccountError as exc:
        return fail(409 if exc.code == "name_taken" else 422, exc.code, str(exc))
    if sv.settings.welcome_diamonds:
        await asyncio.to_thread(
            sv.store.ledger.grant_diamonds,
            account.id,
            sv.settings.welcome_diamonds,
            key=f"welcome:{account.id}",
            reason="welcome",
        )
    return JSONResponse(await asyncio.to_thread(_account_json, account, sv), status_code=201)


async def login(request: Request) -> Response:
    sv = _sv(request)
    body = await _body(request, Credentials, sv)
    if isinstance(body, Response):
        return body
    ip = client_ip(request, sv)
    try:
        done = await asyncio.to_thread(sv.accounts.login, body.name, body.password, ip=ip)
    except ThrottledError as exc:
        resp = fail(429, exc.code, str(exc))
        resp.headers["Retry-After"] = str(int(exc.retry_after) + 1)
        return resp
    except AccountError as exc:
        return fail(401, exc.code, str(exc))
    shown = await asyncio.to_thread(_account_json, done.account, sv)
    resp = JSONResponse({"token": done.token, "account": shown})
    resp.set_cookie(
        sv.cookie_name,
        done.token,
        max_age=int(done.expires_at - sv.wall()),
        httponly=True,
        samesite="lax",
        secure=_cookie_secure(request, sv),
    )
    return resp


def _cookie_secure(request: Request, sv: Services) -> bool:
    """The session cookie's Secure flag (setting ``cookie_secure``: auto/always/never)."""
    mode = sv.settings.cookie_secure
    if mode == "auto":
        return connection_is_https(request, sv.settings)
    return mode == "always"


async def logout(request: Request) -> Response:
    sv = _sv(request)
    origin = request.headers.get("origin")
    if origin and not sv.origin_allowed(origin):
        return fail(403, "bad_origin", "origin not allowed")
    token = _token(request, sv)
    if token is None:
        return fail(401, "login_required", "no session")
    ended = await asyncio.to_thread(sv.accounts.logout, token)
    closed = sv.hub.close_session(token_hash(token), CloseCode.LOGGED_OUT)
    resp = JSONResponse({"logged_out": ended, "sockets_closed": closed})
    resp.delete_cookie(sv.cookie_name)
    return resp


async def me(request: Request) -> Response:
    sv = _sv(request)
    account = await _account(request, sv)
    if isinstance(account, Response):
        return account
    return JSONResponse(await asyncio.to_thread(_account_json, account, sv))


async def exchange(request: Request) -> Response:
    sv = _sv(request)
    account = await _account(request, sv)
    if isinstance(account, Response):
        return account
    body = await _body(request, ExchangeRequest, sv)
    if isinstance(body, Response):
        return body
    try:
        await asyncio.to_thread(
            sv.store.ledger.buy_chips,
            account.id,
            body.diamonds,
            key=f"exchange:{account.id}:{body.key}",
        )
    except StoreError as exc:
        return fail(409, exc.code, str(exc))
    return JSONResponse(await asyncio.to_thread(_account_json, account, sv))


async def tables(request: Request) -> Response:
    sv = _sv(request)
    return JSONResponse(sv.lobby_message()["tables"])


async def tournaments(request: Request) -> Response:
    """The published tournaments (R-TOUR-1..3): terms, status, entrants, pool, prizes."""
    sv = _sv(request)
    return JSONResponse(sv.lobby_message()["tournaments"])


async def tournament_results(request: Request) -> Response:
    """``GET /api/tournaments/results``: the logged-in player's finished tournaments."""
    sv = _sv(request)
    account = await _account(request, sv)
    if isinstance(account, Response):
        return account
    tours = sv.tournaments
    rows = [] if tours is None else await asyncio.to_thread(tours.results, str(account.id))
    return JSONResponse(rows)


def _tournament_error(exc: TournamentError) -> JSONResponse:
    status = 404 if exc.code == "unknown_tournament" else 409
    return fail(status, exc.code, str(exc))


async def tournament_entry(request: Request) -> Response:
    """``POST /api/tournaments/{id}/register`` and ``…/unregister`` for the logged-in
    account: the buy-in moves between the account and the prize pool (R-TOUR-4);
    ``…/fill`` lets a registered player fill the free seats of a Sit & Go with bots where
    the event allows them (R-BOT-1)."""
    sv = _sv(request)
    account = await _account(request, sv)
    if isinstance(account, Response):
        return account
    origin = request.headers.get("origin")
    if origin and not sv.origin_allowed(origin):
        return fail(403, "bad_origin", "origin not allowed")
    tours = sv.tournaments
    if tours is None:
        return fail(404, "unknown_tournament", "no tournaments here")
    if sv.node is not None and not sv.node.room:  # run by the process holding their lease
        url = sv.node.room_url
        if url is None or sv.node.room_starting:  # it died: taken over in a moment
            msg = "the tournaments' server stopped: they restart on another in a moment"
            return fail(503, "tournaments_restarting", msg)
        there = {"code": "tournament_elsewhere", "message": f"tournaments are run at {url}"}
        return JSONResponse({"error": {**there, "url": url}}, status_code=409)
    tid = request.path_params["tournament_id"]
    action = request.path_params["action"]
    player = str(account.id)
    try:
        if action == "register":
            await tours.register(tid, player, account.name)
        elif action == "unregister":
            tours.unregister(tid, player)
        elif action == "deal":
            # R-TOUR-19: {"choice": "in" | "icm" | "equal" | "none"} at the final table
            try:
                body = await request.json()
            except ValueError:
                body = None
            choice = body.get("choice") if isinstance(body, dict) else None
            director = tours.get(tid).director
            if director is None or not isinstance(choice, str):
                return fail(409, "bad_deal", "a running event and a choice are needed")
            director.deal_action(player, choice)
        elif action == "fill":

            async def bot_account(pool: str, i: int) -> int:
                return await asyncio.to_thread(sv.registry.bot_user, pool, i)

            await tours.fill_with_bots(tid, player, bot_account)
        else:
            return fail(404, "not_found", f"unknown action {action!r}")
    except TournamentError as exc:
        return _tournament_error(exc)
    row = next(r for r in tours.summaries() if r["id"] == tid)
    return JSONResponse(row)


async def hands(request: Request) -> Response:
    sv = _sv(request)
    account = await _account(request, sv)
    if isinstance(account, Response):
        return account
    try:
        limit = int(request.query_params.get("limit", "50"))
        found = await asyncio.to_thread(sv.store.archive.for_account, account.id, limit=limit)
    except (ValueError, StoreError):
        return fail(422, "invalid_limit", "limit is 1 to 1000")
    return JSONResponse([hand_row(h, account.id, sv.registry) for h in found])


async def hand_download(request: Request) -> Response:
    """``GET /api/hands/{table}/{hand}.{phh,txt,json}``: the rules of downloads are the
    history's (:mod:`croupier.history.download`); this only reads and answers."""
    sv = _sv(request)
    account = await _account(request, sv)
    if isinstance(account, Response):
        return account
    table_id = request.path_params["table_id"]
    hand_id, _, fmt = request.path_params["hand"].rpartition(".")
    try:
        hand = await asyncio.to_thread(sv.store.archive.get, table_id, hand_id)
    except StoreError:
        return fail(404, "not_found", "no such hand")
    live = sv.registry.tables.get(table_id)
    try:
        done = render(
            fmt,
            table_id=table_id,
            hand_id=hand_id,
            number=hand.number,
            ended_ms=hand.ended_ms,
            label=hand.game,
            phh=hand.phh,
            summary=dict(hand.summary),
            account_id=account.id,
            game=live.actor.table.config.game if live is not None else None,
        )
    except DownloadError as exc:
        return fail(404, exc.code, str(exc))
    if fmt == "json":
        return Response(done.body, media_type=done.media_type)
    headers = {"Content-Disposition": f'attachment; filename="{done.filename}"'}
    return PlainTextResponse(done.body, headers=headers)


def routes() -> list[Route]:
    return [
        Route("/health", health),
        Route("/metrics", metrics),
        Route("/openapi.json", openapi),
        Route("/api/register", register, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/me", me),
        Route("/api/exchange", exchange, methods=["POST"]),
        Route("/api/tables", tables),
        Route("/api/tournaments", tournaments),
        Route("/api/tournaments/results", tournament_results),
        Route("/api/tournaments/{tournament_id}/{action}", tournament_entry, methods=["POST"]),
        Route("/api/hands", hands),
        Route("/api/hands/{table_id}/{hand}", hand_download),
        *arcade_routes(),  # the points shop and the arcade's status (server/arcade.py)
        *options_routes(),  # table options per account (server/options.py)
    ]
