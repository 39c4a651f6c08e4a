"""Analysis tools on top of the engine: equity, simulation."""
