"""The API's interactive documentation at /api/docs: Swagger UI (5.x, which reads OpenAPI 3.1) served from
this server, out of the swagger-ui-py package's files, so that it works under the site's
Content-Security-Policy (no CDN, no inline script). Swagger UI sets inline styles: this one page allows
them."""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.responses import HTMLResponse

from app.web.security import CONTENT_SECURITY_POLICY

ASSETS = "/api/docs/assets"
DOCS_POLICY = CONTENT_SECURITY_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
PAGE = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Ostraca API</title>
<link rel="stylesheet" href="{ASSETS}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{ASSETS}/swagger-ui-bundle.js"></script>
<script src="/static/js/api-docs.js"></script>
</body>
</html>
"""

router = APIRouter(include_in_schema=False)


@router.get("/api/docs")
def api_docs() -> HTMLResponse:
    return HTMLResponse(PAGE, headers={"Content-Security-Policy": DOCS_POLICY})


def assets_directory() -> Path:
    """Swagger UI's files in the swagger-ui-py package (found, not imported: its import loads adapters)."""
    spec = find_spec("swagger_ui")
    if spec is None or spec.origin is None:
        raise RuntimeError("the swagger-ui-py package is missing")
    return Path(spec.origin).parent / "static"


def install(app: FastAPI) -> None:
    app.mount(ASSETS, StaticFiles(directory=assets_directory()), name="api-docs-assets")
    app.include_router(router)
