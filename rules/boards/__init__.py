"""Board files: the printed boards the seed texts leave out, as package data."""
