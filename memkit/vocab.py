"""The values memory fields take. Kept apart from memory.py so the CLI's option
choices can use them without importing the parser (start-up time)."""

TYPES = ("decision", "convention", "gotcha", "procedure", "episode", "preference", "note")
STATUSES = ("active", "draft", "archived", "superseded")
CONFIDENCES = ("high", "medium", "low")
