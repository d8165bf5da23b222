"""The task parameters (`-T`), read once into a plan of games: which seeds, which seats, which
bots and which seat prompts. Every bad value is refused before any game starts, with what is
allowed, since an eval that fails on its hundredth sample wastes the ninety-nine before it."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engines import GameError, get_engine
from ..prompts import seat_prompt

DEFAULT_PROMPT = "default"
NO_PROMPT = "none"
ROTATE = "rotate"
AB_PAIRS = 20
"""Seeds (seat-swapped pairs per arm) of the A/B design when none are given."""
NULL_SUFFIX = ".null"
"""The null arm's label: the baseline's label with this added."""
DETAILS = ("full", "brief", "none")
TRANSCRIPTS_ENV = "COGS_ARENA_TRANSCRIPTS"
DEFAULT_TRANSCRIPTS = Path("logs") / "cogs-arena-transcripts"
"""Beside Inspect's default log directory, so the two records of a run sit together."""

BOUND_TOOLS_NOTE = """## Your tools here

This harness has started your game and bound your game_id and credential into the tools:
call `show`, `legal_moves`, `play`, `talk`, `log` and `wait` without those two arguments. Keep
playing until the game is over."""


class ParameterError(ValueError):
    """A task parameter that cannot be used; the message names it and what is allowed."""


@dataclass(frozen=True)
class PromptVariant:
    label: str
    """Kept in the record as the seat's `prompt` label."""
    text: str
    """The seat prompt, without the rules and the tools note."""


@dataclass(frozen=True)
class GamePlan:
    """Everything a sample needs to start its game, read from the task parameters."""

    game: str
    title: str
    seat_names: tuple[str, ...]
    seeds: tuple[int, ...]
    seats: tuple[int, ...]
    """The seat the model takes (single model), or the rotation offsets (several models); empty
    for the balanced default, where the i-th seed seats it at seat i mod seats."""
    bots: tuple[str, ...] | None
    prompts: tuple[PromptVariant, ...]
    ruleset: dict[str, Any] | None
    detail: str
    roles: tuple[str, ...] = ()
    """Model roles seated together (several models); empty for one model."""
    transcripts: Path = field(default=DEFAULT_TRANSCRIPTS)
    rules: str = ""
    ab: bool = False
    """The A/B design: `prompts` is (A, B, A's null copy); see `ab_seats`."""

    @property
    def baseline(self) -> PromptVariant:
        return self.prompts[0]

    def ab_seats(self, index: int) -> tuple[int, int]:
        """The two seats of the `index`-th seed's pairs: the given ones, else seat i mod seats
        and the next; each pair plays them once each way round."""
        if self.seats:
            return self.seats[0], self.seats[1]
        n = len(self.seat_names)
        return index % n, (index + 1) % n

    def system_message(self, prompt: PromptVariant) -> str:
        parts = [prompt.text.strip(), BOUND_TOOLS_NOTE, f"# The rules\n\n{self.rules.strip()}"]
        return "\n\n".join(part for part in parts if part)

    def seats_for(self, index: int) -> tuple[int, ...]:
        """The seats (or rotation offsets) of the `index`-th seed's samples."""
        return self.seats or (index % len(self.seat_names),)

    def role_seats(self, offset: int) -> list[int]:
        """The seat of each role for one rotation offset."""
        n = len(self.seat_names)
        return [(offset + i) % n for i in range(len(self.roles))]

    def bots_for_creator(self, llm_seats: Sequence[int]) -> list[str] | None:
        """new_game's `bots` for the first role: 'open' where another role sits, the chosen
        bots elsewhere (one name for all, or one per bot seat in seat order)."""
        if len(llm_seats) == 1:
            return list(self.bots) if self.bots else None
        others = [i for i in range(len(self.seat_names)) if i != llm_seats[0]]
        bot_seats = [i for i in others if i not in llm_seats]
        chosen = list(self.bots) if self.bots else [_default_bot(self.game)]
        if len(chosen) == 1:
            chosen = chosen * len(bot_seats)
        if len(chosen) != len(bot_seats):
            raise ParameterError(
                f"bots: {len(chosen)} names for {len(bot_seats)} bot seats; give one name for "
                f"all, or exactly {len(bot_seats)}"
            )
        picked = dict(zip(bot_seats, chosen, strict=True))
        return ["open" if i in llm_seats else picked[i] for i in others]


def _default_bot(game: str) -> str:
    bots = list(get_engine(game).bots())
    return next((b for b in bots if b != "random"), bots[0])


def _seeds(seeds: int | str | Sequence[int | str] | None, ab: bool) -> tuple[int, ...]:
    if seeds is None:
        seeds = AB_PAIRS if ab else 1
    if isinstance(seeds, str) and seeds.strip().isdigit():
        seeds = int(seeds)
    if isinstance(seeds, bool | str):
        raise ParameterError(
            f"seeds: {seeds!r}; give a count N (seeds 0 … N-1) or a list of integers"
        )
    if isinstance(seeds, int):
        if seeds < 1:
            raise ParameterError("seeds: a count must be 1 or more")
        return tuple(range(seeds))
    out: list[int] = []
    for item in seeds:
        if isinstance(item, bool) or not isinstance(item, int | str):
            raise ParameterError(f"seeds: {item!r} is not an integer")
        try:
            out.append(int(item))
        except ValueError:
            raise ParameterError(f"seeds: {item!r} is not an integer") from None
    if not out or len(set(out)) != len(out):
        raise ParameterError("seeds: give each seed once, at least one")
    return tuple(out)


def _seat(names: Sequence[str], value: int | str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < len(names):
            return value
    elif isinstance(value, str):
        if value.strip().isdigit() and int(value) < len(names):
            return int(value)
        folded = {n.casefold(): i for i, n in enumerate(names)}
        if value.casefold() in folded:
            return folded[value.casefold()]
    raise ParameterError(
        f"seat: {value!r} is not a seat; give a number 0 … {len(names) - 1}, a name "
        f"({', '.join(names)}), a list of them, or {ROTATE!r} for every seat"
    )


def _seats(names: Sequence[str], seat: int | str | Sequence[int | str] | None) -> tuple[int, ...]:
    if seat is None:
        return ()
    if isinstance(seat, str) and seat.casefold() == ROTATE:
        return tuple(range(len(names)))
    if isinstance(seat, int | str):
        return (_seat(names, seat),)
    seats = tuple(_seat(names, s) for s in seat)
    if not seats or len(set(seats)) != len(seats):
        raise ParameterError("seat: give each seat once, at least one")
    return seats


def _prompt(game: str, source: str, label: str | None, rules: Any = None) -> PromptVariant:
    if source == DEFAULT_PROMPT:  # the seat prompt of the ruleset's era (issue 14)
        return PromptVariant(label or DEFAULT_PROMPT, seat_prompt(game, ruleset=rules))
    if source == NO_PROMPT:
        return PromptVariant(label or NO_PROMPT, "")
    path = Path(source).expanduser()
    if not path.is_file():
        raise ParameterError(
            f"prompt: {source!r} is neither {DEFAULT_PROMPT!r}, {NO_PROMPT!r} nor a readable "
            "file (a Markdown file with your seat prompt)"
        )
    return PromptVariant(label or path.stem, path.read_text(encoding="utf-8"))


def _prompts(
    game: str,
    prompt: str | Sequence[str],
    prompt_label: str | Sequence[str] | None,
    rules: Any = None,
) -> tuple[PromptVariant, ...]:
    sources = [prompt] if isinstance(prompt, str) else list(prompt)
    if prompt_label is None:
        labels: list[str | None] = [None] * len(sources)
    else:
        labels = [prompt_label] if isinstance(prompt_label, str) else list(prompt_label)
    if not sources or len(labels) != len(sources):
        raise ParameterError(
            f"prompt_label: {len(labels)} labels for {len(sources)} prompts; give one each"
        )
    variants = tuple(_prompt(game, s, lab, rules) for s, lab in zip(sources, labels, strict=True))
    if len({v.label for v in variants}) != len(variants):
        raise ParameterError("prompt: two prompt variants share a label; set prompt_label")
    return variants


def _strings(name: str, value: str | Sequence[str] | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    items = [value] if isinstance(value, str) else list(value)
    if not items or not all(isinstance(v, str) and v for v in items):
        raise ParameterError(f"{name}: a name or a list of names")
    return tuple(items)


def transcripts_dir(value: str | None) -> Path:
    chosen = value or os.environ.get(TRANSCRIPTS_ENV) or str(DEFAULT_TRANSCRIPTS)
    return Path(chosen).expanduser().absolute()


def game_plan(
    game: str,
    *,
    seeds: int | str | Sequence[int | str] | None,
    seat: int | str | Sequence[int | str] | None,
    bots: str | Sequence[str] | None,
    prompt: str | Sequence[str],
    prompt_label: str | Sequence[str] | None,
    ruleset: dict[str, Any] | None,
    detail: str,
    roles: str | Sequence[str] | None = None,
    transcripts: str | None = None,
    ab: bool = False,
) -> GamePlan:
    engine = get_engine(game)
    if ruleset is not None and not isinstance(ruleset, dict):
        raise ParameterError("ruleset: a mapping of rule names to values, e.g. {turns: 10}")
    try:
        names = tuple(engine.seat_names(engine.ruleset(ruleset)))
    except GameError as exc:
        allowed = f" (allowed: {exc.allowed})" if exc.allowed else ""
        raise ParameterError(f"ruleset: {exc}{allowed}") from None
    if detail not in DETAILS:
        raise ParameterError(f"detail: {detail!r}; one of {', '.join(DETAILS)}")
    role_names = _strings("roles", roles) or ()
    if len(set(role_names)) != len(role_names) or len(role_names) > len(names):
        raise ParameterError(f"roles: distinct model roles, at most {len(names)} (one per seat)")
    bot_names = _strings("bots", bots)
    for bot in bot_names or ():
        if bot not in engine.bots():
            raise ParameterError(
                f"bots: {bot!r} is not a bot of {game}; one of " + ", ".join(engine.bots())
            )
    if not isinstance(ab, bool):
        raise ParameterError(f"ab: {ab!r}; true or false")
    variants = _prompts(game, prompt, prompt_label, engine.ruleset(ruleset))
    seats = _seats(names, seat)
    if ab:
        variants = _ab_variants(variants, seats, role_names)
    return GamePlan(
        game=game,
        title=engine.title,
        seat_names=names,
        seeds=_seeds(seeds, ab),
        seats=seats,
        bots=bot_names,
        prompts=variants,
        ruleset=ruleset,
        detail=detail,
        roles=role_names,
        transcripts=transcripts_dir(transcripts),
        rules=engine.rules_play_text(engine.ruleset(ruleset)),
        ab=ab,
    )


def _ab_variants(
    variants: tuple[PromptVariant, ...], seats: tuple[int, ...], roles: tuple[str, ...]
) -> tuple[PromptVariant, ...]:
    """(A, B, A's null copy) for the A/B design, which seats the main model twice."""
    if len(variants) != 2:
        raise ParameterError(
            f"ab: give exactly two prompts, the baseline first (got {len(variants)})"
        )
    if roles:
        raise ParameterError("ab: plays the main model against itself; leave out roles")
    if seats and len(seats) != 2:
        raise ParameterError("ab: seat is the pair's two seats (a list of two), or leave it out")
    baseline, other = variants
    null = PromptVariant(baseline.label + NULL_SUFFIX, baseline.text)
    if other.label == null.label:
        raise ParameterError(f"ab: the label {null.label!r} is the null arm's; rename B")
    return baseline, other, null
