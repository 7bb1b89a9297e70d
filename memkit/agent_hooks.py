"""Compatibility: agent settings written by memkit 0.1 may run `python -m memkit.agent_hooks
EVENT`. The Claude Code hooks now live in memkit.agents.claude.hook."""

from memkit.agents.claude.hook import main

__all__ = ["main"]

if __name__ == "__main__":
    import sys

    sys.exit(main())
