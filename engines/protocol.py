"""The one engine protocol every game implements.

An engine is a stateless object; a game's state is a separate value that the engine never mutates
(every transition returns a new state), so the state after any prefix of moves can be kept, compared
and replayed. Sequential games (Influence, Blending) derive from `SequentialEngine` and take one
seat's move at a time with `apply`; simultaneous games (Territory, Chemistry) derive from
`SimultaneousEngine`, collect one move per seat in `to_act` and resolve them with `apply_batch`.
Moves travel as canonical text that `parse_move` reads back, or as JSON. An engine is
`Engine[R, S, M]` in its ruleset, state and move; hosts hold one as `registry.AnyEngine`.

Bots and renderers receive an observation (a JSON-compatible dict produced by `observe` or
`spectate`), never the state, so they cannot see hidden information.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, ClassVar, Generic, TypeAlias, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .canonical import canonical_bytes
from .errors import IllegalMove, InvalidRuleset
from .rng import Stream

JSON: TypeAlias = Mapping[str, "JSON"] | Sequence["JSON"] | str | int | float | bool | None
"""A JSON-compatible value (object / array / string / number / true, false / null), read-only: a
`dict[str, int]` or a `tuple[str, ...]` is one as it is, so values built with precise types need
no copy, and a reader narrows with `isinstance` before it indexes (a `bool` is an `int`, and a
`str` a `Sequence`, so a reader checks those first)."""


class Ruleset(BaseModel):
    """Base of every game's ruleset: frozen, unknown keys rejected."""

    model_config = ConfigDict(extra="forbid", frozen=True)


R = TypeVar("R", bound=Ruleset)
S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True)
class MoveInfo:
    """One entry of a seat's legal-move menu. Its number is its 1-based position in the menu."""

    notation: str
    description: str
    kind: str

    def to_json(self) -> dict[str, str]:
        return {"notation": self.notation, "description": self.description, "kind": self.kind}


@dataclass(frozen=True)
class LegalMoves:
    """A seat's menu. `complete` is False where legal moves combine (a Territory order set), in
    which case `moves` lists the atoms and `hints` holds what is needed to combine them."""

    moves: tuple[MoveInfo, ...]
    complete: bool = True
    hints: Mapping[str, JSON] = field(default_factory=dict)
    instructions: str = ""


class LazyLegalMoves(LegalMoves):
    """A menu built on first use: hosts hand one to every bot, and most bots read only their
    observation, so the menu is often never needed."""

    def __init__(self, build: Callable[[], LegalMoves]) -> None:
        object.__setattr__(self, "_build", build)
        object.__setattr__(self, "_built", None)

    def _menu(self) -> LegalMoves:
        built: LegalMoves | None = object.__getattribute__(self, "_built")
        if built is None:
            built = object.__getattribute__(self, "_build")()
            object.__setattr__(self, "_built", built)
        return built

    @property
    def moves(self) -> tuple[MoveInfo, ...]:
        return self._menu().moves

    @property
    def complete(self) -> bool:
        return self._menu().complete

    @property
    def hints(self) -> Mapping[str, JSON]:
        return self._menu().hints

    @property
    def instructions(self) -> str:
        return self._menu().instructions


@dataclass(frozen=True)
class Outcome:
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str
    details: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "reason": self.reason,
            "details": dict(self.details),
        }

    @staticmethod
    def from_scores(
        scores: tuple[float, ...], reason: str, details: Mapping[str, JSON] | None = None
    ) -> Outcome:
        """Competition ranks (1 = best, ties share); winners are every seat ranked 1."""
        ranks = tuple(1 + sum(1 for other in scores if other > mine) for mine in scores)
        winners = tuple(i for i, rank in enumerate(ranks) if rank == 1)
        return Outcome(scores, ranks, winners, reason, dict(details or {}))


@dataclass(frozen=True)
class SeriesNumbers:
    """What a game reports over a series of bot games (`cogs-arena simulate`), beside the host's
    common numbers (wins by seat and bot, scores, ranks, endings, length). Pure functions of
    what they are passed, so a game brought as a plugin brings its own."""

    of_game: Callable[[Any, Outcome], dict[str, JSON]]
    """(final state, outcome) -> the game's own numbers for one finished game."""
    means: tuple[tuple[str, str], ...] = ()
    """(key, line label): numbers reported as their mean over the games that have one."""
    tallies: tuple[tuple[str, str], ...] = ()
    """(key, line label): categories reported as shares of games."""
    aggregate: Callable[[Sequence[Mapping[str, JSON]]], Mapping[str, JSON]] | None = None
    """Where a game sums its series up its own way (Blending's fun numbers): the games' records
    -> its numbers, which never replace a common one of the same name. Replaces means/tallies."""
    lines: Callable[[Mapping[str, JSON]], list[str]] | None = None
    """With `aggregate`: the summary -> the game's own report lines."""


Bot = Callable[[Mapping[str, JSON], LegalMoves, Stream], str]
"""A bot: (its seat's observation, its menu, a seeded stream) -> a move in canonical text.

Bots are stateless: anything they remember must be in their observation. That keeps games
deterministic across server restarts."""


class Engine(ABC, Generic[R, S, M]):
    """A game: `R` its ruleset, `S` its state, `M` its move.

    Every entry point that takes a ruleset (`new_game`, `seat_names`, `default_seat`,
    `era_text`) checks it here, once for every engine, and hands the game's hook (`_new_game`,
    ...) a ruleset of its own type: a foreign object raises `InvalidRuleset` whatever the game,
    and under `python -O` too (an `assert` would vanish there)."""

    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    simultaneous: ClassVar[bool]
    ruleset_model: type[R]
    """The game's ruleset class (a class attribute; ClassVar cannot hold a type variable)."""
    fallback_ends_turn: ClassVar[bool] = False
    """True where a fallback plays default moves until the seat's turn is over (sequential games
    whose turn is several moves), not just one move."""
    rules_version: ClassVar[int] = 1
    """Bumped whenever a change to the rules makes the same (ruleset, seed, moves) reach another
    state: a record written under another version cannot be re-simulated, and `replay` says so."""
    view_version: ClassVar[int] = 1
    """Bumped whenever what `observe` or `news` gives for a state changes: a recorded view digest
    of another version cannot be regenerated, and `replay` says so instead of calling it a
    mismatch."""
    supports_talk: ClassVar[bool] = False
    """True where talk is part of the game's state (caps, delivery next turn); otherwise the host
    keeps talk as a chat beside the game."""
    talk_refused: ClassVar[str | None] = None
    """Where the rules give talk its own channel inside the move, why the host's `talk` tool is
    refused (and where to talk instead); None keeps the tool."""
    series_numbers: ClassVar[SeriesNumbers | None] = None
    """The game's own numbers for `cogs-arena simulate` (its `numbers.py`); None reports only
    the host's common ones."""

    # ---- rulesets and setup -------------------------------------------------------------

    def ruleset(self, overrides: Mapping[str, JSON] | None = None) -> R:
        try:
            return self.ruleset_model.model_validate(dict(overrides or {}))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']}"
                for err in exc.errors()
            )
            fields = ", ".join(sorted(self.ruleset_model.model_fields))
            raise InvalidRuleset(
                f"Invalid ruleset for {self.name}: {problems}.", allowed=f"fields {fields}"
            ) from None

    def checked(self, ruleset: object) -> R:
        """`ruleset` itself if it is this game's ruleset; else InvalidRuleset (never a silent
        conversion: another game's fields may share names and mean something else)."""
        if not isinstance(ruleset, self.ruleset_model):
            model = self.ruleset_model.__name__
            raise InvalidRuleset(
                f"{self.name} takes a {model}, not a {type(ruleset).__name__}.",
                allowed=f"a {model}, as {self.name}'s ruleset() returns",
            )
        return ruleset

    def seat_names(self, ruleset: R) -> tuple[str, ...]:
        return self._seat_names(self.checked(ruleset))

    @abstractmethod
    def _seat_names(self, ruleset: R) -> tuple[str, ...]:
        """The seats' names under a checked ruleset."""

    @abstractmethod
    def ruleset_of(self, state: S) -> R:
        """The ruleset a state was created with (every state carries it)."""

    def new_game(self, ruleset: R, seed: int | str) -> S:
        return self._new_game(self.checked(ruleset), seed)

    @abstractmethod
    def _new_game(self, ruleset: R, seed: int | str) -> S:
        """The opening state under a checked ruleset."""

    def default_seat(self, ruleset: R, seed: int | str) -> int:
        """The seat a host gives a caller who did not choose one."""
        return self._default_seat(self.checked(ruleset), seed)

    def _default_seat(self, ruleset: R, seed: int | str) -> int:
        return 0

    # ---- whose turn, what is legal ---------------------------------------------------------

    @abstractmethod
    def to_act(self, state: S) -> tuple[int, ...]:
        """Seats that must act now: one for a sequential game, several for a simultaneous
        decision, none when the game is over."""

    @abstractmethod
    def legal_moves(self, state: S, seat: int) -> LegalMoves:
        """Raises NotYourTurn / GameOver when the seat cannot act."""

    @abstractmethod
    def parse_move(self, state: S, seat: int, text: str) -> M:
        """Reads canonical text (and reasonable variants). Raises MalformedMove."""

    @abstractmethod
    def move_from_json(self, state: S, seat: int, data: JSON) -> M:
        """Reads the structured form. Raises MalformedMove."""

    @abstractmethod
    def move_text(self, move: M) -> str:
        """The one canonical text form; `parse_move` reads it back to an equal move."""

    @abstractmethod
    def move_json(self, move: M) -> JSON: ...

    def move_notices(self, move: M) -> tuple[str, ...]:
        """What reading `move` changed without refusing it (a field dropped, a line cut), for
        the answer to the seat; the move's text is what was accepted."""
        return ()

    def move_schema(self) -> dict[str, JSON]:
        """The JSON Schema of `move_json`'s form (what `move_from_json` reads), titled by the
        game's name, so a client can build a structured move without guessing."""
        return {"title": self.name, "type": "object"}

    @abstractmethod
    def validate(self, state: S, seat: int, move: M) -> None:
        """Raises IllegalMove / NotYourTurn if `move` would be rejected. Simultaneous games use
        it at submission time, before the batch resolves."""

    # ---- transitions -----------------------------------------------------------------------

    @abstractmethod
    def apply(self, state: S, seat: int, move: M) -> S:
        """Sequential games: apply one seat's move, returning a new state."""

    @abstractmethod
    def apply_batch(self, state: S, moves: Mapping[int, M]) -> S:
        """Simultaneous games: resolve one move per seat in `to_act`, returning a new state."""

    @abstractmethod
    def default_move(self, state: S, seat: int, rejected: M | None = None) -> M:
        """The move a seat gets on a deadline or after a second rejection (a fallback).
        `rejected` is the last rejected attempt, for games that keep part of it (talk)."""

    def talk(self, state: S, seat: int, text: str, to: tuple[int, ...] | None) -> S:
        """Only for engines with `supports_talk`: queue a talk line inside the game state."""
        raise IllegalMove(f"{self.name} keeps no talk in its state.")

    def talk_audience(
        self, state: S, seat: int, to: tuple[int, ...] | None
    ) -> tuple[int, ...] | None:
        """Who a talk line addressed to `to` actually reaches (None: every seat). Hosts refuse
        a private line the rules would make public rather than let it leak."""
        return to

    def trimmed(self, state: S, seat: int, move: M) -> tuple[M, tuple[str, ...]]:
        """The move as the rules keep it, and one line for each part they drop rather than
        refuse (Territory T14: talk lines over the turn's cap); hosts say so in the answer."""
        return move, ()

    def talk_left(self, state: S, seat: int, submitted: M | None = None) -> int | None:
        """Talk lines the seat may still send this turn, counting those of its `submitted`
        move; None when the rules set no such cap."""
        return None

    def observe_submitted(self, state: S, seat: int, move: M) -> dict[str, JSON]:
        """The seat's observation once it has submitted `move` for this simultaneous turn: what
        it has used of the turn's allowances counts (the state holds no submission)."""
        return self.observe(state, seat)

    def out(self, state: S, seat: int) -> str | None:
        """Why the seat is out of a game that goes on (eliminated), or None. An out seat is never
        asked to act again and may not talk; it may still read the game."""
        return None

    def queued_talk(self, state: S) -> tuple[tuple[int, tuple[int, ...] | None, str], ...]:
        """Talk lines queued in the state (`talk`) that the next transition posts, as (seat,
        recipients or None for public, text): hosts deliver them to their readers then."""
        return ()

    def private_lines(self, move: M) -> tuple[tuple[int, ...], ...]:
        """The recipients of each private talk line a move carries (games whose moves talk)."""
        return ()

    @abstractmethod
    def settle(self, state: S, reason: str) -> S:
        """End the game now (host deadline, forfeit), scoring it as it stands."""

    # ---- views -----------------------------------------------------------------------------

    @abstractmethod
    def observe(self, state: S, seat: int) -> dict[str, JSON]:
        """What `seat` may see, hidden information removed."""

    @abstractmethod
    def spectate(self, state: S, full: bool) -> dict[str, JSON]:
        """A spectator's view. `full` adds hidden information (hands, private talk): the host
        passes it once the game is over."""

    @abstractmethod
    def render(self, view: Mapping[str, JSON]) -> str:
        """Readable text of an observation or a spectator view."""

    @abstractmethod
    def picture(self, view: Mapping[str, JSON]) -> str:
        """An SVG drawing of an observation or a spectator view (deterministic, well-formed
        XML). Like `render` it reads only the view, so it shows what that viewer may see."""

    def render_brief(self, view: Mapping[str, JSON]) -> str:
        """The compact text of a view (status, board, scores) that a host sends after a move:
        an engine may leave out legends and help that do not change. Default: `render`."""
        return self.render(view)

    def visible_move_text(self, move: M, mover: int, viewer: int | None) -> str | None:
        """How an applied move reads in another seat's log (None: not shown to that viewer)."""
        return self.move_text(move)

    def news(self, before: S, after: S) -> tuple[str, ...]:
        """What one transition did (captures, flips, kills, razes, smears, deliveries), in lines
        every seat and spectator may read: a host keeps them beside the move so a seat that was
        away can catch up without diffing boards. Default: nothing beyond the move's text."""
        return ()

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game goes on."""

    # ---- serialisation ---------------------------------------------------------------------

    @abstractmethod
    def state_to_json(self, state: S) -> dict[str, JSON]: ...

    @abstractmethod
    def state_from_json(self, data: Mapping[str, JSON]) -> S: ...

    def digest(self, state: S) -> str:
        return hashlib.sha256(canonical_bytes(self.state_to_json(state))).hexdigest()

    # ---- bots and documents ----------------------------------------------------------------

    @abstractmethod
    def bots(self) -> Mapping[str, Bot]: ...

    def rules_text(self) -> str:
        package = type(self).__module__.rsplit(".", 1)[0]
        return resources.files(package).joinpath("rules.md").read_text(encoding="utf-8")

    def rules_play_text(self, ruleset: R | None = None) -> str:
        """The rules a player needs now: the engine's `rules_play.md` where it has one (the
        current rules only, without older rule eras), else the whole `rules_text()`. Given a
        game's ruleset, an engine with rule eras describes that ruleset's era and only it."""
        package = type(self).__module__.rsplit(".", 1)[0]
        play = resources.files(package).joinpath("rules_play.md")
        text = play.read_text(encoding="utf-8") if play.is_file() else self.rules_text()
        return self.era_text(text, ruleset)

    def era_text(self, text: str, ruleset: R | None) -> str:
        """A player document (rules, seat prompt) rewritten for the ruleset's rule era; the
        text itself for engines without eras, or without a ruleset."""
        return text if ruleset is None else self._era_text(text, self.checked(ruleset))

    def _era_text(self, text: str, ruleset: R) -> str:
        return text


class SequentialEngine(Engine[R, S, M]):
    """A game whose seats move one at a time: it implements `apply`; a move is valid when it
    applies, and a batch is refused."""

    simultaneous: ClassVar[bool] = False

    @abstractmethod
    def apply(self, state: S, seat: int, move: M) -> S: ...

    def validate(self, state: S, seat: int, move: M) -> None:
        self.apply(state, seat, move)

    def apply_batch(self, state: S, moves: Mapping[int, M]) -> S:
        raise IllegalMove(f"{self.name} is sequential.", allowed="one move at a time via apply")


class SimultaneousEngine(Engine[R, S, M]):
    """A game whose seats in `to_act` decide together: it implements `validate` (checked at
    submission, before the batch resolves) and `apply_batch`; a lone move is refused."""

    simultaneous: ClassVar[bool] = True

    @abstractmethod
    def validate(self, state: S, seat: int, move: M) -> None: ...

    @abstractmethod
    def apply_batch(self, state: S, moves: Mapping[int, M]) -> S: ...

    def apply(self, state: S, seat: int, move: M) -> S:
        raise IllegalMove(
            f"{self.name} resolves all seats together.", allowed="submit through apply_batch"
        )
