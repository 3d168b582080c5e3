"""What mail and webhook deliveries share: leases on queued rows and when to try again."""
