"""The choice fields' vocabularies: the registry and the command line take them from one place."""

from __future__ import annotations

import subprocess
import sys

from memkit.choices import ACTIVATIONS, CONFIDENCES, STATUSES, TYPES
from memkit.fields import REGISTRY


def test_each_choice_field_takes_its_vocabulary() -> None:
    choices = {f.name: f.choices for f in REGISTRY if f.kind == "choice"}
    assert choices == {
        "type": TYPES,
        "status": STATUSES,
        "activation": ACTIVATIONS,
        "confidence": CONFIDENCES,
    }


def test_reading_the_vocabularies_creates_no_registry() -> None:
    code = "import sys, memkit.choices; print(sorted(m for m in sys.modules if 'memkit.' in m))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "['memkit.choices', 'memkit.lazy']\n"  # no memkit.fields
