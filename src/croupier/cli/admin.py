"""`croupier admin`: ledger audit and diamond grants.

``croupier admin audit [--db URL]`` recomputes every balance from the ledger entries and
prints the discrepancies (there must be none); it exits with status 1 if there are any.
``croupier admin grant NAME AMOUNT [--db URL] [--key KEY]`` grants diamonds to an account
(a simulated purchase), idempotent by key.
"""

from __future__ import annotations

import secrets
from typing import Annotated

import typer

from croupier.accounts.names import name_key
from croupier.store import StoreError, default_url, open_store

__all__ = ["admin_app", "register"]

admin_app = typer.Typer(
    name="admin", help="Administration: ledger audit, grants.", no_args_is_help=True
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
) -> None:
    """Grant diamonds to an account (a simulated purchase)."""
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
        f"{balances.points} points{note}"
    )


def register(app: typer.Typer) -> None:
    """Add ``croupier admin`` to ``app``."""
    app.add_typer(admin_app, name="admin")
