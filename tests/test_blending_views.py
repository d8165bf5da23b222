"""Hidden information (B20), views, rendering, serialisation and replay."""

from __future__ import annotations

import json
import re

from jsonpath import objs

from cogs_arena.engines import get_engine
from cogs_arena.engines.blending.state import State
from cogs_arena.engines.blending.tiles import pips
from cogs_arena.engines.canonical import canonical_json
from cogs_arena.engines.rng import Stream
from cogs_arena.engines.runner import bot_stream

E = get_engine("blending")
TOKEN = re.compile(r"\bt(\d+)\b")


def exposed_now(s: State) -> set[int]:
    """Tiles face up right now: on the map, in piles, in the discard pile, laid in a fight."""
    out = {t for stack in s.stacks.values() for t in stack}
    out |= {t for t, _, _ in s.blends.values()}
    out |= {t for g in s.guardians for t, _ in g.pile}
    out |= set(s.discard)
    if s.fight is not None:
        out |= {t for _, t, _ in s.fight.laid} | set(s.fight.taken) | set(s.fight.beaten)
    return out


def tokens(view: object, text: str) -> set[int]:
    return {int(x) for x in TOKEN.findall(json.dumps(view) + "\n" + text)}


def test_no_view_shows_another_seats_hand_faces_over_whole_games() -> None:
    bots = E.bots()
    for seed, names in (
        (1, ["builder", "random", "builder", "random"]),
        (2, ["random"] * 4),
        (3, ["builder"] * 4),
    ):
        s = E.new_game(E.ruleset(), seed)
        public: set[int] = set()
        step = 0
        while E.to_act(s):
            public |= exposed_now(s)
            hidden = {
                seat: (set(s.hands[seat]) | (set(s.picked) if s.seat == seat else set())) - public
                for seat in range(4)
            }
            if step % 3 == 0:
                spectator = E.spectate(s, full=False)
                seen = tokens(spectator, E.render(spectator))
                assert not seen & set().union(*hidden.values())
                for viewer in range(4):
                    view = E.observe(s, viewer)
                    assert [p for p in objs(view["players"]) if "hand" in p] == []
                    seen = tokens(view, E.render(view))
                    others = set().union(*(h for seat, h in hidden.items() if seat != viewer))
                    assert not seen & others, (seed, step, viewer, seen & others)
            seat = s.seat
            menu = E.legal_moves(s, seat)
            text = bots[names[seat]](E.observe(s, seat), menu, bot_stream(seed, seat, step))
            move = E.parse_move(s, seat, text)
            for viewer in range(4):
                shown = E.visible_move_text(move, seat, viewer)
                if shown is not None and viewer != seat:
                    named = {int(x) for x in TOKEN.findall(shown)}
                    nxt = E.apply(s, seat, move)
                    # A discarded tile lands face up on the discard pile, even when the same
                    # transition then shuffles that pile into a new stock.
                    faced = named if move.verb == "discard" else set()
                    assert named <= public | exposed_now(nxt) | faced
            if move.verb == "done":  # swapped tiles go face up, even if a reshuffle returns them
                public |= set(s.picked)
            s = E.apply(s, seat, move)
            step += 1
        full = E.spectate(s, full=True)
        assert all("hand" in p for p in objs(full["players"]))


def _redeal(s: State, viewer: int, seed: int) -> State:
    """Re-deals every tile the viewer cannot see (other hands and the stock), keeping each
    rival's counts by pips (which are public)."""
    slots: list[tuple[str, int, int]] = []
    for seat in range(len(s.hands)):
        if seat != viewer:
            slots += [("hand", seat, t) for t in s.hands[seat]]
    slots += [("stock", -1, t) for t in s.stock]
    by_pips: dict[int, list[int]] = {}
    for _, _, t in slots:
        by_pips.setdefault(pips(s.faces[t - 1]), []).append(t)
    rng = Stream(seed, "redeal")
    pools = {k: rng.shuffled(v) for k, v in by_pips.items()}
    hands = [list(h) if seat == viewer else [] for seat, h in enumerate(s.hands)]
    stock = []
    for where, seat, t in slots:
        new = pools[pips(s.faces[t - 1])].pop()
        if where == "hand":
            hands[seat].append(new)
        else:
            stock.append(new)
    out = s.clone()
    out.hands = tuple(tuple(sorted(h)) for h in hands)
    out.stock = tuple(stock)
    return out


def test_redealing_hidden_tiles_leaves_the_view_unchanged() -> None:
    bots = E.bots()
    s = E.new_game(E.ruleset(), 21)
    step = 0
    checked = 0
    while E.to_act(s):
        if step % 40 == 5:
            for viewer in range(4):
                other = _redeal(s, viewer, step)
                assert other.hands != s.hands or other.stock != s.stock
                a, b = E.observe(s, viewer), E.observe(other, viewer)
                assert canonical_json(a) == canonical_json(b)
                assert E.render(a) == E.render(b)
                if s.seat == viewer:
                    assert E.legal_moves(s, viewer) == E.legal_moves(other, viewer)
                checked += 1
        seat = s.seat
        text = bots["builder"](
            E.observe(s, seat), E.legal_moves(s, seat), bot_stream(21, seat, step)
        )
        s = E.apply(s, seat, E.parse_move(s, seat, text))
        step += 1
    assert checked >= 8


def test_render_shows_the_map_hand_and_scores() -> None:
    s = E.new_game(E.ruleset(), 5)
    for d in ("N", "E", "S", "W"):
        s = E.apply(s, s.seat, E.parse_move(s, s.seat, f"walk {d}"))
    text = E.render(E.observe(s, 0))
    assert "#" in text and "Map" in text and "score" in text
    for t in s.hands[0]:
        assert f"t{t}:" in text
    assert "hand 6 (" in text  # seat 0 has drawn
    assert re.search(r"seat 1: Amazon .* hand 3 \(\d single, \d double, \d triple\)", text)
    spectator = E.render(E.spectate(s, full=False))
    assert "Your hand" not in spectator


def test_state_json_round_trip_and_replay() -> None:
    from cogs_arena.engines.runner import play_bots

    game = play_bots(E, E.ruleset(), 8, ["builder", "random", "builder", "random"])
    s = E.new_game(E.ruleset(), 8)
    for seat, text in game.moves:
        s = E.apply(s, seat, E.parse_move(s, seat, text))
        if seat == 0:
            again = E.state_from_json(json.loads(json.dumps(E.state_to_json(s))))
            assert E.digest(again) == E.digest(s)
            assert E.observe(again, 1) == E.observe(s, 1)
    assert E.digest(s) == E.digest(game.state)


def test_move_json_and_text_round_trip_for_every_menu_entry() -> None:
    from cogs_arena.engines.runner import play_bots

    game = play_bots(E, E.ruleset(), 9, ["builder"] * 4)
    s = E.new_game(E.ruleset(), 9)
    kinds: set[str] = set()
    for i, (seat, text) in enumerate(game.moves):
        if i % 7 == 0:
            for entry in E.legal_moves(s, seat).moves:
                kinds.add(entry.kind)
                move = E.parse_move(s, seat, entry.notation)
                assert E.move_text(move) == entry.notation
                assert E.move_from_json(s, seat, E.move_json(move)) == move
                assert E.parse_move(s, seat, "  " + entry.notation.upper() + " ") == move
        s = E.apply(s, seat, E.parse_move(s, seat, text))
    assert {"placement", "move", "end", "setup"} <= kinds


def test_menu_descriptions_follow_each_games_own_tiles() -> None:
    """Tile ids name different faces in the Standard and Long supplies (t25 is a Forest single
    in one, a Mountain single in the other); memoised menu entries must not mix them up."""
    from cogs_arena.engines.blending.ruleset import BlendingRules
    from cogs_arena.engines.blending.scenario import Scenario, build

    for total, land in ((100, "Forest"), (200, "Mountain"), (100, "Forest")):
        rules = E.ruleset({"supply_total": total})
        assert isinstance(rules, BlendingRules)
        s = build(Scenario(squares={(1, 0): "M"}, heroes={0: (1, 0)}), rules)
        s = s.clone()
        s.hands = ((25,), *s.hands[1:])
        placements = [m for m in E.legal_moves(s, 0).moves if m.kind == "placement"]
        assert placements and all(m.description.startswith(land) for m in placements)
