"""The JSON messages between the play page and the server, each checked before it is used.

From the page: ``new`` (a game with the server's options; ``side`` and ``seed`` may be chosen),
``resume`` (attach this tab to a game by its id), ``act`` (play one action index of the current
decision), ``save``. Anything else, a message that is not JSON, too long, has a field too many or
of the wrong type is refused with one line (``ProtocolError``) and changes nothing.
"""
from __future__ import annotations

import json
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

MAX_BYTES = 4096  # no message of the page comes near it; a longer one is refused before parsing
ID_PATTERN = r"^[A-Za-z0-9_-]{8,64}$"  # what secrets.token_urlsafe makes: never a path
SEED_MAX = 2**32 - 1


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class New(_Msg):
    type: Literal["new"]
    side: Annotated[int, Field(ge=0, le=7)] | None = None
    seed: Annotated[int, Field(ge=0, le=SEED_MAX)] | None = None


class Resume(_Msg):
    type: Literal["resume"]
    id: Annotated[str, Field(pattern=ID_PATTERN)]


class Act(_Msg):
    type: Literal["act"]
    id: Annotated[str, Field(pattern=ID_PATTERN)]
    action: Annotated[int, Field(ge=0)]


class Save(_Msg):
    type: Literal["save"]
    id: Annotated[str, Field(pattern=ID_PATTERN)]


Message = Annotated[Union[New, Resume, Act, Save], Field(discriminator="type")]
_ADAPTER = TypeAdapter(Message)
TYPES = ("new", "resume", "act", "save")


class ProtocolError(ValueError):
    """A message refused; the text is one line for the page."""


def parse(text) -> New | Resume | Act | Save:
    """The message in ``text`` (str or bytes), or ProtocolError naming what is wrong and what is allowed."""
    size = len(text.encode("utf-8") if isinstance(text, str) else text)
    if size > MAX_BYTES:
        raise ProtocolError(f"refused message: {size} bytes, at most {MAX_BYTES}")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ProtocolError(f"refused message: not JSON ({str(e).splitlines()[0]})") from None
    if not isinstance(data, dict) or data.get("type") not in TYPES:
        got = data.get("type") if isinstance(data, dict) else data
        raise ProtocolError(f"refused message: type {str(json.dumps(got))[:40]} is not one of {', '.join(TYPES)}")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(p) for p in err["loc"][1:]) or "message"
        value = json.dumps(err.get("input"), default=str)[:40]
        raise ProtocolError(f"refused {data['type']} message: field '{where}' = {value}: {err['msg']}") from None
