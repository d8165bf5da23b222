"""`cogs-arena fork TRANSCRIPT --at N`: a new game on a store from a transcript, starting where
that game stood at decision N, with new seats (an LLM seat where a bot was, new labels). A
server on the same store serves it; the answer names the seat's credential and invitations."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ...engines import GameError


def add_parser(sub: Any, add_store_flags: Any) -> None:
    fork = sub.add_parser("fork", help="start a new game from a decision of a transcript")
    fork.add_argument("transcript", type=Path)
    fork.add_argument("--at", type=int, required=True, metavar="N", help="decision to start from")
    fork.add_argument("--seat", default=None, help="the seat you take (name or number)")
    fork.add_argument(
        "--bots",
        default=None,
        help="comma-separated bots for the other seats ('open' leaves an invitation)",
    )
    fork.add_argument("--model", default=None, help="model label of your seat")
    fork.add_argument("--prompt", default=None, help="prompt label of your seat")
    fork.add_argument(
        "--label", action="append", default=[], metavar="KEY=VALUE", help="a label; repeatable"
    )
    add_store_flags(fork)


def cmd_fork(args: argparse.Namespace, store_and_transcripts: Any) -> int:
    from ..labels import parse_pairs
    from ..service import GameService
    from ..store.choose import open_store

    store_spec, transcripts = store_and_transcripts(args)
    store = open_store(store_spec, memory=args.memory)
    try:
        service = GameService(store, transcripts)
        given: dict[str, Any] = {
            "seat": args.seat,
            "bots": None if args.bots is None else args.bots.split(","),
            "model": args.model,
            "prompt": args.prompt,
            "labels": parse_pairs(args.label, "--label") or None,
        }
        started = service.fork_transcript(
            args.transcript, args.at, **{k: v for k, v in given.items() if v is not None}
        )
    except (GameError, OSError) as exc:
        print(f"cogs-arena fork: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    out = started.model_dump(mode="json", exclude={"view"})
    print(json.dumps(out, indent=2, ensure_ascii=False))
    return 0
