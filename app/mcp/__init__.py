"""The MCP server: this service for AI agents, over the Model Context Protocol's Streamable HTTP at
``/mcp`` (the SDK's ``mcp``). An ASGI process of its own (``uvicorn app.mcp.asgi:app``, the Procfile's
``mcp``), or beside the Flask app in one process (``app.mcp.asgi:embedded``, ``make run``). Its tools call
the same use cases as the JSON API's views, inside the Flask app's context; nothing here calls the API
over HTTP. How a client connects, the tools and their schemas: docs/agents.md."""
