"""Accounts (R-ACC-1): registration, login, logout, sessions, throttling; on both backends."""

from __future__ import annotations

import base64

import pytest
import sqlalchemy as sa

from croupier.accounts import (
    Accounts,
    InvalidCredentialsError,
    InvalidNameError,
    InvalidPasswordError,
    NameTakenError,
    PasswordHashing,
    SessionError,
    SessionPolicy,
    ThrottledError,
    ThrottlePolicy,
)
from croupier.store import Store
from croupier.store.schema import sessions, users
from tests.store.backends import FakeClock

PASSWORD = "correct horse battery"


class CountingHashing(PasswordHashing):
    """Counts dummy verifications (done for unknown users)."""

    dummies = 0

    def verify_dummy(self, password: str) -> None:
        type(self).dummies += 1
        super().verify_dummy(password)


@pytest.fixture
def accounts(store: Store, clock: FakeClock) -> Accounts:
    return Accounts(store.users, clock=clock)


def test_register_and_log_in(accounts: Accounts) -> None:
    """R-ACC-1: an account is registered and logs in with its password."""
    ann = accounts.register("Ann_1", PASSWORD)
    login = accounts.login("ANN_1", PASSWORD, ip="10.0.0.1")
    assert login.account.id == ann.id and login.account.name == "Ann_1"
    assert accounts.authenticate(login.token).id == ann.id


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ab", "invalid_name"),
        ("a" * 21, "invalid_name"),
        ("1abc", "invalid_name"),
        ("ann smith", "invalid_name"),
        ("ann<script>", "invalid_name"),
        ("Admin", "reserved_name"),
        ("BOT_Ann", "reserved_name"),
        ("guest42", "reserved_name"),
        (None, "invalid_name"),
    ],
)
def test_name_rules(accounts: Accounts, name: object, code: str) -> None:
    """R-ACC-1: names follow the rules; bad ones are refused with a code."""
    with pytest.raises(InvalidNameError) as err:
        accounts.register(name, PASSWORD)  # type: ignore[arg-type]
    assert err.value.code == code


@pytest.mark.parametrize("password", ["short77", "x" * 129, " " * 12, "Ann_1", None])
def test_password_rules(accounts: Accounts, store: Store, password: object) -> None:
    """R-ACC-1: passwords have 8 to 128 characters, are not blank, not the name."""
    with pytest.raises(InvalidPasswordError) as err:
        accounts.register("Ann_1", password)  # type: ignore[arg-type]
    assert err.value.code == "invalid_password"
    assert store.users.user_by_name_key("ann_1") is None


def test_names_are_unique_ignoring_case(accounts: Accounts) -> None:
    """R-ACC-1: one account per name, compared case-insensitively."""
    accounts.register("Ann_1", PASSWORD)
    with pytest.raises(NameTakenError) as err:
        accounts.register("aNN_1", "another password")
    assert err.value.code == "name_taken"


def test_password_is_stored_as_an_owasp_argon2id_hash(accounts: Accounts, store: Store) -> None:
    """R-ACC-1: argon2id, m = 19 MiB, t = 2, p = 1; never the password itself."""
    accounts.register("Ann_1", PASSWORD)
    record = store.users.user_by_name_key("ann_1")
    assert record is not None and record.password_hash is not None
    assert record.password_hash.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert PASSWORD not in record.password_hash
    with pytest.raises(ValueError):
        PasswordHashing(memory_kib=8192)


def test_unknown_user_and_wrong_password_look_the_same(store: Store, clock: FakeClock) -> None:
    """R-ACC-1: same error, same message, and a hash is computed for unknown users too."""
    accounts = Accounts(store.users, clock=clock, hashing=CountingHashing())
    accounts.register("Ann_1", PASSWORD)
    CountingHashing.dummies = 0
    with pytest.raises(InvalidCredentialsError) as wrong:
        accounts.login("Ann_1", "wrong password!")
    assert CountingHashing.dummies == 0
    with pytest.raises(InvalidCredentialsError) as unknown:
        accounts.login("Nobody", "wrong password!")
    assert CountingHashing.dummies == 1
    assert (wrong.value.code, str(wrong.value)) == (unknown.value.code, str(unknown.value))


def test_tokens_are_random_long_and_stored_hashed(accounts: Accounts, store: Store) -> None:
    """R-ACC-1: at least 128 random bits per token; only a hash is stored; a new token at
    every login."""
    accounts.register("Ann_1", PASSWORD)
    tokens = [accounts.login("Ann_1", PASSWORD).token for _ in range(3)]
    assert len(set(tokens)) == 3
    for token in tokens:
        assert len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) * 8 >= 128
    stored = store.db.run(lambda c: c.execute(sa.select(sessions.c.token_hash)).scalars().all())
    assert len(stored) == 3 and not set(tokens) & set(stored)


def test_login_rotates_the_previous_token(accounts: Accounts) -> None:
    """R-ACC-1: logging in again with the old token in hand revokes it."""
    accounts.register("Ann_1", PASSWORD)
    old = accounts.login("Ann_1", PASSWORD).token
    new = accounts.login("Ann_1", PASSWORD, previous_token=old).token
    assert accounts.authenticate(new).name == "Ann_1"
    with pytest.raises(SessionError):
        accounts.authenticate(old)
    rotated = accounts.rotate(new)
    with pytest.raises(SessionError):
        accounts.authenticate(new)
    assert accounts.authenticate(rotated.token).name == "Ann_1"


def test_logout(accounts: Accounts) -> None:
    """R-ACC-1: logout ends the session; doing it again is harmless."""
    accounts.register("Ann_1", PASSWORD)
    token = accounts.login("Ann_1", PASSWORD).token
    assert accounts.logout(token) is True
    assert accounts.logout(token) is False
    assert accounts.logout("") is False
    with pytest.raises(SessionError) as err:
        accounts.authenticate(token)
    assert err.value.code == "invalid_session"


def test_idle_expiry_on_the_injected_clock(store: Store, clock: FakeClock) -> None:
    """R-ACC-1: a session idle for too long expires; activity keeps it alive."""
    policy = SessionPolicy(idle_seconds=600, absolute_seconds=3600, touch_every=0)
    accounts = Accounts(store.users, clock=clock, sessions=policy)
    accounts.register("Ann_1", PASSWORD)
    token = accounts.login("Ann_1", PASSWORD).token
    for _ in range(3):
        clock.advance(599)
        accounts.authenticate(token)
    clock.advance(600)
    with pytest.raises(SessionError) as err:
        accounts.authenticate(token)
    assert err.value.code == "session_expired"


def test_absolute_expiry_on_the_injected_clock(store: Store, clock: FakeClock) -> None:
    """R-ACC-1: a session ends at its absolute lifetime however active it is."""
    policy = SessionPolicy(idle_seconds=600, absolute_seconds=1800, touch_every=0)
    accounts = Accounts(store.users, clock=clock, sessions=policy)
    accounts.register("Ann_1", PASSWORD)
    token = accounts.login("Ann_1", PASSWORD).token
    for _ in range(5):
        clock.advance(300)
        accounts.authenticate(token)
    clock.advance(300)
    with pytest.raises(SessionError) as err:
        accounts.authenticate(token)
    assert err.value.code == "session_expired"


def test_throttling_per_account(accounts: Accounts, clock: FakeClock) -> None:
    """R-ACC-1: five failures in 15 minutes from one address lock that (name, address)
    pair, even for the right password, until the window passes; a success clears the
    count. The owner at another address is not locked out by them (issue 10)."""
    accounts.register("Ann_1", PASSWORD)
    for _ in range(5):
        with pytest.raises(InvalidCredentialsError):
            accounts.login("Ann_1", "wrong password!", ip="10.0.0.9")
    with pytest.raises(ThrottledError) as err:
        accounts.login("Ann_1", PASSWORD, ip="10.0.0.9")
    assert err.value.code == "throttled" and 0 < err.value.retry_after <= 900
    accounts.login("Ann_1", PASSWORD, ip="10.0.1.1")  # the owner, elsewhere
    clock.advance(err.value.retry_after + 1)
    accounts.login("Ann_1", PASSWORD, ip="10.0.0.9")
    with pytest.raises(InvalidCredentialsError):
        accounts.login("Ann_1", "wrong password!", ip="10.0.0.9")  # counting starts again


def test_global_account_limit_spares_known_addresses(store: Store, clock: FakeClock) -> None:
    """R-ACC-1 (issue 10): the slower global limit per name stops a guesser spread over
    many addresses, but not the owner at an address they logged in from before."""
    accounts = Accounts(store.users, clock=clock, account_throttle=ThrottlePolicy(8, 3600.0))
    accounts.register("Ann_1", PASSWORD)
    accounts.login("Ann_1", PASSWORD, ip="192.0.2.1")
    for i in range(8):
        with pytest.raises(InvalidCredentialsError):
            accounts.login("Ann_1", "wrong password!", ip=f"198.51.100.{i}")
    with pytest.raises(ThrottledError):
        accounts.login("Ann_1", "wrong password!", ip="198.51.100.200")
    with pytest.raises(ThrottledError):
        accounts.login("Ann_1", PASSWORD, ip="203.0.113.5")  # a new address waits
    accounts.login("Ann_1", PASSWORD, ip="192.0.2.1")  # the owner's known address


def test_throttling_unknown_names_too(accounts: Accounts) -> None:
    """R-ACC-1: throttling does not reveal which names exist."""
    for _ in range(5):
        with pytest.raises(InvalidCredentialsError):
            accounts.login("Nobody", "wrong password!")
    with pytest.raises(ThrottledError):
        accounts.login("Nobody", "wrong password!")


def test_throttling_per_ip(accounts: Accounts, clock: FakeClock) -> None:
    """R-ACC-1: twenty failures from one address in 15 minutes lock that address out,
    other addresses still log in."""
    accounts.register("Ann_1", PASSWORD)
    for i in range(20):
        with pytest.raises(InvalidCredentialsError):
            accounts.login(f"Someone{i}", "wrong password!", ip="203.0.113.9")
    with pytest.raises(ThrottledError):
        accounts.login("Ann_1", PASSWORD, ip="203.0.113.9")
    accounts.login("Ann_1", PASSWORD, ip="198.51.100.1")
    clock.advance(15 * 60 + 1)
    accounts.login("Ann_1", PASSWORD, ip="203.0.113.9")


def test_disabled_account_cannot_log_in(accounts: Accounts, store: Store) -> None:
    """R-ACC-1: a disabled account gets the same refusal as a wrong password."""
    ann = accounts.register("Ann_1", PASSWORD)
    token = accounts.login("Ann_1", PASSWORD).token
    store.db.run(
        lambda c: c.execute(users.update().where(users.c.id == ann.id).values(disabled=True))
    )
    with pytest.raises(InvalidCredentialsError):
        accounts.login("Ann_1", PASSWORD)
    with pytest.raises(SessionError):
        accounts.authenticate(token)


def test_parallel_guesses_get_five_checks_across_processes(store: Store, clock: FakeClock) -> None:
    """R-ACC-1, issue 10: 40 simultaneous wrong guesses through 8 separate services (as 8
    server processes sharing the database: no lock in common but the database's) get
    exactly 5 password checks; the throttle's check and its record are one step."""
    from concurrent.futures import ThreadPoolExecutor

    Accounts(store.users, clock=clock).register("Ann_1", PASSWORD)
    services = [Accounts(store.users, clock=clock) for _ in range(8)]

    def guess(i: int) -> str:
        try:
            services[i % 8].login("Ann_1", "wrong password!", ip="203.0.113.5")
        except (InvalidCredentialsError, ThrottledError) as exc:
            return exc.code
        return "ok"

    with ThreadPoolExecutor(max_workers=16) as pool:
        codes = list(pool.map(guess, range(40)))
    assert codes.count("invalid_credentials") == 5, codes
    assert codes.count("throttled") == 35
