"""What the older eras add to a view and its text. Under the current rules they add nothing, so
default views (and their recorded digests) are unchanged. Hidden information stays hidden: a
legacy pile shows other seats only its pips (§4.2, BE8), a Three Strikes commit only its count
(the attacker's tiles are face down until the fight resolves)."""

from __future__ import annotations

from collections.abc import Mapping

from ...jsonread import arr, edit, obj, objs, text, texts
from ...protocol import JSON
from ..state import State
from ..tiles import KIND_NAME, face_text, pips
from .guardians import kind_of
from .rules_text import CURRENT, era_name
from .territories import view as territory_view


def era_view(s: State, seat: int | None, full: bool, out: dict[str, JSON]) -> None:
    """Adds this era's keys to a view being built (mutates `out`, never the state)."""
    r = s.rules
    if (r.land, r.combat, r.endgame, r.last_tile_reshuffle) != CURRENT:
        out["era"] = era_name(r)
    if r.endgame != "rounds" or r.last_tile_reshuffle != "always":
        out["endgame"] = {
            "kind": r.endgame,
            "reshuffle": r.last_tile_reshuffle,
            "last_round": s.last_round,
        }
    if r.land == "territories":
        out["territories"] = territory_view(s)
        out["territory_rules"] = {
            "min": r.territory_min,
            "tie": r.guardians_tie,
            "guarded_per_tile": r.guarded_per_tile,
            "merge_tax": r.merge_tax,
        }
    if r.combat == "match":
        return
    out["combat"] = r.combat
    out["combat_rules"] = {
        "edge": r.combat_edge,
        "heal_to": r.heal_to,
        "kill_on": r.kill_on,
        "damage": r.damage,
        "escape_rule": r.escape_rule,
        "pvp": r.combat_pvp,
    }
    by_id = {g.gid: g for g in s.guardians}
    for entry in map(edit, arr(out["guardians"])):
        g = by_id[int(text(entry["id"])[1:])]
        if r.combat == "three":
            entry["kinds"] = [KIND_NAME[kind_of(s, g, t)] for t, _ in g.pile]
            entry["next"] = g.cursor + 1
        elif not full and seat != g.owner:
            entry["pile"] = [["?", "????", base] for _, base in g.pile]
            entry["pips"] = [pips(s.faces[t - 1]) for t, _ in g.pile]
            entry["hidden"] = True
    if s.strike is not None:
        st = s.strike
        mine = full or seat == s.seat
        out["strike"] = {
            "guardian": f"G{st.gid}",
            "laid_count": len(st.laid),
            "laid": [[i + 1, f"t{t}", KIND_NAME[k]] for i, t, k in sorted(st.laid)] if mine else [],
        }
    if s.duel is not None:
        d = s.duel
        out["duel"] = {
            "against": f"G{d.gid}" if d.gid else f"seat {d.foe}",
            "rounds": d.rounds,
            "damage": d.damage,
            "taken": d.taken,
            "owed": d.owed,
            "played": [f"t{d.tile}", face_text(s.faces[d.tile - 1])] if d.tile else None,
            "escape": d.escape,
            "answer": [f"t{d.answer}", face_text(s.faces[d.answer - 1])] if d.answer else None,
            "results": list(d.results[-12:]),
        }


def era_head(v: Mapping[str, JSON]) -> str:
    """The words after 'round N of M' in the text's first line."""
    end = v.get("endgame")
    if not end or obj(end)["kind"] == "rounds":
        return ""
    if obj(end)["last_round"]:
        return " (the last tile is drawn: this round is the last)"
    return " at most (the game ends with the round in which the last tile is drawn)"


def era_pile(g: Mapping[str, JSON]) -> str | None:
    """A guardian's pile as the text shows it, where this era shows it differently."""
    if g.get("hidden"):
        return "face down, pips " + " ".join(str(p) for p in arr(g["pips"]))
    if "kinds" in g:
        tiles = [
            f"{t}:{face}>{kind}{'' if base else '*'}"
            for (t, face, base), kind in zip(map(arr, arr(g["pile"])), arr(g["kinds"]), strict=True)
        ]
        return " ".join(tiles) + f" (next fight from tile {g['next']})"
    return None


def score_words(v: Mapping[str, JSON]) -> str:
    """What the players' scores add up, in the text's header of the players."""
    return "territory tiles + blends" if "territories" in v else "estate squares + blends"


def era_lines(v: Mapping[str, JSON]) -> list[str]:
    """Lines the text adds under the stock line."""
    end = v.get("endgame")
    out = []
    if "era" in v:
        out.append(
            f"Rule era of this game: {v['era']}; its rules are the resource "
            "cogs-arena://rules/blending/game/<your game_id>."
        )
    if "territories" in v:
        rules = obj(v["territory_rules"])
        out += ["", "Territories with a living guardian (connected same-land squares):"]
        for t in objs(v["territories"]):
            who = " and ".join(f"seat {h}" for h in arr(t["holders"]))
            out.append(
                f"  {t['land']} {t['squares']} squares, {t['points']} points, guardians "
                f"{' '.join(texts(t['guardians']))}: held by {who}"
            )
        if not v["territories"]:
            out.append("  none yet")
        out.append(
            f"  (a claim needs {rules['min']} unclaimed squares; a tie for most guardians "
            + ("splits the points" if rules["tie"] == "split" else "pays each tied player")
            + (f"; a merge costs {rules['merge_tax']} tiles" if rules["merge_tax"] else "")
            + ")"
        )
    if end and obj(end)["reshuffle"] == "never":
        out.append("The discard pile is never shuffled back into the stock.")
    if "strike" in v:
        st = obj(v["strike"])
        laid = ", ".join(f"{i}. {t} as {k}" for i, t, k in map(arr, arr(st["laid"])))
        out += [
            "",
            f"Three Strikes against {st['guardian']}: {st['laid_count']} of 3 strikes laid"
            + (f" ({laid})" if laid else ""),
        ]
    if "duel" in v:
        d = obj(v["duel"])
        out += [
            "",
            f"Fight against {d['against']}, round {d['rounds']}: damage dealt {d['damage']}, "
            f"tiles lost {d['taken']}" + (f", {d['owed']} more to discard" if d["owed"] else ""),
        ]
        if d["played"]:
            aim = "to escape" if d["escape"] else "to attack"
            played, answer = arr(d["played"]), arr(d["answer"])
            out.append(f"  played {played[0]}:{played[1]} {aim}; answer {answer[0]}:{answer[1]}")
        out += ["  " + line for line in texts(d["results"])]
    return out
