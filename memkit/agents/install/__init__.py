"""Registering memkit in agents' settings: the Claude Code hooks (register), the MCP
server in every agent's file (more_agents), the command they run (launcher), and the one
way a settings file is read and written (files)."""
