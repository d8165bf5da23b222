"""The match: lay, flip, every outcome, set-aside and return, passes, death, rewards, rebuild."""

from __future__ import annotations

import pytest
from jsonpath import at

from cogs_arena.engines import IllegalMove, get_engine
from cogs_arena.engines.blending.moves import Move
from cogs_arena.engines.blending.ruleset import BlendingRules
from cogs_arena.engines.blending.scenario import GuardianSpec, Scenario, build
from cogs_arena.engines.blending.state import State
from cogs_arena.engines.blending.tiles import FOREST, face_text
from cogs_arena.engines.protocol import Engine

E: Engine[BlendingRules, State, Move] = get_engine("blending")


def play(s: State, text: str) -> State:
    return E.apply(s, s.seat, E.parse_move(s, s.seat, text))


def menu(s: State) -> list[str]:
    return [m.notation for m in E.legal_moves(s, s.seat).moves]


def scene(
    base: list[str] | None = None,
    bolsters: list[str] | None = None,
    hand: list[str] | None = None,
    rules: BlendingRules | None = None,
    neighbour: bool = False,
) -> State:
    sq = {(1, 0): "M", (2, 0): "F", (2, 1): "F", (3, 0): "F", (5, 0): "P"}
    guards = [GuardianSpec(1, (2, 0), base or ["MMMM", "PPPP", "FFFF"], bolsters or [])]
    if neighbour:
        guards.append(GuardianSpec(2, (5, 0), ["PPPP"] * 3))
    spec = Scenario(
        squares=sq,
        hands={0: hand or ["FFFF", "MMMM", "PPPP"]},
        heroes={0: (1, 0)},
        guardians=guards,
    )
    return play(build(spec, rules), "fight G1")


def pos_of(s: State, face: str) -> int:
    assert s.fight is not None
    for i, t in enumerate(s.fight.row, start=1):
        if face_text(s.faces[t - 1]) == face and t not in s.fight.beaten:
            return i
    raise AssertionError(face)


def hand_tile(s: State, face: str) -> int:
    return next(t for t in s.hands[0] if face_text(s.faces[t - 1]) == face)


def test_fight_needs_a_rival_guardian_within_one_square() -> None:
    sq = {(1, 0): "M", (2, 0): "F", (4, 0): "F", (1, 1): "M"}
    guards = [GuardianSpec(0, (1, 1), ["MMMM"] * 3), GuardianSpec(1, (4, 0), ["FFFF"] * 3)]
    s = build(Scenario(squares=sq, hands={0: ["FFFF"]}, heroes={0: (1, 0)}, guardians=guards))
    assert not [n for n in menu(s) if n.startswith("fight")]
    with pytest.raises(IllegalMove, match="your own"):
        play(s, "fight G1")
    with pytest.raises(IllegalMove, match="within 1"):
        play(s, "fight G2")


def test_the_row_is_the_washed_pile_and_lays_are_face_up() -> None:
    s = scene()
    assert s.phase == "fight" and s.fight is not None and s.stats.fights == 1
    assert sorted(s.fight.row) == sorted(t for t, _ in s.guardians[0].pile)
    kinds = {m.kind for m in E.legal_moves(s, 0).moves}
    assert kinds == {"lay", "stop"}
    f = hand_tile(s, "FFFF")
    s1 = play(s, f"lay t{f}@1 shoot")
    assert f not in s1.hands[0] and "flip" in menu(s1)
    with pytest.raises(IllegalMove, match="already has a tile"):
        play(s1, f"lay t{hand_tile(s1, 'MMMM')}@1 slice")
    with pytest.raises(IllegalMove, match="no cast land"):
        play(s, f"lay t{f}@1 cast")
    view = E.observe(s1, 1)  # the defender sees the laid tile face up
    assert at(view, "fight", "laid") == [[1, f"t{f}", "shoot"]]


def test_win_against_a_base_tile_sets_it_aside_and_stop_returns_it() -> None:
    s = scene()
    m_pos = pos_of(s, "MMMM")
    f = hand_tile(s, "FFFF")
    s1 = play(play(s, f"lay t{f}@{m_pos} shoot"), "flip")  # shoot beats slice
    assert s1.fight is not None and len(s1.fight.beaten) == 1
    assert f in s1.hands[0]  # the attacker's tile comes back after its flip
    assert len(s1.guardians[0].pile) == 3  # set aside, not taken
    s2 = play(s1, "stop")
    assert s2.fight is None and s2.phase == "turn" and s2.main == "fight"
    assert s2.guardians[0].pile == s.guardians[0].pile  # the set-aside tile went back
    assert not [n for n in menu(s2) if n.startswith("fight")]


def test_set_aside_discard_mode_keeps_it_weakened() -> None:
    s = scene(rules=BlendingRules(set_aside="discard"))
    m_pos = pos_of(s, "MMMM")
    s1 = play(play(play(s, f"lay t{hand_tile(s, 'FFFF')}@{m_pos} shoot"), "flip"), "stop")
    assert len(s1.guardians[0].pile) == 2 and s1.discard


def test_loss_discards_one_tile_of_choice() -> None:
    s = scene()
    p_pos = pos_of(s, "PPPP")
    f = hand_tile(s, "FFFF")
    s1 = play(play(s, f"lay t{f}@{p_pos} shoot"), "flip")  # cast beats shoot
    assert s1.phase == "loss"
    options = menu(s1)
    assert f"discard t{f}" in options and len(options) == 3  # the returned tile counts
    s2 = play(s1, f"discard t{f}")
    assert f in s2.discard and len(s2.hands[0]) == 2 and s2.phase == "fight"
    assert s2.fight is not None and s2.fight.passes == 2  # the pass ended; a new one began


def test_same_kind_does_nothing() -> None:
    s = scene()
    m_pos = pos_of(s, "MMMM")
    m = hand_tile(s, "MMMM")
    s1 = play(play(s, f"lay t{m}@{m_pos} slice"), "flip")
    assert s1.fight is not None and not s1.fight.beaten and s1.phase == "fight"
    assert sorted(s1.hands[0]) == sorted(s.hands[0]) and not s1.discard


def test_flips_go_left_to_right_and_a_bolster_win_is_taken_at_once() -> None:
    s = scene(bolsters=["MMMM"])
    assert s.fight is not None and len(s.fight.row) == 4
    f = hand_tile(s, "FFFF")
    p = hand_tile(s, "PPPP")
    bolster = s.guardians[0].pile[3][0]
    b_pos = s.fight.row.index(bolster) + 1
    other = next(
        i
        for i in range(1, 5)
        if i != b_pos and face_text(s.faces[s.fight.row[i - 1] - 1]) == "FFFF"
    )
    s1 = play(play(s, f"lay t{f}@{b_pos} shoot"), f"lay t{p}@{other} cast")
    s2 = play(s1, "flip")
    first = min(b_pos, other)
    assert s2.fight is not None and s2.fight.flipped == (first - 1,)
    s3 = play(s2, "flip") if b_pos > other else s2
    assert bolster in s3.hands[0]  # in the attacker's hand at once
    assert bolster not in [t for t, _ in s3.guardians[0].pile]
    assert s3.fight is not None and bolster in s3.fight.taken


def test_kill_rewards_token_return_and_rebuild_inherits_the_estate() -> None:
    s = scene(neighbour=True)  # seat 2's guardian at 5,0 is 3 away; spacing is waived anyway
    stock_before = len(s.stock)
    f, m, p = hand_tile(s, "FFFF"), hand_tile(s, "MMMM"), hand_tile(s, "PPPP")
    s = play(s, f"lay t{f}@{pos_of(s, 'MMMM')} shoot")
    s = play(s, f"lay t{m}@{pos_of(s, 'PPPP')} slice")
    s = play(s, f"lay t{p}@{pos_of(s, 'FFFF')} cast")
    pile = [t for t, _ in s.guardians[0].pile]
    s = play(play(play(s, "flip"), "flip"), "flip")
    assert all(g.gid != 1 for g in s.guardians)
    assert s.stats.kills == 1
    assert set(pile) <= set(s.hands[0]) and len(s.hands[0]) == 3 + 3 + 3
    assert len(s.stock) == stock_before - 3
    assert at(E.observe(s, 1), "players", 1, "guardians_left") == 3  # the victim's token is back
    assert s.phase == "pick" and s.pick_for == "rebuild" and "skip" in menu(s)
    chosen = list(s.hands[0][:3])
    for t in chosen:
        s = play(s, f"pick t{t}")
    g = s.guardians[-1]
    assert (g.owner, g.x, g.y, g.land) == (0, 2, 0, FOREST)
    assert [t for t, _ in g.pile] == chosen and all(b for _, b in g.pile)
    assert s.phase == "turn" and s.fight is None


def test_kill_then_skip_leaves_the_square_unguarded() -> None:
    s = scene(base=["MMMM", "MMMM", "MMMM"], hand=["FFFF", "FFFF", "FFFF"])
    hand = list(s.hands[0])
    for i, t in enumerate(hand, start=1):
        s = play(s, f"lay t{t}@{i} shoot")
    for _ in hand:
        s = play(s, "flip")
    s = play(s, "skip")
    assert s.phase == "turn" and not [g for g in s.guardians if (g.x, g.y) == (2, 0)]
    assert len(s.hands[0]) == 9


def test_passes_wash_what_is_left_and_stop_at_the_limit() -> None:
    s = scene(rules=BlendingRules(max_passes=2))
    s = play(play(s, f"lay t{hand_tile(s, 'FFFF')}@{pos_of(s, 'MMMM')} shoot"), "flip")
    assert s.fight is not None and s.fight.passes == 2 and len(s.fight.row) == 2
    assert s.fight.laid == () and s.fight.flipped == ()
    s = play(play(s, f"lay t{hand_tile(s, 'MMMM')}@{pos_of(s, 'PPPP')} slice"), "flip")
    assert s.phase == "turn" and s.fight is None  # no third pass
    assert len(s.guardians[0].pile) == 3  # both set-aside tiles returned


def test_blend_flips_are_seeded_and_random_over_corners() -> None:
    seen = set()
    for seed in range(12):
        sq = {(1, 0): "M", (2, 0): "F"}
        spec = Scenario(
            squares=sq,
            hands={0: ["PPPP"]},
            heroes={0: (1, 0)},
            guardians=[GuardianSpec(1, (2, 0), ["FFPP", "FFPP", "FFPP"])],
        )
        s = play(build(spec, seed=seed), "fight G1")
        p = s.hands[0][0]
        s1 = play(play(s, f"lay t{p}@1 cast"), "flip")
        again = play(play(s, f"lay t{p}@1 cast"), "flip")
        assert E.digest(s1) == E.digest(again)
        assert s1.fight is not None
        seen.add(len(s1.fight.beaten))  # cast beats shoot (F), ties cast (P): never loses
        assert s1.phase != "loss"
    assert seen == {0, 1}


def test_one_fight_a_turn_and_default_moves_in_a_fight() -> None:
    s = scene()
    assert E.move_text(E.default_move(s, 0)) == "stop"
    p_pos = pos_of(s, "PPPP")
    lost = play(play(s, f"lay t{hand_tile(s, 'FFFF')}@{p_pos} shoot"), "flip")
    fallback = E.default_move(lost, 0)
    assert fallback.verb == "discard" and fallback.tile in lost.hands[0]
    after = play(s, "stop")
    with pytest.raises(IllegalMove):
        play(after, "fight G1")
