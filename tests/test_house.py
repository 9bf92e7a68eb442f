"""The house rules of app/ (docs/architecture.md): module sizes, one reader of the environment, imports
inside functions only where a module is worth not loading, libraries without Flask, and import-linter's
contracts (setup.cfg), which ``make test`` runs as ``lint-imports`` and which must fail on a circle."""
from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"
MAX_LINES = 400
# An import of an app module inside a function, by (module, imported): each is there so that a module
# is not loaded before it is needed, never to dodge a circle (lint-imports counts these imports too).
DEFERRED_IMPORTS = {
    ("app", "app.factory"): "the package imports nothing, so that a library under it comes without Flask",
    ("app.documents", "app.documents.pdf"): "xhtml2pdf takes ~0.35 s to import; only the export jobs need it",
    ("app.documents", "app.documents.docx"): "python-docx is loaded by the jobs that write a DOCX only",
    ("app.documents", "app.documents.text"): "with its siblings: each renderer is loaded on first use",
    ("app.documents", "app.documents.fonts.web"): "with its siblings: the HTML export's fonts (fontTools) on use",
    ("app.documents", "app.documents.templating"): "Jinja is loaded by the processes that draw a resume, not by "
                                                   "the import's child, which only draws a PDF's pages as pictures",
    ("app.documents", "app.content.jsonresume"): "with the renderers: JSON Resume's schema on the JSON export",
    ("app.integrations.storage", "app.integrations.s3"): "boto3 is imported only by apps that store in S3",
}
LIBRARIES = ("app.content", "app.content.jsonresume", "app.content.cleaning", "app.documents",
             "app.documents.templating", "app.documents.text", "app.importing.reading", "app.importing.extract",
             "app.matching.engine")


def _modules():
    for path in sorted(APP.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts), path


def _in_functions(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Import, ast.ImportFrom)):
                    yield inner


def _imported(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    return [f"{base}.{alias.name}" if _is_module(f"{base}.{alias.name}") else base for alias in node.names]


def _is_module(dotted: str) -> bool:
    """Whether ``dotted`` names a module or a package of the app (rather than a name inside one)."""
    path = APP.parent / Path(*dotted.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def test_no_module_of_the_app_is_over_400_lines():
    long = {name: count for name, path in _modules()
            if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_only_the_configuration_reads_the_environment():
    readers = set()
    for name, path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            reads = (isinstance(node, ast.Attribute) and node.attr in {"environ", "getenv", "environb"}
                     and isinstance(node.value, ast.Name) and node.value.id == "os")
            named = isinstance(node, ast.ImportFrom) and node.module == "os" and any(
                alias.name in {"environ", "getenv", "environb"} for alias in node.names)
            if reads or named:
                readers.add(name)
    assert readers == {"app.config"}


def test_imports_inside_functions_only_defer_a_costly_module():
    deferred = set()
    for name, path in _modules():
        for node in _in_functions(ast.parse(path.read_text(encoding="utf-8"))):
            deferred.update((name, imported) for imported in _imported(node) if imported.split(".")[0] == "app")
    assert deferred == set(DEFERRED_IMPORTS)


def test_the_libraries_load_neither_flask_nor_the_database():
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); "
             f"import {', '.join(LIBRARIES)}; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] in "
             "{'flask', 'werkzeug', 'sqlalchemy', 'flask_sqlalchemy', 'psycopg', 'redis', 'rq'}))")
    loaded = subprocess.run([sys.executable, "-I", "-c", probe, str(ROOT)], capture_output=True, text=True,
                            check=True).stdout.strip()
    assert loaded == "[]"


def _lint_imports(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(Path(sys.executable).with_name("lint-imports")), "--no-cache"], cwd=root,
                          capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)})


def test_the_contracts_hold():
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(("module", "statement"), [
    ("app/content/sections.py", "def _planted():\n    from app.resumes import service\n"),   # a dodged circle
    ("app/events/outbox.py", "from app.webhooks import service\n"),                         # a producer reading back
    ("app/documents/text.py", "from flask import current_app\n"),                            # a library on Flask
])
def test_the_contracts_fail_on_an_import_against_the_layers(tmp_path, module, statement):
    copy = tmp_path / "house"
    shutil.copytree(APP, copy / "app", ignore=shutil.ignore_patterns("__pycache__", "static", "templates",
                                                                     "translations"))
    shutil.copy(ROOT / "setup.cfg", copy / "setup.cfg")
    with open(copy / module, "a", encoding="utf-8") as planted:
        planted.write("\n\n" + statement)
    result = _lint_imports(copy)
    assert result.returncode != 0 and "BROKEN" in result.stdout, result.stdout + result.stderr


# The columns of ``users`` and the package that writes each (docs/architecture.md, "The map").
USER_COLUMNS = {
    "app.users": ("email", "name", "avatar", "preferences"),
    "app.auth": ("password_hash", "auth_id", "email_verified_at", "last_login_at", "two_factor_enabled",
                 "totp_secret", "totp_last_step", "totp_pending_secret", "totp_pending_until"),
    "app.billing": ("live_resumes", "storage_used"),
}


def _writes_to_users(tree: ast.AST):
    """The users' columns a module writes: ``user.<column> = ...`` (a name ending in ``user``) and
    ``update(User)...values(<column>=...)``."""
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            base = target.value if isinstance(target, ast.Attribute) else None
            named = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
            if named.endswith("user"):
                yield target.attr
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "values":
            chain = node.func.value
            while isinstance(chain, ast.Call) and isinstance(chain.func, ast.Attribute):
                chain = chain.func.value
            if (isinstance(chain, ast.Call) and isinstance(chain.func, ast.Name) and chain.func.id == "update"
                    and chain.args and isinstance(chain.args[0], ast.Name) and chain.args[0].id == "User"):
                yield from (keyword.arg for keyword in node.keywords if keyword.arg)


def test_each_column_of_users_is_written_by_its_own_package_only():
    owner = {column: package for package, columns in USER_COLUMNS.items() for column in columns}
    strays = set()
    for name, path in _modules():
        for column in _writes_to_users(ast.parse(path.read_text(encoding="utf-8"))):
            package = owner.get(column)
            if package and name != package and not name.startswith(package + "."):
                strays.add((name, column))
    assert strays == set()
