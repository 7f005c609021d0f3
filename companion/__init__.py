"""The molebox service: hardware adapters, the session loop, rendering, CLI."""
