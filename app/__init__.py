"""The resume service. ``create_app`` (``app/factory.py``) builds the Flask app.

The package's own module imports nothing at all: the libraries under it (``app.content``,
``app.documents``, ``app.importing``, ``app.matching``) import neither Flask nor the database, and
importing one of them (an import's child process does) must not pull the web app in with it.
"""


def create_app(config=None):
    """The app, built by ``app.factory.create_app`` (see there)."""
    from app.factory import create_app as build  # on call: see the module docstring

    return build(config)
