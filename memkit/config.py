"""Configuration: defaults < .memory/config.toml < MEMKIT_<SECTION>_<KEY> env < flags.

Each feature reads its own section (`config.section("compile")`) and validates the
keys it owns; this module only loads and layers the values.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memkit.errors import ConfigError

CONFIG_NAME = "config.toml"


@dataclass(frozen=True)
class Config:
    data: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    path: str = ""  # the file it came from, for error messages

    def section(self, name: str) -> dict[str, Any]:
        """One section's values, with MEMKIT_<SECTION>_<KEY> environment overrides applied."""
        values = dict(self.data.get(name, {}))
        prefix = f"MEMKIT_{name.upper()}_"
        for key, raw in os.environ.items():
            if key.startswith(prefix):
                values[key[len(prefix) :].lower()] = _env_value(raw)
        return values

    def get(self, section: str, key: str, default: Any = None) -> Any:
        return self.section(section).get(key, default)


def _env_value(raw: str) -> Any:
    import tomllib

    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw  # a bare string


MAX_CONFIG_BYTES = 256 * 1024


def load(root: Path) -> Config:
    """The project's `.memory/config.toml` (read safely: it comes with the repository)."""
    from memkit.fsutil import read_inside

    rel = f".memory/{CONFIG_NAME}"
    path = root / rel
    try:
        raw = read_inside(root, rel, limit=MAX_CONFIG_BYTES)
    except FileNotFoundError:
        return Config(path=str(path))
    import tomllib

    try:
        data = tomllib.loads(raw.decode("utf-8").removeprefix("\ufeff"))  # a BOM is no TOML
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8; re-save it as UTF-8") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: invalid TOML ({e}); fix the syntax") from None
    for name, value in data.items():
        if not isinstance(value, dict):
            raise ConfigError(
                f"{path}: top-level key {name!r} must be a [section] table; see the comments "
                "in the file `memkit init` writes"
            )
    return Config(data=data, path=str(path))
