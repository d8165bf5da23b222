"""cogs-arena: an MCP tool server where LLM agents play board games as seats."""

__version__ = "0.1.0"
