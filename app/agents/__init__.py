"""Agents as users: the grants an AI agent holds on a person's account (a personal agent key, or an
OAuth client the person consented to), the scopes that bound them, and the log of what each did. The
MCP server (``app.mcp``) checks them; the account page lists and revokes them."""
