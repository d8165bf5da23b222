"""`simulate --backend ray`: the same series on a Ray cluster (the `ray` extra). Each game is one
Ray task that plays it where Ray puts it and sends back its numbers and its transcript's bytes,
which are written here: the workers need no shared disk, and the files are the ones `--jobs`
writes for the same plan (the same game ids, seeds, seats and bytes, apart from `wall` fields).

Ray is imported only when this backend is asked for, so the core never needs it."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from .play import Planned, play

NOT_INSTALLED = (
    "--backend ray needs Ray, which is not installed: pip install '.[ray]' (from a checkout)"
)


class RayMissing(RuntimeError):
    """Ray is not importable: the text says how to install it."""


def play_shipped(plan: Planned) -> tuple[dict[str, Any], str | None, bytes | None]:
    """Plays one game; with a transcript asked for, it is written to a private folder on the
    worker and returned as (name, bytes) instead of being left on the worker's disk."""
    if plan.transcripts is None:
        return play(plan), None, None
    with tempfile.TemporaryDirectory(prefix="cogs-arena-ray-") as folder:
        numbers = play(replace(plan, transcripts=folder))
        (path,) = (p for p in Path(folder).rglob("*") if p.is_file())
        return numbers, path.relative_to(folder).as_posix(), path.read_bytes()


def write_shipped(folder: str, name: str, data: bytes) -> None:
    """Writes a returned transcript whole: a reader sees the old file or the new one."""
    path = Path(folder) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def played_on_ray(
    plan: Sequence[Planned], address: str | None, cpus: int | None = None
) -> Iterator[dict[str, Any]]:
    """Each game's numbers as Ray finishes them, in any order. `address` is a running cluster's
    (`ray://head:10001`, or `auto`); None starts a local Ray instance for this series (with
    `cpus` workers) unless `RAY_ADDRESS` names one, as `ray.init` does."""
    try:
        import ray
    except ImportError:
        raise RayMissing(NOT_INSTALLED) from None
    started_here = not ray.is_initialized()
    if started_here:
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is None and cpus is not None and "RAY_ADDRESS" not in os.environ:
            options["num_cpus"] = cpus
        ray.init(address=address, **options)
    try:
        task = ray.remote(play_shipped)
        planned = {task.remote(item): item for item in plan}
        pending = list(planned)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            numbers, name, data = ray.get(done[0])
            folder = planned[done[0]].transcripts
            if folder is not None and name is not None and data is not None:
                write_shipped(folder, name, data)
            yield numbers
    finally:
        if started_here:
            ray.shutdown()
