"""The PDF's fallback fonts, built once by the set-up step: a built file stays usable while its source's
content is the same, whatever the time pip installed it at (CI's deployment stage, a fresh environment,
shares them with the tests' environment), and is built again when the source changes."""
import json
import os
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from app.documents import fonts


def source_of(face) -> str:
    return str(resources.files(face.package) / face.source)


def test_built_fonts_serve_an_environment_whose_sources_were_installed_at_another_time(tmp_path):
    built = tmp_path / "fonts"
    shutil.copytree(fonts.ensure_built(), built)
    source = source_of(fonts.FACES[0])
    stat = os.stat(source)
    try:
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns - 86_400 * 10**9))  # installed a day earlier
        assert all(fonts.is_built(face, built) for face in fonts.FACES)
    finally:
        os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def test_a_font_whose_source_changed_is_built_again(tmp_path):
    built = tmp_path / "fonts"
    shutil.copytree(fonts.ensure_built(), built)
    changed, *others = fonts.FACES
    stamp = built / f"{changed.file}.source.json"
    assert json.loads(stamp.read_text())["source"] == f"{changed.package}/{changed.source}"
    stamp.write_text(stamp.read_text().replace('"sha256": "', '"sha256": "0'))  # built from other bytes

    assert not fonts.is_built(changed, built)
    assert all(fonts.is_built(face, built) for face in others)


@pytest.mark.parametrize("command", ["app.documents.fonts", "app.resumes.documents.fonts"])
def test_the_build_step_answers_by_its_new_and_its_old_name(tmp_path, command):
    """An operator's build command from before the documents moved (issue 21) still runs the step."""
    built = tmp_path / "fonts"
    shutil.copytree(fonts.ensure_built(), built)
    done = subprocess.run([sys.executable, "-m", command], cwd=Path(__file__).resolve().parents[2],
                          env={**os.environ, "PDF_FONT_DIR": str(built)}, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"PDF fonts in {built.resolve()}: already built"
