"""The text rendering of a Territory view (seat or spectator)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import ALIASES, RADIUS, SHORT


def _cell(t: list[Any]) -> str:
    q, _r, st, eff, owner, _wet, hearth = t
    if st == "rubble":
        body = "####"
    else:
        code = SHORT[ALIASES.index(owner)] if owner else ".."
        mark = "H" if hearth else "'" if st == "cracked" else " "
        body = f"{code}{eff}{mark}"
    return f"{q:>2}:{body}"


def render_board(tiles: list[Any]) -> list[str]:
    rows: dict[int, list[Any]] = {}
    for t in tiles:
        rows.setdefault(int(t[1]), []).append(t)
    lines = [
        "Board: pointy-top axial hexes, one line per r; each cell is q:OWNER+YIELD+MARK "
        "(OWNER = two-letter alias or '..' unowned, YIELD = the yield it pays per turn (a "
        "cracked tile's halved yield), MARK = H hearth, ' cracked; #### = rubble).",
        "Aliases: " + ", ".join(f"{s}={a}" for s, a in zip(SHORT, ALIASES, strict=True)),
    ]
    for r in range(-RADIUS, RADIUS + 1):
        cells = sorted(rows.get(r, []), key=lambda t: int(t[0]))
        lines.append(f"r={r:>2} " + " " * (4 * abs(r)) + " ".join(_cell(t) for t in cells))
    return lines


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _ranking_lines(view: Mapping[str, Any]) -> list[str]:
    ranking: list[Mapping[str, Any]] = view.get("ranking") or []
    out = [
        f"Final ranking ({view.get('reason', 'ended')}; winner: "
        f"{', '.join(view.get('winners') or []) or 'none'}): rank. alias score (razes, walls, life)"
    ]
    for x in ranking:
        out.append(
            f"  {x['rank']}. {x['alias']} {x['score']} ({x['razes']} razes, {x['walls']} walls, "
            f"{x['life']})" + (" — winner" if x["winner"] else "")
        )
    if view.get("view") == "seat" and "rank" in view:
        me = next((x for x in ranking if x["seat"] == view["seat"]), None)
        score = me["score"] if me else "?"
        out.append(
            f"You ({view['alias']}) finished {_ordinal(int(view['rank']))} of {len(ranking)} "
            f"with score {score}. The game is over: no more orders or talk."
        )
    return out


def render(view: Mapping[str, Any]) -> str:
    out: list[str] = []
    over = bool(view.get("over"))
    head = f"Territory, turn {view['turn']} of {view['turns']}"
    if over:
        result = view.get("result") or {}
        head += f" (game over: {result.get('reason', 'ended')})"
    out.append(
        head + f"; map {view.get('map', 'open')}; board pool {view['pool']}/turn "
        f"(started at {view['poolStart']})."
    )
    if over and view.get("ranking"):
        out.extend(_ranking_lines(view))
    seat_view = view.get("view") == "seat"
    if seat_view:
        out.append(
            f"You are {view['alias']} (seat {view['seat']}), {view['life']}, with "
            f"{view['paint']} paint stored."
        )
    paint_col = any("paint" in s for s in view["seats"])
    out.append(
        "Seats: alias (hearth) life, walls, last income, score, razes (+ N own: of its own "
        "tiles, salvage)" + (", paint" if paint_col else "")
    )
    for s in view["seats"]:
        own = int(s.get("ownRazes", 0))
        line = (
            f"  {s['alias']} ({s['hearth']}) {s['life']}, {s['walls']} walls, income "
            f"{s['lastIncome']}, score {s['score']}, razes {s['razes'] - own}"
            + (f" + {own} own" if own else "")
        )
        if "paint" in s:
            line += f", paint {s['paint']}"
        out.append(line)
    out.extend(render_board(view["tiles"]))
    limit = view["rules"]["talkChars"]
    out_turn = view.get("eliminatedTurn") if seat_view and not over else None
    if out_turn is not None:
        out.append(
            f"You were eliminated on turn {out_turn}: you give no more orders and cannot talk."
            " You may still read the game (show, log, wait) until it ends."
        )
    if seat_view:
        if not over and out_turn is None:
            out.append(_reach_line(view))
            out.append(_raze_reach_line(view))
        report = view.get("report")
        if report:
            out.append(f"Last turn (T{report['turn']}): " + _report_line(report))
        if not over and out_turn is None:
            out.append(f"Talk lines left this turn: {view['talkLinesLeft']}.")
            for t in view.get("queuedTalk", []):
                to = f" to {t['to']} (private)" if t["to"] else ""
                out.append(f"  queued{to}: {t['text']}{_cut(t, limit)}")
        talk = view.get("inbox", [])
    else:
        talk = view.get("talk", [])
        for i, report in enumerate(view.get("reports", [])):
            out.append(f"Last turn, {ALIASES[i]}: " + _report_line(report))
        for n in view.get("notes", []):
            out.append(f"Note by {n['seat']} (T{n['turn']}): {n['text']}")
    if talk:
        out.append("Talk from last turn:")
        for t in talk:
            to = f" to {t['to']} (private)" if t["to"] else ""
            out.append(f"  {t['from']}{to}: {t['text']}{_cut(t, limit)}")
    if view.get("events"):
        out.append("Recent events:")
        out.extend(f"  {e}" for e in view["events"])
    return "\n".join(out)


def _cut(t: Mapping[str, Any], limit: int) -> str:
    return f" (cut at {limit} characters)" if t.get("cut") else ""


def _reach_line(view: Mapping[str, Any]) -> str:
    detail: Mapping[str, Any] = view["reachDetail"]
    if not detail:
        return "Your claim reach: none."
    fields = list(view.get("reachFields") or ["cost", "yield", "distance", "contested"])
    at = {name: fields.index(name) for name in ("cost", "yield", "contested")}
    items = []
    for key, x in detail.items():
        item = f"{key} c{x[at['cost']]} y{x[at['yield']]}"
        if x[at["contested"]]:
            item += " vs " + "+".join(SHORT[ALIASES.index(a)] for a in x[at["contested"]])
        items.append(item)
    return (
        "Your claim reach, richest first (tile cCOST yYIELD per turn once dry; 'vs Oc+As' = "
        "those seats can claim it this turn too: if two seats claim it, it smears and both pay): "
        + ", ".join(items)
    )


def _raze_reach_line(view: Mapping[str, Any]) -> str:
    razes: Mapping[str, int] = view["razeReach"]
    if not razes:
        return f"Your raze reach: none (razing opens on turn {view['rules']['razeFromTurn']})."
    salvage: Mapping[str, int] = view.get("razeSalvage", {})
    rows = {f"{t[0]},{t[1]}": t for t in view["tiles"]}
    groups: dict[str, list[str]] = {}
    for key, cost in sorted(razes.items(), key=lambda kv: (kv[1], kv[0])):
        _q, _r, st, eff, owner, _wet, _hearth = rows[key]
        label = "yours" if owner == view["alias"] else owner or "unowned"
        # A raze halves a wall's yield (a wall's yield is its base yield) and leaves rubble of
        # a cracked tile.
        item = f"{key} c{cost} y{eff}>{eff // 2 if st == 'wall' else 0}"
        if key in salvage:
            item += f" salvage {salvage[key]}"
        groups.setdefault(label, []).append(item)
    order = ["yours", *[a for a in ALIASES if a in groups], "unowned"]
    parts = [f"{name}: {', '.join(groups[name])}" for name in order if name in groups]
    return (
        "Your raze reach by owner (tile cCOST yYIELD>YIELD AFTER; salvage = next-turn paint "
        "that counts as score, paid for the first raze of your own wall): " + "; ".join(parts)
    )


def _report_line(p: Mapping[str, Any]) -> str:
    parts = []
    if p["rejected"]:
        parts.append(f"orders rejected ({p['rejected']}), held")
    for name in ("claimed", "smeared", "voided", "razed"):
        if p[name]:
            parts.append(f"{name} {' '.join(p[name])}")
    if p["razedAgainstYou"]:
        parts.append(
            "razed against you: "
            + ", ".join(f"{x['tile']} by {x['by']}" for x in p["razedAgainstYou"])
        )
    if p["struckBy"]:
        parts.append(f"struck by {', '.join(p['struckBy'])}")
    if p["salvage"]:
        parts.append(f"salvage {p['salvage']}")
    for x in p["transfersIn"]:
        parts.append(f"received {x['amount']} from {x['from']}")
    for x in p["transfersOut"]:
        parts.append(f"sent {x['amount']} to {x['to']}")
    parts.append(f"income {p['income']}, spent {p['spent']}, now {p['life']}")
    return "; ".join(parts)
