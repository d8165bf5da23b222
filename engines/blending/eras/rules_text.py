"""The rules text for the era a game uses, and only that era (issue 14): the current rules'
`rules_play.md` with the sections a switch changes replaced by that era's (from
`eras/rules_eras.md`), and the few lines elsewhere that name the current rules rewritten. Under
the defaults the text is `rules_play.md` itself. The same rewriting serves the seat prompt."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from ..ruleset import BlendingRules


@lru_cache(maxsize=1)
def _sections() -> dict[str, str]:
    text = resources.files(__package__).joinpath("rules_eras.md").read_text(encoding="utf-8")
    parts = re.split(r"<!-- (\S+) -->\n", text)
    return {parts[i]: parts[i + 1].rstrip() + "\n" for i in range(1, len(parts), 2)}


def era_name(r: BlendingRules) -> str:
    """A short name of the era, e.g. 'territories, Three Strikes, last tile'."""
    parts = [
        "territories" if r.land == "territories" else "estates",
        {"match": "the match", "three": "Three Strikes", "legacy": "legacy combat"}[r.combat],
        "last tile" if r.endgame == "last_tile" else f"{r.end_rounds} rounds",
    ]
    return ", ".join(parts)


def _fill(r: BlendingRules, section: str) -> str:
    values = {
        "territory_min": r.territory_min,
        "merge_tax_text": (
            f"- **Merging costs {r.merge_tax} tiles:** a single that joins two or more territories"
            " of its land that each hold a guardian costs that many more tiles of your hand, which"
            " you `pick` right after it (to the discard pile); without them it cannot be laid.\n"
            if r.merge_tax
            else "- A merge costs nothing. Laying a different land on the square between two"
            " territories heads a merge off.\n"
        ),
        "guarded_text": f", plus {r.guarded_per_tile} per tile so counted"
        if r.guarded_per_tile
        else "",
        "tie_text": "a tie for most splits the points, rounded down."
        if r.guardians_tie == "split"
        else "a tie for most pays each tied player all of it.",
        "edge": r.combat_edge,
        "heal_to": r.heal_to,
        "kill_text": "dies only to a 3-0 sweep."
        if r.kill_on == "sweep"
        else "dies to any won fight.",
        "pvp_text": (
            "Hero fights: `duel SEAT` against a rival hero next to yours (up, down, left or right,"
            " not on the start square, holding a tile); both play from hand, the defender's"
            " choices are made for it, and whoever runs out of tiles is sent home. They pay"
            " nothing."
            if r.combat_pvp
            else "There are no hero fights."
        ),
        "damage_text": "1 damage" if r.damage == "one" else "damage equal to the difference",
        "escape_text": (
            "play a tile with `escape tID`: it works unless the answer's kind beats yours (a tie"
            " gets away)."
            if r.escape_rule == "matchup"
            else "play a tile with `escape tID`: it works only if your tile wins the round."
        ),
        "refill_text": "the discard pile is empty"
        if r.last_tile_reshuffle == "always"
        else "the discard pile is never shuffled back",
        "cap": r.last_tile_cap,
    }
    return _sections()[section].format(**values)


def _section(text: str, heading: str, new: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[:start] + new + ("\n" + text[end + 1 :] if end >= 0 else "")


CURRENT = ("estates", "match", "rounds", "always")

REPLACE_ALWAYS = (
    (
        "The current rules only (estates and the match), with the decisions that settle their gaps"
        " and this\nserver's notation.",
        "The rules of this game's era ({era}), with the decisions that settle their gaps and this"
        "\nserver's notation.",
    ),
)


def era_rules(text: str, r: BlendingRules) -> str:
    """rules_play.md rewritten for the ruleset's era; unchanged under the defaults."""
    if (r.land, r.combat, r.endgame, r.last_tile_reshuffle) == CURRENT:
        return text
    for old, new in REPLACE_ALWAYS:
        text = _must(text, old, new.format(era=era_name(r)))
    if r.land == "territories":
        text = _section(text, "## Estates\n", _fill(r, "territories"))
        text = _section(text, "## Scoring (at the end only)\n", _fill(r, "territories-scoring"))
        text = _must(text, "(estates, below)", "(territories, below)")
        text = _must(
            text,
            "| Scoring | at the end only: each living guardian's estate |",
            "| Scoring | at the end only: each territory, to whoever has most guardians on it |",
        )
    if r.combat != "match":
        text = _section(text, "## Fights: the match\n", _fill(r, r.combat))
        text = _must(text, " (the match,\n        below)", " (below)")
        text = _drop_lines(text, ("| `lay t5@2 slice`", "| `flip` / `stop`", "| `skip`"))
        text = _must(text, "pick, done, skip, lay, flip, stop, discard, end.", _kinds(r) + ".")
        for old, new in COMBAT_REWRITES[r.combat]:
            text = _must(text, old, new)
    if r.combat == "legacy":
        text = _must(
            text, "guardian piles in full;", "your own guardian piles in full, rivals' as pips;"
        )
    if r.endgame == "last_tile" or r.last_tile_reshuffle == "never":
        text = _endgame(text, r)
    return text


_COMMON = (
    (
        " A lay's odds are\nalso in the menu's `hints.lay_odds[POS][KIND]` as exact fractions.",
        "",
    ),
    ("a rebuild can be skipped.", "a rebuild after a kill must be made."),
    ("lists its flips, any lost tile", "lists its rounds, any lost tile"),
)
COMBAT_REWRITES = {
    "three": (
        *_COMMON,
        ("(in a fight `stop`, in a\nrebuild `skip`,", "(in a fight `stop`, in a\nrebuild a pick,"),
    ),
    "legacy": (
        *_COMMON,
        (
            "(in a fight `stop`, in a\nrebuild `skip`,",
            "(in a fight an `escape` with your least useful tile, an\n`announce` of your best"
            " kind, in a rebuild a pick,",
        ),
    ),
}


def _kinds(r: BlendingRules) -> str:
    fight = "lay, stop" if r.combat == "three" else "strike, escape, announce"
    duel = ", duel" if r.combat_pvp else ""
    return f"pick, done, {fight}{duel}, discard, end"


def _endgame(text: str, r: BlendingRules) -> str:
    if r.endgame == "last_tile":
        text = _must(
            text,
            "| Game end | after 10 rounds `end_rounds`; every seat has the same number of turns |",
            "| Game end | the round in which the last tile is drawn; every seat has the same "
            "number of turns |",
        )
        head = "## Scoring (at the end only)\n"
        text = _must(text, head, _fill(r, "last_tile") + "\n" + head)
    if r.last_tile_reshuffle == "never":
        text = _must(
            text,
            "When the stock runs out, the discard pile is\n   shuffled into a new stock; this also"
            " applies to kill rewards and swaps.",
            "The discard pile is never shuffled back\n   into the stock: a draw from an empty"
            " stock gets nothing.",
        )
    return text


def _drop_lines(text: str, starts: tuple[str, ...]) -> str:
    return "\n".join(line for line in text.split("\n") if not line.startswith(starts))


def _must(text: str, old: str, new: str) -> str:
    """Replaces text the era changes; a missing passage is an error, so the current rules' text
    cannot drift away from its era rewrites unnoticed (tests cover every era)."""
    if old not in text:
        raise ValueError(f"era rewrite: {old[:60]!r} not found in the rules text")
    return text.replace(old, new)


def era_prompt(text: str, r: BlendingRules) -> str:
    """The seat prompt (prompts/blending.md) rewritten for the ruleset's era."""
    if (r.land, r.combat, r.endgame, r.last_tile_reshuffle) == CURRENT:
        return text
    land = (
        "claim territories (connected squares of one land) with guardians"
        if r.land == "territories"
        else "raise guardians\non estates of their land"
    )
    fight = {
        "match": "a rock-paper-scissors match",
        "three": "Three Strikes (3 tiles against a face-up pile's next 3)",
        "legacy": "legacy combat (round by round against a face-down pile)",
    }[r.combat]
    points = (
        "territories: their tiles go to the player with most guardians on each"
        if r.land == "territories"
        else "estates: squares of their land plus blends touching them"
    )
    text = _must(
        text,
        "raise guardians\non estates of their land, and fight rival guardians with a "
        "rock-paper-scissors match. Points come\nfrom your living guardians' estates: squares of "
        "their land plus blends touching them.",
        f"{land}, and fight rival guardians with {fight}. Points come from your living "
        f"guardians' {points}. This game's rule era: {era_name(r)}.",
    )
    step = {
        "match": "lay tiles against positions in\nthe guardian's row, flip, stop, or start a new "
        "pass.",
        "three": "lay 3 tiles, one per strike, each\nshowing a kind you choose; or stop.",
        "legacy": "strike (or escape) with a tile,\nthen announce its kind, round by round.",
    }[r.combat]
    text = _must(
        text,
        "lay tiles against positions in\nthe guardian's row, flip, stop, or start a new pass.",
        step,
    )
    return _must(
        text,
        "The rules, notation included, are the resource `cogs-arena://rules/blending` (about 12 "
        "KB).",
        "The rules of this game's era, notation included, are the resource\n"
        "`cogs-arena://rules/blending/game/GAME_ID` (your game's id; about 12 KB). Other eras'"
        " rules do not apply.",
    )
