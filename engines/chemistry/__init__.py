"""Chemistry: eight couriers carry feedstock to three vats under standing orders.

The skeleton every game folder shares, then this game's own modules:

- `ruleset.py`: the variant and every parameter, range-checked;
- `state.py`: the frozen game state, the shift report and their JSON forms;
- `moves.py`: standing orders and per-tick actions, their text, JSON forms and checks;
- `rules.py`: the transitions, the working room that runs ticks, and the courier kernel;
- `menu.py`: the legal-move menu, every order or the raw actions;
- `views.py`: observations and spectator views, and the room rebuilt from a view;
- `render.py`: the text of a view;
- `brief.py`: the brief text a seat gets after a move (what changed, what to decide with);
- `picture.py`: the SVG picture of a view;
- `news.py`: what one batch did, in lines every seat may read;
- `bots.py`: the bots, from an observation only;
- `search.py`: the search bot's levels, planning from an observation only;
- `porter.py`: the mended courier, covering every lane the room needs;
- `numbers.py`: the game's own numbers for `cogs-arena simulate`;
- `engine.py`: the protocol's class, over the modules above;
- `schema.py`: the JSON Schema of a move's structured form;
- `room.py`: the fixed room and its cached distance fields;
- `frames.py`: the per-tick frame record for replays, and its decoder;
- `trip.py`: a seat's own line of the shift report;
- `seeded.py`: the seeded bots, ties broken from the decision's stream.
"""
