"""What ids mean: the built-in catalog, id resolution, catalog files and the condition
language."""
