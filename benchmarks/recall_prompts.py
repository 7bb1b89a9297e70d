# ruff: noqa: E501
"""More train prompts for the prompt hook's lookup (recall_eval --prompts), over the two
stores of recall_sets: `mcp` (a public project's instruction file, one memory per bullet)
and `memkit` (memkit's own memories at search_eval.PINNED with its docs as distractors).

Written as a developer would type them to a coding agent working on that project, from
the project's work rather than from the memories' words: about two thirds are everyday
requests that need no memory (and use words like list, server, test, variable), one
third need one or two memories, labelled by reading the store. All of them fall in the
train half whatever their hash (recall_eval.prompt_set); the held-out prompts of
recall_sets were not read while writing them.
"""

from __future__ import annotations

# (prompt, ids it needs) over the `mcp` store.
PROMPTS_MCP_MORE: list[tuple[str, list[str]]] = [
    ("add a description to each entry of the resource template listing", []),
    ("the streamable HTTP client hangs when the server closes the connection early", []),
    ("rename the variable sess to session in the client example", []),
    ("explain how the server decides which tools a client gets to see", []),
    ("why does initialize answer with an older protocol version than the client asked for", []),
    ("make the echo server example return its input reversed", []),
    ("what happens if a client sends a request before the initialized notification", []),
    ("the OAuth callback page shows a blank screen after login", []),
    ("refactor the dispatch in the low-level server into a dict lookup", []),
    ("where does the traceback come from when stdin closes under the stdio transport", []),
    ("what does a JSON-RPC error response look like in this codebase", []),
    ("support audio content in a tool result", []),
    ("how do I read a resource by its URI from the client side", []),
    ("the SSE endpoint returns 404 behind our nginx reverse proxy", []),
    ("turn this list comprehension into a generator expression", []),
    ("list every place where a CallToolResult is built by hand", []),
    ("summarise what the last three commits changed", []),
    ("why is the progress token None inside my handler", []),
    ("the output schema generated for a tool drops the Optional parameters", []),
    ("make the elicitation example also ask for an email address", []),
    ("show me where the session id header is set on responses", []),
    ("where is the interval for keepalive pings configured", []),
    ("write an example server that exposes a folder of files as resources", []),
    ("simplify the nested if/else in the completion handler", []),
    ("the client doesn't reconnect after the server restarts", []),
    ("print the names of the prompts the server offers when it starts", []),
    ("the lifespan context is None inside my tool, what am I doing wrong", []),
    ("what does the Context object give me inside a tool function", []),
    ("the notification handler receives a plain dict instead of a model", []),
    ("how are cancelled requests cleaned up on the server side", []),
    ("write a quick script that calls the weather tool and prints the answer", []),
    ("decode the base64 blob in the resource contents before saving it to disk", []),
    ("what is the _meta field on a request for", []),
    ("the roots list_changed notification is never sent", []),
    ("find where tool arguments are validated against the input schema", []),
    ("is there a way to stream partial results back from a long tool", []),
    ("the websocket example crashes with KeyError: 'id'", []),
    ("give the example server a nicer startup banner", []),
    ("explain the difference between the low-level Server and MCPServer", []),
    ("suggest a better name for this helper that merges two capability objects", []),
    ("the server logs every request twice", []),
    ("what status code does the HTTP transport send for an unknown session", []),
    ("why is my resource template with two placeholders never matched", []),
    ("the sampling request sends the system prompt as a user message", []),
    ("how does the client pick which auth scopes to request", []),
    ("the structured content and the text content of this tool disagree", []),
    ("pass the request headers through to the tool handler", []),
    (
        "install httpx so I can try the client from a script",
        ["package-management-1", "package-management-2"],
    ),
    ("add pydantic-settings as a runtime requirement of the SDK", ["package-management-2"]),
    ("bring starlette up to its newest release in the lockfile", ["package-management-5"]),
    ("a CVE was published for an old h11, raise our minimum version", ["package-management-7"]),
    ("run the static type checker over the server package", ["formatting-type-checking-3"]),
    ("reformat the files I touched", ["formatting-type-checking-1"]),
    ("my new test hangs forever waiting for the notification to arrive", ["testing-9"]),
    ("sleep half a second in the test so the server has time to reply", ["testing-8"]),
    (
        "write a test that launches the example server as a subprocess and talks to it",
        ["testing-5", "testing-6"],
    ),
    ("where should the tests for src/mcp/server/sse.py live", ["testing-7"]),
    (
        "a DeprecationWarning from our own module makes the suite fail, just silence it",
        ["testing-10"],
    ),
    (
        "the new branch in the session never runs in the suite, exclude it from the report",
        ["coverage-4"],
    ),
    ("a line marked as unreachable is now hit by my test and CI complains", ["coverage-6"]),
    ("measure how much of just the file I'm editing the tests exercise", ["coverage-3"]),
    ("make the new Elicitation helper importable straight from mcp", ["code-quality-4"]),
    ("move the json import into the function that uses it", ["code-quality-5"]),
    ("read the settings file with Path.read_text()", ["code-quality-6"]),
    (
        "wrap the handler call so that nothing it throws can crash the server",
        ["exception-handling-3", "exception-handling-2"],
    ),
    (
        "log it when the transport fails to connect, with the exception's text in the message",
        ["exception-handling-1"],
    ),
    ("explain each line of this function in a comment above it", ["code-quality-1"]),
    ("write a guide for the new caching option in the docs folder", ["documentation-1"]),
    ("rename ClientSession.send_ping to ping", ["branching-model-2"]),
    (
        "tell people upgrading from 1.x that the transport argument was renamed",
        ["branching-model-3"],
    ),
    ("port the stdio fix to the old v1 releases too", ["branching-model-4"]),
    ("skip the annotations on this helper, it's internal", ["code-quality-2"]),
    (
        "say which errors the new read_resource wrapper can throw in its docstring",
        ["code-quality-3"],
    ),
    ("run everything CI would run before I open the PR", ["coverage-2"]),
    ("uv keeps rewriting uv.lock every time I run pytest", ["package-management-3"]),
    ("mark the async tests with pytest.mark.asyncio", ["testing-3"]),
    (
        "file a bug upstream about this and send a pull request with the fix",
        ["note-for-ai-agents-1"],
    ),
]

# (prompt, ids it needs) over the `memkit` store.
PROMPTS_MEMKIT_MORE: list[tuple[str, list[str]]] = [
    ("add a --limit option to memkit list", []),
    ("the report page's table header overlaps on narrow screens", []),
    ("make memkit show print the tags on one line", []),
    ("fix the typo in the help text of the verify command", []),
    ("include the created date in the JSON that list prints", []),
    ("explain what the approve command does", []),
    ("rename the variable n to count in the budget loop", []),
    ("add a changelog entry for the new search flag", []),
    ("write a docstring for the function that sorts memories by rank", []),
    ("colour the stale markers red in the list output", []),
    ("what does the diff command print for a renamed memory", []),
    ("add bash tab completion for memory ids", []),
    ("sort the tags alphabetically in memkit show", []),
    ("the install section of the README still says Python 3.10", []),
    ("show a progress bar while memkit import reads many files", []),
    ("convert this for loop into a list comprehension", []),
    ("explain how the context command picks memories for a file", []),
    ("add the memory's type to the one-line listing", []),
    ("what would be a good default for the Cursor rule globs", []),
    ("summarise what changed in the compile package last week", []),
    ("add an alias ls for the list command", []),
    ("make the report show how many links each memory has", []),
    ("add a --type filter to the search command", []),
    ("simplify the option parsing of the revert command", []),
    ("the help output of memkit hooks needs an example", []),
    ("add a docs section about using memkit with Gemini CLI", []),
    ("the markdown table in docs/compile.md is misaligned", []),
    ("let verify take a pattern of ids", []),
    ("print a friendly message when there are no memories yet", []),
    ("which fields does the JSON schema allow in a memory", []),
    ("mention multi-line titles in the format docs", []),
    ("count how many memories use each tag in the report", []),
    ("show the proposed diff before approve asks for confirmation", []),
    ("add a --quiet flag that hides compile's notes", []),
    ("where does the Windsurf target put its rules", []),
    ("is there a command that lists memories by author", []),
    ("show dates in ISO format in memkit show", []),
    ("improve the wording of compile --explain", []),
    ("highlight the matched words of a search snippet in bold", []),
    ("add an example memory of type gotcha to the docs", []),
    ("the list command should group memories by folder", []),
    ("what does the check command report for a deleted symbol", []),
    ("rename the --at option of show to --rev", []),
    ("make the test names in the search tests more descriptive", []),
    ("write a short section on how to review memory changes in a PR", []),
    ("make memkit lookup exit with status 2 when the id is unknown", ["errors-and-exit-codes"]),
    (
        "print a warning and sys.exit(1) inside Store when the folder is missing",
        ["errors-and-exit-codes"],
    ),
    ("move the jinja2 import to the top of compile/render.py", ["lazy-heavy-imports"]),
    (
        "committing only python files now takes 300 ms longer with the hook installed",
        ["the-pre-commit-fast-path-imports-only-the-standard-library"],
    ),
    (
        "install memkit's hooks in a repo that already has a husky pre-commit script",
        ["a-user-s-git-hook-is-chained-never-overwritten"],
    ),
    (
        "in the test of a real commit the hook's message isn't in stdout",
        ["git-shows-a-hook-s-stdout-on-stderr"],
    ),
    ("mock pygit2 in the verify tests so they run faster", ["tests-real-git-isolated"]),
    ("the test suite picks up my global commit signing setting", ["tests-real-git-isolated"]),
    (
        "take the lock again inside verify so that it is safe on its own",
        ["store-lock-is-not-reentrant-never-nest-it"],
    ),
    (
        "two agents saving a memory with the same title at once overwrite each other",
        ["ids-claimed-by-hard-link"],
    ),
    (
        "normalise whitespace in docstrings before hashing a symbol",
        ["changing-what-goes-into-a-fingerprint-makes-every-recorded"],
    ),
    (
        "mark a memory out of date whenever git log shows a commit to its linked file",
        ["staleness-fingerprints-are-the-truth-git-only-narrows-the"],
    ),
    (
        "the pre-commit check misses my edits when I commit with -a, but sees them after git add",
        ["libgit2-ignores-git-index-file-git-commit-a-hides-staged"],
    ),
    (
        "an unclosed <details> tag in a memory body breaks the rendered AGENTS.md",
        ["memory-text-goes-through-mdtext-before-it-reaches-an-output"],
    ),
    (
        "someone pasted an AWS access key into a memory and it got committed",
        ["refuse-secrets-on-write"],
    ),
    (
        "a contributor's template override reads os.environ",
        ["templates-run-sandboxed-their-bytecode-cache-is-signed-with"],
    ),
    (
        "memkit log credits the merge commit instead of the person who made the change",
        ["memkit-log-follows-the-merged-branch-when-a-merge-brought"],
    ),
    (
        "in the MCP server tests the tools see today's real date",
        ["mcp-sdk-stdio-servers-get-a-filtered-environment-toolerror"],
    ),
    (
        "a tool argument annotated str | None arrives as a list when the agent sends '[1]'",
        ["mcp-sdk-decodes-optional-strings-and-drops-unreadable-lines"],
    ),
    (
        "walking the memory folder builds a Path for every file, speed it up",
        ["no-pathlib-in-hot-loops"],
    ),
    (
        "remember the loaded memories between runs so the next load is quicker",
        ["parse-cache-design"],
    ),
    (
        "editing one tag reorders the whole YAML header and drops the comments",
        ["surgical-front-matter-writes"],
    ),
    ("the saved front matter has &id001 in it", ["yaml-dumper-no-aliases"]),
    (
        "a memory with created: 2026-02-30 crashes with a traceback",
        ["yaml-bad-dates-raise-valueerror"],
    ),
    (
        "after each Read the tool hook should also check staleness of the file's memories",
        ["posttooluse-only-appends-one-line-the-stop-hook-does-the"],
    ),
    (
        "the settings.json entry should just call memkit claude-hook post-tool-use",
        ["claude-hooks-use-memkit-hook-script"],
    ),
    (
        "compiling wiped the notes I wrote by hand in CLAUDE.md",
        ["compiled-files-marked-sections-in-shared-files-a-generated"],
    ),
    (
        "find how many memories AGENTS.md can hold without building the whole file again and again",
        ["budget-fitting-renders-a-file-many-times-keep-each-render"],
    ),
    (
        "let the git hook regenerate AGENTS.md with its own loop over the store",
        ["compile-plan-is-shared"],
    ),
    (
        "match the title and the body as separate fields and OR the hits",
        ["search-scores-one-weighted-text-field-bm25f-instead-of-or"],
    ),
    ("CI fails though everything passes on my machine", ["ci-runs-make-test"]),
    (
        "checking staleness compares each memory's recorded commit with my checkout one by one, it's slow",
        ["staleness-one-head-to-work-tree-diff-composed-with-cheap"],
    ),
    (
        "memkit log of one memory is just as slow the second time",
        ["the-history-cache-is-keyed-by-start-commit-and-path"],
    ),
    (
        "importing the search module pulls in ssl and asyncio",
        ["whoosh-is-imported-with-stand-ins-for-urllib-request-and"],
    ),
    (
        "a symbolic link in the checkout makes compile write outside the repository",
        ["paths-from-memories-and-outputs-are-resolved-and-must-stay"],
    ),
]
