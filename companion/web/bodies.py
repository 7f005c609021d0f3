"""Request bodies: a JSON object checked field by field, with an answer that says what is wrong."""
from __future__ import annotations

import asyncio
import json

from aiohttp import web

from .auth import refuse

MAX_BODY = 4096
BODY_S = 10.0           # a body not all in by then is a slow one (or a slowloris): 408
TYPE_NAMES = {int: "a whole number", str: "a string", bool: "true or false"}


def whole_number(text: str) -> int | None:
    """``text`` as a whole number if it is one in ASCII digits (``"²"`` is a digit to ``str.isdigit``, not to
    ``int``), else None."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


async def read_json(request: web.Request, fields: dict[str, tuple[type, bool]]) -> dict:
    """The request's JSON object, checked against ``fields``: name -> (type, required)."""
    if request.content_type != "application/json":
        raise refuse(web.HTTPUnsupportedMediaType, "send a JSON body (Content-Type: application/json)")
    if request.headers.get("Content-Encoding", "identity").lower() != "identity":
        raise refuse(web.HTTPUnsupportedMediaType, "send the body uncompressed (no Content-Encoding)")
    if (request.charset or "utf-8").lower() not in ("utf-8", "utf8"):
        raise refuse(web.HTTPUnsupportedMediaType, f"send the JSON as UTF-8 (charset=utf-8), not "
                                                    f"{request.charset[:20]!r}")
    try:
        async with asyncio.timeout(BODY_S):
            data = await request.json()
    except TimeoutError:
        raise refuse(web.HTTPRequestTimeout, f"the body did not come in {BODY_S:g} s") from None
    except ValueError:
        raise refuse(web.HTTPBadRequest, "the body is not valid JSON") from None
    except RecursionError:
        raise refuse(web.HTTPBadRequest, "the body's JSON is nested too deeply") from None
    if not isinstance(data, dict):
        raise refuse(web.HTTPBadRequest, "the body must be a JSON object")
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise refuse(web.HTTPBadRequest, f"unknown field {', '.join(map(repr, unknown))}; "
                                         f"fields: {', '.join(fields)}")
    for name, (kind, required) in fields.items():
        if name not in data:
            if required:
                raise refuse(web.HTTPBadRequest, f"missing field {name!r}")
            continue
        value = data[name]
        if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
            raise refuse(web.HTTPBadRequest, f"{name!r} must be {TYPE_NAMES[kind]}, not {json.dumps(value)[:40]}")
    return data
