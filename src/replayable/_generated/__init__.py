"""Generated from schemas/ by scripts/generate.py. Do not edit by hand."""
