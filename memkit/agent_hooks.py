"""Compatibility: agent settings written by memkit 0.1 may run `python -m memkit.agent_hooks
EVENT`. The Claude Code handlers now live in memkit.agents.claude."""

from memkit.agents.claude import main

__all__ = ["main"]

if __name__ == "__main__":
    import sys

    sys.exit(main())
