"""The browser game's server: a FastAPI app (:func:`freecell.web.app.create_app`) with a
JSON API and the static page. Every rule is decided by the library; see ``docs/api.md``."""
