"""Pin maps as data: wiring profiles (TOML), their loader and checks."""
