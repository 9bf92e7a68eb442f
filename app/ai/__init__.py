"""Tailoring a resume to a job: analysis against a job description (offline, on the CPU) and AI
writing through an OpenAI-compatible chat-completions service. Both are PREMIUM features
(``access.require_ai_features``)."""
