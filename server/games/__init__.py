"""Games: the lobby, playing commands, views, the event feed and the export."""
