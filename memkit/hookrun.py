"""Compatibility: pre-commit hooks installed by memkit 0.1 run `from memkit.hookrun import
main`. The fast path now lives in memkit.githooks.fastpath."""

from memkit.githooks.fastpath import main

__all__ = ["main"]

if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
