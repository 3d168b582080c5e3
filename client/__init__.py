"""The iridescia command-line client (Click + requests)."""
