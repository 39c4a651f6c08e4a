"""`croupier admin`: ledger audit and diamond grants.

``croupier admin audit [--db URL]`` recomputes every balance from the ledger entries and
prints the discrepancies (there must be none); it exits with status 1 if there are any.
``croupier admin grant NAME AMOUNT [--db URL] [--key KEY]`` grants diamonds to an account
(a simulated purchase), idempotent by key; with ``--gift`` they are *bound* diamonds (a
gift, R-ACC-1), which never buy chips.
``croupier admin protections [--db URL] [--hours 24] [--limit 20]`` lists the players who
used the most all-in protections (R-TIME-2) in the last hours, at every table.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Annotated

import typer

from croupier.accounts.names import name_key
from croupier.store import StoreError, default_url, open_store

__all__ = ["admin_app", "register"]

admin_app = typer.Typer(
    name="admin",
    help="Administration: ledger audit, grants, all-in protections.",
    no_args_is_help=True,
)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db", help="Database URL (default: $CROUPIER_DATABASE_URL or sqlite:///croupier.sqlite3)."
    ),
]


@admin_app.command("audit")
def audit_command(db: DbOption = None) -> None:
    """Recompute every balance from the ledger and list discrepancies (exit 1 if any)."""
    try:
        store = open_store(db or default_url())
    except StoreError as exc:
        typer.echo(f"error [{exc.code}]: {exc}", err=True)
        raise typer.Exit(2) from None
    with store:
        report = store.audit()
    typer.echo(
        f"{report.accounts} accounts, {report.transfers} transfers, {report.entries} entries"
    )
    for currency in sorted(set(report.issued) | set(report.held)):
        held = report.held.get(currency, {})
        detail = ", ".join(f"{kind} {amount}" for kind, amount in sorted(held.items()))
        typer.echo(
            f"{currency}: issued {report.issued.get(currency, 0)}, "
            f"held {sum(held.values())} ({detail or 'nothing'})"
        )
    typer.echo(f"checks: {', '.join(report.checks)}")
    if report.ok:
        typer.echo("no discrepancies")
        return
    typer.echo(f"{len(report.discrepancies)} discrepancies:", err=True)
    for line in report.discrepancies:
        typer.echo(f"  {line}", err=True)
    raise typer.Exit(1)


@admin_app.command("grant")
def grant_command(
    account: Annotated[str, typer.Argument(help="Account name or numeric id.")],
    amount: Annotated[int, typer.Argument(help="Diamonds to grant (> 0).")],
    db: DbOption = None,
    key: Annotated[
        str | None, typer.Option("--key", help="Idempotency key (default: a fresh one).")
    ] = None,
    chips: Annotated[
        bool, typer.Option("--chips", help="Also convert the diamonds to chips (1:1).")
    ] = False,
    gift: Annotated[
        bool, typer.Option("--gift", help="Bound diamonds (a gift): they never buy chips.")
    ] = False,
) -> None:
    """Grant diamonds to an account (a simulated purchase, or a gift with --gift)."""
    if gift and chips:
        typer.echo("error [bound_diamonds]: bound diamonds never buy chips", err=True)
        raise typer.Exit(2)
    with open_store(db or default_url()) as store:
        record = (
            store.users.user(int(account))
            if account.isdigit()
            else store.users.user_by_name_key(name_key(account))
        )
        if record is None:
            typer.echo(f"error [not_found]: no account {account!r}", err=True)
            raise typer.Exit(2)
        key = key or f"admin-grant-{secrets.token_hex(8)}"
        try:
            if gift:
                transfer = store.ledger.grant_bound_diamonds(
                    record.id, amount, key=key, reason="gift"
                )
            else:
                transfer = store.ledger.grant_diamonds(record.id, amount, key=key, reason="admin")
            if chips:
                store.ledger.buy_chips(record.id, amount, key=f"{key}:chips")
        except StoreError as exc:
            typer.echo(f"error [{exc.code}]: {exc}", err=True)
            raise typer.Exit(2) from None
        balances = store.ledger.balances(record.id)
    note = " (already granted under this key)" if transfer.replayed else ""
    typer.echo(
        f"{record.name}: {balances.diamonds} diamonds, {balances.chips} chips, "
        f"{balances.points} points, {balances.bound_diamonds} bound diamonds{note}"
    )


@admin_app.command("protections")
def protections_command(
    db: DbOption = None,
    hours: Annotated[
        float, typer.Option("--hours", min=0.01, help="The period, up to now (default 24 h).")
    ] = 24.0,
    limit: Annotated[int, typer.Option("--limit", min=1, max=1000, help="Rows to list.")] = 20,
) -> None:
    """List the players who used the most all-in protections (R-TIME-2), most first."""
    with open_store(db or default_url()) as store:
        since = round((store.clock() - hours * 3600) * 1000)
        rows = store.protections.top(since_ms=since, limit=limit)
    if not rows:
        typer.echo(f"no all-in protection used in the last {hours:g} h")
        return
    typer.echo(f"all-in protections in the last {hours:g} h (most first):")
    typer.echo(f"{'player':<32} {'id':>8} {'uses':>5} {'tables':>6}  last used (UTC)")
    for r in rows:
        last = datetime.fromtimestamp(r.last_ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S")
        typer.echo(f"{r.name:<32} {r.user_id:>8} {r.uses:>5} {r.tables:>6}  {last}")


def register(app: typer.Typer) -> None:
    """Add ``croupier admin`` to ``app``."""
    app.add_typer(admin_app, name="admin")
