"""Play the games in the browser: FastAPI app, WebSocket play, SQLAlchemy storage, static UI.

``create_app(db_url)`` builds the app; ``serve(host, port, db_url)`` runs it with uvicorn.
Games plug in through :mod:`lamagames.web.adapters`.
"""

from lamagames.web.app import create_app
from lamagames.web.server import serve

__all__ = ["create_app", "serve"]
