"""One memory: YAML front matter plus a markdown body. Parsing and writing, no I/O.

`parse()` validates at the edge and returns a frozen `Memory`; `dumps()` writes it
back, keeping every byte of what did not change. The modules, one concept each:

    model.py   the frozen Memory and Verification dataclasses, their dict forms
    values.py  each front-matter value checked and converted by its field's kind
    parse.py   parse() and parse_all(): text in, a Memory or every problem out
    write.py   dumps() and new(): the surgical front-matter writer
    ids.py     valid ids, and slugify() to make one from a title
    links.py   a link's shape: check() refuses one that cannot resolve, normalise()
               writes its path as git names it
    schema.py  JSON Schemas of the front matter and of the `--json` record
    yaml.py    the only importer of PyYAML and python-frontmatter

The fields themselves are declared once, in memkit/fields.py, and a file's layout
(size, encoding, `---` delimiters, the body) in memkit/memfile.py. This package
re-exports the public API: `from memkit import memory as mm; mm.parse(...)`.
"""

from __future__ import annotations

from memkit.fields import CONFIDENCES, STATUSES, TYPES
from memkit.fields import NAMES as FIELDS
from memkit.memfile import MAX_BYTES, check_size, decode, field_line, format_body, split
from memkit.memory.ids import MAX_ID, id_problem, is_valid_id, slugify, windows_refuses
from memkit.memory.model import Memory, Verification
from memkit.memory.parse import load_yaml, parse, parse_all, unknown_fields
from memkit.memory.values import check_link, written_links
from memkit.memory.write import dumps, new

__all__ = [
    "CONFIDENCES",
    "FIELDS",
    "MAX_BYTES",
    "MAX_ID",
    "STATUSES",
    "TYPES",
    "Memory",
    "Verification",
    "check_link",
    "check_size",
    "decode",
    "dumps",
    "field_line",
    "format_body",
    "id_problem",
    "is_valid_id",
    "load_yaml",
    "new",
    "parse",
    "parse_all",
    "slugify",
    "split",
    "unknown_fields",
    "windows_refuses",
    "written_links",
]
