import sys

from cogs_arena.server.cli.main import main

sys.exit(main())
