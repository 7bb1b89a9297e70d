"""Agents reading and writing memories: Claude Code hook handlers (claude, hook_handlers)
with the session journal (journal), the text given at session start (session_text) and
the draft made at the end (drafts); the MCP server (mcp) and the functions its tools call
(tools); registration in agents' settings (register); importing agents' instruction
files (importer); and the review of what agents propose (proposals).
"""

# The Claude Code hook events memkit handles (`memkit claude-hook EVENT`, `memkit-hook
# EVENT`). Here, not in claude: the command line lists them without importing it.
EVENTS = (
    "session-start",
    "user-prompt-submit",
    "pre-tool-use",
    "post-tool-use",
    "stop",
    "session-end",
)
