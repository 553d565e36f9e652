"""Output schemas for the tools that return `structuredContent`: the machine contract."""

from __future__ import annotations

STRING = {"type": "string"}
STRINGS = {"type": "array", "items": STRING}

POINTER = {
    "type": "object",
    "properties": {
        "path": STRING, "kind": STRING, "id": STRING, "name": STRING, "purpose": STRING,
        "summary": STRING, "state": STRING, "unwarranted": {"type": "boolean"},
        "successor": STRING,
        "harvested": {"type": "boolean"}, "corpus": STRING,  # a document of a pinned corpus, and its name here
        "evidence": {
            "type": "object",
            "properties": {"by": {"type": "string", "enum": ["named", "anchor", "terms", "successor"]},
                           "named": STRING, "anchors": STRINGS, "terms": STRINGS,
                           "fields": {"type": "array", "items": {
                               "type": "object", "properties": {"term": STRING, "fields": STRINGS},
                               "required": ["term", "fields"]}},
                           "rank": {"type": "integer"}, "of": {"type": "integer"}, "succeeds": STRING,
                           "suspect": STRINGS},  # targets of its edges whose target moved since verified
            "required": ["by"],
        },
    },
    "required": ["path", "kind", "unwarranted"],
}

# pins that bind nothing and bear on the answer (present only when one does): what they would bind is unknown
UNREAD_PINS = {"type": "array", "items": {
    "type": "object", "properties": {"pin": STRING, "corpus": STRING, "reason": STRING},
    "required": ["pin", "corpus", "reason"]}}

POINTERS = {
    "type": "object",
    "properties": {"pointers": {"type": "array", "items": POINTER}, "unread_pins": UNREAD_PINS},
    "required": ["pointers"],
}

ROUTE = {
    "type": "object",
    "properties": {
        "version": STRING,
        "task": STRING,
        "terms": STRINGS,
        "separating": STRINGS,
        "distinctive": STRINGS,
        "anchors": STRINGS,
        "named": STRINGS,
        "matched": {"type": "array", "items": {
            "type": "object", "properties": {"purpose": STRING, "score": {"type": "integer"}},
            "required": ["purpose", "score"]}},
        "pointers": {"type": "array", "items": POINTER},
        "withheld": {"type": "integer"},
        "ungoverned": {"type": "array", "items": {
            "type": "object", "properties": {"path": STRING, "relations": STRINGS},
            "required": ["path", "relations"]}},
        "silence": {"type": "object", "properties": {"reason": {"type": "string", "enum": [
            "no_terms", "no_document_reached", "not_confident", "no_documents"]}, "says": STRING},
            "required": ["reason", "says"]},
        "unread_pins": UNREAD_PINS,
    },
    "required": ["version", "task", "terms", "separating", "distinctive", "anchors", "named", "matched",
                 "pointers", "withheld", "ungoverned"],
}

KINDS = {
    "type": "object",
    "properties": {
        "version": STRING,
        "package": STRING,
        "package_version": STRING,
        "abstract": STRINGS,
        "kinds": {"type": "array", "items": {
            "type": "object",
            "properties": {
                "name": STRING, "is_a": STRING,
                "purpose": {"type": "object", "properties": {"name": STRING, "intent": STRING,
                                                             "answers": STRINGS}, "required": ["name", "answers"]},
                "shelves": {"type": "array", "items": {"type": "object", "properties": {
                    "name": STRING, "path": STRING, "discriminator": STRING}, "required": ["name", "path"]}},
                "required_facets": STRINGS,
                "required_sections": STRINGS,
                "draft": STRING,
                "when": {"type": "object", "properties": {"declared": STRING, "note": STRING}},
            },
            "required": ["name", "shelves", "required_facets", "required_sections", "when"],
        }},
    },
    "required": ["version", "package", "package_version", "abstract", "kinds"],
}
