"""The sections of a resume (issue 15's content model; see docs/api-decisions.md, "Sections").

A plain module without imports, so the schemas, the models, normalisation and every
document writer share one list. ``personalInfo`` is the header: it has a
visibility but no place in ``sectionOrder``. The body sections are listed in
their default order. ``skills`` covers both the plain ``skills`` list and
``skillGroups``; ``customSections`` is one place holding every custom section.
"""

HEADER = "personalInfo"
BODY_SECTIONS = ("workExperience", "education", "skills", "projects", "languages", "certificates", "awards",
                 "volunteer", "publications", "interests", "references", "customSections")
SECTIONS = (HEADER, *BODY_SECTIONS)


def section_order(stored) -> list[str]:
    """The body sections in the order to show them: the stored keys that are body sections (first
    occurrence), then the missing ones in the default order. Anything else in ``stored`` is ignored."""
    order = []
    if isinstance(stored, (list, tuple)):
        for key in stored:
            if isinstance(key, str) and key in BODY_SECTIONS and key not in order:
                order.append(key)
    return order + [key for key in BODY_SECTIONS if key not in order]


# The headings a resume may rename (``contentJson.sectionTitles``): the summary's and each body section's
# but the custom sections', which carry their own titles.
TITLED = ("summary", *(key for key in BODY_SECTIONS if key != "customSections"))
