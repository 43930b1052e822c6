#!/usr/bin/env python3
"""Writes notifyd/_schema.py: one TypedDict per schema of notifyd's OpenAPI document.

Run by `npm run clients:generate` at the repository root (never edit _schema.py by hand):
    python3 clients/python/generate_types.py clients/openapi.json clients/python/notifyd/_schema.py
Standard library only. Python 3.9 has no NotRequired: a schema with required and optional
fields becomes a base class holding the required ones and a total=False subclass.
"""
import json
import keyword
import sys

HEADER = '''"""notifyd's request and response bodies, generated from its OpenAPI document by
clients/python/generate_types.py. Do not edit: run `npm run clients:generate`."""
# fmt: off
from typing import Any, Dict, List, Optional

try:
    from typing import TypedDict
except ImportError:  # pragma: no cover
    from typing_extensions import TypedDict  # type: ignore
'''


def py_type(schema):
    """The Python annotation of a schema (forward references as strings)."""
    if "$ref" in schema:
        return "'%s'" % schema["$ref"].rsplit("/", 1)[-1]
    if "allOf" in schema and len(schema["allOf"]) == 1:
        base = py_type(schema["allOf"][0])
    else:
        kind = schema.get("type")
        if kind == "string":
            base = "str"
        elif kind == "integer":
            base = "int"
        elif kind == "number":
            base = "float"
        elif kind == "boolean":
            base = "bool"
        elif kind == "array":
            base = "List[%s]" % py_type(schema.get("items", {}))
        elif kind == "object":
            extra = schema.get("additionalProperties")
            base = "Dict[str, %s]" % (py_type(extra) if isinstance(extra, dict) and extra else "Any")
        else:
            base = "Any"
    return "Optional[%s]" % base if schema.get("nullable") and base != "Any" else base


def comment(text):
    return " ".join((text or "").split())


def render_class(name, fields, total, base="TypedDict", doc=None):
    lines = ["class %s(%s%s):" % (name, base, "" if total else ", total=False")]
    if doc:
        lines.append('    """%s"""' % doc.replace('"""', "'''").replace("\\", "\\\\"))
    for field, schema in fields:
        note = comment(schema.get("description"))
        lines.append("    %s: %s%s" % (field, py_type(schema), ("  # " + note) if note else ""))
    if not fields and not doc:
        lines.append("    pass")
    return "\n".join(lines)


def render(document):
    out = [HEADER]
    names = []
    for name, schema in sorted(document.get("components", {}).get("schemas", {}).items()):
        properties = schema.get("properties", {})
        required = set(schema.get("required", []))
        bad = [f for f in properties if not f.isidentifier() or keyword.iskeyword(f)]
        doc = comment(schema.get("description")) or None
        if bad:  # not expressible as class attributes: the functional form
            items = ", ".join("%r: %s" % (f, py_type(s)) for f, s in properties.items())
            out.append("%s = TypedDict(%r, {%s}, total=False)" % (name, name, items))
        else:
            must = [(f, s) for f, s in properties.items() if f in required]
            may = [(f, s) for f, s in properties.items() if f not in required]
            if must and may:
                out.append(render_class("_%sRequired" % name, must, True))
                out.append(render_class(name, may, False, base="_%sRequired" % name, doc=doc))
            else:
                out.append(render_class(name, must or may, bool(must) or not properties, doc=doc))
        names.append(name)
    out.append("__all__ = [\n%s\n]" % "\n".join("    %r," % n for n in names))
    return "\n\n\n".join(out) + "\n"


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: generate_types.py <openapi.json> <output.py>\n")
        return 2
    with open(argv[1], encoding="utf-8") as f:
        document = json.load(f)
    with open(argv[2], "w", encoding="utf-8") as f:
        f.write(render(document))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
