"""OpenSpiel's games through this server's protocol (the `openspiel` extra): each offered game
is the engine `openspiel:<short name>` (`openspiel:chess`, `openspiel:goofspiel`), its game
parameters in the ruleset's `params` (`{"params": {"num_cards": 6}}`).

Owns: the catalog of offered games and why the others are not (`catalog`), the ruleset and the
state that wraps OpenSpiel's own (`state`), chance drawn from the seeded stream (`chance`),
what each viewer may see (`views`), the bots (`bots`) and the engine (`engine`). May import
`engines` and `pyspiel` — the latter only when a game is asked for, so the core never needs it."""
