"""The web app's routers: one module per part of the API.

- :mod:`.tables`: the lobby and table HTTP API (games, create, join, claim, start, rematch).
- :mod:`.records`: game records and replays of finished tables.
- :mod:`.play`: the WebSocket ``/ws/{code}``.
- :mod:`.pages`: the browser UI (``index.html`` for every page, ``/static``).

Routers find the live tables through :func:`.common.hub_of` (the app's
``state.hub``), so they hold no state of their own.
"""
