#!/bin/sh
# memkit-managed hook: installed by `memkit hooks install`, removed by `memkit hooks uninstall`.
# It is rewritten on reinstall: put your own checks in @HOOK@.before-memkit, which runs first.
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac  # as dirname, without its process
chained="$here/@HOOK@.before-memkit"
if [ -x "$chained" ]; then
    "$chained" "$@" || exit $?
fi
python=@PYTHON@
if [ -x "$python" ]; then
    # Nothing to do, known without Python: no entry under .memory/ changed since the
    # hook's index was vouched for (its modification time), and no staged name is one
    # the index calls relevant (the awk program, memkit/githooks/precheck.awk).
    # `cd ./DIR`: CDPATH is never consulted for a path that starts with `./`.
    root=@ROOT@
    index=.git/memkit/hooks-index
    if [ -n "${MEMKIT_CACHE_DIR-}" ] || [ ! -d "$root/.git" ]; then
        :  # the index is elsewhere: Python decides
    elif [ ! -f "$root/$index" ]; then
        MEMKIT_HOOK_FAST=stale && export MEMKIT_HOOK_FAST
    elif changed=$(cd "./$root" && find ./.memory/ -cnewer "$index" 2>/dev/null); then
        if [ -n "$changed" ]; then
            MEMKIT_HOOK_FAST=stale && export MEMKIT_HOOK_FAST
        else
            (
                cd "./$root" && LC_ALL=C && export LC_ALL &&
                    git -c core.quotePath=false diff --cached --name-only --no-renames \
                        --relative --no-color && echo
            ) | LC_ALL=C awk '@AWK@' "$root/$index"
            case $? in 0) exit 0 ;; 2) MEMKIT_HOOK_FAST=stale && export MEMKIT_HOOK_FAST ;; esac
        fi
    fi  # (a find without -cnewer fails: Python decides)
    exec "$python" -P -c '@CODE@' @HOOK@ --root @ROOT@
elif command -v memkit >/dev/null 2>&1; then
    exec memkit --root @ROOT@ hooks run @HOOK@
fi
echo "memkit: @HOOK@ hook skipped: memkit is not installed ($python is gone);" \
    "reinstall it and run \`memkit hooks install\`, or \`memkit hooks uninstall\`" >&2
exit 0
