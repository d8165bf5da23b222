"""One Inspect task per game. Run `inspect eval cogs_arena/territory --model <provider/model>`;
parameters go with `-T name=value` (see `game_task`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample

from .params import DEFAULT_PROMPT, GamePlan, game_plan
from .scoring import game_outcome
from .solvers import seat_solver, seats_solver

DEFAULT_MAX_STEPS = 1000
"""Model generations per seat; a seat that reads, lists and plays each decision of a long
Influence game needs about 400."""

Seats = int | str | Sequence[int | str]


def samples(plan: GamePlan) -> list[Sample]:
    """One sample per seed, seat (or rotation of the roles) and prompt variant: the same seeds
    and seats for every variant, so results pair by game, seed and seat. Without a seat the
    i-th seed seats the model at seat i mod seats (a first-mover edge then weighs on every
    variant alike, and the seat column shows it)."""
    out = []
    for prompt in plan.prompts:
        for index, seed in enumerate(plan.seeds):
            for seat in plan.seats_for(index):
                where = f"rot{seat}" if plan.roles else f"seat{seat}"
                out.append(
                    Sample(
                        id=f"{plan.game}-seed{seed}-{where}-{prompt.label}",
                        input=f"Play {plan.title} from seed {seed}.",
                        metadata={
                            "game": plan.game,
                            "seed": seed,
                            "seat": seat,
                            "seat_name": None if plan.roles else plan.seat_names[seat],
                            "prompt": prompt.label,
                            "roles": list(plan.roles),
                        },
                    )
                )
    return out


def ab_samples(plan: GamePlan) -> list[Sample]:
    """The A/B design: per seed, the arm (A against B) and the null arm (A against its copy),
    each played twice on that seed with the two seats swapped. Side `a` is always A."""
    baseline, other, null = plan.prompts
    out = []
    for index, seed in enumerate(plan.seeds):
        x, y = plan.ab_seats(index)
        for arm, versus in (("arm", other), ("null", null)):
            for swap, (a_seat, b_seat) in enumerate(((x, y), (y, x))):
                players = [
                    {"side": "a", "prompt": baseline.label, "seat": a_seat},
                    {"side": "b", "prompt": versus.label, "seat": b_seat},
                ]
                out.append(
                    Sample(
                        id=f"{plan.game}-seed{seed}-{arm}-swap{swap}",
                        input=f"Play {plan.title} from seed {seed}: {baseline.label} against "
                        f"{versus.label}.",
                        metadata={
                            "game": plan.game,
                            "seed": seed,
                            "seat": a_seat,
                            "seat_name": plan.seat_names[a_seat],
                            "prompt": baseline.label,
                            "roles": [],
                            "ab": {"arm": arm, "swap": swap, "players": players},
                        },
                    )
                )
    return out


def game_task(game: str, max_steps: int, **plan_args: Any) -> Task:
    """The task for one game; `plan_args` are `game_plan`'s (see the registered tasks)."""
    plan = game_plan(game, **plan_args)
    if max_steps < 1:
        raise ValueError("max_steps: 1 or more")
    several = plan.roles or plan.ab
    solve = seats_solver(plan, max_steps) if several else seat_solver(plan, max_steps)
    made = ab_samples(plan) if plan.ab else samples(plan)
    return Task(
        dataset=MemoryDataset(made, name=f"cogs_arena_{game}"),
        solver=solve,
        scorer=game_outcome(),
        metadata={
            "game": game,
            "transcripts": str(plan.transcripts),
            "prompts": [p.label for p in plan.prompts],
            "roles": list(plan.roles),
            "ab": plan.ab,
        },
    )


PARAMETERS = """Parameters (`-T name=value`):

seeds: a count N (seeds 0 … N-1) or a list of seeds (default 1; 20 with ab).
seat: the model's seat, by number or name; a list of seats; or 'rotate' for every seat.
  By default the i-th seed (counting from 0) seats it at seat i mod seats.
  With `roles`, the rotation offset(s): role i sits at seat (offset + i) mod seats.
bots: the bots for the other seats: one name for all, or one per bot seat in seat order.
prompt: the seat prompt: 'default' (the server's `<game>_seat` prompt), 'none', or a path
  to a Markdown file; a list of them runs every variant over the same seeds.
prompt_label: the label kept in the record for each prompt (default: 'default', 'none'
  or the file's stem).
ruleset: ruleset overrides, as new_game takes them.
detail: the default detail of the views the model gets from show and play: full, brief
  or none.
roles: Inspect model roles to seat together in one game (`--model-role name=provider/model`).
max_steps: model generations per seat before the harness stops the seat.
ab: the A/B design (two prompts, the baseline first): per seed, A against B and A against
  a copy of A labelled '<A>.null' (the noise floor), each twice with the two seats swapped;
  `seat` is then the pair's two seats (default: seat i mod seats and the next).
transcripts: where the game records go (default: $COGS_ARENA_TRANSCRIPTS, else
  ./logs/cogs-arena-transcripts).
"""

GAMES = {
    "territory": "Territory: nine seats claim and raze walls on a hex lattice; simultaneous turns.",
    "influence": "Influence: two seats attack and reinforce cells on a hex board; whole turns.",
    "chemistry": "Chemistry: eight couriers feed reaction vats under standing orders per shift.",
    "blending": "Blending: four seats lay land tiles, raise guardians and fight; turn by turn.",
}


def _task_for(game: str) -> Callable[..., Task]:
    """The registered task of one game: Inspect reads its parameters from this signature."""

    def game_eval(
        seeds: int | str | Sequence[int | str] | None = None,
        seat: Seats | None = None,
        bots: str | Sequence[str] | None = None,
        prompt: str | Sequence[str] = DEFAULT_PROMPT,
        prompt_label: str | Sequence[str] | None = None,
        ruleset: dict[str, Any] | None = None,
        detail: str = "full",
        roles: str | Sequence[str] | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        transcripts: str | None = None,
        ab: bool = False,
    ) -> Task:
        given = dict(locals())
        del given["game"]  # the closure's variable, not a parameter
        return game_task(game, **given)

    game_eval.__name__ = game_eval.__qualname__ = game
    game_eval.__doc__ = GAMES[game] + "\n\n" + PARAMETERS
    registered: Callable[..., Task] = task(name=game)(game_eval)
    return registered


territory = _task_for("territory")
influence = _task_for("influence")
chemistry = _task_for("chemistry")
blending = _task_for("blending")


def _common(
    seeds: int | str | Sequence[int | str] | None,
    seat: Seats | None,
    bots: str | Sequence[str] | None,
    prompt: str | Sequence[str],
    prompt_label: str | Sequence[str] | None,
    detail: str,
    roles: str | Sequence[str] | None,
    max_steps: int,
    transcripts: str | None,
    ab: bool,
) -> dict[str, Any]:
    return dict(locals())


@task(name="openspiel")
def openspiel(
    game: str = "tic_tac_toe",
    seeds: int | str | Sequence[int | str] | None = None,
    seat: Seats | None = None,
    bots: str | Sequence[str] | None = None,
    prompt: str | Sequence[str] = DEFAULT_PROMPT,
    prompt_label: str | Sequence[str] | None = None,
    ruleset: dict[str, Any] | None = None,
    detail: str = "full",
    roles: str | Sequence[str] | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    transcripts: str | None = None,
    ab: bool = False,
) -> Task:
    """An OpenSpiel game (the openspiel extra): `-T game=chess`, or with OpenSpiel's parameters
    `-T game='goofspiel(num_cards=6)'`; bots `random`, or `mcts:20|200|1000` where the game has
    perfect information and turns."""
    name, params = openspiel_game(game)
    rules = {**(ruleset or {}), "params": {**params, **dict((ruleset or {}).get("params", {}))}}
    given = _common(
        seeds, seat, bots, prompt, prompt_label, detail, roles, max_steps, transcripts, ab
    )
    return game_task(f"openspiel:{name}", ruleset=rules, **given)


@task(name="game")
def any_game(
    name: str,
    seeds: int | str | Sequence[int | str] | None = None,
    seat: Seats | None = None,
    bots: str | Sequence[str] | None = None,
    prompt: str | Sequence[str] = DEFAULT_PROMPT,
    prompt_label: str | Sequence[str] | None = None,
    ruleset: dict[str, Any] | None = None,
    detail: str = "full",
    roles: str | Sequence[str] | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    transcripts: str | None = None,
    ab: bool = False,
) -> Task:
    """Any game the server has by name (`-T name=nim` for a plugin's, `openspiel:chess`, or one
    of the four), scored from the record like the others."""
    given = _common(
        seeds, seat, bots, prompt, prompt_label, detail, roles, max_steps, transcripts, ab
    )
    return game_task(name, ruleset=ruleset, **given)


def openspiel_game(text: str) -> tuple[str, dict[str, Any]]:
    """`goofspiel(num_cards=6)` -> ("goofspiel", {"num_cards": 6}), read by OpenSpiel itself."""
    import pyspiel

    parsed = dict(pyspiel.game_parameters_from_string(text.strip()))
    name = str(parsed.pop("name"))
    return name, parsed
