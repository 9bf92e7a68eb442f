"""``python -m app.documents.fonts``: the build step of old (``cuts.main``)."""
import sys

from app.documents.fonts.cuts import main

sys.exit(main())
