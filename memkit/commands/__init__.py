"""One module per feature; cli.COMMANDS maps command names to them."""
