#!/bin/sh
# memkit-managed hook: installed by `memkit hooks install`, removed by `memkit hooks uninstall`.
# It is rewritten on reinstall: put your own checks in pre-commit.before-memkit, which runs first.
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac  # as dirname, without its process
chained="$here/pre-commit.before-memkit"
if [ -x "$chained" ]; then
    "$chained" "$@" || exit $?
fi
python=@PYTHON@
if [ -x "$python" ]; then
    fast=./.git/memkit/hooks-fast
    if [ -n "${MEMKIT_CACHE_DIR-}" ]; then
        :
    elif [ -f "$fast" ]; then
        { cd ./. && LC_ALL=C && export LC_ALL && git -c core.quotePath=false diff --cached --name-only --no-renames --relative --no-color && echo && find .memory/ -printf '%C@ %i %s %P\n' && echo /; } |
            LC_ALL=C awk 'FNR == NR {
    if (FNR == 1 && $0 != "memkit hook fast 2") bad = 1
    k = substr($0, 1, 2); v = substr($0, 3)
    if (k == "s ") want[++nw] = v
    else if (k == "x ") exact[v] = 1
    else if (k == "d ") dir[v] = 1
    else if (k == "p ") pre[++np] = v
    next
}
part == 0 && $0 == "" { part = 1; next }
part == 0 {
    named = 1
    if (substr($0, 1, 1) == "\"" || ($0 in exact)) { code = 1; exit }
    if ($0 ~ /[/]AGENTS[.]md$/) { code = 1; exit }
    for (i = 1; i <= np; i++) if (index($0, pre[i]) == 1) { code = 1; exit }
    rest = $0; head = ""
    while ((j = index(rest, "/")) > 0) {
        head = head substr(rest, 1, j - 1)
        if (head in dir) { code = 1; exit }
        head = head "/"; rest = substr(rest, j + 1)
    }
    next
}
part == 1 && $0 == "/" { part = 2; next }
part == 1 { if (++ng > nw || $0 != want[ng]) { code = 2; exit } next }
{ code = 2; exit }
END {
    if (code) exit code
    if (part < 1) exit 1
    if (!named) exit 0
    if (bad || part < 2 || ng != nw) exit 2
    exit 0
}' "$fast" -
        case $? in 0) exit 0 ;; 2) MEMKIT_HOOK_FAST=stale && export MEMKIT_HOOK_FAST ;; esac
    elif [ -d ./.git ]; then
        MEMKIT_HOOK_FAST=stale && export MEMKIT_HOOK_FAST
    fi
    exec "$python" -P -c 'import sys
try:
    from memkit.githooks.fastpath import main
except ImportError:
    print("memkit: hook skipped: memkit is not installed for", sys.executable,
          file=sys.stderr)
    sys.exit(0)
sys.exit(main(sys.argv[1:]))' pre-commit --root .
elif command -v memkit >/dev/null 2>&1; then
    exec memkit --root . hooks run pre-commit
fi
echo "memkit: pre-commit hook skipped: memkit is not installed ($python is gone);" \
    "reinstall it and run \`memkit hooks install\`, or \`memkit hooks uninstall\`" >&2
exit 0
