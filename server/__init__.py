"""The host: a plain GameService over a session store, and a thin MCP adapter over it."""
