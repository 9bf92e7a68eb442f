"""Put the world corpus's documents beside their truths (they are not committed: see README.md).

    .venv/bin/python bench/import_world/get.py [--mirror DIR]

For each truth ``<id>.json`` whose document ``<id>.pdf`` / ``<id>.docx`` is missing or not the one the
truth names (its SHA-256), the file is read from a local bare repository ``DIR/owner+name/repo`` (or
``DIR/owner+name``) at the truth's commit, else downloaded from GitHub
(``https://raw.githubusercontent.com/<repo>/<commit>/<path>``). Prints what it could not get.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _from_mirror(mirror: Path, truth: dict) -> bytes | None:
    base = mirror / truth["repo"].replace("/", "+")
    for git_dir in (base / "repo", base / "repo" / ".git", base):
        if not git_dir.is_dir():
            continue
        for commit in (truth["commit"], "HEAD"):
            found = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{commit}:{truth['path']}"],
                                   capture_output=True)
            if found.returncode == 0:
                return found.stdout
    return None


def _from_github(truth: dict) -> bytes | None:
    url = (f"https://raw.githubusercontent.com/{truth['repo']}/{truth['commit']}/"
           f"{urllib.parse.quote(truth['path'])}")
    try:
        with urllib.request.urlopen(url, timeout=20) as response:  # noqa: S310 (a fixed https address)
            return response.read()
    except OSError:
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", type=Path, help="a folder of bare repositories named owner+name")
    args = parser.parse_args(argv)
    missing = []
    for path in sorted(HERE.glob("*.json")):
        truth = json.loads(path.read_text(encoding="utf-8"))
        target = path.with_suffix(f".{truth['kind']}")
        if target.exists() and hashlib.sha256(target.read_bytes()).hexdigest() == truth["sha256"]:
            continue
        data = (_from_mirror(args.mirror, truth) if args.mirror else None) or _from_github(truth)
        if data is None or hashlib.sha256(data).hexdigest() != truth["sha256"]:
            missing.append(path.stem)
            continue
        target.write_bytes(data)
    for stem in missing:
        print(f"not found: {stem}")
    print(f"{len(missing)} missing")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
