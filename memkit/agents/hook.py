"""Compatibility: console scripts installed by earlier versions run `memkit.agents.hook:main`
(`python -m memkit.agents.hook EVENT`). The hooks now live in memkit.agents.claude.hook."""

from memkit.agents.claude.hook import main

__all__ = ["main"]

if __name__ == "__main__":
    import sys

    sys.exit(main())
