"""Kill -9 soak over HTTP on loopback: does the record keep every move a client was told about,
once, through crashes?

Starts `cogs-arena serve --transport http` on a temporary SQLite store. Client tasks play games
of all four kinds (one MCP seat each, bots for the rest): each decision `show`, `legal_moves`,
then `play(number=1)` (a plain `hold`/`idle` after a refusal in Territory/Chemistry), every
play with a fresh `request_id` and `decision=<the view's decision>`. Meanwhile a controller
SIGKILLs the server at seeded random moments and restarts it on the same store and port. A
client whose call fails in transport sends the same call again, same request id, until it gets
an answer. Each answer is kept.

At the end the server is stopped and the record is read back (the game's transcript, or the
store's events if no transcript names the game) to count:

- accepted moves lost: a play the client was told was accepted (replayed answers included)
  with no accepted `attempt` of that request id, or no transition applying it after it;
- moves applied twice: a request id with more than one accepted `attempt`;
- false "nothing applied": an error answer to a request id the record shows accepted;
- stuck games: games not over after the run on which a further play fails in transport or
  with an error that is not a rule's answer;
- transcripts replaying: `replay` on every transcript file.

Exit status 0 when those are 0, 0, 0, 0 and 100%.

Usage: python scripts/soak_kill.py [--games 52] [--kills 12] [--max-seconds 600] [--seed 9]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KINDS = ("influence", "territory", "chemistry", "blending")
PLAIN = {"territory": "hold", "chemistry": "idle"}
RULE_CODES = {
    "illegal_move",
    "malformed_move",
    "not_your_turn",
    "already_submitted",
    "stale_decision",
    "game_over",
    "limit_reached",
}
CODE = re.compile(r"\[([a-z_]+)\]")
TRANSPORT_NAMES = ("ConnectError", "ReadError", "WriteError", "RemoteProtocolError",
                   "ClosedResourceError", "BrokenResourceError", "EndOfStream", "ReadTimeout",
                   "ConnectTimeout", "PoolTimeout", "TimeoutException", "NetworkError")  # fmt: skip


# ---- the server -----------------------------------------------------------------------------


class Server:
    def __init__(self, root: Path, port: int) -> None:
        self.root, self.port = root, port
        self.proc: subprocess.Popen[bytes] | None = None
        self.kills = 0
        self.kill_times: list[float] = []
        self.born = time.monotonic()

    def start(self, timeout: float = 60) -> None:
        command = [sys.executable, "-m", "cogs_arena", "serve", "--transport", "http"]
        command += ["--port", str(self.port), "--store", str(self.root / "s.sqlite3")]
        command += ["--transcripts", str(self.root / "t")]
        with open(self.root / "server.err", "ab") as err:
            self.proc = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=err, cwd=self.root
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"server exited {self.proc.returncode}: {self.stderr()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                    sock.sendall(b"GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                    if b"ok" in sock.recv(1000):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        self.proc.kill()
        raise SystemExit(f"server not healthy after {timeout}s: {self.stderr()}")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.kills += 1
        self.kill_times.append(time.monotonic() - self.born)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def stderr(self, *, full: bool = False) -> str:
        path = self.root / "server.err"
        text = path.read_text(errors="replace") if path.exists() else ""
        return text if full else text[-2000:]


# ---- clients --------------------------------------------------------------------------------


class Transport(Exception):
    """The call got no answer (the server died, the connection broke, the call timed out)."""


def is_transport(exc: BaseException) -> bool:
    if isinstance(exc, BaseExceptionGroup):
        return all(is_transport(e) for e in exc.exceptions)
    if isinstance(exc, TimeoutError | OSError | Transport | asyncio.CancelledError):
        return True
    if type(exc).__name__ == "MCPError":
        return getattr(getattr(exc, "error", None), "code", None) != -32602
    return any(c.__name__ in TRANSPORT_NAMES for c in type(exc).__mro__)


@dataclass
class Answer:
    ok: bool
    data: dict[str, Any]
    code: str | None = None
    text: str = ""


@dataclass
class Told:
    """What the client was told about one request id."""

    request_id: str
    decision: int
    sends: int
    ok: bool
    accepted: list[str]
    replayed: bool
    code: str | None
    text: str


@dataclass
class Game:
    kind: str
    seed: int
    game_id: str | None = None
    credential: str | None = None
    seat: int = 0
    over: bool = False
    plays: int = 0
    refusals_in_row: int = 0
    broken: str | None = None
    """Why the client gave up on the game (checked again by the stuck probe)."""
    pending: tuple[str, dict[str, Any], int] | None = None
    """(request id, play arguments, sends so far): resent until answered."""
    told: list[Told] = field(default_factory=list)


@dataclass
class Tally:
    transport_failures: int = 0
    new_game_retries: int = 0


async def call(client: Any, tool: str, args: dict[str, Any], timeout: float = 20) -> Answer:
    async with asyncio.timeout(timeout):
        result = await client.call_tool(tool, args)
    text = "".join(getattr(b, "text", "") for b in result.content)
    if result.is_error:
        match = CODE.search(text[:80])  # "[code] ..." perhaps behind the SDK's own prefix
        return Answer(False, {}, match.group(1) if match else None, text)
    return Answer(True, dict(result.structured_content or {}), None, text)


async def drive(client: Any, game: Game, tally: Tally, opts: argparse.Namespace) -> None:
    """Plays `game` on one connection until it is over; transport trouble propagates."""
    if game.game_id is None:
        if game.pending is not None:  # a new_game that got no answer may still have made one
            tally.new_game_retries += 1
        game.pending = ("new_game", {}, 0)
        made = await call(client, "new_game", {"game": game.kind, "seed": game.seed, "seat": 0})
        game.pending = None
        if not made.ok:
            raise SystemExit(f"new_game {game.kind} refused: {made.text[:300]}")
        game.game_id, game.credential = made.data["game_id"], made.data["credential"]
        game.seat = int(made.data["seat"])
    ids = {"game_id": game.game_id, "credential": game.credential}
    while not game.over and game.broken is None and game.plays < opts.max_plays:
        if game.pending is not None:
            rid, resend, sends = game.pending
            game.pending = (rid, resend, sends + 1)
            answer = await call(client, "play", resend)
            record_answer(game, answer)
            continue
        view = await call(client, "show", ids)
        if not view.ok:
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
        args: dict[str, Any] = {**ids, "request_id": rid, "decision": view.data["decision"]}
        args["why"] = f"soak {rid}"  # lets the check find the id in a record without the field
        if game.refusals_in_row and game.kind in PLAIN:
            args["move"] = PLAIN[game.kind]
        else:
            args["number"] = 1
        game.pending = (rid, args, 1)
        record_answer(game, await call(client, "play", args))
        if opts.think:
            await asyncio.sleep(opts.think)


def record_answer(game: Game, answer: Answer) -> None:
    assert game.pending is not None
    rid, args, sends = game.pending
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
    url: str, queue: asyncio.Queue[Game], tally: Tally, opts: argparse.Namespace, until: float
) -> None:
    from mcp import Client

    while not queue.empty() and time.monotonic() < until:
        game = queue.get_nowait()
        while (
            not game.over
            and game.broken is None
            and game.plays < opts.max_plays
            and time.monotonic() < until
        ):
            try:
                async with Client(url) as client:
                    await drive(client, game, tally, opts)
            except (Exception, BaseExceptionGroup) as exc:
                if not is_transport(exc):
                    raise
                tally.transport_failures += 1
                await asyncio.sleep(0.2)


async def killer(server: Server, rng: random.Random, opts: argparse.Namespace, done: Any) -> None:
    until = time.monotonic() + opts.max_seconds
    while server.kills < opts.kills and not done() and time.monotonic() < until:
        await asyncio.sleep(rng.uniform(opts.kill_min, opts.kill_max))
        if done():
            return
        server.kill()
        await asyncio.sleep(rng.uniform(0, 0.5))
        await asyncio.to_thread(server.start)


async def soak(
    url: str, server: Server, opts: argparse.Namespace
) -> tuple[list[Game], Tally, float]:
    rng = random.Random(opts.seed)
    games = [Game(KINDS[i % len(KINDS)], rng.randrange(2**31)) for i in range(opts.games)]
    queue: asyncio.Queue[Game] = asyncio.Queue()
    for game in games:
        queue.put_nowait(game)
    tally = Tally()
    started = time.monotonic()
    until = started + opts.max_seconds
    players = [
        asyncio.ensure_future(player(url, queue, tally, opts, until)) for _ in range(opts.clients)
    ]
    kills = asyncio.ensure_future(killer(server, rng, opts, lambda: all(p.done() for p in players)))
    await asyncio.gather(*players)
    await kills
    return games, tally, time.monotonic() - started


async def probe_stuck(url: str, games: list[Game]) -> list[str]:
    """Games not over: one more play each; a transport failure or a non-rule error is stuck."""
    from mcp import Client

    stuck: list[str] = []
    for game in games:
        if game.over or game.game_id is None:
            continue
        ids = {"game_id": game.game_id, "credential": game.credential}
        try:
            async with Client(url) as client:
                view = await call(client, "show", ids)
                if view.ok and view.data["status"] == "over":
                    game.over = True
                    continue
                if not view.ok:
                    stuck.append(f"{game.game_id}: show: {view.text[:200]}")
                    continue
                rid = uuid.uuid4().hex
                args = {**ids, "number": 1, "request_id": rid, "decision": view.data["decision"]}
                answer = await call(client, "play", args)
                if not answer.ok and answer.code not in RULE_CODES:
                    stuck.append(f"{game.game_id}: play: {answer.text[:200]}")
        except (Exception, BaseExceptionGroup) as exc:
            stuck.append(f"{game.game_id}: {type(exc).__name__}")
    return stuck


# ---- reading the record ---------------------------------------------------------------------


def store_events(store: Path, game_id: str) -> list[dict[str, Any]] | None:
    try:
        db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
        rows = db.execute(
            "SELECT data FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        db.close()
    except sqlite3.Error:
        return None
    return [json.loads(r[0]) for r in rows]


def read_lines(path: Path) -> list[dict[str, Any]]:
    out = []
    with open(path, encoding="utf-8", newline="\n") as handle:
        for line in handle:
            if line.strip():
                out.append(json.loads(line))
    return out


def request_id_of(event: dict[str, Any]) -> str | None:
    if "request_id" in event:  # typed records: the field is the only source
        return None if event["request_id"] is None else str(event["request_id"])
    why = (event.get("args") or {}).get("why")
    if isinstance(why, str) and why.startswith("soak "):
        return why[5:]
    return None


def transition_text(event: dict[str, Any], seat: int) -> str | None:
    """The text of `seat`'s move in a transition event, or None (any schema we know)."""
    kind = event.get("type")
    if kind == "apply":  # schema 1
        kind = event.get("kind")
    if kind == "move" and event.get("seat") == seat:
        return str(event.get("move"))
    if kind == "batch":
        moves = event.get("moves") or {}
        text = moves.get(str(seat))
        return None if text is None else str(text)
    return None


@dataclass
class Figures:
    lost: list[str] = field(default_factory=list)
    twice: list[str] = field(default_factory=list)
    false_nothing: list[str] = field(default_factory=list)
    no_record: list[str] = field(default_factory=list)
    out_of_step: list[str] = field(default_factory=list)


def check_game(game: Game, events: list[dict[str, Any]], figures: Figures) -> None:
    accepted_at: dict[str, list[int]] = {}
    for index, event in enumerate(events):
        if event.get("type") in ("attempt", "play") and event.get("accepted"):
            rid = request_id_of(event)
            if rid is not None:
                accepted_at.setdefault(rid, []).append(index)
    for rid, places in accepted_at.items():
        if len(places) > 1:
            figures.twice.append(f"{game.game_id} {rid}: accepted {len(places)} times")
    for told in game.told:
        where = accepted_at.get(told.request_id, [])
        if told.ok and told.accepted:
            if not where:
                figures.lost.append(f"{game.game_id} {told.request_id}: no accepted attempt")
                continue
            # The seat's next transition after the accepted attempt must carry the move.
            after = (transition_text(e, game.seat) for e in events[where[0] + 1 :])
            text = next((t for t in after if t is not None), None)
            first = told.accepted[0]
            if text is None or not (first == text or first in text.split("\n")):
                figures.lost.append(f"{game.game_id} {told.request_id}: attempt, no transition")
        elif not told.ok and where:
            figures.false_nothing.append(
                f"{game.game_id} {told.request_id} (sends {told.sends}): {told.text[:120]}"
            )


def verify(root: Path, games: list[Game]) -> tuple[Figures, int, int, list[str]]:
    figures = Figures()
    files = sorted((root / "t").rglob("*.jsonl"))
    for game in games:
        if game.game_id is None:
            continue
        mine = [p for p in files if game.game_id in p.name]
        stored = store_events(root / "s.sqlite3", game.game_id)
        events = read_lines(mine[0]) if mine else stored
        if events is None:
            figures.no_record.append(game.game_id)
            continue
        if mine and stored is not None and len(stored) != len(events):
            figures.out_of_step.append(
                f"{game.game_id}: transcript {len(events)} lines, store {len(stored)} events"
            )
        check_game(game, events, figures)
    replayed, failures = 0, []
    try:
        from cogs_arena.transcripts import replay
    except ImportError as exc:
        return figures, 0, len(files), [f"cannot import replay: {exc}"]
    over = {g.game_id for g in games if g.over and g.game_id}
    for path in files:
        try:
            report = replay(path)
        except Exception as exc:  # a transcript that cannot be read is a failure, counted
            failures.append(f"{path.name}: {type(exc).__name__}: {str(exc)[:200]}")
            continue
        if not getattr(report, "ok", False):
            failures.append(f"{path.name}: {getattr(report, 'mismatches', report)!s:.200}")
        elif any(gid in path.name for gid in over) and not getattr(report, "finished", True):
            failures.append(f"{path.name}: the game is over, its transcript stops short")
        else:
            replayed += 1
    return figures, replayed, len(files), failures


# ---- the driver -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=52, help="games, kinds in turn (52)")
    parser.add_argument("--kills", type=int, default=12, help="SIGKILLs at least (12)")
    parser.add_argument("--max-seconds", type=float, default=600, help="time limit (600)")
    parser.add_argument("--seed", type=int, default=9, help="seeds kill times and game seeds")
    parser.add_argument("--clients", type=int, default=4, help="concurrent client tasks (4)")
    parser.add_argument("--kill-min", type=float, default=1.0, help="seconds between kills, min")
    parser.add_argument("--kill-max", type=float, default=4.0, help="seconds between kills, max")
    parser.add_argument("--max-plays", type=int, default=800, help="plays per game at most")
    parser.add_argument("--think", type=float, default=0.0, help="seconds after each play")
    parser.add_argument("--keep", type=Path, default=None, help="work here and keep the files")
    opts = parser.parse_args()
    if opts.keep is not None:
        opts.keep.mkdir(parents=True, exist_ok=True)
        return run(opts, opts.keep)
    with tempfile.TemporaryDirectory(prefix="cogs-soak-") as tmp:
        return run(opts, Path(tmp))


def run(opts: argparse.Namespace, root: Path) -> int:
    server = Server(root, free_port())
    url = f"http://127.0.0.1:{server.port}/mcp"
    server.start()
    try:
        games, tally, seconds = asyncio.run(soak(url, server, opts))
        stuck = asyncio.run(probe_stuck(url, games))
    finally:
        server.stop()
    figures, replayed, files, failures = verify(root, games)
    told = [t for g in games for t in g.told]
    moves = sum(1 for t in told if t.ok and t.accepted)
    over = sum(g.over for g in games)
    print(f"games {len(games)} ({over} over; kinds: {', '.join(KINDS)}), kills {server.kills}")
    print("kills at (s): " + ", ".join(f"{t:.1f}" for t in server.kill_times))
    print(
        f"moves {moves} accepted as told ({sum(t.replayed for t in told)} replayed answers, "
        f"{sum(t.sends > 1 for t in told)} plays sent more than once, "
        f"{sum(not t.ok for t in told)} refused), duration {seconds:.0f} s"
    )
    print(
        f"transport failures {tally.transport_failures}, new_game sent again "
        f"{tally.new_game_retries} times (a game may exist the client never learned of)"
    )
    print(f"accepted moves lost      {len(figures.lost)}")
    print(f"moves applied twice      {len(figures.twice)}")
    print(f'false "nothing applied"  {len(figures.false_nothing)}')
    print(f"stuck games              {len(stuck)}")
    print(f"transcripts replaying    {replayed}/{files} ({100 * replayed / max(files, 1):.0f}%)")
    tracebacks = server.stderr(full=True).count("Traceback")
    print(f"server stderr: {tracebacks} tracebacks")
    if figures.no_record:
        print(f"games with no record found: {len(figures.no_record)}")
    if figures.out_of_step:
        print(f"transcripts out of step with the store: {len(figures.out_of_step)}")
    for title, items in (
        ("lost", figures.lost),
        ("twice", figures.twice),
        ("false nothing applied", figures.false_nothing),
        ("stuck", stuck),
        ("replay", failures),
        ("out of step", figures.out_of_step),
    ):
        for item in items[:5]:
            print(f"  {title}: {item}")
    if server.kills < opts.kills:
        print(f"note: only {server.kills} kills before the games ended (asked for {opts.kills})")
    good = not (figures.lost or figures.twice or figures.false_nothing or stuck or failures)
    return 0 if good and files and over == len(games) else 1


if __name__ == "__main__":
    sys.exit(main())
