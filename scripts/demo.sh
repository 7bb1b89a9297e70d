#!/bin/sh
# `make demo`: memkit's main job, shown on this repository's own .memory/ in a scratch
# clone (the working tree you run it from is never touched). Usage: demo.sh PATH-TO-MEMKIT
set -eu
MEMKIT=$1
src=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memkit-demo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
git clone -q "$src" "$tmp/repo"
cd "$tmp/repo"
git config user.name "memkit demo"
git config user.email "demo@example.invalid"

step() { printf '\n== %s\n' "$*"; }
say() { printf '%s\n' "$*"; }
# memkit's warnings (AGENTS.md held to its size budget...) are long and beside the point
# here: each command's become one short line.
warned() {
    n=$(grep -c '' "$tmp/err" || true)
    [ "$n" -gt 0 ] || return 0
    first=$(head -n 1 "$tmp/err" | sed 's/^memkit: warning: //' | cut -c 1-60)
    say "  (a note from memkit, not a failure: $first...)"
}
mk() {
    printf '$ memkit %s\n' "$*"
    rc=0; "$MEMKIT" "$@" 2>"$tmp/err" || rc=$?
    warned; return "$rc"
}
expected() { say "  -> exit $1: $2 (the expected outcome)"; }
MEMORY=ids-claimed-by-hard-link

step "1. The memories: markdown files in .memory/, committed with the code"
say "A scratch clone of this repository: $tmp/repo"
mk list --type decision
mk show "$MEMORY"

step "2. What compile produced: AGENTS.md (CLAUDE.md imports it), current with the memories"
mk compile   # rewrites nothing when they are current
# (a commit newer than the compiled files: the clone commits what compile wrote)
git diff --quiet || { git add -A && git commit -q --no-verify -m "memkit compile"; }
say "\$ grep -c '^### ' AGENTS.md   # memories compiled into AGENTS.md"
grep -c '^### ' AGENTS.md
mk hooks install

step "3. Someone 'simplifies' the code that memory describes"
python3 - <<'PY'
import pathlib, re
p = pathlib.Path("memkit/fsutil.py")
s = p.read_text("utf-8")
new, n = re.subn(
    r'(def create_new\(.*?\n    """.*?"""\n)',
    r'\1    if path.exists():  # simpler: check first, then write\n        return False\n',
    s, count=1, flags=re.S,
)
assert n == 1, "memkit/fsutil.py::create_new not found: update scripts/demo.sh"
p.write_text(new, "utf-8")
PY
git --no-pager diff --stat
git --no-pager diff -U1 memkit/fsutil.py

step "4. memkit check: which memories the code changed under, and how"
rc=0; mk check || rc=$?
expected "$rc" "memkit check found the stale memory"

step "5. The git hook on commit: it regenerates AGENTS.md with a warning, then asks to re-add"
say '$ git commit -am "Simplify create_new"'
rc=0; git commit -q -am "Simplify create_new" >"$tmp/err" 2>&1 || rc=$?
grep -v '^memkit: warning:' "$tmp/err" || true
expected "$rc" "the hook stopped the commit so that the regenerated files go with it"
say '$ git diff AGENTS.md'
git --no-pager diff -U0 AGENTS.md | grep -v '^@@' || true
git add -A
git commit -q -m "Simplify create_new" 2>&1 | grep -v '^memkit: warning:' | sed -n '1,3p'

step "6. The pull-request gate: red, one line, naming the fix"
say "\$ memkit ci --base HEAD~1"
rc=0; "$MEMKIT" ci --base HEAD~1 >"$tmp/err" 2>&1 || rc=$?
cut -c 1-160 "$tmp/err"
expected "$rc" "the gate is red for the stale memory this change caused"

step "7. Search finds the memory that explains the code"
mk search "exclusive hard link" --limit 2

step "8. After a person has checked it (here they would rather revert the code): verify"
mk verify "$MEMORY"
mk check | tail -1

step "Try next"
say "  memkit init && memkit add 'Your first memory' --type decision --link src/x.py::f -b 'Why...'"
say "  memkit compile            # AGENTS.md, CLAUDE.md, ... from your memories"
say "  memkit hooks install      # keep them current at every commit and merge"
say "  memkit ci --base origin/main   # in CI: docs/github-actions.md"
say "  memkit hooks install --claude --mcp   # agents read and propose memories: docs/agents.md"
