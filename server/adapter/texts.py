"""The readable text block of each tool's answer (the structured result travels beside it): the
games, a new seat, a menu and its paging, a play's answer, a wait and a log."""

from __future__ import annotations

import json

from ..models import GameFamily, GameList, LogResult, Menu, NewGame, PlayResult, WaitResult


def games_text(games: GameList) -> str:
    """What list_games says: each game's seats, bots and summary, and the default ruleset its
    description promises (a `ruleset` argument overrides these keys)."""
    lines = []
    for g in games.games:
        lines.append(
            f"- {g.name}: {g.title}. Seats: {', '.join(g.seats)}. Bots: {', '.join(g.bots)}. "
            f"{g.summary}"
        )
        defaults = ", ".join(
            f"{key}={json.dumps(value, separators=(',', ':'))}"
            for key, value in g.ruleset_defaults.items()
        )
        lines.append(f"  Default ruleset: {defaults}.")
    lines.extend(family_text(f) for f in games.families)
    lines.extend(f"Not loaded: plugin {n} ({why})." for n, why in games.not_loaded.items())
    return "\n".join(lines)


def seat_text(result: NewGame) -> str:
    """What new_game and join_game say: the ids to keep, invitations, then the first view."""
    lines = [
        f"game_id: {result.game_id}",
        f"credential: {result.credential}",
        f"You are {result.seat_name} (seat {result.seat}).",
    ]
    lines.extend(f"Invitation for {name}: {code}" for name, code in result.invitations.items())
    if result.spectator_code:
        lines.append(f"Spectator code: {result.spectator_code}")
    return "\n".join(lines) + "\n\n" + result.view.text


def menu_text(menu: Menu, page_size: int) -> str:
    lines = [f"Legal moves (decision {menu.decision}): {paging(menu, page_size)}"]
    lines[0] += f". Kinds: {', '.join(menu.kinds)}."
    if not menu.complete:
        lines.append("These are single orders; combine them into one submission (see below).")
    lines.extend(_entry_lines(menu))
    if menu.instructions_told:
        lines.append("(How to play these: as your earlier menu said.)")
    elif menu.instructions:
        lines.append("")
        lines.append(menu.instructions)
    return "\n".join(lines)


RUN = 4
"""Entries with one description whose notations differ only in the last word (one tile on
many squares), from this many on, share one line."""


def _entry_lines(menu: Menu) -> list[str]:
    """One line per entry, but a group of entries that share a description and differ only in
    their notation's last word shares one line, where the group's first entry stands:
    `place t9 - Mountain single, anywhere: 2) 0,-4  3) -1,-3  9) 1,0`, each entry's number
    before its last word (the notation is the head and that word)."""
    groups: dict[tuple[str, str], list[int]] = {}
    for i, entry in enumerate(menu.moves):
        head = entry.notation.rpartition(" ")[0]
        if head:
            groups.setdefault((head, entry.description), []).append(i)
    shared = {i: key for key, members in groups.items() if len(members) >= RUN for i in members}
    lines: list[str] = []
    for i, entry in enumerate(menu.moves):
        key = shared.get(i)
        if key is None:
            lines.append(f"{entry.number:>4}. {entry.notation}  - {entry.description}")
        elif groups[key][0] == i:
            tails = "  ".join(
                f"{menu.moves[j].number}) {menu.moves[j].notation.rpartition(' ')[2]}"
                for j in groups[key]
            )
            lines.append(f"      {key[0]}  - {key[1]}: {tails}")
    return lines


def paging(menu: Menu, page_size: int) -> str:
    """What this page shows: `entries 51–100 of 137 matching (of 212 legal); page 2 of 3`."""
    of = f"{menu.total} legal"
    if menu.matching == 0:
        return f"no entries match (of {of})"
    if menu.matching != menu.total:
        of = f"{menu.matching} matching (of {of})"
    where = f"page {menu.page} of {menu.pages}"
    if not menu.moves:
        return f"no entries on this page ({of}); {where}"
    first = (menu.page - 1) * page_size + 1
    return f"entries {first}–{first + len(menu.moves) - 1} of {of}; {where}"


def play_text(result: PlayResult) -> str:
    # A rejection's error text comes first and says it all: reason, what was applied, tries left.
    lines = [] if result.error is None else [result.error]
    if len(result.accepted) > 2 and result.rejected is None and result.not_applied is None:
        # The seat sent them; the structured `accepted` lists each one.
        lines.append(f"Accepted all {len(result.accepted)} moves.")
    elif result.accepted:
        lines.append("Accepted: " + "; ".join(result.accepted))
    lines.extend(f"Note: {n}" for n in result.read_notes)
    if result.rejected is not None and result.error is None:
        lines.append(f"Rejected move {result.rejected.index + 1}: {result.rejected.reason}")
    lines.extend(f"Dropped, the rest stands: {line}" for line in result.dropped)
    if result.not_applied is not None:
        lines.append(
            f"Not played from move {result.not_applied.index + 1}: {result.not_applied.reason}"
        )
    if result.fallback is not None and result.error is None:
        lines.append(f"Fallback applied for you: {result.fallback}")
    if result.submitted_waiting:
        lines.append("Submitted; the turn resolves when every seat has submitted.")
    lines.append("")
    lines.append(result.view.text)
    return "\n".join(lines)


def wait_text(result: WaitResult) -> str:
    head = {
        "your_turn": "It is your turn.",
        "game_over": "The game is over.",
        "events": "New events:",
        "timeout": "Nothing yet; call wait again.",
    }[result.reason]
    lines = [head]
    lines.extend(
        f"#{e.seq} {e.type}{' ' + e.seat if e.seat else ''}: {e.text}" for e in result.events
    )
    lines.append(f"(cursor {result.cursor}; decision {result.decision})")
    return "\n".join(lines)


def log_text(result: LogResult) -> str:
    if not result.events:
        return f"No new events (cursor {result.cursor})."
    lines = [f"#{e.seq} {e.type}{' ' + e.seat if e.seat else ''}: {e.text}" for e in result.events]
    lines.append(f"(cursor {result.cursor}: pass it as `after` next time)")
    return "\n".join(lines)


def family_text(family: GameFamily) -> str:
    """One line for a family of games: its names (new_game takes `<family>:<name>`), or how to
    install it."""
    if not family.installed:
        return (
            f"- {family.name}:<game> ({len(family.games)} OpenSpiel games): not installed here; "
            f"{family.install}."
        )
    return (
        f"- {family.name}:<game>, {len(family.games)} OpenSpiel games (parameters in the ruleset: "
        f'{{"params": {{"num_cards": 6}}}}; bots random, and mcts:20/200/1000 where the game has '
        f"perfect information and turns): {', '.join(family.games)}."
    )
