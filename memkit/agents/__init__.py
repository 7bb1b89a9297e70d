"""Agents reading and writing memories: Claude Code hooks (claude/), the MCP server (mcp/),
importing and harvesting agents' own files (adopt/), registering memkit in agents'
settings (install/), and what agents may write and how a person accepts it (proposals).
"""
