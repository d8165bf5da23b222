"""The MCP adapter: one tool per service call with its input model (`app`, `support`), the
rules and prompts of each game and era (`rules`), resource subscriptions for handshake
clients (`subscriptions`) and the change notices `wait` sleeps on (`waiters`).

May import: the host core (`server`), `engines`, the record, the MCP SDK."""
