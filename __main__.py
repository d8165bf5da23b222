import sys

from cogs_arena.server.cli import main

sys.exit(main())
