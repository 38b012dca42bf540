"""The API page (`/docs`): Swagger UI over `/openapi.json`, its files served from the
swagger-ui-py package (the `serve` extra) when it is installed, under a policy of its own."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response

__all__ = ["DOCS_HEADERS", "docs", "docs_asset", "docs_script"]

#: The API page: its scripts, styles and pictures from this server only (Swagger UI sets
#: inline styles; its icons are data: URLs), its calls (try it out) to this server only, and
#: never framed.
DOCS_HEADERS = {
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; script-src 'self'; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
}

#: The files of Swagger UI the API page loads (of the swagger-ui-py package's folder).
DOCS_ASSETS = ("swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png")


def swagger_assets() -> Path | None:
    """The folder of Swagger UI's files in the swagger-ui-py package (the `serve` extra),
    found without importing the package (which would import jinja2 and PyYAML); None when
    it is not installed."""
    spec = importlib.util.find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "static"
    return folder if (folder / DOCS_ASSETS[0]).is_file() else None


DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>neweden API</title>
<link rel="icon" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="api"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/neweden.js"></script></body></html>
"""

DOCS_PAGE_WITHOUT_UI = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>neweden API</title></head>
<body><p>The interactive page needs the swagger-ui-py package (pip install
'neweden[serve]'); the API is described at <a href="/openapi.json">/openapi.json</a>
and in docs/http.md.</p></body></html>
"""

#: The page's own script, a file of this server (the page's policy allows no inline script).
DOCS_SCRIPT = """window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#api",
  deepLinking: true,
  displayOperationId: true,
  tryItOutEnabled: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
"""


async def docs(_: Request) -> HTMLResponse:
    """The API page; without Swagger UI installed, a page saying where the API is described."""
    page = DOCS_PAGE if swagger_assets() is not None else DOCS_PAGE_WITHOUT_UI
    return HTMLResponse(page, headers=DOCS_HEADERS)


async def docs_script(_: Request) -> Response:
    """The page's own script."""
    return Response(DOCS_SCRIPT, media_type="text/javascript", headers=DOCS_HEADERS)


async def docs_asset(request: Request) -> Response:
    """One of Swagger UI's files the page loads; any other name is a 404."""
    name = request.path_params["name"]
    assets = swagger_assets()
    if assets is None or name not in DOCS_ASSETS:
        raise HTTPException(404, "Not Found")
    return FileResponse(assets / name, headers=DOCS_HEADERS)
