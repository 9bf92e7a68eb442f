"""The editor's entry forms, described once (issue 15).

``pages/editor.html`` draws the form of every kind of entry (a job, a language, a custom section's
item, ...) from ``FORMS`` as a ``<template>``, and ``static/js/editor_entries.js`` adds, removes,
reorders and fills entries of whatever it finds there: a new kind of entry is a few lines here, not
a hand-written form and script. Labels are message ids (translated in the editor's catalogue).

A field is ``(name, label, kind)`` with an optional hint. Kinds: ``text``, ``url``, ``month``
(``YYYY-MM``), ``area`` (a text box), ``lines`` (one value per line: a list), ``csv`` (values
separated by commas: a list). A form's ``sublist`` is a list inside each entry (a custom section's
items), drawn from the form of that name. A form's ``heading`` names the fields an entry's heading shows
as it is typed ("Engineer · Acme"; ``a|b``: a, else b); the numbered ``title`` ("Experience 3") is the
heading of an entry whose fields are empty (issue 25).
"""
from __future__ import annotations

from typing import NamedTuple

from app.content.sections import BODY_SECTIONS


class Field(NamedTuple):
    name: str
    label: str
    kind: str = "text"
    hint: str = ""


class Form(NamedTuple):
    title: str  # an entry's heading; {n} is its place in the list
    add: str  # the button that adds one
    fields: tuple[Field, ...]
    sublist: tuple[str, str] | None = None  # (key in each entry, form of its entries)
    heading: tuple[str, ...] = ()  # the fields an entry's heading shows, joined by " · "


WIDE = ("area", "lines", "csv")  # kinds that take the form's whole width
START = Field("startDate", "Start", "month")
END = Field("endDate", "End", "month", "(empty: present)")
LINK = Field("url", "Link", "url")
HIGHLIGHTS = Field("highlights", "Highlights", "lines", "one per line")
DESCRIPTION = Field("description", "Description", "area")
SUMMARY = Field("summary", "Description", "area")  # "Summary" is the person's own summary
KEYWORDS = Field("keywords", "Keywords", "csv", "separated by commas")

FORMS: dict[str, Form] = {
    "profiles": Form("Profile {n}", "Add profile", (
        Field("network", "Network", hint="e.g. GitHub"), Field("username", "Username"), LINK),
        heading=("network", "username|url")),
    "workExperience": Form("Experience {n}", "Add experience", (
        Field("position", "Position"), Field("company", "Company"), Field("location", "Location"),
        Field("url", "Website", "url"), START, END, DESCRIPTION, HIGHLIGHTS,
        Field("companyDescription", "About the company", hint="not printed; kept in JSON exports")),
        heading=("position", "company")),
    "education": Form("Education {n}", "Add education", (
        Field("school", "School"), Field("degree", "Degree"), Field("area", "Field of study"),
        Field("studyType", "Type of study", hint="e.g. Bachelor"), START, END, Field("score", "Grade"),
        Field("courses", "Courses", "lines", "one per line"), Field("url", "Website", "url")),
        heading=("degree|studyType|area", "school")),
    "skillGroups": Form("Skill group {n}", "Add skill group", (
        Field("name", "Group name"), Field("level", "Level"), KEYWORDS), heading=("name|keywords", "level")),
    "projects": Form("Project {n}", "Add project", (
        Field("name", "Project name"), LINK, START, END, DESCRIPTION,
        Field("technologies", "Technologies", "csv", "separated by commas"), HIGHLIGHTS,
        Field("roles", "Your roles", "csv", "separated by commas"),
        Field("entity", "For", hint="e.g. a company or client"),
        Field("type", "Kind of project", hint="e.g. application")), heading=("name", "entity")),
    "languages": Form("Language {n}", "Add language", (
        Field("language", "Language"), Field("fluency", "Fluency", hint="e.g. Native speaker")),
        heading=("language", "fluency")),
    "certificates": Form("Certificate {n}", "Add certificate", (
        Field("name", "Certificate"), Field("issuer", "Issuer"), Field("date", "Date", "month"), LINK),
        heading=("name", "issuer")),
    "awards": Form("Award {n}", "Add award", (
        Field("title", "Title"), Field("awarder", "Awarded by"), Field("date", "Date", "month"), SUMMARY),
        heading=("title", "awarder")),
    "volunteer": Form("Volunteering {n}", "Add volunteering", (
        Field("position", "Position"), Field("organization", "Organisation"), START, END,
        Field("url", "Website", "url"), SUMMARY, HIGHLIGHTS), heading=("position", "organization")),
    "publications": Form("Publication {n}", "Add publication", (
        Field("name", "Title"), Field("publisher", "Publisher"), Field("releaseDate", "Published", "month"), LINK,
        SUMMARY), heading=("name", "publisher")),
    "interests": Form("Interest {n}", "Add interest", (Field("name", "Interest"), KEYWORDS),
                      heading=("name|keywords",)),
    "references": Form("Reference {n}", "Add reference", (
        Field("name", "Name"), Field("reference", "Reference", "area")), heading=("name",)),
    "customSections": Form("Custom section {n}", "Add custom section", (Field("title", "Section title"),),
                           sublist=("items", "customItems"), heading=("title",)),
    "customItems": Form("Item {n}", "Add item", (
        Field("title", "Title"), Field("subtitle", "Subtitle"), Field("date", "Date", "month"), LINK, DESCRIPTION),
        heading=("title", "subtitle")),
}

# The body sections' headings, in their default order (the page follows the resume's sectionOrder).
HEADINGS = {
    "workExperience": "Work experience", "education": "Education", "skills": "Skills", "projects": "Projects",
    "languages": "Languages", "certificates": "Certificates", "awards": "Awards", "volunteer": "Volunteering",
    "publications": "Publications", "interests": "Interests", "references": "References",
    "customSections": "Custom sections",
}
SECTIONS = tuple((key, HEADINGS[key]) for key in BODY_SECTIONS)
