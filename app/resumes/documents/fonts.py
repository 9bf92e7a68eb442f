"""``python -m app.resumes.documents.fonts``: the build step's command from before the documents moved to
``app.documents`` (issue 21). It runs ``python -m app.documents.fonts``, so that an operator's build
command keeps working; remove it once no deployment runs it."""
from __future__ import annotations

import sys

from app.documents.fonts import main

if __name__ == "__main__":
    sys.exit(main())
