"""Registering memkit in agents' settings: the launcher, the Claude Code hooks and the MCP
server for Claude Code and Cursor (register); other agents' MCP files (more_agents)."""
