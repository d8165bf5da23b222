"""The lobby: the catalogue of games, starting a game, and taking an invited seat."""

from __future__ import annotations

import hmac
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .. import __version__
from ..engines import AnyEngine, GameError, get_engine
from ..engines.registry import names as game_names
from ..engines.registry import plugin_problems
from ..transcripts.events import Event, Header, Join, SeatEntry
from .errors import BadArgument, BadCredential, LimitReached, UnknownGameId
from .families import openspiel_family
from .forks import Parent, fork_point, play_prefix, prefix
from .inputs import JoinGameInput, NewGameInput
from .labels import seat_labels
from .limits import Limits, RateWindow
from .models import GameInfo, GameList, NewGame
from .presenter import Presenter
from .referee import Referee
from .seats import OPEN_SEAT, default_bot, hash_secret, new_secret, seat_index
from .sessions import Session, Sessions
from .store.records import GameRecord, SeatRecord
from .text_rules import SEED_BITS

log = logging.getLogger("cogs_arena.lobby")


class Lobby:
    def __init__(
        self,
        sessions: Sessions,
        referee: Referee,
        presenter: Presenter,
        limits: Limits,
        clock: Callable[[], float],
        *,
        default_deadline: float | None,
        default_join_timeout: float,
        default_labels: Mapping[str, str] | None = None,
    ) -> None:
        self.sessions = sessions
        self.referee = referee
        self.presenter = presenter
        self.limits = limits
        self.clock = clock
        self.default_deadline = default_deadline
        self.default_join_timeout = default_join_timeout
        self.default_labels = dict(default_labels or {})
        self._rate = RateWindow(limits.games_per_minute)

    def list_games(self) -> GameList:
        infos = []
        for name in game_names():
            try:
                engine = get_engine(name)
            except (GameError, ImportError):
                log.exception("game %s is registered but cannot be loaded", name)
                continue
            ruleset = engine.ruleset()
            infos.append(
                GameInfo(
                    name=name,
                    title=engine.title,
                    summary=engine.summary,
                    seats=list(engine.seat_names(ruleset)),
                    simultaneous=engine.simultaneous,
                    bots=list(engine.bots()),
                    default_bot=default_bot(engine),
                    ruleset_defaults=ruleset.model_dump(mode="json", context={"every_field": True}),
                )
            )
        return GameList(games=infos, families=[openspiel_family()], not_loaded=plugin_problems())

    def new_game(
        self,
        args: NewGameInput,
        client_name: str | None,
        client_version: str | None,
        parent: Parent | None = None,
    ) -> NewGame:
        """A new game; with `fork_of` (or a `parent` read from a transcript by the operator) a
        fork that starts where the parent stood at decision `at`."""
        engine = get_engine(args.game)
        labels = seat_labels(self.default_labels, args.given_labels())
        if parent is None and args.fork_of is not None:
            parent = self._finished_parent(args.fork_of)
        if parent is not None and parent.header.game != args.game:
            raise BadArgument(
                f"The game {parent.game_id} is {parent.header.game}, not {args.game}.",
                allowed=f"game={parent.header.game!r} to fork it",
            )
        rules = engine.ruleset(args.ruleset if parent is None else parent.header.ruleset)
        # 128 random bits: a seat must not be able to guess the hidden draws. Every engine
        # takes any int (Territory's generator reduces it modulo 2^32, like the reference).
        seed = secrets.randbits(SEED_BITS) if args.seed is None else args.seed
        if parent is not None:
            seed = parent.header.seed
        names = engine.seat_names(rules)
        own = (
            engine.default_seat(rules, seed) if args.seat is None else seat_index(names, args.seat)
        )
        bot_names = _pick_bots(engine, names, own, args.bots)
        now = self.clock()
        live = self.sessions.store.count(
            ["waiting", "active"], updated_since=now - self.limits.abandoned_after
        )
        if live >= self.limits.max_live_games:
            raise LimitReached(
                f"This server already runs {live} unfinished games.",
                allowed=f"at most {self.limits.max_live_games}; finish a game, or wait for one"
                f" to end (a game untouched for {self.limits.abandoned_after:.0f} s stops"
                " counting)",
            )
        self._rate.take(now)
        state = engine.new_game(rules, seed)
        credential = new_secret()
        seats = []
        for index, name in enumerate(names):
            if index == own:
                seats.append(
                    SeatRecord(
                        index=index,
                        name=name,
                        kind="llm",
                        credential_hash=hash_secret(credential),
                        client_name=client_name,
                        client_version=client_version,
                        model_label=labels.model,
                        prompt_label=labels.prompt,
                        labels=labels.others,
                    )
                )
            elif bot_names[index] == OPEN_SEAT:
                seats.append(SeatRecord(index=index, name=name, kind="open"))
            else:
                seats.append(SeatRecord(index=index, name=name, kind="bot", bot=bot_names[index]))
        game_id = secrets.token_hex(8)
        invitations: dict[str, str] = {}
        for seat_rec in seats:
            if seat_rec.kind == "open":
                code = f"{game_id}.{new_secret()}"
                seat_rec.invited = True
                seat_rec.invitation_hash = hash_secret(code)
                invitations[seat_rec.name] = code
        spectator_code = f"{game_id}.{new_secret()}"
        record = GameRecord(
            game_id=game_id,
            game=args.game,
            seed=seed,
            ruleset=rules.model_dump(mode="json"),
            seats=seats,
            created=now,
            updated=now,
            decision_started=now,
            status="waiting" if invitations else "active",
            spectator_hash=hash_secret(spectator_code),
            deadline_seconds=args.deadline_seconds or self.default_deadline,
            join_deadline=(
                now + (args.join_timeout or self.default_join_timeout) if invitations else None
            ),
            game_deadline=now + args.time_limit if args.time_limit else None,
        )
        session = Session(record, engine, state, touched=now)
        events: list[Event] = []
        fork = None
        if parent is not None:
            at = args.at or 0
            replayed = prefix(parent, at)
            play_prefix(session, self.referee, replayed, events)
            if engine.outcome(session.state) is not None:
                raise BadArgument(
                    f"The game {parent.game_id} is over at decision {at}: nothing to play.",
                    allowed="an earlier decision",
                )
            fork = fork_point(session, parent, at, len(replayed))
        header = Header(
            server_version=__version__,
            game=args.game,
            ruleset=record.ruleset,
            seed=seed,
            seats=[SeatEntry(index=s.index, name=s.name, player=s.player()) for s in seats],
            fork=fork,
            rules_version=engine.rules_version,
            view_version=engine.view_version,
            wall={"created": now},
        )
        events.insert(0, header)
        self.referee.advance(session, events)
        view = self.presenter.view(session, own, events, args.detail)
        self.sessions.commit(session, events)
        self.sessions.add(session)
        return NewGame(
            game_id=game_id,
            seat=own,
            seat_name=names[own],
            credential=credential,
            seed=view.seed,
            seats=[_seat_json(s) for s in seats],
            view=view,
            invitations=invitations,
            spectator_code=spectator_code,
        )

    def _finished_parent(self, game_id: str) -> Parent:
        store = self.sessions.store
        record = store.get(game_id)
        if record is None:
            raise UnknownGameId(
                f"No game {game_id!r} on this server to fork.",
                allowed="the game_id of a finished game of this server",
            )
        if record.status != "over":
            raise BadArgument(
                f"The game {game_id} is still running; only a finished game can be forked (a "
                "fork starts from the same hidden draws, which a running game keeps secret).",
                allowed="fork_of=<the game_id of a finished game>",
            )
        events = store.events(game_id)
        header = events[0]
        assert isinstance(header, Header)
        return Parent(game_id, header, events, finished=True)

    def join_game(
        self, args: JoinGameInput, client_name: str | None, client_version: str | None
    ) -> NewGame:
        """Takes the open seat an invitation names; an invitation works once."""
        game_id = args.invitation.split(".", 1)[0]
        bad = BadCredential(
            "That invitation is not valid (unknown, or already used).",
            allowed="an unused invitation code from new_game",
        )
        try:
            with self.sessions.open(game_id) as session:
                return self._join(session, args, client_name, client_version, bad)
        except UnknownGameId:
            raise bad from None

    def _join(
        self,
        session: Session,
        args: JoinGameInput,
        client_name: str | None,
        client_version: str | None,
        bad: BadCredential,
    ) -> NewGame:
        record = session.record
        digest = hash_secret(args.invitation)
        seat_rec = next(
            (
                s
                for s in record.seats
                if s.invitation_hash and hmac.compare_digest(s.invitation_hash, digest)
            ),
            None,
        )
        if seat_rec is None or seat_rec.kind != "open" or record.status == "over":
            raise bad
        labels = seat_labels(self.default_labels, args.given_labels())
        credential = new_secret()
        seat_rec.kind = "llm"
        seat_rec.absent = False
        seat_rec.invitation_hash = None
        seat_rec.credential_hash = hash_secret(credential)
        seat_rec.client_name = client_name
        seat_rec.client_version = client_version
        seat_rec.model_label = labels.model
        seat_rec.prompt_label = labels.prompt
        seat_rec.labels = labels.others
        events: list[Event] = [Join(seat=seat_rec.index, player=seat_rec.player())]
        if record.status == "waiting" and all(s.kind != "open" for s in record.seats):
            record.status = "active"
            record.decision_started = self.clock()
        self.referee.advance(session, events)
        view = self.presenter.view(session, seat_rec.index, events, args.detail)
        self.sessions.commit(session, events)
        return NewGame(
            game_id=record.game_id,
            seat=seat_rec.index,
            seat_name=seat_rec.name,
            credential=credential,
            seed=view.seed,
            seats=[_seat_json(s) for s in record.seats],
            view=view,
        )


def _seat_json(seat: SeatRecord) -> dict[str, Any]:
    return {"index": seat.index, "name": seat.name, "player": seat.player().model_dump()}


def _pick_bots(
    engine: AnyEngine, names: Sequence[str], own: int, bots: Sequence[str] | None
) -> dict[int, str]:
    table = engine.bots()
    others = [i for i in range(len(names)) if i != own]
    if bots is None:
        chosen = [default_bot(engine)] * len(others)
    else:
        chosen = list(bots)
        if len(chosen) == 1:
            chosen = chosen * len(others)
        if len(chosen) != len(others):
            raise BadArgument(
                f"{len(chosen)} bot names for {len(others)} other seats.",
                allowed=f"one name for all, or exactly {len(others)} names (seats "
                + ", ".join(names[i] for i in others)
                + ")",
            )
    for name in chosen:
        if name not in table and name != OPEN_SEAT:
            raise BadArgument(
                f"Unknown bot {name!r}.",
                allowed=", ".join(table) + f", or {OPEN_SEAT!r} to invite another client",
            )
    return dict(zip(others, chosen, strict=True))
