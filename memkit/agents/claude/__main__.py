"""`python -m memkit.agents.claude EVENT`: the same as `memkit-hook EVENT`."""

import sys

from memkit.agents.claude.hook import main

sys.exit(main())
