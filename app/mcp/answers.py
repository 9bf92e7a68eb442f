"""What each tool answers, as typed dictionaries: the SDK derives each tool's output schema from them (the
schemas docs/agents.md lists) and checks every answer against it. Field names are the JSON API's."""
from __future__ import annotations

from typing import Any, Literal

from typing_extensions import NotRequired, TypedDict  # pydantic reads typing_extensions' on Python 3.11


class ResumeRead(TypedDict):
    version: str  # the resume's ETag without quotes: base_version of the next edit
    resume: dict[str, Any]  # GET /api/resumes/<id>'s data, the template without its HTML, every entry with an id


class ImportedResume(ResumeRead):
    dropped: list[str]  # where the values that were not kept came from (JSON Resume paths)


class ResumeList(TypedDict):
    resumes: list[dict[str, Any]]  # GET /api/resumes's items
    total: int
    page: int


class Patched(TypedDict):
    version: str  # the new version (the one given, with dry_run)
    changedPaths: list[str]  # the operations' paths, as given
    saved: bool
    resume: NotRequired[dict[str, Any]]  # with dry_run: the editable fields as they would be


class TemplateSwitched(TypedDict):
    version: str
    templateId: str


class Version(TypedDict):
    id: str
    createdAt: str
    title: str
    cause: Literal["edit", "restore", "conflict", "agent"]
    author: str | None  # for an agent's edit, "<agent>: <tool>"


class VersionList(TypedDict):
    versions: list[Version]
    total: int


class Reverted(TypedDict):
    version: str
    title: str


class Trashed(TypedDict):
    trashed: bool  # false when the person declined


class Exported(TypedDict):
    downloadUrl: str  # signed: fetched without signing in, until expiresAt
    filename: str
    format: str
    fileSize: int
    expiresAt: str


class Template(TypedDict):
    id: str
    name: str
    category: str
    tier: Literal["basic", "premium"]
    thumbnailUrl: str


class Templates(TypedDict):
    templates: list[Template]


class Suggestion(TypedDict):
    section: str
    message: str
    severity: Literal["critical", "warning", "info"]


class Analysis(TypedDict):
    overallScore: int
    keywordMatchScore: int
    formatScore: int
    contentScore: int
    matchedKeywords: list[str]
    missingKeywords: list[str]
    suggestions: list[Suggestion]
