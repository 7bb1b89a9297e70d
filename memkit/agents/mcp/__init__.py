"""`memkit mcp`: the MCP server (server), the line screen before the SDK (jsonrpc), the
functions its tools call (tools), and which project it serves (roots)."""
