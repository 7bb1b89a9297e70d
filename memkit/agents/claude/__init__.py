"""Claude Code hooks: the entry point (hook), the payload (payload), the handlers that
give memories at the point of action (handlers, startup, pointofaction, session_text, preloaded)
from the derived index (recall, indexer, words), the session's journal and the draft
made from it (journal, drafts), receipts of what was given (ledger, receipts), and
`memkit context` answered from the same index (filecontext).
"""

# The hook events memkit handles (`memkit claude-hook EVENT`, `memkit-hook EVENT`). Here:
# the command line lists them without importing the handlers.
EVENTS = (
    "session-start",
    "user-prompt-submit",
    "pre-tool-use",
    "post-tool-use",
    "stop",
    "session-end",
)
