"""Hundred and Ten: the Irish trick-taking game, 2 to 4 players."""
