"""A loopback relay in front of the test cluster that breaks one connection at its COMMIT, the way
a network or a server failover does: the COMMIT cut before the server reads it, the server's
acknowledgement lost on the way back, or the connection cut right after an acknowledgement that
did arrive. It can also refuse new connections for a while (the database unreachable).

The client's messages are scanned for the text `COMMIT\\0` (how psycopg sends the statement ending
a transaction, in pipeline mode and out of it); only connections opened through the relay are
affected, and only while a fault is armed."""

from __future__ import annotations

import contextlib
import socket
import threading
from typing import Literal

Fault = Literal["before", "after", "after_ack"]
"""before: the COMMIT never reaches the server; after: the server commits and its answer is lost;
after_ack: the answer arrives, then the connection dies (at the next message the client sends)."""

COMMIT = b"COMMIT\x00"
SYNC, FLUSH = b"S\x00\x00\x00\x04", b"H\x00\x00\x00\x04"
"""The protocol's bare Sync and Flush messages: the end of the transaction's exchange, not yet
the next statement."""


class CommitCutter:
    def __init__(self, port: int) -> None:
        self.target = ("127.0.0.1", port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._lock = threading.Lock()
        self._fault: Fault | None = None
        self._down_after_cut = False
        self.down = False
        """While True, new connections are closed at once (the database cannot be reached)."""
        self.cuts = 0
        self.cut = threading.Event()
        self._open: set[socket.socket] = set()
        self._closed = False
        threading.Thread(target=self._accept, name="pg-proxy", daemon=True).start()

    def url(self, database_url: str) -> str:
        """`database_url` (of the cluster this relays to) through the relay."""
        return database_url.replace(f":{self.target[1]}/", f":{self.port}/")

    def arm(self, fault: Fault, *, down_after: bool = False) -> None:
        """The next COMMIT on any relayed connection meets `fault`; with `down_after`, the
        relay refuses new connections from then on (until `down` is set False)."""
        with self._lock:
            self._fault, self._down_after_cut = fault, down_after
            self.cut.clear()

    def _take(self) -> Fault | None:
        with self._lock:
            fault, self._fault = self._fault, None
            return fault

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self.down:
                client.close()
                continue
            try:
                server = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            link = _Link(self, client, server)
            with self._lock:
                self._open |= {client, server}
            threading.Thread(target=link.upstream, daemon=True).start()
            threading.Thread(target=link.downstream, daemon=True).start()

    def _cut_done(self) -> None:
        self.cuts += 1
        if self._down_after_cut:
            self.down = True
        self.cut.set()

    def close(self) -> None:
        self._closed = True
        self._listener.close()
        with self._lock:
            for sock in self._open:
                with contextlib.suppress(OSError):
                    sock.close()


class _Link:
    def __init__(self, relay: CommitCutter, client: socket.socket, server: socket.socket) -> None:
        self.relay, self.client, self.server = relay, client, server
        self.drop_reply = False
        self.cut_after_reply = False
        self.cut_next = False

    def _close(self) -> None:
        for sock in (self.client, self.server):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                sock.close()

    def upstream(self) -> None:
        try:
            while chunk := self.client.recv(65536):
                if self.cut_next and chunk.replace(SYNC, b"").replace(FLUSH, b""):
                    # after_ack: the first statement after the acknowledgement
                    self.relay._cut_done()
                    self._close()
                    return
                if COMMIT in chunk:
                    fault = self.relay._take()
                    if fault == "before":
                        self.relay._cut_done()
                        self._close()
                        return
                    if fault == "after":
                        self.drop_reply = True
                    elif fault == "after_ack":
                        self.cut_after_reply = True
                self.server.sendall(chunk)
        except OSError:
            pass
        self._close()

    def downstream(self) -> None:
        try:
            while chunk := self.server.recv(65536):
                if self.drop_reply and COMMIT in chunk:  # the server's "COMMIT" answer
                    self.relay._cut_done()
                    self._close()
                    return
                self.client.sendall(chunk)
                if self.cut_after_reply and COMMIT in chunk:
                    self.cut_next = True
        except OSError:
            pass
        self._close()
