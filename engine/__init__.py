"""Gems of Iridescia rules engine: pure, event-sourced, no I/O. See docs/engine-api.md."""
