"""Agents reading and writing memories: Claude Code hook handlers (claude,
session_start, drafts), the MCP server (mcp), registration in agents' settings
(register), importing agents' instruction files (importer) and the review of what
agents propose (proposals)."""
