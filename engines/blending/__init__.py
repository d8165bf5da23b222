"""Blending: lay land tiles, walk heroes, raise guardians on estates, fight them with the match.

The skeleton every game folder shares, then this game's own modules:

- `ruleset.py`: the current defaults and the older eras' switches;
- `state.py`: the game state, copied on every transition;
- `moves.py`: moves, their canonical text and JSON form;
- `rules.py`: setup, the turn dialog and every transition but the match;
- `match.py`: the match, a fight against a rival guardian;
- `menu.py`: the numbered menu of what the seat to act may do;
- `views.py`: observations and spectator views;
- `render.py`: the text of a view;
- `brief.py`: the brief text a seat gets after a move (what changed, what to decide with);
- `estates.py`: the 3x3 estate each guardian guards, as views list it;
- `picture.py`: the SVG picture of a view;
- `news.py`: what one move did, in lines every seat may read;
- `bots.py`: the bots, from an observation only;
- `search.py`: the search bot's levels, planning from an observation only;
- `sampling.py`: states consistent with an observation, for the search;
- `numbers.py`: the fun numbers for `cogs-arena simulate`;
- `engine.py`: the protocol's class, over the modules above;
- `schema.py`: the JSON Schema of a move's structured form;
- `board.py`: map geometry, adjacency and which spots take which tiles;
- `tiles.py`: lands, tile faces, the supply and blend matching;
- `spots.py`: where tiles may go, kept up to date move by move;
- `edits.py`: the small edits every transition makes on its cloned state;
- `scoring.py`: end-of-game scoring;
- `odds.py`: what a fight's choices risk, and what the last fight did;
- `era_state.py`: the state the older eras add, and its JSON;
- `eras/`: the older rule eras, reached only through `eras` and `eras/dispatch.py`;
- `bot_view.py`: what the builder bot reads of an observation;
- `tile_choice.py`: which tile to give up or to give;
- `seeded.py`: the seeded builder, ties broken from the decision's stream;
- `scenario.py`: positions drawn by hand, for tests and puzzles;
- `memo.py`: one-slot caches keyed by object identity.
"""
