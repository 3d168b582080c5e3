"""Pages of a list (flask-smorest's pagination): ``?page=N&page_size=M``, the page's place in
the ``X-Pagination`` header (its PaginationMetadata schema is in the spec) and, for clients
that follow links rather than read JSON headers, an RFC 8288 ``Link`` header with the first,
previous, next and last pages."""

from __future__ import annotations

import json
from urllib.parse import urlencode

from flask import request
from flask_smorest.pagination import PaginationMetadataSchema

LINK_HEADER = {"schema": {"type": "string"},
               "description": "RFC 8288 links to the first, prev, next and last pages, e.g. "
                              "`</api/v1/games?page=2&page_size=20>; rel=\"next\"`"}


class LinkedPages:
    """A mixin of flask_smorest.Blueprint: Link beside X-Pagination."""

    def _set_pagination_metadata(self, page_params, result, headers):  # noqa: ANN001, ANN202
        result, headers = super()._set_pagination_metadata(page_params, result, headers)
        metadata = json.loads(headers[self.PAGINATION_HEADER_NAME])
        links = [_link(metadata[key], page_params.page_size, rel)
                 for key, rel in (("first_page", "first"), ("previous_page", "prev"),
                                  ("next_page", "next"), ("last_page", "last"))
                 if key in metadata]
        if links:
            headers["Link"] = ", ".join(links)
        return result, headers

    def _prepare_pagination_doc(self, doc, doc_info, **kwargs):  # noqa: ANN001, ANN003, ANN202
        # flask-smorest documents the page parameters' 422 with its generic response, over the
        # view's own (document_errors, with the operation's example): the view's wins.
        documented = dict(doc.get("responses", {}))
        doc = super()._prepare_pagination_doc(doc, doc_info, **kwargs)
        doc.setdefault("responses", {}).update(documented)
        return doc

    def _document_pagination_metadata(self, spec, resp_doc):  # noqa: ANN001, ANN202
        super()._document_pagination_metadata(spec, resp_doc)
        # X-Pagination holds a JSON object. A header's `schema` is read in the "simple" style
        # (comma-separated keys and values), which would split the JSON at its commas: `content`
        # says it is JSON, as OpenAPI has it for a header serialised otherwise.
        if "PaginationMetadata" not in spec.components.schemas:
            spec.components.schema("PaginationMetadata", schema=PaginationMetadataSchema)
        resp_doc["headers"][self.PAGINATION_HEADER_NAME] = {
            "description": "Where this page is: a JSON object (PaginationMetadata)",
            "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/PaginationMetadata"}}}}
        resp_doc["headers"]["Link"] = LINK_HEADER


def _link(page: int, page_size: int, rel: str) -> str:
    query = [(k, v) for k, v in request.args.items(multi=True) if k not in ("page", "page_size")]
    query += [("page", str(page)), ("page_size", str(page_size))]
    return f'<{request.path}?{urlencode(query)}>; rel="{rel}"'
