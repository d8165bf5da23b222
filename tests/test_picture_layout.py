"""What the pictures fixed in issue 24 show: Territory's seat rows whole, Chemistry's vat charges
clear of the cogs, Influence's colours and its finished game's last attacks, Blending's estates
and a guardian visible under the hero that stands on it."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from typing import Any

from jsonpath import arr, ints, num, obj, objs

from cogs_arena.engines import get_engine
from cogs_arena.engines.positions import EXAMPLE_BOTS, example, position
from cogs_arena.engines.svg import CHAR_WIDTH

NS = "{http://www.w3.org/2000/svg}"
Box = tuple[float, float, float, float]


def _elements(svg: str, tag: str) -> list[ET.Element]:
    return list(ET.fromstring(svg).iter(NS + tag))


def _text_box(element: ET.Element) -> Box:
    """A label's box from its size and length (DejaVu's average advance), anchor included."""
    size = float(element.attrib["font-size"])
    width = len(element.text or "") * size * CHAR_WIDTH
    x, y = float(element.attrib["x"]), float(element.attrib["y"])
    anchor = element.attrib.get("text-anchor", "start")
    left = x - {"start": 0.0, "middle": width / 2, "end": width}[anchor]
    return left, y - size * 0.75, left + width, y


def _circle_box(element: ET.Element) -> Box:
    cx, cy, r = (float(element.attrib[k]) for k in ("cx", "cy", "r"))
    return cx - r, cy - r, cx + r, cy + r


def _ranks(engine: Any, state: Any) -> tuple[int, ...]:
    outcome = engine.outcome(state)
    assert outcome is not None, "the position must be a finished game"
    return tuple(outcome.ranks)


def _winner(engine: Any, state: Any) -> int:
    outcome = engine.outcome(state)
    assert outcome is not None and len(outcome.winners) == 1
    return int(outcome.winners[0])


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


# ---- Territory -----------------------------------------------------------------------------


def test_territory_seat_rows_are_whole_for_the_viewer_too() -> None:
    """The viewer's own row, the longest ("(you)", its rank, "(winner)"), is wrapped, not cut
    with an ellipsis, and every row stays inside the picture."""
    engine = get_engine("territory")
    state = position(engine, 7, EXAMPLE_BOTS["territory"], 100)
    winner = next(int(s) for s, r in enumerate(_ranks(engine, state)) if r == 1)
    view = engine.observe(state, winner)
    svg = engine.picture(view)
    words = " ".join(t.text or "" for t in _elements(svg, "text"))
    alias = view["alias"]
    assert "…" not in words
    assert re.search(rf"{alias} \(you\): hearth \S+, \w+, rank 1 (\(winner\))?", words)
    assert "(winner)" in words
    height = float(ET.fromstring(svg).attrib["height"])
    assert all(float(t.attrib["y"]) < height for t in _elements(svg, "text"))


# ---- Chemistry -----------------------------------------------------------------------------


def test_a_cog_on_a_vat_pad_does_not_cover_its_charge() -> None:
    """Cogs standing on every cell of each pad (where a delivering cog stands) leave each
    vat's charge label uncovered."""
    engine = get_engine("chemistry")
    view: dict[str, Any] = copy.deepcopy(engine.observe(example(engine), 0))
    cells = [
        [cx + dx, cy + dy]
        for cx, cy in (v["centre"] for v in view["vats"])
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
    ]
    template = view["cogs"][0]
    view["cogs"] = [
        {**template, "seat": k % 8, "cell": cell, "hand": ["resin"]} for k, cell in enumerate(cells)
    ]
    svg = engine.picture(view)
    charges = [t for t in _elements(svg, "text") if "charge" in (t.text or "")]
    on_room = [t for t in charges if ":" in (t.text or "") and "; " not in (t.text or "")]
    assert len(on_room) == 3, [t.text for t in charges]
    cogs = [c for c in _elements(svg, "circle") if float(c.attrib["r"]) == 9]
    assert len(cogs) == len(cells)
    for label in on_room:
        for cog in cogs:
            assert not _overlap(_text_box(label), _circle_box(cog)), label.text


# ---- Influence -----------------------------------------------------------------------------


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def test_influence_draws_white_blue_and_black_red() -> None:
    """As the rules say (rules.md §2): a White cell is blue, a Black cell red, on the board and
    in the seats' swatches."""
    engine = get_engine("influence")
    view = engine.observe(example(engine), 0)
    svg = engine.picture(view)
    labels = {t.text: t for t in _elements(svg, "text")}
    assert "White cell (blue), with its strength" in labels
    tiles = [p.attrib["fill"] for p in _elements(svg, "polygon") if p.attrib["fill"] != "none"]
    values = [num(v) for row in arr(view["grid"]) for v in arr(row) if v is not None]
    blue = [c for c in tiles if _rgb(c)[2] > _rgb(c)[0] + 60]
    red = [c for c in tiles if _rgb(c)[0] > _rgb(c)[2] + 60]
    assert len(blue) == sum(1 for v in values if v > 0)
    assert len(red) == sum(1 for v in values if v < 0)


def test_a_finished_influence_game_shows_the_attacks_that_won_it() -> None:
    """The winner's picture at the end draws the ending turn's attacks (its own), as the loser's
    and the spectator's do: the three views carry the same last turn."""
    engine = get_engine("influence")
    state = position(engine, 1, ("greedy", "random"), 3000)
    assert state.phase == "over"
    winner = _winner(engine, state)
    views = [engine.observe(state, winner), engine.observe(state, 1 - winner)]
    views.append(engine.spectate(state, full=False))
    last = [obj(v["last_turn"]) for v in views]
    assert last[0] == last[1] == last[2]
    assert last[0]["seat"] == views[0]["you"], "the turn that ended the game is the winner's"
    attacks = len(arr(last[0]["attacks"]))
    assert attacks > 0
    svg = engine.picture(views[0])
    arrows = [e for e in _elements(svg, "line") if "marker-end" in e.attrib]
    assert len(arrows) == attacks + 1  # and the legend's


# ---- Blending ------------------------------------------------------------------------------


def test_blending_draws_each_guardians_estate() -> None:
    """Under the estates rules each guardian's 3x3 is outlined in its owner's colour."""
    engine = get_engine("blending")
    view = engine.observe(example(engine), 0)
    assert view["guardians"] and "territories" not in view
    svg = engine.picture(view)
    dashed = [r for r in _elements(svg, "rect") if r.attrib.get("stroke-dasharray") == "6,3"]
    estates = dashed[:-1]  # the last is the legend's
    assert len(estates) == len(arr(view["guardians"]))
    sides = {round(float(r.attrib["width"])) for r in estates}
    assert len(sides) == 1
    assert "a guardian's estate: the 3x3 it guards" in svg


def test_a_hero_on_a_guardians_square_leaves_the_guardian_visible() -> None:
    """Heroes standing on guardians (seats 0-2 in the example) are drawn beside the shield:
    no hero's disc covers the guardian's name."""
    engine = get_engine("blending")
    view = engine.observe(example(engine), 0)
    heroes = {tuple(ints(p["hero"])) for p in objs(view["players"])}
    shared = [g["id"] for g in objs(view["guardians"]) if tuple(ints(g["at"])) in heroes]
    assert len(shared) >= 2, "the example puts heroes on guardians"
    svg = engine.picture(view)
    names = [t for t in _elements(svg, "text") if t.text in shared]
    assert len(names) == len(shared)
    discs = [c for c in _elements(svg, "circle") if c.attrib.get("stroke") == "#ffffff"]
    for name in names:
        for disc in discs:
            assert not _overlap(_text_box(name), _circle_box(disc)), name.text
