"""The MCP tools: stable snake_case names, honest annotations, one scope each (``SCOPES``).

Each tool calls the same use case as the JSON API's view (``app.resumes``, ``app.ai``) and answers what
the view's schema dumps, so a tool and its endpoint cannot drift. A resume's ``version`` is its ETag
without the quotes: ``get_resume`` answers it, ``apply_resume_patch`` and ``switch_template`` take it as
``base_version`` and refuse a stale one (``RESUME_CONFLICT``, with the current version). Every edit an
agent makes is a version named "<agent>: <tool>" (``app.resumes.versions``, cause ``agent``).
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, Elicit, MCPServer, Resolve
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

from app.ai import analysis
from app.mcp import answers
from app.mcp.calls import Caller, Calls
from app.resumes import exports, history, imports, patching, schemas, service, trash

# The scope each tool needs.
SCOPES = {
    "list_resumes": "resumes:read", "get_resume": "resumes:read", "list_versions": "resumes:read",
    "list_templates": "resumes:read",
    "create_resume": "resumes:write", "duplicate_resume": "resumes:write", "apply_resume_patch": "resumes:write",
    "revert_resume": "resumes:write", "switch_template": "resumes:write", "import_json_resume": "resumes:write",
    "trash_resume": "resumes:delete", "restore_resume": "resumes:delete",
    "export_resume": "resumes:export",
    "analyze_job": "jobs:analyze",
}
READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)


def _writes(*, destructive: bool = False, idempotent: bool = False) -> ToolAnnotations:
    return ToolAnnotations(read_only_hint=False, destructive_hint=destructive, idempotent_hint=idempotent,
                           open_world_hint=False)


class Confirmation(BaseModel):
    confirm: bool = Field(description="Move the resume to the trash (it can be restored for 30 days)?")


async def confirm_trash(resume_id: str, ctx: Context) -> Confirmation | Elicit[Confirmation]:
    """Ask the person before a resume goes to the trash, when the client can ask (elicitation)."""
    capabilities = ctx.client_capabilities
    if capabilities is None or capabilities.elicitation is None:
        return Confirmation(confirm=True)
    return Elicit(f"Move the resume {resume_id} to the trash? It can be restored from the trash for 30 days.",
                  Confirmation)


def register(server: MCPServer, calls: Calls) -> None:  # noqa: C901 (one closure per tool, read top to bottom)
    @server.tool(annotations=READ)
    def list_resumes(status: Literal["DRAFT", "PUBLISHED", "ARCHIVED"] | None = None, search: str | None = None,
                     page: Annotated[int, Field(ge=1)] = 1,
                     limit: Annotated[int, Field(ge=1, le=100)] = 20) -> answers.ResumeList:
        """Your resumes, the most recently updated first: id, title, status, template and scores. ``search``
        keeps those whose title contains it (any case)."""
        def work(caller: Caller):
            rows, total = service.list_resumes(caller.user, page=page, limit=limit, status=status,
                                               title_contains=search)
            return {"resumes": [schemas.list_item(row) for row in rows], "total": total, "page": page}
        return calls.run("list_resumes", work)

    @server.tool(annotations=READ)
    def get_resume(resume_id: str) -> answers.ResumeRead:
        """One resume with its ``version`` (pass it as ``base_version`` to edit). Every entry of a list
        has an ``id``: patches address entries by it."""
        return calls.run("get_resume", lambda caller: patching.document_of(
            service.get_owned_resume(caller.user, resume_id)), resume_id)

    @server.tool(annotations=_writes())
    def apply_resume_patch(resume_id: str, base_version: str,
                           operations: Annotated[list[dict[str, Any]], Field(min_length=1, max_length=100)],
                           dry_run: bool = False) -> answers.Patched:
        """Edit a resume with a JSON Patch (RFC 6902) on the document get_resume answers: paths under
        /title, /contentJson, /sectionsVisibility, /targetJobDescription; entries addressed by their id
        (/contentJson/workExperience/<id>/description), plain lists by position (- appends). Refused with
        RESUME_CONFLICT and the current version when the resume changed since ``base_version``. With
        ``dry_run`` nothing is saved: the answer shows the resume as it would be."""
        return calls.run("apply_resume_patch", lambda caller: patching.apply(
            caller.user, resume_id, base_version, operations, author=caller.author("apply_resume_patch"),
            dry_run=dry_run), resume_id)

    @server.tool(annotations=_writes())
    def create_resume(title: Annotated[str, Field(min_length=1, max_length=200)],
                      template_id: str | None = None) -> answers.ResumeRead:
        """A new, empty DRAFT resume (by default on the first basic template)."""
        def work(caller: Caller):
            data = schemas.ResumeCreateSchema().load({"title": title,
                                                      "templateId": template_id or imports.default_template_id()})
            return patching.document_of(service.create_resume(caller.user, data))
        return calls.run("create_resume", work)

    @server.tool(annotations=_writes())
    def duplicate_resume(resume_id: str) -> answers.ResumeRead:
        """A DRAFT copy of a resume, titled "<title> (copy)"."""
        return calls.run("duplicate_resume", lambda caller: patching.document_of(
            service.duplicate_resume(caller.user, resume_id)), resume_id)

    @server.tool(annotations=_writes(idempotent=True))
    def switch_template(resume_id: str, template_id: str, base_version: str) -> answers.TemplateSwitched:
        """Draw a resume with another template (list_templates); a premium one needs a Premium plan."""
        def work(caller: Caller):
            patching.current(caller.user, resume_id, base_version)
            try:
                saved = service.update_resume(caller.user, resume_id, {"templateId": template_id},
                                              if_match=f'"{base_version}"', author=caller.author("switch_template"))
            except service.StaleCopy as copy:
                raise patching.stale(copy.resume) from None
            return {"version": patching.version_of(saved), "templateId": saved.template_id}
        return calls.run("switch_template", work, resume_id)

    @server.tool(annotations=_writes())
    def import_json_resume(json_resume: dict[str, Any], title: str | None = None) -> answers.ImportedResume:
        """A new DRAFT resume from a JSON Resume document (jsonresume.org); the answer says what was not kept."""
        def work(caller: Caller):
            resume, dropped, _report = imports.import_document(caller.user, json_resume, title=title)
            return {**patching.document_of(resume), "dropped": dropped}
        return calls.run("import_json_resume", work)

    @server.tool(annotations=READ)
    def list_versions(resume_id: str, page: Annotated[int, Field(ge=1)] = 1,
                      limit: Annotated[int, Field(ge=1, le=100)] = 20) -> answers.VersionList:
        """A resume's earlier states, newest first: each was replaced by an edit, a restore, or an agent
        (``author`` names the agent and the tool). revert_resume brings one back."""
        def work(caller: Caller):
            rows, total = history.list_versions(caller.user, resume_id, page=page, limit=limit)
            return {"versions": schemas.VersionListItemSchema(many=True).dump(rows), "total": total}
        return calls.run("list_versions", work, resume_id)

    @server.tool(annotations=_writes(idempotent=True))
    def revert_resume(resume_id: str, version_id: str) -> answers.Reverted:
        """Bring a resume back to one of its versions; the state it replaces is kept as a version too."""
        def work(caller: Caller):
            resume = history.restore(caller.user, resume_id, version_id, author=caller.author("revert_resume"))
            return {"version": patching.version_of(resume), "title": resume.title}
        return calls.run("revert_resume", work, resume_id)

    @server.tool(annotations=_writes(destructive=True, idempotent=True))
    def trash_resume(resume_id: str, confirmation: Annotated[Confirmation, Resolve(confirm_trash)]) -> answers.Trashed:
        """Move a resume to the trash (restore_resume brings it back within 30 days). Asks the person
        first when the client can ask."""
        def work(caller: Caller):
            if not confirmation.confirm:
                return {"trashed": False}
            service.delete_resume(caller.user, resume_id)
            return {"trashed": True}
        return calls.run("trash_resume", work, resume_id)

    @server.tool(annotations=_writes(idempotent=True))
    def restore_resume(resume_id: str) -> answers.ResumeRead:
        """Bring a resume back from the trash."""
        return calls.run("restore_resume", lambda caller: patching.document_of(trash.restore(caller.user, resume_id)),
                         resume_id)

    @server.tool(annotations=_writes(idempotent=True))
    def export_resume(resume_id: str, format: Literal["pdf", "docx", "html", "txt", "json"] = "pdf") -> answers.Exported:
        """Export a resume: a short-lived signed download URL (no sign-in needed to fetch it)."""
        def work(caller: Caller):
            data = schemas.ExportInputSchema().load({"format": format})
            result = exports.export_resume(caller.user, resume_id, data)
            return {"downloadUrl": result.download_url, "filename": result.filename, "format": result.format,
                    "fileSize": result.file_size, "expiresAt": result.expires_at.isoformat()}
        return calls.run("export_resume", work, resume_id)

    @server.tool(annotations=READ)
    def list_templates() -> answers.Templates:
        """The templates a resume can be drawn with (id, name, category, basic or premium)."""
        return calls.run("list_templates", lambda caller: {
            "templates": schemas.TemplateListItemSchema(many=True).dump(service.list_templates())})

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                             open_world_hint=False))
    def analyze_job(resume_id: str, job_description: str | None = None) -> answers.Analysis:
        """How well a resume matches a job description (by default the resume's target job): scores, the
        keywords it has and misses, and suggestions."""
        def work(caller: Caller):
            data = analysis.AnalysisInputSchema().load({"jobDescription": job_description} if job_description else {})
            return analysis.AnalysisSchema().dump(analysis.analyse_resume(caller.user, resume_id, data))
        return calls.run("analyze_job", work, resume_id)
