"""Where the older eras take over a move, a menu or a fallback from the current rules' code.
Each function returns None where the current rules apply unchanged (always, under the defaults).

The one door from the modules built on the current rules (engine, views, render, bots) into
the eras: their view fields, report lines, rules text and bots come through here too."""

from __future__ import annotations

from ...errors import IllegalMove
from ...protocol import MoveInfo
from ..edits import home
from ..menu import entries, turn_entries
from ..moves import Move
from ..state import State
from ..tile_choice import worst_tile
from ..tiles import KIND_NAME, describe, face_text
from . import legacy, merge, piles, three
from .bots import era_builder as era_builder
from .bots import wants_fight as wants_fight
from .guardians import kind_of, power, rebuild_required
from .rules_text import era_prompt as era_prompt
from .rules_text import era_rules as era_rules
from .views import era_head as era_head
from .views import era_lines as era_lines
from .views import era_pile as era_pile
from .views import era_view as era_view
from .views import score_words as score_words

FIGHT_VERBS = {"three": ("lay", "stop"), "legacy": ("strike", "escape")}


def _refuse(s: State, verb: str, allowed: tuple[str, ...]) -> IllegalMove:
    return IllegalMove(f"'{verb}' is not possible now ({s.phase}).", allowed=", ".join(allowed))


def era_apply(s: State, move: Move) -> State | None:
    style, phase, verb = s.rules.combat, s.phase, move.verb
    if phase == "turn" and verb == "place" and merge.taxed(s, move):
        return merge.place(s, move)
    if phase == "pick" and s.pick_for == "tax":
        if verb != "pick":
            raise _refuse(s, verb, ("pick",))
        return merge.pick(s, move)
    if style == "match":
        return None
    if phase == "turn":
        if verb == "fight":
            return three.do_fight(s, move) if style == "three" else legacy.do_fight(s, move)
        if verb == "duel" and style == "legacy":
            return legacy.do_duel(s, move)
        if verb == "bolster" and style == "three":
            return piles.do_bolster(s, move)
        return None
    if phase == "pick":
        if verb == "skip" and s.pick_for == "rebuild" and rebuild_required(s):
            raise IllegalMove(
                "Under this era's combat the killer keeps 3 tiles on a new guardian (BE6).",
                allowed="pick tID" + (" KIND" if style == "three" else ""),
            )
        return piles.do_pick(s, move) if verb == "pick" else None
    if phase == "fight":
        if verb not in FIGHT_VERBS[style]:
            raise _refuse(s, verb, FIGHT_VERBS[style])
        if style == "three":
            return three.do_lay(s, move) if verb == "lay" else three.do_stop(s)
        return legacy.do_strike(s, move)
    if phase == "announce":
        if verb != "announce":
            raise _refuse(s, verb, ("announce",))
        return legacy.do_announce(s, move)
    if phase == "loss" and verb == "discard":
        return legacy.do_damage_discard(s, move)
    return None


def era_default(s: State) -> Move | None:
    style, phase = s.rules.combat, s.phase
    hand = s.hands[s.seat]
    if phase == "pick" and s.pick_for == "tax":
        return Move("pick", tile=worst_tile(s.faces, hand, home(s.seat)))
    if style == "match":
        return None
    if phase == "fight":
        if style == "three":
            return Move("stop")
        return Move("escape", tile=worst_tile(s.faces, hand, home(s.seat)))
    if phase == "announce":
        return Move("announce", kind=best_announce(s))
    if phase == "pick" and s.pick_for != "swap" and not (s.pick_for == "rebuild" and not hand):
        if s.pick_for == "rebuild" and not rebuild_required(s):
            return None
        tile = worst_tile(s.faces, hand, home(s.seat))
        kind = s.faces[tile - 1][0] if style == "three" else -1
        return Move("pick", tile=tile, kind=kind)
    return None


def best_announce(s: State) -> int:
    """The attacker's kind that does best once the defender answers its best (BE11)."""
    d = s.duel
    assert d is not None

    def margin(k: int) -> tuple[int, int]:
        answer = legacy.best_answer(s, d.answer, d.tile, k)
        return (power(s, d.tile, k, answer) - power(s, d.answer, answer, k), -k)

    return max(set(s.faces[d.tile - 1]), key=margin)


def menu_of(s: State) -> list[MoveInfo]:
    got = era_entries(s)
    return entries(s) if got is None else got


def _tile(s: State, t: int) -> str:
    return f"t{t} ({describe(s.faces[t - 1])})"


def _kinds(s: State, t: int) -> list[int]:
    return sorted(set(s.faces[t - 1]))


def era_entries(s: State) -> list[MoveInfo] | None:
    style, phase = s.rules.combat, s.phase
    if phase == "pick" and s.pick_for == "tax":
        return merge.entries(s)
    if phase == "turn" and (style != "match" or s.rules.merge_tax):
        return merge.mark(s, turn_entries(s) if style == "match" else _turn(s))
    if style == "match":
        return None
    hand = s.hands[s.seat]
    if phase == "pick" and s.pick_for != "swap":
        out = []
        for t in hand:
            kinds = _kinds(s, t) if style == "three" and len(_kinds(s, t)) > 1 else [-1]
            for k in kinds:
                shows = f", showing {KIND_NAME[k]}" if k >= 0 else ""
                note = f"pick t{t}" + (f" {KIND_NAME[k]}" if k >= 0 else "")
                what = "face down " if style == "legacy" else ""
                out.append(MoveInfo(note, f"pick {_tile(s, t)}{shows} for the {what}pile", "pick"))
        return out
    if phase == "fight" and style == "three":
        st = s.strike
        assert st is not None
        free = [i for i in range(1, 4) if all(slot != i - 1 for slot, _, _ in st.laid)]
        out = [
            MoveInfo(
                f"lay t{t}@{i} {KIND_NAME[k]}",
                f"commit {_tile(s, t)} as strike {i}, showing {KIND_NAME[k]}",
                "lay",
            )
            for t in hand
            for i in free
            for k in _kinds(s, t)
        ]
        out.append(
            MoveInfo("stop", "withdraw: laid tiles back to hand (main action spent)", "stop")
        )
        return out
    if phase == "fight":
        return [
            MoveInfo(f"{verb} t{t}", f"play {_tile(s, t)} face down {why}", verb)
            for verb, why in (("strike", "to attack"), ("escape", "to escape"))
            for t in hand
        ]
    if phase == "announce":
        d = s.duel
        assert d is not None
        return [
            MoveInfo(f"announce {KIND_NAME[k]}", f"t{d.tile} fights as {KIND_NAME[k]}", "announce")
            for k in _kinds(s, d.tile)
        ]
    return None


def _turn(s: State) -> list[MoveInfo]:
    """The current rules' turn menu with this era's fights (and hero fights, and bolsters that
    name a kind) in place of the match's."""
    base = [m for m in turn_entries(s) if m.kind not in ("fight", "bolster")]
    cut = next((i for i, m in enumerate(base) if m.kind in ("guardian", "swap", "end")), len(base))
    if s.main:
        return base
    style = s.rules.combat
    hero = s.heroes[s.seat]
    problem = three.fight_problem if style == "three" else legacy.fight_problem
    extra = [
        MoveInfo(f"fight G{g.gid}", _fight_text(s, g.gid), "fight")
        for g in s.guardians
        if not problem(s, g.gid)
    ]
    if style == "legacy":
        extra += [
            MoveInfo(f"duel {foe}", f"fight seat {foe}'s hero (hand {len(s.hands[foe])})", "duel")
            for foe in range(s.rules.players)
            if foe != s.seat and not legacy.duel_problem(s, foe)
        ]
    for g in s.guardians:
        if max(abs(g.x - hero[0]), abs(g.y - hero[1])) > 1 or len(g.pile) >= s.rules.pile_max:
            continue
        for t in s.hands[s.seat]:
            kinds = _kinds(s, t) if style == "three" and len(_kinds(s, t)) > 1 else [-1]
            for k in kinds:
                shows = f" {KIND_NAME[k]}" if k >= 0 else ""
                what = f"put {_tile(s, t)}{shows} under G{g.gid} (seat {g.owner})"
                extra.append(MoveInfo(f"bolster t{t} G{g.gid}{shows}", what, "bolster"))
    return base[:cut] + extra + base[cut:]


def _fight_text(s: State, gid: int) -> str:
    g = next(x for x in s.guardians if x.gid == gid)
    if s.rules.combat == "three":
        nxt = three.answers(s, g)
        shown = " ".join(f"t{t}:{face_text(s.faces[t - 1])}>{KIND_NAME[k]}" for t, k in nxt)
        return f"fight G{gid} (seat {g.owner}, {len(g.pile)} tiles; next 3: {shown})"
    backs = " ".join(str(len(set(s.faces[t - 1]))) for t, _ in g.pile)
    return f"fight G{gid} (seat {g.owner}, face-down pile of pips {backs})"


__all__ = ["era_apply", "era_default", "era_entries", "kind_of", "menu_of"]
