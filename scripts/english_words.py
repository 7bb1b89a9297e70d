#!/usr/bin/env python3
"""Write memkit/agents/claude/english.txt, the general-English words prompt recall does not
take alone (memkit.agents.claude.words.general), from SCOWL's common-word levels.

    python scripts/english_words.py SCOWL_DICT_FOLDER

SCOWL_DICT_FOLDER holds SCOWL's final lists (Debian's `scowl` package installs them in
/usr/share/dict/scowl): english-words.10 and english-words.20, the most common English
words, are read; lower-case alphabetic words of three letters or more are kept, stemmed
as prompt words are (words._stem), one a line, sorted.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memkit.agents.claude import words  # noqa: E402

LEVELS = ("english-words.10", "english-words.20")
NOTICE = """\
# General-English words (stemmed), from SCOWL (Spell Checker Oriented Word Lists),
# version 2020.12.07, levels 10 and 20 (english-words.10, english-words.20); written by
# scripts/english_words.py. A memory sharing only one of these with a prompt is not
# given for it (memkit/agents/claude/words.py).
#
# Copyright 2000-2018 by Kevin Atkinson (the collective work; levels 10 and 20 draw on
# Moby Words II and Brian Kelk's UK English Wordlist with Frequency Classification, both
# public domain, and inflections from WordNet, notice below)
#
# Permission to use, copy, modify, distribute and sell these word lists, the associated
# scripts, the output created from the scripts, and its documentation for any purpose
# is hereby granted without fee, provided that the above copyright notice appears in
# all copies and that both that copyright notice and this permission notice appear in
# supporting documentation. Kevin Atkinson makes no representations about the
# suitability of this array for any purpose. It is provided "as is" without express or
# implied warranty.
#
# WordNet 1.6 Copyright 1997 by Princeton University. All rights reserved. Permission to
# use, copy, modify and distribute this software and database and its documentation for
# any purpose and without fee or royalty is hereby granted, provided that you agree to
# comply with the following copyright notice and statements, including the disclaimer,
# and that the same appear on ALL copies of the software, database and documentation,
# including modifications that you make for internal use or for distribution.
# THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO
# REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF EXAMPLE, BUT NOT
# LIMITATION, PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF
# MERCHANTABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE OF THE LICENSED
# SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY PATENTS,
# COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS. The name of Princeton University or Princeton
# may not be used in advertising or publicity pertaining to distribution of the software
# and/or database. Title to copyright in this software, database and any associated
# documentation shall at all times remain with Princeton University and LICENSEE agrees
# to preserve same.
"""


def main() -> None:
    folder = Path(sys.argv[1])
    found: set[str] = set()
    for level in LEVELS:
        for line in (folder / level).read_text("latin-1").splitlines():
            w = line.strip()
            if w.isascii() and w.isalpha() and w.islower() and len(w) >= 3:
                found.add(words._stem(w))
    out = ROOT / "memkit" / "agents" / "claude" / "english.txt"
    out.write_text(NOTICE + "\n".join(sorted(found)) + "\n", "utf-8")
    print(f"{out}: {len(found)} words")


if __name__ == "__main__":
    main()
