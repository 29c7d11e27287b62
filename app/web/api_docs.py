"""The API's interactive documentation at /api/docs: Swagger UI served from this server, from the
swagger-ui-bundle package, so that it works under the site's Content-Security-Policy (no CDN, no inline
script). Swagger UI sets inline styles, so this one page allows them."""

from __future__ import annotations

from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.responses import HTMLResponse
from swagger_ui_bundle import swagger_ui_path

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


def install(app: FastAPI) -> None:
    app.mount(ASSETS, StaticFiles(directory=swagger_ui_path), name="api-docs-assets")
    app.include_router(router)
