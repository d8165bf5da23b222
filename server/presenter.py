"""What a seat or a spectator is shown: views, their text, the menu, and log lines.

Reads only: nothing here writes. A view returns the `view` event to record when the seat has
not seen that view before; the caller commits it with whatever else the step wrote.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

from ..transcripts.events import (
    Absent,
    Batch,
    Event,
    Fallback,
    Footer,
    Join,
    JoinTimeout,
    Move,
    Settle,
    StateTalk,
    Talk,
    ViewShown,
    view_digest,
)
from ..transcripts.redact import may_see, visible
from ..transcripts.replay import seat_observation
from .catch_up import move_line, since_last_look, since_text
from .limits import Limits
from .models import LogEvent, Menu, MenuEntry, View
from .seats import OUT_ALLOWED
from .sessions import Session
from .store.memory import Store
from .text_rules import shown_seed

LOGGED = (Talk, StateTalk, Move, Batch, Settle, Fallback, Absent, Join, JoinTimeout, Footer)

COORDINATE = re.compile(r"-?\d+(?:,-?\d+)+")
"""A `contains` value that reads as a coordinate (`1,1`, `3,-1`, `0,-2,2`)."""


def contains_matcher(contains: str) -> Callable[[str], bool]:
    """The menu's `contains` test. A coordinate matches only a whole coordinate in the text
    (`1,1` finds `1,1>2,1` but not `11,1`, `1,10` or `-1,1`); anything else is a
    case-insensitive substring."""
    needle = contains.strip()
    if COORDINATE.fullmatch(needle):
        token = re.compile(r"(?<![\d,\-])" + re.escape(needle) + r"(?![\d,])")
        return lambda text: token.search(text) is not None
    lowered = contains.lower()
    return lambda text: lowered in text.lower()


class Presenter:
    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.limits = limits

    # ---- views -----------------------------------------------------------------------------

    def view(
        self,
        session: Session,
        seat: int,
        events: list[Event],
        detail: str = "full",
        picture: bool = False,
    ) -> View:
        """The seat's view. Records a `view` event (into `events`) the first time the seat sees
        this view, and hands over the fallbacks it has not been told of yet. `detail` says how
        much of it the answer carries (full, brief, none); what is recorded does not change."""
        record, engine = session.record, session.engine
        observation = seat_observation(engine, session.state, seat, record.pending.get(seat))
        to_act = engine.to_act(session.state)
        outcome = engine.outcome(session.state)
        chat = self.chat_for(session, seat)
        seat_rec = record.seats[seat]
        fallbacks = list(seat_rec.unseen_fallbacks)
        since, left_out = since_last_look(self.store, session, seat, events)
        if detail in ("none", "data"):
            board = ""
        elif detail == "brief":
            board = engine.render_brief(observation)
        else:
            board = engine.render(observation)
        played = ["Since your last view, the host played for you:"] if fallbacks else []
        played.extend(f"  {line}" for line in fallbacks)
        news = played + since_text(since, left_out)
        # The way to play is said once, in the seat's first view (none recorded yet): repeated
        # in every view, it sent models that play whole turns to the menu each turn for nothing.
        first = seat_rec.seen_seq == 0
        text = self._text(session, seat, board, to_act, chat, news, detail, first=first)
        digest = view_digest(observation)
        submitted = seat in record.pending
        key = hashlib.sha256(
            f"{digest}|{record.status}|{submitted}|{record.decision}|{len(chat)}|{chat[-1:]}".encode(
                "utf-8", "surrogatepass"
            )
        ).hexdigest()[:24]
        # Nothing follows the footer: the view that ends the game goes just before it, and
        # views read after the end are not recorded.
        recordable = record.status != "over" or bool(events and isinstance(events[-1], Footer))
        if seat_rec.kind != "bot" and recordable and (key != seat_rec.last_view or fallbacks):
            seat_rec.last_view = key
            seat_rec.unseen_fallbacks = []
            event = ViewShown(seat=seat, decision=record.decision, digest=digest, audience=[seat])
            if events and isinstance(events[-1], Footer):
                events.insert(len(events) - 1, event)
            else:
                events.append(event)
            seat_rec.seen_seq = record.event_count + events.index(event) + 1
        return View(
            game_id=record.game_id,
            game=record.game,
            seat=seat,
            seat_name=seat_rec.name,
            status=record.status,
            your_turn=record.status == "active" and seat in to_act and not submitted,
            to_act=[record.seats[i].name for i in to_act],
            submitted=submitted,
            decision=record.decision,
            observation=observation if detail in ("full", "data") else {},
            text=text,
            detail=detail,
            seed=self.seed_shown(session),
            chat=chat if detail in ("full", "data") else [],
            outcome=None if outcome is None else outcome.to_json(),
            log_cursor=self.cursor(session, seat, events),
            fallbacks=fallbacks,
            since=since if detail in ("full", "data") else [],
            since_left_out=left_out if detail in ("full", "data") else 0,
            picture=engine.picture(observation) if picture else "",
        )

    @staticmethod
    def seed_shown(session: Session) -> int | str | None:
        """The game's seed once the game is over; hidden before (hidden draws derive from it)."""
        return shown_seed(session.record.seed) if session.record.status == "over" else None

    def cursor(self, session: Session, viewer: int | None, events: list[Event]) -> int:
        """Where the viewer's log stands after this step: the seq of the last event it may
        see, so the cursor does not move when others are told something in private."""
        record = session.record
        over = record.status == "over"
        for index in range(len(events) - 1, -1, -1):
            if may_see(events[index], viewer, over=over):
                return record.event_count + index + 1
        return self.store.last_seq(record.game_id, viewer=viewer, over=over)

    def spectator_view(self, session: Session, picture: bool = False) -> View:
        record, engine = session.record, session.engine
        over = record.status == "over"
        view = engine.spectate(session.state, full=over)
        outcome = engine.outcome(session.state)
        chat = self.chat_for(session, None)
        text = engine.render(view)
        if chat:
            text = text.rstrip() + "\n\nRecent talk:\n" + "".join(f"  {line}\n" for line in chat)
        return View(
            game_id=record.game_id,
            game=record.game,
            seat=None,
            seat_name=None,
            status=record.status,
            your_turn=False,
            to_act=[record.seats[i].name for i in engine.to_act(session.state)],
            decision=record.decision,
            observation=view,
            text=text,
            seed=self.seed_shown(session),
            chat=chat,
            outcome=None if outcome is None else outcome.to_json(),
            log_cursor=self.cursor(session, None, []),
            picture=engine.picture(view) if picture else "",
        )

    def _text(
        self,
        session: Session,
        seat: int,
        board: str,
        to_act: tuple[int, ...],
        chat: list[str],
        news: list[str],
        detail: str,
        *,
        first: bool = False,
    ) -> str:
        """The view's text; detail 'none' or 'data': the status lines and the news only. `news`
        are the lines that head it (fallbacks played for the seat, what others did since its
        last look)."""
        record = session.record
        # No game id here: the text must read the same for the same seed and moves.
        lines = [f"{session.engine.title}: you are {record.seats[seat].name} (seat {seat})."]
        lines.extend(news)
        if record.status == "waiting":
            waiting = ", ".join(s.name for s in record.seats if s.kind == "open")
            lines.append(f"Waiting for invited seats to join: {waiting}.")
        elif not to_act:
            outcome = session.engine.outcome(session.state)
            if outcome is not None:
                winners = ", ".join(record.seats[i].name for i in outcome.winners)
                lines.append(f"Game over ({outcome.reason}); winner(s): {winners}.")
                lines.append(f"Seed: {record.seed} (same seed, same game).")
        elif seat in record.pending:
            waiting = ", ".join(record.seats[i].name for i in to_act if i not in record.pending)
            lines.append(f"You have submitted this turn; waiting for {waiting}.")
        elif (out := session.engine.out(session.state, seat)) is not None:
            lines.append(f"You are out of the game: {out}. You may still use {OUT_ALLOWED}.")
        elif seat in to_act:
            how = ": call legal_moves, then play" if first else ""
            lines.append(f"It is your turn{how}.")
        else:
            lines.append("Waiting for " + ", ".join(record.seats[i].name for i in to_act) + ".")
        if detail in ("none", "data"):
            return "\n".join(lines) + "\n"
        lines.append("")
        lines.append(board.rstrip())
        if chat:
            lines.append("")
            lines.append("Recent talk:")
            lines.extend(f"  {line}" for line in chat)
        return "\n".join(lines) + "\n"

    def chat_for(self, session: Session, seat: int | None) -> list[str]:
        """Host-kept talk the viewer may see (a spectator: public lines, all after the end)."""
        if session.engine.supports_talk:
            return []
        if session.chat is None:
            session.chat = [
                e for e in self.store.events(session.record.game_id) if isinstance(e, Talk)
            ]
        names = [s.name for s in session.record.seats]
        lines: list[str] = []
        over = session.record.status == "over"
        for event in session.chat:
            if not may_see(event, seat, over=over):
                continue
            target = "all" if event.to is None else ", ".join(names[i] for i in event.to)
            lines.append(f"{names[event.seat]} to {target}: {event.text}")
        return lines[-self.limits.chat_in_view :]

    # ---- the menu --------------------------------------------------------------------------

    def menu(
        self,
        session: Session,
        seat: int,
        kind: str | None,
        contains: str | None,
        page: int,
        page_size: int,
    ) -> Menu:
        menu = session.legal_moves(session.state, seat)
        entries = [
            MenuEntry(number=i + 1, notation=m.notation, description=m.description, kind=m.kind)
            for i, m in enumerate(menu.moves)
        ]
        kinds = sorted({e.kind for e in entries})
        if kind is not None:
            entries = [e for e in entries if e.kind == kind]
        if contains is not None:
            matches = contains_matcher(contains)
            entries = [e for e in entries if matches(e.notation) or matches(e.description)]
        pages = max(1, -(-len(entries) // page_size))
        told = bool(menu.instructions) and session.told.get(seat) == menu.instructions
        session.told[seat] = menu.instructions
        return Menu(
            game_id=session.record.game_id,
            seat=seat,
            decision=session.record.decision,
            complete=menu.complete,
            total=len(menu.moves),
            matching=len(entries),
            page=page,
            pages=pages,
            kinds=kinds,
            moves=entries[(page - 1) * page_size : page * page_size],
            hints=dict(menu.hints),
            instructions=menu.instructions,
            instructions_told=told,
        )

    # ---- the log ---------------------------------------------------------------------------

    def log(
        self, session: Session, viewer: int | None, after: int, limit: int
    ) -> tuple[list[LogEvent], int]:
        """Up to `limit` lines the viewer may see after the cursor, and the new cursor. Reads
        only the viewer's events after the cursor, a page at a time."""
        record = session.record
        over = record.status == "over"
        out: list[LogEvent] = []
        cursor = after
        while len(out) < limit and cursor < record.event_count:
            page = self.store.events(
                record.game_id, cursor, viewer=viewer, over=over, limit=limit - len(out)
            )
            if not page:
                break
            for event in page:
                cursor = event.seq
                item = self.describe(session, event, viewer, over)
                if item is not None:
                    out.append(item)
        return out, cursor

    def describe(
        self, session: Session, event: Event, viewer: int | None, over: bool
    ) -> LogEvent | None:
        shown = visible(event, viewer, over=over)
        if shown is None or not isinstance(shown, LOGGED):
            return None
        names = [s.name for s in session.record.seats]
        seq = shown.seq
        if isinstance(shown, Talk | StateTalk):
            target = "all" if shown.to is None else ", ".join(names[i] for i in shown.to)
            text = f"to {target}: {shown.text}"
            if isinstance(shown, StateTalk):
                text += " (queued: posted to them when the turn resolves)"
            return LogEvent(seq=seq, type="talk", seat=names[shown.seat], text=text)
        if isinstance(shown, Move):
            text = move_line(shown.move, shown.news)
            return LogEvent(seq=seq, type="move", seat=names[shown.seat], text=text)
        if isinstance(shown, Batch):
            parts = [f"{names[int(m)]}: {text}" for m, text in shown.moves.items()]
            return LogEvent(seq=seq, type="turn", text="\n".join(parts + shown.news))
        if isinstance(shown, Settle):
            return LogEvent(seq=seq, type="settle", text=f"settled: {shown.reason}")
        if isinstance(shown, Fallback):
            who = "you" if viewer == shown.seat else names[shown.seat]
            text = f"{shown.reason}: the host played {shown.move} for {who}"
            return LogEvent(seq=seq, type="fallback", seat=names[shown.seat], text=text)
        if isinstance(shown, Absent):
            text = "missed 3 deadlines in a row: moves are defaulted until it plays"
            return LogEvent(seq=seq, type="absent", seat=names[shown.seat], text=text)
        if isinstance(shown, Join):
            return LogEvent(seq=seq, type="join", seat=names[shown.seat], text="joined")
        if isinstance(shown, JoinTimeout):
            text = "join timeout: " + (
                "nobody joined; the game ends"
                if shown.result == "forfeit"
                else "the game starts; empty seats are defaulted: "
                + ", ".join(names[i] for i in shown.absent)
            )
            return LogEvent(seq=seq, type="join_timeout", text=text)
        outcome: dict[str, Any] = shown.outcome
        winners = ", ".join(names[i] for i in outcome["winners"])
        return LogEvent(seq=seq, type="end", text=f"{outcome['reason']}; winner(s): {winners}")
