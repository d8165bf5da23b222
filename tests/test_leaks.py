"""Hidden information, read back through every path a seat or a spectator has: show,
legal_moves, log, wait (poll), spectate, the MCP spectator resource and error texts, for all
four games. Each test plants marker strings (private talk, notes, `why`, rejected moves, pending
orders) and hidden tiles, then checks that no viewer outside a secret's audience reads it:
before a simultaneous turn resolves, after it resolves, after fallbacks (second rejection and
deadline) and after the end. Backends: the memory store, SQLite (whose audience filter is SQL),
and SQLite behind the MCP adapter (every read repeated through the in-memory client)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from leak_helpers import EVERYONE, Table, dump, error_text
from mcp import Client

from cogs_arena.engines import GameError, IllegalMove
from cogs_arena.server.adapter.app import build_server
from cogs_arena.server.errors import BadArgument, StaleDecision
from cogs_arena.server.service import GameService, Submission
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.server.store.sqlite import SqliteStore

pytestmark = pytest.mark.anyio

# Through MCP each probe is an end-to-end run (3-5 s): the fast loop keeps memory and sqlite.
BACKENDS = ["memory", "sqlite", pytest.param("sqlite+mcp", marks=pytest.mark.slow)]


@contextlib.asynccontextmanager
async def arena(
    tmp_path: Path, backend: str, **kwargs: Any
) -> AsyncIterator[tuple[GameService, Client | None]]:
    store = MemoryStore() if backend == "memory" else SqliteStore(tmp_path / "arena.sqlite3")
    service = GameService(store, tmp_path / "transcripts", **kwargs)
    try:
        if backend.endswith("+mcp"):
            async with Client(build_server(service)) as client:
                yield service, client
        else:
            yield service, None
    finally:
        store.close()


def movers(t: Table) -> list[int]:
    return [seat for seat in sorted(t.creds) if t.view(seat).your_turn]


def random_entry(t: Table, seat: int, rng: random.Random) -> int:
    menu = t.service.legal_moves(t.gid, t.creds[seat], page_size=500)
    return rng.choice(menu.moves).number


async def play_out(t: Table, move: Any, check_every: int = 0, limit: int = 2000) -> int:
    """Plays every client seat to act with `move(seat, step)` (keyword arguments of play)
    until the game ends; checks every `check_every` steps. Returns the steps played."""
    for step in range(limit):
        if t.over():
            return step
        seats = movers(t)
        assert seats, "no client seat to act, yet the game is not over"
        for seat in seats:
            if t.view(seat).your_turn:
                t.play(seat, **move(seat, step))
        if check_every and step % check_every == check_every - 1:
            await t.check(f"step {step}")
    raise AssertionError("the game did not end")


# ---- Influence: private talk, why, rejected moves, fallbacks, request ids ------------------


@pytest.mark.parametrize("backend", BACKENDS)
async def test_influence_secrets_stay_with_their_seats(tmp_path: Path, backend: str) -> None:
    async with arena(tmp_path, backend) as (service, client):
        game = service.new_game(
            "influence", seed=3, seat="White", bots=["open"], ruleset={"max_turns": 12}
        )
        t = Table.seated(service, game, client)
        white, black = t.seat("White"), t.seat("Black")
        await t.check("start")
        t.talk(white, t.plant("mkInfDmWhiteBlack", white, black), to=["Black"])
        public = t.plant("mkInfPublicWhite")
        t.publish(public)
        t.talk(white, public)
        t.fails(white, move=t.plant("mkInfBadMoveWhite", white), why=t.plant("mkInfWhyBad", white))
        t.play(white, number=1, why=t.plant("mkInfWhyWhite", white), request_id="shared")
        await t.check("after a rejection and a move")
        await t.expect_seen(black, "mkInfDmWhiteBlack", public)
        # A second rejection: the fallback is told to White only.
        t.fails(white, move=t.plant("mkInfBadAgain1", white))
        result = t.play(
            white, move=t.plant("mkInfBadAgain2", white), why=t.plant("mkInfWhyFb", white)
        )
        assert result.fallback is not None
        await t.check("after a second-rejection fallback")
        while not t.view(black).your_turn:
            t.play(white, number=1)
        # Request ids are per seat: Black's "shared" is its own call, not White's answer.
        answer = t.play(black, number=1, request_id="shared")
        assert not answer.replayed and answer.accepted
        await t.check("after Black's move")
        await play_out(
            t,
            lambda seat, step: {"number": 1, "why": t.plant(f"mkInfWhyLoop{seat}x{step}", seat)},
            check_every=15,
        )
        await t.check("over")


# ---- Blending: hands, picks, private talk among four seats ---------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
async def test_blending_hands_and_whispers_stay_hidden(tmp_path: Path, backend: str) -> None:
    async with arena(tmp_path, backend) as (service, client):
        game = service.new_game("blending", seed=0, bots=["open"] * 3, ruleset={"end_rounds": 3})
        t = Table.seated(service, game, client)
        t.deal()
        assert all(t.hidden_tiles.values()), "every seat starts with a hand"
        await t.check("deal")
        a, b, c, d = sorted(t.creds)
        t.talk(a, t.plant("mkBlendDmAB", a, b), to=[t.names[b]])
        t.talk(c, t.plant("mkBlendDmCDA", c, d, a), to=[t.names[d], t.names[a]])
        rng = random.Random(1)  # with seed 0: picks and a fight
        picks = 0
        for step in range(400):
            if t.over():
                break
            (seat,) = movers(t)
            picks += t.view(seat).observation["phase"] == "pick"
            if step % 25 == 7:
                t.fails(seat, move=t.plant(f"mkBlendBad{step}", seat))
                result = t.play(seat, move=t.plant(f"mkBlendBadAgain{step}", seat))
                assert result.fallback is not None
            else:
                why = t.plant(f"mkBlendWhy{step}", seat)
                t.play(seat, number=random_entry(t, seat, rng), why=why)
            if step % 10 == 0:
                await t.check(f"step {step}")
        fights = t.view(a).observation["stats"]["fights"]
        assert t.over() and picks and fights, "the game should end, after picks and a fight"
        await t.check("over")


# ---- Territory: pending orders, notes, private lines, fallbacks ----------------------------


@pytest.mark.parametrize("backend", BACKENDS)
async def test_territory_pending_orders_notes_and_private_lines(
    tmp_path: Path, backend: str
) -> None:
    async with arena(tmp_path, backend) as (service, client):
        game = service.new_game(
            "territory",
            seed=1,
            seat="Sable",
            bots=["open", "open"] + ["homesteader"] * 6,
            ruleset={"turns": 4},
        )
        t = Table.seated(service, game, client)
        sable, ochre, verdant = t.seat("Sable"), t.seat("Ochre"), t.seat("Verdant")
        await t.check("start")
        order = "\n".join(
            [
                "hold",
                "say Ochre: " + t.plant("mkTerSaySableOchre", sable),
                "say: " + t.plant("mkTerPublicSable", sable),
                "note: " + t.plant("mkTerNoteSable", sable),
            ]
        )
        t.play(sable, move=order, why=t.plant("mkTerWhySable", sable))
        t.talk(ochre, t.plant("mkTerTalkOchreVerdant", ochre), to=["Verdant"])
        bad = "transfer Ash 99999\nsay Sable: "
        t.fails(verdant, move=bad + t.plant("mkTerRejectedVerdant", verdant))
        fallback = t.play(
            verdant,
            move=bad
            + t.plant("mkTerFallbackVerdantSable", verdant)
            + "\nnote: "
            + t.plant("mkTerFallbackNoteVerdant", verdant),
        )
        assert fallback.fallback is not None and "mkTerFallbackVerdantSable" in fallback.fallback
        await t.check("pending: Ochre has not submitted")
        opened = {
            "mkTerPublicSable": EVERYONE,
            "mkTerSaySableOchre": {ochre},
            "mkTerTalkOchreVerdant": {verdant},
            "mkTerFallbackVerdantSable": {sable},
        }
        t.play(ochre, move="hold", reveal=opened)
        assert t.view(sable).decision == 1, "the turn resolved"
        await t.check("resolved")
        await t.expect_seen(ochre, "mkTerSaySableOchre", "mkTerPublicSable")
        await t.expect_seen(verdant, "mkTerTalkOchreVerdant")
        # A line sent with `talk` reaches its reader's log and wait with the resolve (issue 20).
        await t.expect_logged(verdant, "mkTerTalkOchreVerdant")
        await t.expect_logged(ochre, "mkTerSaySableOchre", "mkTerPublicSable")
        await t.expect_seen(sable, "mkTerFallbackVerdantSable")
        await t.expect_seen(None, "mkTerPublicSable")
        # Turn 2: a private line inside orders reaches its recipient only after the resolve.
        t.play(ochre, move="hold\nsay Verdant: " + t.plant("mkTerSayOchreVerdant2", ochre))
        t.play(sable, move="hold\nnote: " + t.plant("mkTerNoteSable2", sable))
        await t.check("turn 2 pending")
        t.play(verdant, move="hold", reveal={"mkTerSayOchreVerdant2": {verdant}})
        await t.check("turn 2 resolved")
        await play_out(
            t, lambda seat, step: {"move": "hold", "why": t.plant(f"mkTerWhy{seat}x{step}", seat)}
        )
        await t.check("over")
        await t.expect_seen(None, "mkTerNoteSable")  # spectators see notes after the end


# ---- Chemistry: pending orders, notes, host whispers, fallbacks -----------------------------


@pytest.mark.parametrize("backend", BACKENDS)
async def test_chemistry_pending_orders_notes_and_whispers(tmp_path: Path, backend: str) -> None:
    async with arena(tmp_path, backend) as (service, client):
        game = service.new_game(
            "chemistry",
            seed=1,
            seat="Argon",
            bots=["open", "open"] + ["courier"] * 5,
            ruleset={"shifts": 3, "ticks_per_shift": 20},
        )
        t = Table.seated(service, game, client)
        argon, borax, cinder = t.seat("Argon"), t.seat("Borax"), t.seat("Cinder")
        await t.check("start")
        say, notes = t.plant("mkChemSayArgon", argon), t.plant("mkChemNotesArgon", argon)
        t.play(argon, move=f"forage\nsay: {say}\nnotes: {notes}", why=t.plant("mkChemWhy", argon))
        # rules.md C24: Chemistry's one talk channel is the `say:` line; a whisper is refused
        # and reaches nobody (this test delivered it to Cinder before).
        with pytest.raises(IllegalMove, match="`say:`"):
            t.talk(borax, t.plant("mkChemDmBoraxCinder", borax), to=["Cinder"])
        t.fails(cinder, move="forage nowhere\nnotes: " + t.plant("mkChemRejected1", cinder))
        result = t.play(cinder, move="forage nowhere\nnotes: " + t.plant("mkChemRej2", cinder))
        assert result.fallback is not None
        await t.check("pending: Borax has not submitted")
        t.plant("mkChemNotesBorax", borax)
        t.play(borax, move="idle\nnotes: mkChemNotesBorax", reveal={say: EVERYONE})
        await t.check("resolved")
        await t.expect_seen(borax, say)
        await t.expect_seen(None, say)
        await play_out(
            t,
            lambda seat, step: {"number": 1, "why": t.plant(f"mkChemWhy{seat}x{step}", seat)},
            check_every=1,
        )
        await t.check("over")
        await t.expect_seen(None, notes)  # spectators see notes after the end


# ---- deadlines: the fallback is the late seat's to know ------------------------------------

DEADLINE_GAMES: dict[str, dict[str, Any]] = {
    "influence": {"seat": "White", "bots": ["open"], "ruleset": {"max_turns": 30}},
    "blending": {"seat": 0, "bots": ["open", "open", "builder"], "ruleset": {"end_rounds": 2}},
    "territory": {
        "seat": "Sable",
        "bots": ["open", "open"] + ["raider"] * 6,
        "ruleset": {"turns": 3},
    },
    "chemistry": {
        "seat": "Argon",
        "bots": ["open", "open"] + ["courier"] * 5,
        "ruleset": {"shifts": 2, "ticks_per_shift": 10},
    },
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind", sorted(DEADLINE_GAMES))
async def test_deadline_fallbacks_are_told_to_the_late_seat_only(
    tmp_path: Path, backend: str, kind: str
) -> None:
    now = [1_000.0]
    async with arena(tmp_path, backend, clock=lambda: now[0], default_deadline=30.0) as (
        service,
        client,
    ):
        game = service.new_game(kind, seed=2, **DEADLINE_GAMES[kind])
        t = Table.seated(service, game, client)
        simultaneous = kind in ("territory", "chemistry")
        seats = sorted(t.creds)
        late = movers(t)[0]
        others = [s for s in seats if s != late]
        listener = others[0]
        # Chemistry talks only by its orders' `say:` line (rules.md C24): no whisper there.
        whisper = kind != "chemistry"
        if whisper:
            t.talk(late, t.plant("mkDlWhisper", late, listener), to=[t.names[listener]])
        if simultaneous:
            # The others submit with notes; the late seat never does.
            for seat in others:
                note = "note: " if kind == "territory" else "notes: "
                head = "hold" if kind == "territory" else "idle"
                t.play(seat, move=f"{head}\n{note}" + t.plant(f"mkDlNote{seat}", seat))
        await t.check("before the deadline")
        decision = t.view(listener).decision
        now[0] += 31.0
        assert service.tick() >= 1
        # The late seat's next play is refused as stale, naming what the host played.
        with pytest.raises(StaleDecision) as stale:
            service.play(t.gid, t.creds[late], Submission(number=1))
        assert "deadline" in str(stale.value)
        assert t.view(late).decision > decision
        late_view = service.show(t.gid, t.creds[late])
        assert late_view.fallbacks == [] or "deadline" in late_view.fallbacks[0]
        for seat in others:
            assert t.view(seat).fallbacks == [], "fallbacks are told to their seat only"
        await t.check("after the deadline")
        if whisper:
            await t.expect_seen(listener, "mkDlWhisper")
        # Everyone misses the next deadline: each seat learns of its own fallback only.
        due = movers(t)
        now[0] += 31.0
        service.tick()
        told = {seat: service.show(t.gid, t.creds[seat]).fallbacks for seat in seats}
        for seat in seats:
            if seat in due[: None if simultaneous else 1]:
                assert told[seat] and "deadline" in told[seat][0], told
            else:
                assert told[seat] == [], told
        await t.check("after a second deadline")


# ---- an eliminated Territory seat --------------------------------------------------------


def _reach_elimination(service: GameService) -> tuple[Table, str]:
    """A game where a bot seat is eliminated while two client seats hold each turn."""
    for seed in range(40):
        game = service.new_game(
            "territory", seed=seed, seat="Sable", bots=["open"] + ["raider"] * 7
        )
        t = Table.seated(service, game)
        while not t.over():
            life = {s["alias"]: s["life"] for s in t.view(0).observation["seats"]}
            if life["Sable"] == "eliminated" or life["Ochre"] == "eliminated":
                break
            dead = [alias for alias, state in life.items() if state == "eliminated"]
            if dead:
                return t, dead[0]
            for seat in movers(t):
                t.service.play(t.gid, t.creds[seat], Submission(move="hold"))
    raise AssertionError("no seed in 0..39 eliminates a seat while the game goes on")


@pytest.mark.parametrize("backend", BACKENDS)
async def test_private_talk_to_an_eliminated_seat_is_refused(tmp_path: Path, backend: str) -> None:
    async with arena(tmp_path, backend) as (service, client):
        t, dead = _reach_elimination(service)
        t.client = client
        sable, ochre = t.seat("Sable"), t.seat("Ochre")
        cursor = t.view(sable).log_cursor
        marker = t.plant("mkTerToTheDead", sable)
        with pytest.raises(BadArgument) as refused:
            service.talk(t.gid, t.creds[sable], marker, to=[dead])
        assert dead in str(refused.value) and marker not in error_text(refused.value)
        assert t.view(sable).log_cursor == cursor, "a refused line writes nothing"
        assert marker not in str(t.view(sable).observation["queuedTalk"])
        if client is not None:
            answer = await client.call_tool(
                "talk",
                {"game_id": t.gid, "credential": t.creds[sable], "text": marker, "to": [dead]},
            )
            text = "".join(getattr(block, "text", "") for block in answer.content)
            assert answer.is_error and text.startswith("[bad_argument]") and dead in text
        # A line to a living seat is still private, and the game goes on.
        t.talk(sable, t.plant("mkTerToTheLiving", sable, ochre), to=["Ochre"])
        await t.check("after the refusal")
        for seat in movers(t):
            t.play(seat, move="hold")
        await t.check("after the next turn")
        await t.expect_seen(ochre, "mkTerToTheLiving")


def test_a_private_order_line_to_an_eliminated_seat_is_refused_and_never_posted(
    tmp_path: Path,
) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    t, dead = _reach_elimination(service)
    sable = t.seat("Sable")
    marker = t.plant("mkOrderToTheDead", sable)
    order = f"hold\nsay {dead}: {marker}"
    with pytest.raises(IllegalMove, match="would be read by every seat"):
        service.play(t.gid, t.creds[sable], Submission(move=order))
    # The second rejection plays the fallback, which must not keep that line either.
    result = service.play(t.gid, t.creds[sable], Submission(move=order))
    assert result.fallback is not None and marker not in result.fallback
    for seat in movers(t):
        t.play(seat, move="hold")
    for cred in t.creds.values():
        assert marker not in dump(service.show(t.gid, cred).model_dump())
    code = t.game.spectator_code
    assert code is not None
    assert marker not in dump(service.spectate_with_code(code).model_dump())


# ---- errors name their cause without quoting others' secrets -------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
async def test_errors_of_one_seat_carry_no_secret_of_another(tmp_path: Path, backend: str) -> None:
    async with arena(tmp_path, backend) as (service, client):
        game = service.new_game(
            "territory", seed=4, seat="Sable", bots=["open", "open"] + ["homesteader"] * 6
        )
        t = Table.seated(service, game, client)
        sable, ochre, verdant = t.seat("Sable"), t.seat("Ochre"), t.seat("Verdant")
        t.play(
            sable,
            move="hold\nsay Ochre: " + t.plant("mkErrSay", sable),
            why=t.plant("mkErrWhy", sable),
            request_id="same-id",
        )
        errors: list[str] = []
        for call in (
            lambda: service.play(t.gid, t.creds[ochre], Submission(move="claim 99,99")),
            lambda: service.play(t.gid, t.creds[ochre], Submission(move="hold"), request_id="x"),
            lambda: service.play(t.gid, t.creds[ochre], Submission(move="hold"), request_id="x"),
            lambda: service.play(t.gid, t.creds[ochre], Submission(move="hold\nsay: other")),
            lambda: service.play(t.gid, t.creds[sable], Submission(move="hold")),
            lambda: service.play(t.gid, t.creds[sable], Submission(move="x"), request_id="same-id"),
            lambda: service.talk(t.gid, t.creds[verdant], "hi", to=["Nobody"]),
            lambda: service.talk(t.gid, t.creds[verdant], "hi", to=["Ochre", "Sable"]),
            lambda: service.log(t.gid, t.creds[ochre], after=-1),
            lambda: service.show(t.gid, t.creds[sable] + "x"),
            lambda: service.spectate_with_code(t.gid + ".wrong"),
            lambda: service.join_game(t.gid + ".wrong"),
        ):
            try:
                call()
            except GameError as exc:
                errors.append(error_text(exc))
        assert len(errors) >= 9
        seen = "\n".join(errors)
        for marker in ("mkErrSay", "mkErrWhy"):
            # Sable's own errors may quote Sable's moves, never the pending order's secrets.
            assert marker not in seen
        await t.check("after the errors")


# ---- cursors and spectators ------------------------------------------------------------------


def test_cursors_do_not_count_what_others_say_in_private(tmp_path: Path) -> None:
    service = GameService(SqliteStore(tmp_path / "a.sqlite3"), tmp_path / "t")
    # Blending keeps talk beside the game (Chemistry, used here before, refuses the talk tool
    # since rules.md C24).
    game = service.new_game("blending", seed=4, bots=["open", "open", "builder"])
    t = Table.seated(service, game)
    me, other, third = sorted(t.creds)
    before_view = service.show(t.gid, t.creds[third]).log_cursor
    before_poll = service.poll(t.gid, t.creds[third], before_view).cursor
    service.talk(t.gid, t.creds[me], "only for you", to=[t.names[other]])
    with contextlib.suppress(GameError):
        service.play(t.gid, t.creds[me], Submission(move="fly to the moon"))
    assert service.show(t.gid, t.creds[third]).log_cursor == before_view
    polled = service.poll(t.gid, t.creds[third], before_view)
    assert polled.cursor == before_poll and not polled.events
    # The seat told in private does see its cursor move, and reads the line there.
    heard = service.log(t.gid, t.creds[other], after=0)
    assert any("only for you" in e.text for e in heard.events)
    service.talk(t.gid, t.creds[me], "for everyone")
    assert service.show(t.gid, t.creds[third]).log_cursor > before_view
    service.store.close()


def test_spectators_see_public_host_talk_live_and_private_talk_after_the_end(
    tmp_path: Path,
) -> None:
    service = GameService(MemoryStore(), tmp_path / "t")
    game = service.new_game("influence", seed=2, bots=["open"])
    t = Table.seated(service, game)
    a, b = sorted(t.creds)
    code = game.spectator_code
    assert code is not None
    service.talk(t.gid, t.creds[a], "hello all")
    service.talk(t.gid, t.creds[a], "psst", to=[t.names[b]])
    live = service.spectate_with_code(code)
    assert any("hello all" in line for line in live.chat) and "hello all" in live.text
    assert "psst" not in dump(live.model_dump())
    service.settle(t.gid, "deadline")
    after = service.spectate_with_code(code)
    assert any("psst" in line for line in after.chat)
