"""Pictures of documents, drawn for people to look at: the editor's preview of a resume, the template
picker's pictures of it in every template, the dashboard's first pages and the templates' thumbnails
(drawn here from the export's own PDF, through ``documents.rasteriser``), and the route to the pages of
an imported PDF. docs/architecture.md ("Pictures") says how they are drawn, cached and bounded."""
