"""The analysis engine: a resume against a job description, offline on the CPU.

``engine.py`` gives the four scores, the keywords found and missing, and the suggestions
(``analyse``), and the two scores a resume stores (``scores``); ``keywords.py`` finds the keywords
of English and Chinese text; ``embedding.py`` loads WordLlama's static embeddings for semantic
similarity. docs/scoring.md works an example through.

A library: content and text in, numbers and words out. It imports neither Flask nor the database;
``app.ai`` (the analysis use case and its route) and ``app.resumes`` (the stored scores) call it.
"""
