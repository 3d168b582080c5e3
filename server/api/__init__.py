"""The REST API, a way in: one package per resource, each with its routes and bodies."""
