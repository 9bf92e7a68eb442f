"""The documents' old address, kept for one command (see ``fonts.py``); the documents are ``app.documents``."""
