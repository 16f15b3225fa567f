"""The web builder: an ASGI app (Starlette) serving the grid-editor page and a JSON/WebSocket API over the library."""
