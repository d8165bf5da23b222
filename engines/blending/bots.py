"""Bots: `random` (uniform over the menu, with a sane discard) and `builder` (plays to win).

Bots read only the observation and the menu. The builder's plan, recomputed at every decision:
raise a guardian where its 3x3 is rich (walking there first), fight a rival guardian when every
tile of it can be beaten without risk (a kind that can win and never loses), paint its estates
with their land, lay blends on their borders and rivals' estates with other lands, walk toward
the next site or a beatable guardian, bolster a guardian a rival hero stands near, swap tiles it
has no use for, and end the turn. Its discards and guardian piles keep home singles for
painting. A few one-slot caches keyed by identity keep it fast; they never change a choice.

Hosts build the menu only when a bot reads it, and a turn's menu lists every placement on the
map, so the builder reads it only for what the observation cannot settle: the ruleset fields it
does not show (a guardian's site and pile needs, pile_max, near_count). Everything else (steps,
first placements, fights, picks, lays) it checks exactly as the menu would.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ..protocol import Bot, LegalMoves
from ..rng import Stream
from .bot_view import NEAR9, BoardView, Pos, blocks_of, cheb
from .odds import lay_odds
from .tile_choice import pile_pick, sane_discard
from .tiles import START, Face, beats, face_from_text, fits

Tie = Callable[[str], tuple[int, str]]
"""A sort key for equally valued moves by their notation: (rank, notation)."""


def by_notation(note: str) -> tuple[int, str]:
    """The builder's own tie order: notation order."""
    return (0, note)


def random_bot(obs: Mapping[str, Any], menu: LegalMoves, rng: Stream) -> str:
    if obs["phase"] in ("discard", "loss"):
        return sane_discard(obs)
    return rng.choice(menu.moves).notation


# ---- builder -------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def _kind_odds(target: Face, kind: int) -> tuple[float, float]:
    win = sum(1 for c in target if beats(kind, c)) / 4
    lose = sum(1 for c in target if beats(c, kind)) / 4
    return win, lose


MAX_EXPECTED_LOSS = 1.5
"""The builder fights when the tiles it expects to lose (discards after lost pairs) stay below
this: for each pile tile the best kind's exact loss / win odds (odds.lay_odds), summed."""


@lru_cache(maxsize=1024)
def _exact(target: Face, kind: int) -> tuple[Fraction, Fraction]:
    win, _, loss = lay_odds(target, kind)
    return win, loss


def _favoured(target: Face, kinds: set[int]) -> tuple[float, int] | None:
    """The kind whose exact odds against `target` are best (win above loss): (loss / win, kind)."""
    best: tuple[float, int] | None = None
    for k in sorted(kinds):
        win, loss = _exact(target, k)
        if win > loss and (best is None or loss / win < best[0]):
            best = (float(loss / win), k)
    return best


def fight_odds_favour(pile: list[Face], hand: list[tuple[int, Face]]) -> bool:
    """A fight is worth it when every pile tile has a kind in hand whose exact odds favour it,
    the tiles expected to be lost stay below MAX_EXPECTED_LOSS and the hand outnumbers the pile
    (a loss costs a tile, and the fight ends when the hand is empty)."""
    kinds = {k for _, face in hand for k in face}
    expected = 0.0
    for target in pile:
        best = _favoured(target, kinds)
        if best is None:
            return False
        expected += best[0]
    return expected < MAX_EXPECTED_LOSS and len(hand) > len(pile)


def _would_fight(v: BoardView, g: Mapping[str, Any]) -> bool:
    if "combat" in v.obs:  # an older era's combat (issue 14)
        from .eras.dispatch import wants_fight

        return wants_fight(v, g)
    return fight_odds_favour([face_from_text(f) for _, f, _ in g["pile"]], v.hand)


def _estate_value(v: BoardView, center: Pos, land: int) -> int:
    pts = v.land_count(center, land)
    for tl in v.blends:
        if center[0] - 2 <= tl[0] <= center[0] + 1 and center[1] - 2 <= tl[1] <= center[1] + 1:
            pts += 2
    return pts


class _Notes:
    """Membership in a slice of the menu, the set built only if asked."""

    def __init__(self, moves: Sequence[Any]) -> None:
        self.moves = moves
        self.notes: set[str] | None = None

    def __contains__(self, note: object) -> bool:
        if self.notes is None:
            self.notes = {m.notation for m in self.moves}
        return note in self.notes


def _single_legal(v: BoardView, p: Pos, near_only: bool) -> bool:
    """A single on blank square p: shares an edge with a placed square (near the hero if the
    turn's first placement was near): the menu's own rule for blank squares, which lets _turn
    skip the menu for a first placement."""
    if near_only and cheb(p, v.hero) > 1:
        return False
    sq = v.squares
    x, y = p
    return (x, y - 1) in sq or (x + 1, y) in sq or (x, y + 1) in sq or (x - 1, y) in sq


def _candidates(v: BoardView, near_only: bool, tie: Tie = by_notation) -> list[tuple[float, str]]:
    """Placements worth weighing, best first: blank squares of estates and around the hero for
    singles, blend spots touching the builder's estates or at its hero's corners."""
    out: list[tuple[float, str]] = []
    squares = v.squares
    hx, hy = v.hero
    # after a near placement only the hero's 3x3 can take more, so estates elsewhere are skipped
    estates = () if near_only else v.mine
    spots: dict[Pos, None] = {}
    for dx, dy in NEAR9:
        spots[(hx + dx, hy + dy)] = None
    for _, (gx, gy), _, _ in estates:
        for dx, dy in NEAR9:
            spots[(gx + dx, gy + dy)] = None
    singles = [(face[0], t) for face, t in v.first.items() if len(set(face)) == 1]
    # triples are the only tiles a rival cannot beat without risk: those a future or a weak
    # pile will want stay in hand
    spare = sum(1 for _, face in v.hand if len(set(face)) == 3) - _triples_wanted(v)
    blends = [
        (face, t)
        for face, t in v.first.items()
        if len(set(face)) == 2 or (len(set(face)) == 3 and spare > 0)
    ]
    floor = 0.25  # below this the builder would rather not place at all
    estate = v.estate
    home = v.home
    if singles:
        for p in spots:
            if p in squares:
                continue
            covering = estate.get(p)
            legal: bool | None = None
            for land, t in singles:
                if not covering and land != home:
                    continue  # a stray single: worth less than the floor
                value = v.single_value(p, land)
                if value <= floor:
                    continue
                if legal is None:
                    legal = _single_legal(v, p, near_only)
                if legal:
                    out.append((value, f"place t{t} {p[0]},{p[1]}"))
    if blends:
        blend_pats = [(face, t, fits(face, v.obs["triple_match"])) for face, t in blends]
        tls: dict[Pos, None] = {}
        for _, (gx, gy), _, _ in estates:
            for x in range(gx - 2, gx + 2):
                for y in range(gy - 2, gy + 2):
                    tls[(x, y)] = None
        for x in (hx - 1, hx):
            for y in (hy - 1, hy):
                tls[(x, y)] = None
        blocks = blocks_of(squares)
        for tl in tls:
            spot = blocks.get(tl)
            if spot is None or tl in v.blends:
                continue
            x, y = tl
            for face, t, pats in blend_pats:
                rot = pats.get(spot)
                if rot is None:
                    continue
                value = v.blend_value(tl, face)
                if value > floor:
                    out.append((value, f"place t{t} {x},{y} r{rot}"))
    out.sort(key=lambda e: (-e[0], tie(e[1])))
    return out


def _target(v: BoardView) -> Pos | None:
    turn = v.obs.get("turn", {})
    hx, hy = v.hero
    if not turn.get("main") and v.left > 0 and len(v.hand) >= 3:
        best: tuple[float, Pos] | None = None
        # with no living guardian (none raised yet, or its only one killed) every site on the
        # map is worth the walk: a builder with tokens and nothing to guard scores nothing
        reach = 2 if v.mine else REBUILD_REACH
        for dx in range(-reach, reach + 1):
            for dy in range(-reach, reach + 1):
                p = (hx + dx, hy + dy)
                land = v.squares.get(p)
                if land is None or land == START or not v.site_ok(p):
                    continue

                score = _estate_value(v, p, land) + (1.0 if land == v.home else 0.0)
                score -= max(abs(dx), abs(dy)) * (1.0 if v.mine else 0.5)
                if best is None or score > best[0]:
                    best = (score, p)
        if best is not None:
            return best[1]
        if not v.mine and (seed := _seed_site(v)) is not None:
            return seed[0]
        for owner, at, _, g in v.guardians:
            if owner != v.seat and cheb(at, v.hero) <= 3 and _would_fight(v, g):
                return at
    if v.mine:
        blanks = []
        for _, at, _, _ in v.mine:
            empty = sum(1 for dx, dy in NEAR9 if (at[0] + dx, at[1] + dy) not in v.squares)
            blanks.append((-empty, cheb(at, v.hero), at))
        blanks.sort()
        if blanks[0][0] < 0:
            return blanks[0][2]
    return None


REBUILD_REACH = 8
"""How far a builder without a living guardian looks for a site to raise one."""


def _seed_site(v: BoardView) -> tuple[Pos, int, list[int]] | None:
    """With no living guardian and no site standing, the square to make one on: an uncrowded
    land square whose 3x3 reaches the estate minimum with the singles of its land in hand
    (nearest and fullest first), with those singles' ids."""
    best: tuple[float, Pos, int, list[int]] | None = None
    for p, land in v.squares.items():
        if land == START or p in v.crowded or cheb(p, v.hero) > REBUILD_REACH:
            continue
        have = v.land_count(p, land)
        singles = [t for t, face in v.hand if face == (land,) * 4]
        need = 3 - have
        if need > len(singles) or len(v.hand) - need < 3:
            continue
        score = have - 0.3 * cheb(p, v.hero) + (0.5 if land == v.home else 0.0)
        if best is None or score > best[0]:
            best = (score, p, land, singles[: max(0, need)])
    return None if best is None else (best[1], best[2], best[3])


def _seed_placement(v: BoardView, near_only: bool) -> str | None:
    """A single that brings the seed site's 3x3 toward the estate minimum."""
    seed = _seed_site(v)
    if seed is None or not seed[2]:
        return None
    (px, py), _, singles = seed
    for dx, dy in NEAR9:
        q = (px + dx, py + dy)
        if q not in v.squares and _single_legal(v, q, near_only):
            return f"place t{singles[0]} {q[0]},{q[1]}"
    return None


def _fight_move(v: BoardView) -> str:
    f = v.obs["fight"]
    contested = {p for p, _, _ in f["laid"]}
    laid_tiles = {t for _, t, _ in f["laid"]}
    if not f["flipped"]:
        # before the pass's first flip the menu offers every hand tile against every free
        # position with each of its kinds, so the best lay is always on it
        best: tuple[float, str] | None = None
        for i, (_, face_text, state) in enumerate(f["row"], start=1):
            if state != "live" or i in contested:
                continue
            target = face_from_text(face_text)
            for t, face in v.hand:
                if f"t{t}" in laid_tiles:
                    continue
                for kind in set(face):
                    win, lose = _kind_odds(target, kind)
                    score = win - 2 * lose - 0.01 * len(set(face))
                    if win > lose and (best is None or score > best[0]):
                        best = (score, f"lay t{t}@{i} {('slice', 'shoot', 'cast')[kind]}")
        if best is not None:
            return best[1]
    flipped = set(f["flipped"])
    if any(p not in flipped for p in contested):
        return "flip"
    return "stop"


def _walk(obs: Mapping[str, Any], notes: list[str], tie: Tie = by_notation) -> str:
    used = [p["walk"] for p in obs["players"] if p["walk"]]
    vec = {"N": (0, -2), "E": (2, 0), "S": (0, 2), "W": (-2, 0)}
    vec.update({"NE": (2, -2), "SE": (2, 2), "SW": (-2, 2), "NW": (-2, -2)})

    def spread(n: str) -> tuple[int, tuple[int, str]]:
        d = n.split()[1]
        return (-min((cheb(vec[d], vec[u]) for u in used), default=9), tie(n))

    return min(notes, key=spread)


def builder_bot(obs: Mapping[str, Any], menu: LegalMoves, rng: Stream) -> str:
    return play_builder(obs, menu, by_notation)


def play_builder(obs: Mapping[str, Any], menu: LegalMoves, tie: Tie) -> str:
    """The builder, with `tie` ordering its equally valued placements, steps and walks."""
    phase = obs["phase"]
    if "combat" in obs or "territories" in obs:  # an older era (issue 14)
        from .eras.dispatch import era_builder

        if (era := era_builder(obs, menu)) is not None:
            return era
    if phase in ("discard", "loss"):
        return sane_discard(obs)
    if phase == "turn":
        return _turn(BoardView(obs), menu, tie)
    if phase == "walk":
        return _walk(obs, [m.notation for m in menu.moves], tie)
    v = BoardView(obs)  # picks and fight steps are settled by the observation: no menu needed
    if phase == "fight":
        return _fight_move(v)
    if phase == "pick":
        picks = [f"pick t{t}" for t, _ in v.hand]
        if obs["pick"]["for"] == "rebuild":
            at = (obs["pick"]["at"][0], obs["pick"]["at"][1])
            land = v.squares.get(at, START)
            # a builder with no living guardian takes any estate it has freed
            if land != START and (v.land_count(at, land) >= 2 or not v.mine) and picks:
                return pile_pick(v, picks)
            return "skip"
        if obs["pick"]["for"] == "swap":
            dead = _dead(v)
            if dead:
                return f"pick t{dead[0]}"
            return "done" if obs["pick"]["count"] else picks[0]
        return pile_pick(v, picks)
    return "end"


class _Kinds:
    """The menu's notations by kind, read only when the observation cannot settle a question:
    it does not show every ruleset field (the guardian pile size and spacing, pile_max,
    near_count), so those answers come from the menu."""

    def __init__(self, options: LegalMoves) -> None:
        self.options = options
        self.by_kind: dict[str, list[str]] | None = None
        self.placements: _Notes | None = None

    def _scan(self) -> dict[str, list[str]]:
        if self.by_kind is None:
            # the menu lists moves, then placements, then the rest: only the ends need a scan
            moves = self.options.moves
            i = 0
            while i < len(moves) and moves[i].kind == "move":
                i += 1
            j = len(moves)
            while j > i and moves[j - 1].kind != "placement":
                j -= 1
            self.by_kind = {}
            for m in (*moves[:i], *moves[j:]):
                self.by_kind.setdefault(m.kind, []).append(m.notation)
            self.placements = _Notes(moves[i:j]) if j > i else None
        return self.by_kind

    def of(self, kind: str) -> list[str]:
        return self._scan().get(kind, [])

    def placement_notes(self) -> _Notes | None:
        self._scan()
        return self.placements


def _steps(v: BoardView) -> list[str]:
    """The menu's step entries: every placed square around the hero that the moves left pay for
    (a step onto home land costs 1, any other native_speed)."""
    turn = v.obs["turn"]
    speed, left = int(v.obs["native_speed"]), int(turn["moves_left"])
    hx, hy = v.hero
    out = []
    for dx, dy in NEAR9:
        dest = (hx + dx, hy + dy)
        land = v.squares.get(dest)
        if dest != v.hero and land is not None and (1 if land == v.home else speed) <= left:
            out.append(f"move {dest[0]},{dest[1]}")
    return out


def _turn(v: BoardView, options: LegalMoves, tie: Tie) -> str:
    menu = _Kinds(options)
    turn = v.obs["turn"]
    free = not turn["main"]  # no main action yet: every main action needs this
    hand = bool(v.hand)
    land = v.squares[v.hero]
    # a guardian on the hero's own square always blocks; the rest of the site rules (spacing,
    # land needed, pile size) are ruleset fields only the menu knows
    if (
        free
        and hand
        and v.left > 0
        and land != START
        and all(at != v.hero for _, at, _, _ in v.guardians)
        and (land == v.home or _estate_value(v, v.hero, land) >= 4 or not v.mine)
        and "guardian" in menu.of("guardian")
    ):
        return "guardian"
    if free and hand and "combat" not in v.obs:  # older eras fight in eras/bots.py
        for owner, at, _, g in v.guardians:
            if owner != v.seat and cheb(at, v.hero) <= 1 and _would_fight(v, g):
                return f"fight {g['id']}"
    if free and not v.mine and v.left > 0 and turn["placement_mode"] != "far":
        # nothing to guard and tokens left: make a site before anything else
        seed = _seed_placement(v, bool(turn["placed"]))
        placements = menu.placement_notes() if seed and turn["placed"] else None
        if seed is not None and (not turn["placed"] or (placements and seed in placements)):
            return seed
    best: tuple[float, str] | None = None
    if not turn["placed"]:
        # the first placement may go anywhere, and _candidates then checks exactly what the
        # menu would: every candidate is on it
        candidates = _candidates(v, False, tie)
        best = candidates[0] if candidates else None
    elif turn["placement_mode"] == "near":
        # how many near placements a turn allows is a ruleset field: ask the menu, but only
        # when there is something worth placing
        candidates = _candidates(v, True, tie)
        placements = menu.placement_notes() if candidates else None
        if placements is not None:
            best = next(((value, n) for value, n in candidates if n in placements), None)
    if best is not None and best[0] > 0.25:
        return best[1]
    target = _target(v)
    if target is not None and target != v.hero:
        now = cheb(v.hero, target)
        step: tuple[int, int, tuple[int, str]] | None = None
        for n in _steps(v):
            x, y = (int(c) for c in n[5:].split(","))
            key = (cheb((x, y), target), 0 if v.squares.get((x, y)) == v.home else 1, tie(n))
            if step is None or key < step:
                step = key
        if step is not None and step[0] < now:
            return step[2][1]
    if free and hand:
        for _, at, _, g in v.mine:
            threatened = any(cheb(h, at) <= 2 for seat, h in enumerate(v.heroes) if seat != v.seat)
            # a pile of singles and doubles dies at no risk to the right kinds: a triple in
            # hand goes onto it even when no rival stands near
            weak = not _has_triple(g) and any(len(set(face)) == 3 for _, face in v.hand)
            if (threatened or weak) and len(g["pile"]) < 6 and cheb(at, v.hero) <= 1:
                gid = g["id"]
                offers = [
                    f"pick {n.split()[1]}" for n in menu.of("bolster") if n.endswith(" " + gid)
                ]
                if offers:
                    tile = pile_pick(v, offers).split()[1]  # the menu's entry (with a kind)
                    return next(n for n in menu.of("bolster") if n.split()[1:3] == [tile, gid])
        dead = _dead(v)
        # a stock shorter than the swap reshuffles the discard pile, the swapped tiles with it,
        # into the draw: the builder would swap the same tiles back and forth
        if len(dead) >= 3 and len(v.hand) >= 8 and int(v.obs["stock"]) >= len(dead):
            return "swap"
    return "end"


def _triples_wanted(v: BoardView) -> int:
    """One triple for each guardian still to raise and each own pile without one."""
    return int(v.left) + sum(1 for _, _, _, g in v.mine if not _has_triple(g))


def _has_triple(g: Mapping[str, Any]) -> bool:
    return any(len(set(face)) == 3 for _, face, _ in g["pile"])


def _dead(v: BoardView) -> list[int]:
    """Tiles the builder has no use for: singles of a land none of its guardians stands on."""
    lands = {v.home} | {land for _, _, land, _ in v.mine}
    return [t for t, face in v.hand if len(set(face)) == 1 and face[0] not in lands]


BOTS: dict[str, Bot] = {"random": random_bot, "builder": builder_bot}
