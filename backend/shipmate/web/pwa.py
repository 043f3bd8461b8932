"""The installable web app (the repo's pwa/ folder) at the site root; the API works without it."""

from __future__ import annotations

import mimetypes

from flask import Blueprint, Response, current_app, send_from_directory
from flask.blueprints import BlueprintSetupState
from werkzeug.routing import PathConverter

bp = Blueprint("pwa", __name__)

mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("application/manifest+json", ".webmanifest")

APP_ROUTES = ("/join/<code>", "/play/<code>", "/screen/<code>", "/host/<code>", "/dice/<code>",
              "/rules/<game>")


@bp.get("/")
def index(code: str | None = None, game: str | None = None) -> Response:
    """Serve the app's shell for every route of the app; the app reads the URL itself."""
    response = send_from_directory(current_app.config["PWA_DIR"], "index.html")
    response.headers["Cache-Control"] = "no-cache"
    return response


for route in APP_ROUTES:
    bp.add_url_rule(route, view_func=index, methods=["GET"])


class AppFile(PathConverter):
    """A path of the web app's folder: never one under /api/ or /ws/, so those answer 404 and 405
    (with an Allow header) as the API documents them, not as if a file might be there."""

    regex = r"(?!api/)(?!ws/)[^/].*?"


@bp.record_once
def _register_converter(state: BlueprintSetupState) -> None:
    state.app.url_map.converters["app_file"] = AppFile


@bp.get("/<app_file:path>")
def static_file(path: str) -> Response:
    """Serve a file of the app; the service worker is never cached and may control the whole site."""
    response = send_from_directory(current_app.config["PWA_DIR"], path)
    if path == "sw.js":
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Service-Worker-Allowed"] = "/"
    return response
