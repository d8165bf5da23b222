"""The transitions: the working room, a mutable copy of the state that runs ticks, plus the
courier kernel.

`apply_batch` builds one Room from the frozen state, runs the batch's ticks on it in place and
freezes it once at the end, so a 60-tick shift copies the state twice rather than 60 times.
Cells are flat indices; per-cell facts live in flat lists.
"""

from __future__ import annotations

from collections.abc import Sequence

from .moves import Order
from .room import (
    CELLS,
    CENTRES,
    DELTAS,
    DROP,
    FAR,
    HOMES,
    MOVE_W,
    NEIGH,
    PADS,
    RINGS,
    SPECIES,
    TAKE,
    VAT_TAKES,
    VENTS,
    WAIT,
    WALL,
    field,
    pad_map,
    ring_order,
    single,
    vent_targets,
)
from .ruleset import ChemistryRuleset
from .state import ChemState, Cog, Counters, Report, Trip, Vat

SEATS = 8


class Room:
    """Mutable working copy of a ChemState (only ever private to one transition)."""

    def __init__(self, s: ChemState) -> None:
        rs = s.ruleset
        self.rs: ChemistryRuleset = rs
        self.tick = s.tick
        self.present: tuple[int, ...] = rs.vats
        self.pads = pad_map(self.present)
        self.pos = [g.cell for g in s.cogs]
        self.occ = [-1] * CELLS
        for seat, c in enumerate(self.pos):
            self.occ[c] = seat
        self.hand = [list(g.hand) for g in s.cogs]
        self.timer = [g.timer for g in s.cogs]
        self.mol = [-1] * CELLS
        self.mcells: list[set[int]] = [set() for _ in SPECIES]
        for c, sp in s.molecules:
            self.mol[c] = sp
            self.mcells[sp].add(c)
        self.food: dict[int, int] = dict(s.food)
        self.charge = [0, 0, 0]
        self.stock = [[0, 0], [0, 0], [0, 0]]
        self.cooldown = [0, 0, 0]
        self.lastdel: list[int | None] = [None, None, None]
        for v in s.vats:
            self.charge[v.vat] = v.charge
            self.stock[v.vat] = list(v.stock)
            self.cooldown[v.vat] = v.cooldown
            self.lastdel[v.vat] = v.last_deliverer
        dperiod, dcap = rs.distractors
        self.vents: list[tuple[int, int, int, tuple[int, ...]]] = []
        for sp in rs.species:
            period, cap = (rs.vent_period, rs.vent_ground_cap) if sp < 3 else (dperiod, dcap)
            self.vents.append((sp, period, cap, vent_targets(VENTS[sp], self.pads)))
        self.approach = {sp: targets for sp, _, _, targets in self.vents}
        k = s.counters
        self.eaten = list(k.eaten)
        self.delivered = list(k.delivered)
        self.misdrops = list(k.misdrops)
        self.hoarded = list(k.hoarded)
        self.reactions = k.reactions
        self.food_made = k.food_made
        self.food_rotted = k.food_rotted
        self.food_spoiled = k.food_spoiled
        self.cold_starts = k.cold_starts
        self.cold_events = k.cold_events
        # The batch's report.
        self.first_tick = s.tick + 1
        self.r_eaten = [0] * SEATS
        self.r_deliv: dict[tuple[int, int, int], int] = {}
        self.r_misdrop: dict[tuple[int, int, int], int] = {}
        self.r_hoard = [0] * SEATS
        self.r_react: dict[int, list[int]] = {}
        self.r_coldstart: list[tuple[int, int, int]] = []
        self.r_cold: list[tuple[int, int]] = []
        self.r_rot = 0
        self.r_start = list(self.pos)
        self.r_hand = [tuple(h) for h in self.hand]
        self.r_steps = [0] * SEATS
        self.r_blocked = [0] * SEATS
        self.r_taken = [[0] * len(SPECIES) for _ in range(SEATS)]
        self.r_floor = [0] * SEATS
        self.charge_before = list(self.charge)
        self.frames: list[str] = []
        self.last_charges = list(self.charge)

    # ---- helpers ----------------------------------------------------------------------------

    def best_vat(self) -> int:
        """The present vat with the highest charge (ties: amber, beryl, cobalt)."""
        best = self.present[0]
        for v in self.present[1:]:
            if self.charge[v] > self.charge[best]:
                best = v
        return best

    def freeze(self, s: ChemState) -> ChemState:
        from dataclasses import replace

        cogs = tuple(
            Cog(self.pos[i], tuple(self.hand[i]), self.timer[i]) for i in range(len(self.pos))
        )
        molecules = tuple(sorted((c, sp) for sp, cells in enumerate(self.mcells) for c in cells))
        vats = tuple(
            Vat(
                v,
                self.charge[v],
                (self.stock[v][0], self.stock[v][1]),
                self.cooldown[v],
                self.lastdel[v],
            )
            for v in self.present
        )
        counters = Counters(
            tuple(self.eaten),
            tuple(self.delivered),
            tuple(self.misdrops),
            tuple(self.hoarded),
            self.reactions,
            self.food_made,
            self.food_rotted,
            self.food_spoiled,
            self.cold_starts,
            self.cold_events,
        )
        report = Report(
            first_tick=self.first_tick,
            last_tick=self.tick,
            eaten=tuple(self.r_eaten),
            deliveries=tuple((a, b, c, n) for (a, b, c), n in sorted(self.r_deliv.items())),
            misdrops=tuple((a, b, c, n) for (a, b, c), n in sorted(self.r_misdrop.items())),
            hoarded=tuple(self.r_hoard),
            reactions=tuple((v, r[0], r[1], r[2]) for v, r in sorted(self.r_react.items())),
            cold_starts=tuple(self.r_coldstart),
            cold_events=tuple(self.r_cold),
            charges=tuple((v, self.charge_before[v], self.charge[v]) for v in self.present),
            rotted=self.r_rot,
            trips=tuple(
                Trip(
                    self.r_start[i],
                    self.r_steps[i],
                    self.r_blocked[i],
                    self.r_hand[i],
                    tuple(self.r_taken[i]),
                    self.r_floor[i],
                )
                for i in range(len(self.pos))
            ),
        )
        return replace(
            s,
            tick=self.tick,
            cogs=cogs,
            molecules=molecules,
            food=tuple(sorted(self.food.items())),
            vats=vats,
            counters=counters,
            report=report,
            frames=s.frames + tuple(self.frames),
        )

    # ---- the tick ---------------------------------------------------------------------------

    def run_tick(self, orders: Sequence[Order | None] | None, raw: Sequence[int] | None) -> None:
        """One tick, steps 1-9. Either `orders` (walked by the kernel) or `raw` actions."""
        self.tick += 1
        ev: list[str] = []
        self._vents(ev)
        acts = self._intents(orders, raw)
        self._take_and_drop(acts, ev)
        self._moves(acts, ev)
        self._eat(ev)
        self._react(ev)
        self._decay(ev)
        self._rot(ev)
        # 9. Record.
        charge = self.charge
        if charge != self.last_charges:
            self.last_charges = list(charge)
            ev.append("q" + ",".join(str(charge[v]) for v in self.present))
        self.frames.append(" ".join(ev))

    def _vents(self, ev: list[str]) -> None:
        """1. Vents."""
        t, mol, mcells = self.tick, self.mol, self.mcells
        for sp, period, cap, targets in self.vents:
            if period and t % period == 0 and len(mcells[sp]) < cap:
                for n in targets:
                    if mol[n] < 0:
                        mol[n] = sp
                        mcells[sp].add(n)
                        ev.append(f"v{sp}@{n}")
                        break

    def _intents(
        self, orders: Sequence[Order | None] | None, raw: Sequence[int] | None
    ) -> list[int]:
        """2. Intent: a move while the move timer runs becomes a wait."""
        timer, seats = self.timer, range(len(self.pos))
        if raw is not None:
            return [raw[i] if timer[i] == 0 or raw[i] > MOVE_W else WAIT for i in seats]
        if orders is None:
            raise ValueError("run_tick needs orders or raw actions")
        acts = [WAIT] * len(self.pos)
        for i in seats:
            order = orders[i]
            if order is not None and order.job != "idle":
                acts[i] = kernel(self, i, order, timer[i] == 0)
        return acts

    def _take_and_drop(self, acts: list[int], ev: list[str]) -> None:
        """3. Take / drop."""
        mol, mcells, pos, hand = self.mol, self.mcells, self.pos, self.hand
        cap = self.rs.carry_cap
        for i in range(len(pos)):
            a = acts[i]
            if a == TAKE:
                c = pos[i]
                sp = mol[c]
                if sp >= 0 and len(hand[i]) < cap:
                    mol[c] = -1
                    mcells[sp].discard(c)
                    hand[i].append(sp)
                    self.r_taken[i][sp] += 1
                    ev.append(f"t{i}")
            elif a == DROP and hand[i]:
                c = pos[i]
                if self.pads[c] >= 0:
                    self._drop_on_pad(i, self.pads[c], ev)
                elif mol[c] < 0:
                    sp = hand[i].pop()
                    mol[c] = sp
                    mcells[sp].add(c)
                    if c == HOMES[i]:
                        self.hoarded[i] += 1
                        self.r_hoard[i] += 1
                        ev.append(f"d{i}h")
                    else:
                        self.r_floor[i] += 1
                        ev.append(f"d{i}f")

    def _drop_on_pad(self, i: int, v: int, ev: list[str]) -> None:
        sp = self.hand[i].pop()
        takes = VAT_TAKES[v]
        key = (i, v, sp)
        if sp in takes:
            self.stock[v][takes.index(sp)] += 1
            self.lastdel[v] = i
            self.delivered[i] += 1
            self.r_deliv[key] = self.r_deliv.get(key, 0) + 1
            ev.append(f"d{i}s")
        else:
            self.misdrops[i] += 1
            self.r_misdrop[key] = self.r_misdrop.get(key, 0) + 1
            ev.append(f"d{i}x")

    def _moves(self, acts: list[int], ev: list[str]) -> None:
        """4. Moves against the live board, lower slot first."""
        pos, occ, timer = self.pos, self.occ, self.timer
        reset = self.rs.move_cooldown - 1
        for i in range(len(pos)):
            a = acts[i]
            if 0 < a <= MOVE_W:
                c = pos[i]
                n = c + DELTAS[a]
                if not WALL[n] and occ[n] < 0:
                    occ[c] = -1
                    occ[n] = i
                    pos[i] = n
                    timer[i] = reset
                    self.r_steps[i] += 1
                    ev.append(f"m{i}@{n}")
                    continue
                self.r_blocked[i] += 1
            if timer[i] > 0:
                timer[i] -= 1

    def _eat(self, ev: list[str]) -> None:
        """5. Auto-eat."""
        food = self.food
        if food:
            for i, c in enumerate(self.pos):
                if c in food:
                    del food[c]
                    self.eaten[i] += 1
                    self.r_eaten[i] += 1
                    ev.append(f"e{i}")

    def _react(self, ev: list[str]) -> None:
        """6. Reactions: a cold start, or a reaction when the cooldown is over."""
        rs, charge, t = self.rs, self.charge, self.tick
        for v in self.present:
            if self.cooldown[v] > 0:
                self.cooldown[v] -= 1
            st = self.stock[v]
            if charge[v] == 0:
                cost = rs.cold_start_cost
                if st[0] >= cost and st[1] >= cost:
                    st[0] -= cost
                    st[1] -= cost
                    charge[v] = 1
                    self.cold_starts += 1
                    by = self.lastdel[v]
                    self.r_coldstart.append((v, t, -1 if by is None else by))
                    ev.append(f"c{v}")
            elif self.cooldown[v] == 0 and st[0] >= 1 and st[1] >= 1:
                st[0] -= 1
                st[1] -= 1
                charge[v] = min(rs.charge_max, charge[v] + 1)
                self.cooldown[v] = rs.reaction_cooldown
                self._spill(v, 1 + charge[v] // 3, ev)

    def _spill(self, v: int, want: int, ev: list[str]) -> None:
        """A reaction's food on the ring, nearest the last deliverer's cell first."""
        food = self.food
        by = self.lastdel[v]
        anchor = CENTRES[v] if by is None else self.pos[by]
        placed: list[int] = []
        for c in ring_order(v, anchor):
            if len(placed) == want:
                break
            if c not in food:
                food[c] = 0
                placed.append(c)
        spoiled = want - len(placed)
        self.reactions += 1
        self.food_made += len(placed)
        self.food_spoiled += spoiled
        row = self.r_react.setdefault(v, [0, 0, 0])
        row[0] += 1
        row[1] += len(placed)
        row[2] += spoiled
        ev.append(f"r{v}:{','.join(map(str, placed))}/{spoiled}")

    def _decay(self, ev: list[str]) -> None:
        """7. Decay."""
        charge, t = self.charge, self.tick
        if t % self.rs.charge_decay_period == 0:
            for v in self.present:
                if charge[v] > 0:
                    charge[v] -= 1
                    if charge[v] == 0:
                        self.cold_events += 1
                        self.r_cold.append((v, t))
                        ev.append(f"k{v}")

    def _rot(self, ev: list[str]) -> None:
        """8. Rot."""
        food = self.food
        if not food:
            return
        life = self.rs.food_lifetime
        rotten = []
        for c, age in food.items():
            if age + 1 >= life:
                rotten.append(c)
            else:
                food[c] = age + 1
        if rotten:
            for c in rotten:
                del food[c]
            rotten.sort()
            self.food_rotted += len(rotten)
            self.r_rot += len(rotten)
            ev.append("o" + ",".join(map(str, rotten)))


# ---- the courier kernel ---------------------------------------------------------------------


def _step(room: Room, pos: int, dist: tuple[int, ...]) -> int:
    """First free improving neighbour, else first free equal-distance one, else wait."""
    d0 = dist[pos]
    occ = room.occ
    equal = WAIT
    for code, n in NEIGH[pos]:
        if occ[n] >= 0:
            continue
        d = dist[n]
        if d < d0:
            return code
        if d == d0 and equal == WAIT:
            equal = code
    return equal


def _step_to_any(room: Room, pos: int, sources: set[int] | dict[int, int]) -> int:
    """`_step` toward the nearest of several cells, without building their joint field."""
    if len(sources) == 1:
        return _step(room, pos, single(next(iter(sources))))
    fields = [single(c) for c in sources]
    d0 = min(f[pos] for f in fields)
    occ = room.occ
    equal = WAIT
    for code, n in NEIGH[pos]:
        if occ[n] >= 0:
            continue
        d = min(f[n] for f in fields)
        if d < d0:
            return code
        if d == d0 and equal == WAIT:
            equal = code
    return equal


def kernel(room: Room, seat: int, order: Order, can_move: bool) -> int:
    """The action a standing order produces for `seat` this tick (DECISIONS §2 courier kernel).
    When the cog cannot move this tick it still takes, drops or waits."""
    job = order.job
    pos = room.pos[seat]
    if job == "forage":
        if room.food:
            if pos in room.food or not can_move:
                return WAIT
            return _step_to_any(room, pos, room.food)
        v = order.reactor if order.reactor in room.present else room.best_vat()
        ring = field(RINGS[v])
        if ring[pos] == 0 or not can_move:
            return WAIT
        return _step(room, pos, ring)
    if job == "idle" or order.molecule is None:
        return WAIT
    sp = order.molecule
    hand = room.hand[seat]
    # C24: a unit lying on a hoarder's own home is loose like any other, so it is fetched too.
    sources = room.mcells[sp]
    if hand:
        if hand[-1] != sp:
            return _dispose(room, pos, can_move)
        if len(hand) >= room.rs.carry_cap or not sources:
            if job == "hoard":
                home = HOMES[seat]
                if pos == home:
                    return DROP
                target = single(home)
            else:
                v = order.reactor if order.reactor in room.present else room.best_vat()
                if room.pads[pos] == v:
                    return DROP
                target = field(PADS[v])
            return _step(room, pos, target) if can_move else WAIT
    if sources:
        if pos in sources:
            return TAKE
        return _step_to_any(room, pos, sources) if can_move else WAIT
    # C24: no loose unit: the nearest of the vent's approach cells that hold no molecule, by
    # the same walk as every destination; cogs only block steps, they do not pick the cell.
    free = tuple(n for n in room.approach.get(sp, ()) if room.mol[n] < 0)
    if not free or pos in free or not can_move:
        return WAIT
    return _step(room, pos, field(tuple(sorted(free))))


def _dispose(room: Room, pos: int, can_move: bool) -> int:
    """Holding the wrong molecule: drop it on a cell off every pad with no molecule. On a pad
    (C24) the cog tries one step off it, to the first such N, E, S, W neighbour that no cog
    holds, and waits while there is none; it never walks along the pad."""
    pads = room.pads
    if pads[pos] < 0 and room.mol[pos] < 0:
        return DROP
    if not can_move:
        return WAIT
    if pads[pos] >= 0:
        for code, n in NEIGH[pos]:
            if pads[n] < 0 and room.mol[n] < 0 and room.occ[n] < 0:
                return code
        return WAIT
    free = tuple(c for c in range(CELLS) if not WALL[c] and room.pads[c] < 0 and room.mol[c] < 0)
    dist = field(free) if free else (FAR,) * CELLS
    return _step(room, pos, dist)
