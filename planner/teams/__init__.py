"""Teams and their members: every stored object belongs to one team."""
