"""Scale benchmark: thousands of stored games; list and view latency, a scheduler tick, memory."""
