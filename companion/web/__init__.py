"""The web panel: the simulator a maker plays on and the table's public dashboard (docs/web.md)."""
