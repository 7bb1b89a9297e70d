# The pre-commit check of memkit before Python starts (memkit/githooks/hook.sh runs it).
#
#     awk -f precheck.awk .git/memkit/hooks-index < staged-names
#
# The operand is the derived index of the hook (memkit/githooks/index.py); standard input
# holds the staged names, one a line, then an empty line when git succeeded. Exits
#   0: nothing is staged, or no staged name is one memkit looks at;
#   1: a staged name is relevant, or cannot be judged (git quoted it, or failed);
#   2: the index is not one this version writes: Python decides and rebuilds it.
# Relevant: under .memory/, a nested DIR/AGENTS.md, a linked file or a file under a
# linked folder (`l PATH`), a file compile may write (`o PATH`, `o PREFIX*`): the
# names memkit.githooks.index.relevant picks. POSIX awk only, and what BusyBox and
# mawk read too (no `/` inside a bracket of a regex); no single quote, as the hook
# holds this program between single quotes.
BEGIN {
    record = ARGV[1]
    ARGV[1] = ""
    bad = 1
    n = 0
    while ((getline line < record) > 0) {
        if (++n == 1) {
            if (line == "memkit hook index 4") bad = 0
            continue
        }
        k = substr(line, 1, 2)
        v = substr(line, 3)
        if (k == "l ") {
            exact[v] = 1
            sub(/\/+$/, "", v)
            dir[v] = 1
        } else if (k == "o " && substr(v, length(v)) == "*") {
            pre[++np] = substr(v, 1, length(v) - 1)
        } else if (k == "o ") {
            exact[v] = 1
        }
    }
    close(record)
    pre[++np] = ".memory/"
}
$0 == "" { ended = 1; exit }
{
    named = 1
    if (bad) { code = 2; exit }
    if (substr($0, 1, 1) == "\"" || ($0 in exact)) { code = 1; exit }
    if (substr($0, length($0) - 9) == "/AGENTS.md") { code = 1; exit }
    for (i = 1; i <= np; i++) if (index($0, pre[i]) == 1) { code = 1; exit }
    rest = $0
    head = ""
    while ((j = index(rest, "/")) > 0) {
        head = head substr(rest, 1, j - 1)
        if (head in dir) { code = 1; exit }
        head = head "/"
        rest = substr(rest, j + 1)
    }
}
END {
    if (code) exit code
    if (!ended) exit 1
    exit 0
}
