"""One module per group of commands; ``client.cli`` adds them all to the root group."""
