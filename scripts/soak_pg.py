"""PostgreSQL soak over HTTP on loopback: two server instances on one database, through
terminated backends, a database restart and a kill -9 of an instance, does the record keep every
move a client was told about, once, and is every "nothing changed" true?

Starts a throwaway PostgreSQL cluster (tests/pg_helpers.py) and two `cogs-arena serve --transport
http` instances on it, sharing one transcripts folder. Client tasks play games of all four kinds
(one MCP seat each, bots for the rest), as in `soak_kill.py`: `show`, `legal_moves`, then
`play(number=1)` with `decision=` (a plain `hold`/`idle` after a refusal in Territory/Chemistry),
every play carrying `why="soak <id>"` so the record names it. Half the games' clients send a
`request_id` and resend the same call, same id, when they got no answer or `outcome_unknown`;
the other half send none, never resend blindly, and after no answer or `outcome_unknown` look
with `show` before playing again. Each connection serves a few plays and the client moves on to
the other instance (a load balancer without affinity), and to it at once when one fails.

Meanwhile: a backend of the instances (any state, the ones in a call first) is terminated with
`pg_terminate_backend` about once a second; once, the database is restarted (a fast shutdown, as
a failover looks); once, an instance is killed with SIGKILL and started again.

At the end the instances are stopped and the record read back (each game's transcript, and its
events in the database) to count:

- accepted moves lost: a play the client was told was accepted with no accepted `attempt` of its
  id, or no transition applying it after it;
- moves applied twice: an id with more than one accepted `attempt`;
- false "nothing changed": an error answer (any code but `outcome_unknown`) to a play the record
  shows accepted;
- stuck games, transcripts out of step with the database, transcripts replaying (`replay`).

Exit status 0 when lost, twice, false "nothing changed" and stuck are 0 and every transcript
replays. Bounded: at most --games games, --terminations terminations, --max-seconds; loopback only.

Usage: python scripts/soak_pg.py [--games 16] [--terminations 120] [--max-seconds 300] [--seed 3]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from soak_kill import (  # noqa: E402
    KINDS,
    PLAIN,
    Answer,
    Server,
    Told,
    call,
    free_port,
    is_transport,
    probe_stuck,
    read_lines,
    transition_text,
)

LIFT = ["--max-live-games", "100000", "--games-per-minute", "100000"]
UNKNOWN = "outcome_unknown"
APP = "cogs-arena %"


class Instance(Server):
    """One `serve` on the shared database; its own folder for its log, the shared transcripts."""

    def __init__(self, root: Path, port: int, store: str, transcripts: Path) -> None:
        root.mkdir(parents=True, exist_ok=True)
        super().__init__(root, port)
        self.store, self.transcripts = store, transcripts

    def start(self, timeout: float = 60) -> None:
        import subprocess

        command = [sys.executable, "-m", "cogs_arena", "serve", "--transport", "http"]
        command += ["--port", str(self.port), "--store", self.store, *LIFT]
        command += ["--transcripts", str(self.transcripts)]
        with open(self.root / "server.err", "ab") as err:
            self.proc = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=err, cwd=self.root
            )
        self._wait_healthy(timeout)

    def _wait_healthy(self, timeout: float) -> None:
        import socket

        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"instance exited {self.proc.returncode}: {self.stderr()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                    sock.sendall(b"GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                    if b"ok" in sock.recv(1000):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        self.proc.kill()
        raise SystemExit(f"instance not healthy after {timeout}s: {self.stderr()}")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"


@dataclass
class Game:
    kind: str
    seed: int
    with_ids: bool
    game_id: str | None = None
    credential: str | None = None
    seat: int = 0
    over: bool = False
    plays: int = 0
    refusals_in_row: int = 0
    broken: str | None = None
    pending: tuple[str, dict[str, Any], int] | None = None
    """A request-id client's play not yet answered for good: resent as it was."""
    told: list[Told] = field(default_factory=list)
    unanswered: int = 0
    """Plays without a request id that got no answer (the client cannot know; not resent)."""


@dataclass
class Tally:
    transport_failures: int = 0
    unknown_answers: int = 0
    new_game_retries: int = 0
    switches: int = 0


async def drive(client: Any, game: Game, tally: Tally, opts: argparse.Namespace) -> None:
    """Plays `game` on one connection for up to --switch-every plays; transport trouble
    propagates (a play without id that got no answer is counted first)."""
    if game.game_id is None:
        if game.pending is not None:
            tally.new_game_retries += 1
        game.pending = ("new_game", {}, 0)
        made = await call(client, "new_game", {"game": game.kind, "seed": game.seed, "seat": 0})
        game.pending = None
        if not made.ok:
            if made.code in ("store_unavailable", "not_saved", UNKNOWN):
                return  # the client tries again on the next connection
            raise SystemExit(f"new_game {game.kind} refused: {made.text[:300]}")
        game.game_id, game.credential = made.data["game_id"], made.data["credential"]
        game.seat = int(made.data["seat"])
    ids = {"game_id": game.game_id, "credential": game.credential}
    for _ in range(opts.switch_every):
        if game.over or game.broken is not None or game.plays >= opts.max_plays:
            return
        if game.pending is not None:
            rid, resend, sends = game.pending
            game.pending = (rid, resend, sends + 1)
            record_answer(game, tally, await call(client, "play", resend))
            continue
        view = await call(client, "show", ids)
        if not view.ok:
            if view.code in ("store_unavailable", UNKNOWN):
                await asyncio.sleep(0.2)
                continue
            game.broken = f"show: {view.text[:300]}"
            return
        if view.data["status"] == "over":
            game.over = True
            return
        if not view.data["your_turn"]:
            after = int(view.data.get("log_cursor", 0))
            await call(client, "wait", {**ids, "after": after, "timeout": 2}, timeout=15)
            continue
        await call(client, "legal_moves", {**ids, "page_size": 5})
        rid = uuid.uuid4().hex
        args: dict[str, Any] = {**ids, "decision": view.data["decision"], "why": f"soak {rid}"}
        if game.with_ids:
            args["request_id"] = rid
        if game.refusals_in_row and game.kind in PLAIN:
            args["move"] = PLAIN[game.kind]
        else:
            args["number"] = 1
        game.pending = (rid, args, 1)
        try:
            answer = await call(client, "play", args)
        except BaseException:
            if not game.with_ids:  # no id: it cannot ask again; `show` comes first anyway
                game.pending = None
                game.unanswered += 1
            raise
        record_answer(game, tally, answer)


def record_answer(game: Game, tally: Tally, answer: Answer) -> None:
    assert game.pending is not None
    rid, args, sends = game.pending
    if answer.code == UNKNOWN:
        tally.unknown_answers += 1
        if game.with_ids:
            return  # resent as it was: the answer will say what happened, once
    game.pending = None
    game.plays += 1
    data = answer.data
    game.told.append(
        Told(
            rid,
            int(args["decision"]),
            sends,
            answer.ok,
            list(data.get("accepted") or []),
            bool(data.get("replayed")),
            answer.code,
            answer.text[:300],
        )
    )
    game.refusals_in_row = 0 if answer.ok else game.refusals_in_row + 1
    if (answer.ok and data.get("view", {}).get("status") == "over") or answer.code == "game_over":
        game.over = True
    if game.refusals_in_row > 20:
        game.broken = f"20 refusals in a row: {answer.text[:300]}"


async def player(
    instances: list[Instance],
    start: int,
    queue: asyncio.Queue[Game],
    tally: Tally,
    opts: argparse.Namespace,
    until: float,
) -> None:
    from mcp import Client

    turn = start
    while not queue.empty() and time.monotonic() < until:
        game = queue.get_nowait()
        while (
            not game.over
            and game.broken is None
            and game.plays < opts.max_plays
            and time.monotonic() < until
        ):
            turn += 1
            tally.switches += 1
            try:
                async with Client(instances[turn % len(instances)].url) as client:
                    await drive(client, game, tally, opts)
            except (Exception, BaseExceptionGroup) as exc:
                if not is_transport(exc):
                    raise
                tally.transport_failures += 1
                await asyncio.sleep(0.2)


# ---- faults ---------------------------------------------------------------------------------


@dataclass
class Faults:
    terminated: int = 0
    restarts: list[float] = field(default_factory=list)
    kills: list[float] = field(default_factory=list)


def terminate_one(admin_url: str, rng: random.Random) -> int:
    """Terminates one backend of the instances (one in a call if any); returns how many."""
    import psycopg

    try:
        with psycopg.connect(admin_url, autocommit=True, connect_timeout=2) as admin:
            rows = admin.execute(
                "SELECT pid, state FROM pg_stat_activity WHERE application_name LIKE %s",
                (APP,),
            ).fetchall()
            busy = [r[0] for r in rows if r[1] != "idle"]
            pool = busy or [r[0] for r in rows]
            if not pool:
                return 0
            row = admin.execute("SELECT pg_terminate_backend(%s)", (rng.choice(pool),)).fetchone()
            return 1 if row and row[0] else 0
    except psycopg.Error:
        return 0  # the database is restarting: the next one


async def faults(
    cluster: Any,
    instances: list[Instance],
    rng: random.Random,
    opts: argparse.Namespace,
    done: Any,
    out: Faults,
) -> None:
    born = time.monotonic()
    until = born + opts.max_seconds
    restart_at = born + opts.restart_at
    kill_at = born + opts.kill_at
    while not done() and time.monotonic() < until:
        await asyncio.sleep(rng.uniform(0.5, 1.5))
        if done():
            return
        now = time.monotonic()
        if not out.restarts and now >= restart_at:
            await asyncio.to_thread(cluster.restart)
            out.restarts.append(now - born)
        elif not out.kills and now >= kill_at:
            victim = instances[1]
            victim.kill()
            out.kills.append(now - born)
            await asyncio.sleep(rng.uniform(0.2, 1.0))
            await asyncio.to_thread(victim.start)
        elif out.terminated < opts.terminations:
            out.terminated += await asyncio.to_thread(terminate_one, cluster.url(), rng)


# ---- the record -----------------------------------------------------------------------------


def store_events(db_url: str, game_id: str) -> list[dict[str, Any]] | None:
    import json

    import psycopg

    try:
        with psycopg.connect(db_url) as conn:
            rows = conn.execute(
                "SELECT data FROM events WHERE game_id = %s ORDER BY seq", (game_id,)
            ).fetchall()
    except psycopg.Error:
        return None
    return [json.loads(r[0]) for r in rows]


def play_id(event: dict[str, Any]) -> str | None:
    why = (event.get("args") or {}).get("why")
    return why[5:] if isinstance(why, str) and why.startswith("soak ") else None


@dataclass
class Figures:
    lost: list[str] = field(default_factory=list)
    twice: list[str] = field(default_factory=list)
    false_nothing: list[str] = field(default_factory=list)
    unknown_landed: int = 0
    unknown_not: int = 0
    no_record: list[str] = field(default_factory=list)
    out_of_step: list[str] = field(default_factory=list)


def check_game(game: Game, events: list[dict[str, Any]], figures: Figures) -> None:
    accepted_at: dict[str, list[int]] = {}
    for index, event in enumerate(events):
        if event.get("type") == "attempt" and event.get("accepted"):
            pid = play_id(event)
            if pid is not None:
                accepted_at.setdefault(pid, []).append(index)
    for pid, places in accepted_at.items():
        if len(places) > 1:
            figures.twice.append(f"{game.game_id} {pid}: accepted {len(places)} times")
    for told in game.told:
        where = accepted_at.get(told.request_id, [])
        if told.ok and told.accepted:
            if not where:
                figures.lost.append(f"{game.game_id} {told.request_id}: no accepted attempt")
                continue
            after = (transition_text(e, game.seat) for e in events[where[0] + 1 :])
            text = next((t for t in after if t is not None), None)
            first = told.accepted[0]
            if text is None or not (first == text or first in text.split("\n")):
                figures.lost.append(f"{game.game_id} {told.request_id}: attempt, no transition")
        elif told.code == UNKNOWN:
            if where:
                figures.unknown_landed += 1
            else:
                figures.unknown_not += 1
        elif not told.ok and where:
            figures.false_nothing.append(
                f"{game.game_id} {told.request_id} (sends {told.sends}): {told.text[:120]}"
            )


def verify(root: Path, db_url: str, games: list[Game]) -> tuple[Figures, int, int, list[str]]:
    from cogs_arena.transcripts import replay

    figures = Figures()
    files = sorted((root / "t").rglob("*.jsonl"))
    for game in games:
        if game.game_id is None:
            continue
        mine = [p for p in files if game.game_id in p.name]
        stored = store_events(db_url, game.game_id)
        if stored is None:
            figures.no_record.append(game.game_id)
            continue
        if mine:
            lines = read_lines(mine[0])
            if len(lines) != len(stored):
                figures.out_of_step.append(
                    f"{game.game_id}: transcript {len(lines)} lines, store {len(stored)} events"
                )
        check_game(game, stored, figures)
    replayed, failures = 0, []
    over = {g.game_id for g in games if g.over and g.game_id}
    for path in files:
        try:
            report = replay(path)
        except Exception as exc:  # a transcript that cannot be read is a failure, counted
            failures.append(f"{path.name}: {type(exc).__name__}: {str(exc)[:200]}")
            continue
        if not report.ok:
            failures.append(f"{path.name}: {report.mismatches!s:.200}")
        elif any(gid in path.name for gid in over) and not report.finished:
            failures.append(f"{path.name}: the game is over, its transcript stops short")
        else:
            replayed += 1
    return figures, replayed, len(files), failures


# ---- the driver -----------------------------------------------------------------------------


async def soak(
    cluster: Any, instances: list[Instance], opts: argparse.Namespace
) -> tuple[list[Game], Tally, Faults, float]:
    rng = random.Random(opts.seed)
    kinds = opts.kinds.split(",")
    # Ids on every other game, shifted each round of kinds so that every kind gets both.
    games = [
        Game(kinds[i % len(kinds)], rng.randrange(2**31), with_ids=(i + i // len(kinds)) % 2 == 0)
        for i in range(opts.games)
    ]
    queue: asyncio.Queue[Game] = asyncio.Queue()
    for game in games:
        queue.put_nowait(game)
    tally, out = Tally(), Faults()
    started = time.monotonic()
    until = started + opts.max_seconds
    players = [
        asyncio.ensure_future(player(instances, i, queue, tally, opts, until))
        for i in range(opts.clients)
    ]
    chaos = asyncio.ensure_future(
        faults(cluster, instances, rng, opts, lambda: all(p.done() for p in players), out)
    )
    await asyncio.gather(*players)
    await chaos
    return games, tally, out, time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=16, help="games, kinds in turn (16)")
    parser.add_argument("--terminations", type=int, default=120, help="backends to end (120)")
    parser.add_argument("--max-seconds", type=float, default=300, help="time limit (300)")
    parser.add_argument("--restart-at", type=float, default=20, help="database restart (s)")
    parser.add_argument("--kill-at", type=float, default=35, help="kill -9 of an instance (s)")
    parser.add_argument("--seed", type=int, default=3, help="seeds the faults and game seeds")
    parser.add_argument("--kinds", default=",".join(KINDS), help="games to play, in turn (all)")
    parser.add_argument("--clients", type=int, default=4, help="concurrent client tasks (4)")
    parser.add_argument("--switch-every", type=int, default=4, help="plays per connection (4)")
    parser.add_argument("--max-plays", type=int, default=800, help="plays per game at most")
    parser.add_argument("--keep", type=Path, default=None, help="work here and keep the files")
    opts = parser.parse_args()
    if opts.keep is not None:
        opts.keep.mkdir(parents=True, exist_ok=True)
        return run(opts, opts.keep)
    with tempfile.TemporaryDirectory(prefix="cogs-soak-pg-") as tmp:
        return run(opts, Path(tmp))


def run(opts: argparse.Namespace, root: Path) -> int:
    from pg_helpers import PgCluster

    cluster = PgCluster()
    instances: list[Instance] = []
    try:
        cluster.start()
        db_url = cluster.new_database("soak")
        for name in ("a", "b"):
            instances.append(Instance(root / name, free_port(), db_url, root / "t"))
            instances[-1].start()
        try:
            games, tally, out, seconds = asyncio.run(soak(cluster, instances, opts))
            stuck = asyncio.run(probe_stuck(instances[0].url, games))
        finally:
            for instance in instances:
                instance.stop()
        figures, replayed, files, failures = verify(root, db_url, games)
    finally:
        cluster.stop()
    return report(opts, instances, games, tally, out, seconds, stuck, figures, (replayed, files),
                  failures)  # fmt: skip


def report(
    opts: argparse.Namespace,
    instances: list[Instance],
    games: list[Game],
    tally: Tally,
    out: Faults,
    seconds: float,
    stuck: list[str],
    figures: Figures,
    replays: tuple[int, int],
    failures: list[str],
) -> int:
    told = [t for g in games for t in g.told]
    moves = sum(1 for t in told if t.ok and t.accepted)
    over = sum(g.over for g in games)
    with_ids = sum(g.with_ids for g in games)
    replayed, files = replays
    print(
        f"games {len(games)} ({over} over; kinds {opts.kinds}; {with_ids} with request ids, "
        f"{len(games) - with_ids} without), 2 instances, {seconds:.0f} s"
    )
    print(
        f"faults: {out.terminated} backends terminated, database restarted at "
        + (", ".join(f"{t:.0f} s" for t in out.restarts) or "never")
        + ", instance killed -9 at "
        + (", ".join(f"{t:.0f} s" for t in out.kills) or "never")
    )
    print(
        f"plays answered {len(told)}: {moves} accepted as told ("
        f"{sum(t.replayed for t in told)} replayed answers, "
        f"{sum(t.sends > 1 for t in told)} sent more than once), "
        f"{sum(not t.ok for t in told)} refused; "
        f"{sum(g.unanswered for g in games)} plays without id got no answer"
    )
    print(
        f"outcome_unknown answers {tally.unknown_answers} (without id: {figures.unknown_landed} "
        f"had landed, {figures.unknown_not} had not); transport failures "
        f"{tally.transport_failures}; connections {tally.switches}"
    )
    print(f"accepted moves lost      {len(figures.lost)}")
    print(f"moves applied twice      {len(figures.twice)}")
    print(f'false "nothing changed"  {len(figures.false_nothing)}')
    print(f"stuck games              {len(stuck)}")
    print(f"transcripts replaying    {replayed}/{files} ({100 * replayed / max(files, 1):.0f}%)")
    logs = "".join(i.stderr(full=True) for i in instances)
    print(
        f"instances' stderr: {logs.count('Traceback')} tracebacks, "
        f"COMMITs cut: {logs.count('answer to COMMIT was lost')} found saved, "
        f"{logs.count('died at COMMIT') - logs.count('cannot say')} found not saved, "
        f"{logs.count('cannot say')} unknown; "
        f"{logs.count('change listener lost')} listener reconnects"
    )
    for title, items in (
        ("lost", figures.lost),
        ("twice", figures.twice),
        ("false nothing changed", figures.false_nothing),
        ("stuck", stuck),
        ("replay", failures),
        ("out of step", figures.out_of_step),
        ("no record", figures.no_record),
    ):
        for item in items[:5]:
            print(f"  {title}: {item}")
    good = not (figures.lost or figures.twice or figures.false_nothing or stuck or failures)
    return 0 if good and files and over == len(games) else 1


if __name__ == "__main__":
    sys.exit(main())
