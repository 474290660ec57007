"""Read a schedule from any format we take, recognised by content, not by file name.

Why by content: `--algorithm schedule:FILE` and `infragraph schedule` take our JSON, MSCCL XML and
MSCCL++ JSON execution plans; a .json file may be either JSON kind.
"""
from __future__ import annotations

import json
import re

from ..errors import Diagnostic, InfraGraphError, Location
from .schedule import Schedule, ScheduleError, load_schedule

FORMATS = ("schedule", "msccl", "mscclpp")


def detect(text: str) -> str:
    """'msccl' for XML, 'mscclpp' for a JSON object with a list of `gpus` (an MSCCL++ execution
    plan), else 'schedule' (our JSON; its reader says what is wrong with anything else)."""
    head = text.lstrip()[:1]
    if head == "<":
        return "msccl"
    if head == "{":
        try:
            doc = json.loads(text)
        except json.JSONDecodeError:
            return "schedule"
        if isinstance(doc, dict) and isinstance(doc.get("gpus"), list) and "steps" not in doc:
            return "mscclpp"
    return "schedule"


def load_any(path: str) -> Schedule:
    """The schedule in `path` (our JSON, MSCCL XML or an MSCCL++ plan), not yet validated.
    Errors are InfraGraphErrors located at the file (file:line for XML, the document path for
    JSON)."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise InfraGraphError(Diagnostic(f"cannot read the schedule: {exc.strerror}", Location(path))) from None
    except UnicodeDecodeError as exc:
        raise InfraGraphError(Diagnostic(f"not a text file (byte {exc.start} is not UTF-8)", Location(path))) from None
    kind = detect(text)
    if kind == "msccl":
        from .msccl import read_msccl, to_schedule

        return to_schedule(read_msccl(text, path))
    if kind == "mscclpp":
        from .mscclpp import read_mscclpp

        return read_mscclpp(text, path)
    try:
        return load_schedule(path)
    except ScheduleError as exc:
        raise located(exc, path) from None


def located(exc: ScheduleError, path: str) -> InfraGraphError:
    """A ScheduleError of the file `path` ("path:line:col: message" or "path: /doc/path: message")
    as an InfraGraphError located at the file (and line and column when the message has them)."""
    text = str(exc)
    match = re.match(re.escape(path) + r":(\d+):(\d+): (.*)", text, re.S)
    if match:
        return InfraGraphError(Diagnostic(match[3], Location(path, int(match[1]), int(match[2]))))
    return InfraGraphError(Diagnostic(text.removeprefix(f"{path}: "), Location(path)))
