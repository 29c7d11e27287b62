"""HTTP: the JSON API under /api/v1 and the HTML pages, both thin layers over app.services."""
