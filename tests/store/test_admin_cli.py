"""`croupier admin audit` and `croupier admin grant` (R-ACC-1)."""

from __future__ import annotations

import sqlalchemy as sa
import typer
from typer.testing import CliRunner

from croupier.cli import admin
from croupier.store import open_store, user_account
from croupier.store.schema import ledger_accounts


def _app() -> typer.Typer:
    app = typer.Typer()
    admin.register(app)

    @app.command()
    def version() -> None:  # a second command keeps `admin` a sub-command
        """Unused."""

    return app


def test_audit_clean_then_tampered(url: str) -> None:
    """R-ACC-1: the audit passes on a ledger-only history and fails (exit 1) when a
    balance was changed behind the ledger's back."""
    with open_store(url) as store:
        user = store.users.create_user("Ann", "ann", None, "player", 0)
    runner = CliRunner()
    result = runner.invoke(
        _app(), ["admin", "grant", "ann", "500", "--db", url, "--chips", "--key", "k1"]
    )
    assert result.exit_code == 0, result.output
    assert "Ann: 0 diamonds, 500 chips" in result.output
    again = runner.invoke(_app(), ["admin", "grant", "ann", "500", "--db", url, "--key", "k1"])
    assert "already granted" in again.output
    result = runner.invoke(_app(), ["admin", "audit", "--db", url])
    assert result.exit_code == 0, result.output
    assert "no discrepancies" in result.output
    assert "chips: issued 500, held 500" in result.output
    with open_store(url) as store:
        key = user_account(user.id).key
        store.db.run(
            lambda c: c.execute(
                ledger_accounts.update().where(ledger_accounts.c.key == key).values(balance=9999)
            )
        )
    result = runner.invoke(_app(), ["admin", "audit", "--db", url])
    assert result.exit_code == 1
    assert "stored balance 9999, entries sum to 500" in result.output


def test_grant_refuses_bad_input(url: str) -> None:
    """R-ACC-1: unknown account or a non-positive amount: an error with a code, exit 2."""
    runner = CliRunner()
    result = runner.invoke(_app(), ["admin", "grant", "nobody", "5", "--db", url])
    assert result.exit_code == 2 and "not_found" in result.output
    with open_store(url) as store:
        store.users.create_user("Ann", "ann", None, "player", 0)
    result = runner.invoke(_app(), ["admin", "grant", "ann", "0", "--db", url])
    assert result.exit_code == 2 and "invalid_amount" in result.output
    with open_store(url) as store:
        n = store.db.run(
            lambda c: c.execute(
                sa.select(sa.func.count()).select_from(ledger_accounts)
            ).scalar_one()
        )
    assert n == 0


def test_grant_a_gift_of_bound_diamonds(url: str) -> None:
    """R-ACC-1: a gift (``--gift``) is bound diamonds, shown apart, that never buy chips;
    asking for chips with it is refused and changes nothing."""
    with open_store(url) as store:
        user = store.users.create_user("Bea", "bea", None, "player", 0)
    runner = CliRunner()
    result = runner.invoke(_app(), ["admin", "grant", "bea", "30", "--db", url, "--gift"])
    assert result.exit_code == 0, result.output
    assert "Bea: 0 diamonds, 0 chips, 0 points, 30 bound diamonds" in result.output
    refused = runner.invoke(
        _app(), ["admin", "grant", "bea", "30", "--db", url, "--gift", "--chips"]
    )
    assert refused.exit_code == 2 and "bound_diamonds" in refused.output
    with open_store(url) as store:
        assert store.ledger.balances(user.id).bound_diamonds == 30
        assert store.audit().ok
