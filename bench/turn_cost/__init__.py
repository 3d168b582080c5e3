"""The unit cost of a turn, end to end (issue 31): whole games over HTTP, the scheduler apart,
mail over SMTP to a local sink, every process's CPU read from /proc."""
