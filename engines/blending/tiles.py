"""Lands, tile faces, the supply and blend matching (geometry model A, DECISIONS B1-B6).

A face is four land codes clockwise from the top-left corner: (TL, TR, BR, BL). A single shows one
land four times. Rotating a tile clockwise by 90 degrees moves each corner one step clockwise.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Literal

from ..rng import Stream

MOUNTAIN, FOREST, PLAINS = 0, 1, 2
START = 3
"""The start square's code in the square map: occupied, walkable, not land."""
LANDS = (MOUNTAIN, FOREST, PLAINS)
LAND_LETTER = "MFP"
LAND_NAME = ("Mountain", "Forest", "Plains")
KIND_NAME = ("slice", "shoot", "cast")
"""Each land's fighting kind: Mountain slices, Forest shoots, Plains casts."""
CLASS_NAME = ("Warrior", "Amazon", "Mage")
CLASS_HOME = (MOUNTAIN, FOREST, PLAINS)
ROTATIONS = (0, 90, 180, 270)
TripleMatch = Literal["exact", "side"]
"""B5: 'exact', a triple covers its own pattern under rotation (doubled land and chirality fixed);
'side', any triple goes on any 3-land spot whose doubled land is side by side."""

Face = tuple[int, int, int, int]


def beats(a: int, b: int) -> bool:
    """Slice (M) beats Cast (P), Cast beats Shoot (F), Shoot beats Slice."""
    return b == (a + 2) % 3


def rotate(face: Face, rot: int) -> Face:
    k = (rot // 90) % 4
    if k == 0:
        return face
    return (face[-k], face[(1 - k) % 4], face[(2 - k) % 4], face[(3 - k) % 4])


@lru_cache(maxsize=256)
def pips(face: Face) -> int:
    return len(set(face))


@lru_cache(maxsize=256)
def face_text(face: Face) -> str:
    return "".join(LAND_LETTER[c] for c in face)


@lru_cache(maxsize=256)
def face_from_text(text: str) -> Face:
    codes = tuple(LAND_LETTER.index(c) for c in text.upper())
    assert len(codes) == 4
    return (codes[0], codes[1], codes[2], codes[3])


@lru_cache(maxsize=256)
def describe(face: Face) -> str:
    n = pips(face)
    if n == 1:
        return f"{LAND_NAME[face[0]]} single"
    kind = "double" if n == 2 else "triple"
    return f"{kind} {face_text(face)}"


@lru_cache(maxsize=256)
def patterns(face: Face) -> dict[Face, int]:
    """Every spot pattern (TL, TR, BR, BL) this tile covers exactly, with the rotation that does."""
    out: dict[Face, int] = {}
    for rot in ROTATIONS:
        out.setdefault(rotate(face, rot), rot)
    return out


def pair_side(face: Face) -> int | None:
    """For 3 lands with the doubled land on two orthogonally adjacent corners, the side they lie on
    (0 top, 1 right, 2 bottom, 3 left); None for any other face (1, 2 or 4 lands, or diagonal)."""
    if len(set(face)) != 3:
        return None
    for i in range(4):
        if face[i] == face[(i + 1) % 4]:
            return i
    return None


@lru_cache(maxsize=256)
def fits(face: Face, triple_match: TripleMatch = "exact") -> dict[Face, int]:
    """Every spot pattern the tile may go on, with the one rotation it lies at there (B4, B5).

    Singles take no pattern; doubles, and triples under 'exact', cover their pattern exactly. Under
    'side' a triple goes on every 3-land spot with the doubled land side by side, turned so that its
    own doubled land lies along the spot's (where it matches exactly, that is the same rotation).
    """
    if triple_match == "exact" or pips(face) != 3:
        return patterns(face)
    own = pair_side(face)
    out: dict[Face, int] = {}
    if own is None:
        return out
    for a, b, c, d in product(LANDS, repeat=4):
        side = pair_side((a, b, c, d))
        if side is not None:
            out[(a, b, c, d)] = (side - own) % 4 * 90
    return out


def fit_problem(face: Face, spot: Face, rot: int, triple_match: TripleMatch) -> str:
    """'' if the blend may lie on a spot showing `spot` at rotation `rot`, else why not."""
    fit = fits(face, triple_match).get(spot)
    if fit == rot:
        return ""
    if triple_match == "exact" or pips(face) != 3:
        return "the tile's corners do not match the four lands under it at that rotation"
    if fit is None:
        return "a triple goes only on 3 lands with the doubled land side by side"
    return f"a triple lies with its doubled land along the spot's: r{fit} here"


def build_supply(total: int, seed: int | str) -> list[Face]:
    """60% singles (even over the lands), 30% straight doubles (even over the land pairs), 10%
    side-by-side triples over 6 designs with a seeded choice of which designs get the extra copies
    (B6). Index i is tile id t{i+1}."""
    tenth = total // 10
    faces: list[Face] = []
    for land in LANDS:
        faces.extend([(land, land, land, land)] * (2 * tenth))
    for a, b in ((MOUNTAIN, FOREST), (MOUNTAIN, PLAINS), (FOREST, PLAINS)):
        faces.extend([(a, a, b, b)] * tenth)
    designs: list[Face] = []
    for d in LANDS:
        a, b = (land for land in LANDS if land != d)
        designs.append((d, d, b, a))  # DD over AB: clockwise TL, TR, BR=B, BL=A
        designs.append((d, d, a, b))  # DD over BA
    base, extra = divmod(tenth, 6)
    lucky = set(Stream(seed, "triples").shuffled(range(6))[:extra])
    for i, design in enumerate(designs):
        faces.extend([design] * (base + (1 if i in lucky else 0)))
    return faces
