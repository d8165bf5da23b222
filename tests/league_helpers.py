"""Real games for the rating, comparison and export tests (and benchmarks/bot_league.py):
Territory games played through GameService, so the transcripts are the ones a server writes.

The service always seats one client; here a bot plays that seat through the tools, reading only
the view and the menu the service returns. It is labelled `model="bot:<name>"` unless told
otherwise, so `--by model` puts it with the bot seats of the same name."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cogs_arena.engines import LegalMoves, MoveInfo, get_engine
from cogs_arena.engines.protocol import Outcome
from cogs_arena.engines.runner import bot_stream
from cogs_arena.server.limits import Limits
from cogs_arena.server.service import GameService, Submission
from cogs_arena.server.store.memory import MemoryStore
from cogs_arena.transcripts.events import Event, Footer, Header, Player, SeatEntry, event_json

# Mean Territory scores over many seeds put raider and diplomat ahead of homesteader, and all
# three far ahead of random (tests/test_territory_bots.py checks the last part).
MIXED = ("raider", "diplomat", "homesteader", "random")


def league_service(directory: Path) -> GameService:
    return GameService(MemoryStore(), directory, limits=Limits(games_per_minute=1_000_000))


def play_game(
    service: GameService,
    seed: int,
    bots: Sequence[str],
    client_seat: int = 0,
    *,
    game: str = "territory",
    model: str | None = None,
    prompt: str | None = None,
    labels: dict[str, str] | None = None,
) -> Path:
    """Plays one game to the end, `bots[seat]` choosing for every seat; returns its transcript."""
    engine = get_engine(game)
    chooser = engine.bots()[bots[client_seat]]
    others = [name for seat, name in enumerate(bots) if seat != client_seat]
    started = service.new_game(
        game,
        seed=seed,
        seat=client_seat,
        bots=others,
        model=model or f"bot:{bots[client_seat]}",
        prompt=prompt,
        labels=labels,
    )
    view, decision = started.view, 0
    while view.status != "over":
        menu = service.legal_moves(started.game_id, started.credential, page_size=500)
        legal = LegalMoves(
            tuple(MoveInfo(m.notation, m.description, m.kind) for m in menu.moves),
            menu.complete,
            menu.hints,
        )
        move = chooser(view.observation, legal, bot_stream(seed, client_seat, decision))
        played = service.play(
            started.game_id, started.credential, Submission(move=move), detail="full"
        )
        view = played.view
        decision += 1
    return service.transcripts.path(f"{game}-{started.game_id}.jsonl")


def rotated(lineup: Sequence[str], seats: int, shift: int) -> list[str]:
    """`lineup` repeated to fill `seats`, turned by `shift` so every bot meets every seat."""
    filled = [lineup[i % len(lineup)] for i in range(seats)]
    return filled[shift % seats :] + filled[: shift % seats]


def bot_league(directory: Path, games: int, first_seed: int = 1) -> list[Path]:
    """`games` nine-seat Territory games over the MIXED bots, seats rotating game by game."""
    service = league_service(directory)
    return [
        play_game(service, first_seed + i, rotated(MIXED, 9, i), client_seat=i % 9)
        for i in range(games)
    ]


def written_game(
    path: Path,
    players: Sequence[Player],
    scores: Sequence[float] | None,
    *,
    game: str = "territory",
    seed: int | str = 1,
    ruleset: dict[str, Any] | None = None,
) -> Path:
    """A transcript built from typed events: a header, and a footer unless `scores` is None.
    Name it anything but `<game>-<16 hex>.jsonl`, which conftest replays."""
    seats = [SeatEntry(index=i, name=f"S{i}", player=p) for i, p in enumerate(players)]
    events: list[Event] = [
        Header(server_version="t", game=game, ruleset=ruleset or {}, seed=seed, seats=seats)
    ]
    if scores is not None:
        outcome = Outcome.from_scores(tuple(scores), "complete").to_json()
        events.append(Footer(outcome=outcome, digest="d", counters={}))
    events = [e.model_copy(update={"seq": i}) for i, e in enumerate(events, start=1)]
    path.write_text("".join(event_json(e) + "\n" for e in events), encoding="utf-8")
    return path


def llm(model: str, prompt: str | None = None, **labels: str) -> Player:
    return Player(kind="llm", model=model, prompt=prompt, labels=labels)
