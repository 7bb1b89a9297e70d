"""The coding agents the end-to-end suite runs, pinned, and how each is pointed at the endpoint.

Each `Agent` says where it comes from (an npm or PyPI package at one version), which
API flavour it speaks, and, given a fresh HOME, the scratch repository and the port of
the local endpoint, which files to write, which environment to set and which one-shot
command to run. Nothing here reaches a network: every URL is 127.0.0.1.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

MODEL = "test-model"
KEY = "e2e-key"

Setup = Callable[[Path, Path, int], dict[str, str]]  # (home, repo, port) -> extra environment


@dataclass(frozen=True)
class Agent:
    """One pinned agent CLI and how to run it offline against the endpoint."""

    key: str  # short name used on the command line and in the table
    name: str
    registry: str  # "npm" or "pypi"
    package: str
    version: str
    binary: str  # the command the package installs
    flavour: str  # anthropic, chat, responses or gemini
    setup: Setup  # writes config under HOME, returns environment
    argv: Callable[[str], list[str]]  # prompt -> arguments after the binary
    reader: str = ""  # its name for `memkit compile --explain` ("" when memkit has none)

    @property
    def spec(self) -> str:
        """What the registry's client installs (`pkg@1.2.3`, `pkg==1.2.3`)."""
        return f"{self.package}{'@' if self.registry == 'npm' else '=='}{self.version}"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _base(port: int) -> str:
    return f"http://127.0.0.1:{port}"


def _claude(home: Path, repo: Path, port: int) -> dict[str, str]:
    _write(
        home / ".claude.json",
        json.dumps(
            {
                "hasCompletedOnboarding": True,
                "projects": {str(repo): {"hasTrustDialogAccepted": True}},
            }
        ),
    )
    return {
        "ANTHROPIC_BASE_URL": _base(port),
        "ANTHROPIC_API_KEY": KEY,
        "DISABLE_TELEMETRY": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
    }


def _codex(home: Path, repo: Path, port: int) -> dict[str, str]:
    codex_home = home / ".codex"
    _write(
        codex_home / "config.toml",
        "\n".join(
            [
                f'model = "{MODEL}"',
                'model_provider = "e2e"',
                "[model_providers.e2e]",
                'name = "e2e"',
                f'base_url = "{_base(port)}/v1"',
                'env_key = "E2E_API_KEY"',
                'wire_api = "responses"',
                "",
            ]
        ),
    )
    return {"CODEX_HOME": str(codex_home), "E2E_API_KEY": KEY}


def _gemini(home: Path, repo: Path, port: int) -> dict[str, str]:
    _write(
        home / ".gemini" / "settings.json",
        json.dumps(
            {
                "security": {
                    "auth": {"selectedType": "gemini-api-key"},
                    "folderTrust": {"enabled": False},
                },
                "privacy": {"usageStatisticsEnabled": False},
                "telemetry": {"enabled": False},
                "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
            }
        ),
    )
    return {"GOOGLE_GEMINI_BASE_URL": _base(port), "GEMINI_API_KEY": KEY}


def _opencode_config(port: int) -> str:
    return json.dumps(
        {
            "$schema": "https://opencode.ai/config.json",
            "autoupdate": False,
            "share": "disabled",
            "provider": {
                "e2e": {
                    "npm": "@ai-sdk/openai-compatible",
                    "name": "e2e",
                    "options": {"baseURL": f"{_base(port)}/v1", "apiKey": KEY},
                    "models": {MODEL: {"name": MODEL}},
                }
            },
            "model": f"e2e/{MODEL}",
            "permission": {"edit": "allow", "bash": "allow", "webfetch": "allow"},
        }
    )


def _opencode(home: Path, repo: Path, port: int) -> dict[str, str]:
    cfg = home / "opencode.json"
    _write(cfg, _opencode_config(port))
    return {
        "OPENCODE_CONFIG": str(cfg),
        "OPENCODE_DISABLE_MODELS_FETCH": "1",
        "OPENCODE_DISABLE_AUTOUPDATE": "1",
        "OPENCODE_DISABLE_SHARE": "1",
    }


def _kilo(home: Path, repo: Path, port: int) -> dict[str, str]:
    cfg = home / "kilo.json"
    _write(cfg, _opencode_config(port))
    quiet = ("MODELS_FETCH", "AUTOUPDATE", "DEFAULT_PLUGINS", "LSP_DOWNLOAD", "SHARE",
             "CODEBASE_INDEXING", "SESSION_INGEST", "PRESENCE")  # fmt: skip
    return {"KILO_CONFIG": str(cfg), **{f"KILO_DISABLE_{q}": "1" for q in quiet}}


def _copilot(home: Path, repo: Path, port: int) -> dict[str, str]:
    return {
        "COPILOT_PROVIDER_BASE_URL": f"{_base(port)}/v1",
        "COPILOT_PROVIDER_TYPE": "openai",
        "COPILOT_PROVIDER_API_KEY": KEY,
        "COPILOT_MODEL": MODEL,
        "COPILOT_OFFLINE": "true",
    }


def _qwen(home: Path, repo: Path, port: int) -> dict[str, str]:
    _write(
        home / ".qwen" / "settings.json",
        json.dumps(
            {
                "security": {"auth": {"selectedType": "openai"}, "folderTrust": {"enabled": False}},
                "privacy": {"usageStatisticsEnabled": False},
                "telemetry": {"enabled": False},
                "general": {"disableAutoUpdate": True},
            }
        ),
    )
    return {"OPENAI_BASE_URL": f"{_base(port)}/v1", "OPENAI_API_KEY": KEY, "OPENAI_MODEL": MODEL}


def _continue(home: Path, repo: Path, port: int) -> dict[str, str]:
    glob = home / ".continue"
    _write(
        glob / "config.yaml",
        "\n".join(
            [
                "name: e2e",
                "version: 1.0.0",
                "schema: v1",
                "models:",
                f"  - name: {MODEL}",
                "    provider: openai",
                f"    model: {MODEL}",
                f"    apiBase: {_base(port)}/v1",
                f"    apiKey: {KEY}",
                "    roles: [chat, edit, apply]",
                "    capabilities: [tool_use]",
                "",
            ]
        ),
    )
    return {
        "CONTINUE_GLOBAL_DIR": str(glob),
        "CONTINUE_CLI_DISABLE_TELEMETRY": "1",
        "E2E_CONTINUE_CONFIG": str(glob / "config.yaml"),
    }


def _cline(home: Path, repo: Path, port: int) -> dict[str, str]:
    return {"E2E_PRE": f"cline auth -p openai -k {KEY} -m {MODEL} -b {_base(port)}/v1"}


def _pi(home: Path, repo: Path, port: int) -> dict[str, str]:
    _write(
        home / ".pi" / "agent" / "models.json",
        json.dumps(
            {
                "providers": {
                    "e2e": {
                        "baseUrl": f"{_base(port)}/v1",
                        "api": "openai-completions",
                        "apiKey": KEY,
                        "models": [
                            {
                                "id": MODEL,
                                "name": MODEL,
                                "reasoning": False,
                                "input": ["text"],
                                "contextWindow": 128000,
                                "maxTokens": 4096,
                                "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
                            }
                        ],
                    }
                }
            }
        ),
    )
    return {"PI_OFFLINE": "1"}


def _aider(home: Path, repo: Path, port: int) -> dict[str, str]:
    return {
        "OPENAI_API_KEY": KEY,
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "E2E_AIDER_BASE": f"{_base(port)}/v1",
    }


CODEX_ARGS = ["exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox"]
AIDER_ARGS = ["--model", f"openai/{MODEL}", "--openai-api-base", "$E2E_AIDER_BASE",
              "--yes-always", "--no-auto-commits", "--no-check-update",
              "--analytics-disable", "--no-show-model-warnings", "--no-gitignore"]  # fmt: skip

# fmt: off
AGENTS: tuple[Agent, ...] = (
    Agent("claude", "Claude Code", "npm", "@anthropic-ai/claude-code", "2.1.332", "claude",
          "anthropic", _claude, lambda p: ["-p", p, "--allowedTools", "Read"],
          reader="claude"),
    Agent("codex", "Codex CLI", "npm", "@openai/codex", "0.169.0", "codex", "responses",
          _codex, lambda p: [*CODEX_ARGS, p], reader="codex"),
    Agent("gemini", "Gemini CLI", "npm", "@google/gemini-cli", "0.61.0", "gemini", "gemini",
          _gemini, lambda p: ["-p", p, "--yolo"], reader="gemini"),
    Agent("opencode", "OpenCode", "npm", "opencode-ai", "1.18.33", "opencode", "chat",
          _opencode, lambda p: ["run", "--model", f"e2e/{MODEL}", p], reader="opencode"),
    Agent("copilot", "Copilot CLI", "npm", "@github/copilot", "1.0.102", "copilot", "chat",
          _copilot, lambda p: ["-p", p, "--allow-all-tools"], reader="copilot"),
    Agent("qwen", "Qwen Code", "npm", "@qwen-code/qwen-code", "0.24.4", "qwen", "chat",
          _qwen, lambda p: ["-p", p, "--yolo"], reader="qwen"),
    Agent("continue", "Continue CLI", "npm", "@continuedev/cli", "1.5.47", "cn", "chat",
          _continue, lambda p: ["--config", "$E2E_CONTINUE_CONFIG", "-p", p, "--auto"],
          reader="continue"),
    # Cline leaves a `--cline-hub-daemon` running: the run's PID namespace ends it.
    Agent("cline", "Cline CLI", "npm", "cline", "3.0.65", "cline", "chat",
          _cline, lambda p: ["--json", p], reader="cline"),
    Agent("kilo", "Kilo Code CLI", "npm", "@kilocode/cli", "7.7.7", "kilo", "chat",
          _kilo, lambda p: ["run", "--print-logs", "--model", f"e2e/{MODEL}", p], reader="kilo"),
    Agent("pi", "pi", "npm", "@mariozechner/pi-coding-agent", "0.73.1", "pi", "chat",
          _pi, lambda p: ["--offline", "--provider", "e2e", "--model", MODEL, "-p", p],
          reader="pi"),
    Agent("aider", "Aider", "pypi", "aider-chat", "0.86.2", "aider", "chat",
          _aider, lambda p: [*AIDER_ARGS, "--message", p], reader="aider"),
)
# fmt: on

BY_KEY = {a.key: a for a in AGENTS}
