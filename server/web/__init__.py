"""The web: the HTTP app serving Streamable HTTP and legacy SSE (`app`), what it lets in
(`guard`), and the live spectator page (`watch`, `watch_page`).

May import: the adapter, the host core, the record's viewer, Starlette and Uvicorn."""
