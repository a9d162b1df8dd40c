"""reference_harness package."""
