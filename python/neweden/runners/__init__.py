"""Batches: sources read safely, worker processes, outputs, Dask."""
