"""The brief text of a Territory seat view: what a seat decides its next turn with.

Sent after a move instead of the whole view (`render.py`): the seat's own paint, life, income
and score, the others' scores in one line, its last turn's report, its richest claim targets with
their cost, yield and rivals, the walls it could raze, and talk. The 169-tile board, the legend
and the recent events are left out: the news of the turn (who took, smeared or razed what) heads
the view, and `show` gives the whole board whenever asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import ALIASES, SHORT
from .render import _cut, _ranking_lines, _report_line, render

CLAIMS_SHOWN = 10
"""Claim targets listed, richest first; the rest are counted (`show` lists them all)."""
RAZES_SHOWN = 8
"""Rival walls in raze reach listed, richest first; the rest are counted."""
SALVAGE_SHOWN = 4
"""Own walls whose raze pays salvage listed, richest salvage first."""


def _short(alias: str) -> str:
    return SHORT[ALIASES.index(alias)]


def render_brief(view: Mapping[str, Any]) -> str:
    if view.get("view") != "seat":
        return render(view)
    over = bool(view.get("over"))
    head = f"Territory, turn {view['turn']} of {view['turns']}"
    if over:
        head += f" (game over: {(view.get('result') or {}).get('reason', 'ended')})"
    out = [head + f"; board pool {view['pool']}/turn."]
    if over and view.get("ranking"):
        out.extend(_ranking_lines(view))
    seats: list[Mapping[str, Any]] = view["seats"]
    me = seats[int(view["seat"])]
    out.append(
        f"You: {view['alias']} (hearth {me['hearth']}), {view['life']}, {view['paint']} paint; "
        f"{me['walls']} walls, last income {me['lastIncome']}, score {me['score']}, "
        f"razes {me['razes']}."
    )
    if not over:
        out.append("Others (score/last income/walls): " + _others(seats, int(view["seat"])) + ".")
    report = view.get("report")
    if report:
        out.append(f"Your last turn (T{report['turn']}): " + _report_line(report))
    if over:
        return "\n".join(out)
    if view.get("eliminatedTurn") is not None:
        out.append(
            f"You were eliminated on turn {view['eliminatedTurn']}: you give no more orders and "
            "cannot talk. You may still read the game (show, log, wait) until it ends."
        )
        return "\n".join(out)
    out.append(_claims(view))
    out.append(_razes(view))
    out.extend(_talk(view))
    return "\n".join(out)


def _others(seats: list[Mapping[str, Any]], mine: int) -> str:
    parts = []
    for s in seats:
        if s["seat"] == mine:
            continue
        life = "" if s["life"] == "steady" else f" {s['life']}"
        parts.append(f"{s['alias']} {s['score']}/{s['lastIncome']}/{s['walls']}{life}")
    return ", ".join(parts)


def _claims(view: Mapping[str, Any]) -> str:
    detail: Mapping[str, Any] = view["reachDetail"]
    if not detail:
        return "Claim reach: none."
    fields = list(view.get("reachFields") or ["cost", "yield", "distance", "contested"])
    cost, gain, rivals = (fields.index(name) for name in ("cost", "yield", "contested"))
    items = []
    for key, x in list(detail.items())[:CLAIMS_SHOWN]:
        item = f"{key} c{x[cost]} y{x[gain]}"
        if x[rivals]:
            item += " vs " + "+".join(_short(a) for a in x[rivals])
        items.append(item)
    rest = len(detail) - len(items)
    more = f"; {rest} more (show detail=full lists them)" if rest > 0 else ""
    return (
        "Claim reach, richest first (tile cCOST yYIELD, vs: rivals that can claim it too): "
        + ", ".join(items)
        + more
        + "."
    )


def _razes(view: Mapping[str, Any]) -> str:
    razes: Mapping[str, int] = view["razeReach"]
    if not razes:
        return f"Raze reach: none (razing opens on turn {view['rules']['razeFromTurn']})."
    rows = {f"{t[0]},{t[1]}": t for t in view["tiles"]}
    rival: list[tuple[int, int, str]] = []
    unowned = 0
    for key, cost in razes.items():
        _q, _r, st, eff, owner, _wet, _hearth = rows[key]
        if owner is None:
            unowned += 1
        elif owner != view["alias"]:
            after = eff // 2 if st == "wall" else 0
            rival.append((-int(eff), cost, f"{key} {_short(owner)} c{cost} y{eff}>{after}"))
    rival.sort()
    parts = [item for _e, _c, item in rival[:RAZES_SHOWN]]
    if len(rival) > RAZES_SHOWN:
        parts.append(f"{len(rival) - RAZES_SHOWN} more")
    salvage = sorted(
        ((-pay, key) for key, pay in (view.get("razeSalvage") or {}).items() if pay > 0),
    )
    own = [f"{key} c{razes[key]} salvage {-pay}" for pay, key in salvage[:SALVAGE_SHOWN]]
    text = "Raze reach, rival walls (tile OWNER cCOST yYIELD>AFTER): " + (
        ", ".join(parts) or "none"
    )
    if own:
        text += "; your walls paying salvage: " + ", ".join(own)
    return text + f"; {unowned} unowned tiles."


def _talk(view: Mapping[str, Any]) -> list[str]:
    limit = view["rules"]["talkChars"]
    out = [f"Talk lines left this turn: {view['talkLinesLeft']}."]
    for t in view.get("queuedTalk", []):
        to = f" to {t['to']} (private)" if t["to"] else ""
        out.append(f"  queued{to}: {t['text']}{_cut(t, limit)}")
    talk = view.get("inbox", [])
    if talk:
        out.append("Talk from last turn:")
        for t in talk:
            to = f" to {t['to']} (private)" if t["to"] else ""
            out.append(f"  {t['from']}{to}: {t['text']}{_cut(t, limit)}")
    return out
