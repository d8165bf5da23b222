"""What became of a commit whose answer was lost (the connection died at or after COMMIT): asked
by its transaction id on a fresh connection before anyone is told, so the answer is saved, not
saved, or, when the database cannot be asked, `OutcomeUnknown`: never a guess."""

from __future__ import annotations

import logging
import time

import psycopg

from .errors import OutcomeUnknown, StoreUnavailable

log = logging.getLogger("cogs_arena.store")


def settle(
    url: str, app: str, settle_seconds: float, xact: str, game_id: str, exc: psycopg.Error
) -> None:
    """Returns if the transaction is in, raises StoreUnavailable (nothing changed) if it is not,
    OutcomeUnknown if the database cannot say. Asked as many times as `settle_seconds` allows."""
    deadline = time.monotonic() + settle_seconds
    status: str | None = None
    while True:
        try:
            with psycopg.connect(
                url, autocommit=True, connect_timeout=2, application_name=app
            ) as fresh:
                row = fresh.execute("SELECT pg_xact_status(%s::xid8)", (xact,)).fetchone()
            status = None if row is None else row[0]
        except psycopg.Error:
            status = None
        if status in ("committed", "aborted") or time.monotonic() >= deadline:
            break
        time.sleep(0.1)
    if status == "committed":
        log.warning(
            "store: game %s: the answer to COMMIT was lost (%s); it is in", game_id, said(exc)
        )
        return
    if status == "aborted":
        log.warning(
            "store: game %s: the connection died at COMMIT (%s); not in", game_id, said(exc)
        )
        raise StoreUnavailable(
            "The connection to the game store (PostgreSQL) broke while this step was being "
            "saved; the store confirms it was not saved, so nothing changed.",
            allowed="the same call again (with the same request_id, if you gave one)",
        ) from None
    log.warning(
        "store: game %s: the connection died at COMMIT (%s) and the database cannot say "
        "whether the step is in (%s)",
        game_id,
        said(exc),
        status or "unreachable",
    )
    raise OutcomeUnknown(
        "The connection to the game store (PostgreSQL) broke while this step was being saved"
        " and the store cannot be asked now: the step may or may not have been applied.",
        allowed="the same call again with the same request_id (it is answered once: what "
        "was applied, or a first try); without a request_id, show first to see whether it "
        "was applied",
    ) from None


def said(exc: BaseException) -> str:
    """An error's message on one line (libpq's run over several)."""
    return " ".join(str(exc).split()) or type(exc).__name__
