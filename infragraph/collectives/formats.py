"""Read a schedule from any format we take, recognised by content, not by file name.

Why by content: `--algorithm schedule:FILE` and `infragraph schedule` take our JSON, our binary
schedule file (schedule_file.py), MSCCL XML and MSCCL++ JSON execution plans; a .json file may be
either JSON kind.
"""
from __future__ import annotations

import json

from ..errors import Diagnostic, InfraGraphError, Location
from .schedule import Schedule, ScheduleColumns, ScheduleError, read_schedule, read_schedule_columns, schedule_from_columns
from .schedule_file import MAGIC, is_schedule_file, read_schedule_file


def detect(text: str) -> str:
    """'msccl' for XML, 'mscclpp' for a JSON object with a list of `gpus` (an MSCCL++ execution
    plan), else 'schedule' (our JSON; its reader says what is wrong with anything else)."""
    if text.lstrip()[:1] == "<":
        return "msccl"
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        return "schedule"
    return "mscclpp" if _is_mscclpp(doc) else "schedule"


def _is_mscclpp(doc: object) -> bool:
    return isinstance(doc, dict) and isinstance(doc.get("gpus"), list) and "steps" not in doc


def load_any(path: str, columns: bool = False) -> Schedule | ScheduleColumns:
    """The schedule in `path` (our JSON or binary file, MSCCL XML or an MSCCL++ plan), not yet
    validated; our JSON's and binary file's as columns when `columns` (no per-transfer objects
    kept: what the engine runs), else every format's as a Schedule. Errors are InfraGraphErrors located at the file (file:line for XML and
    JSON syntax, the document path for content). JSON is parsed once."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(MAGIC))
    except OSError as exc:
        raise InfraGraphError(Diagnostic(f"cannot read the schedule: {exc.strerror}", Location(path))) from None
    if is_schedule_file(head):
        try:
            cols = read_schedule_file(path)
        except ScheduleError as exc:
            raise InfraGraphError(Diagnostic(str(exc).removeprefix(f"{path}: "), Location(path))) from None
        return cols if columns else schedule_from_columns(cols)
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise InfraGraphError(Diagnostic(f"cannot read the schedule: {exc.strerror}", Location(path))) from None
    except UnicodeDecodeError as exc:
        raise InfraGraphError(Diagnostic(f"not a text file (byte {exc.start} is not UTF-8)", Location(path))) from None
    if text.lstrip()[:1] == "<":
        from .msccl import read_msccl, to_schedule

        return to_schedule(read_msccl(text, path))
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InfraGraphError(Diagnostic(f"not JSON: {exc.msg}", Location(path, exc.lineno, exc.colno))) from None
    del text
    if _is_mscclpp(doc):
        from .mscclpp import read_mscclpp_doc

        return read_mscclpp_doc(doc, path)
    try:
        return read_schedule_columns(doc, path) if columns else read_schedule(doc, path)
    except ScheduleError as exc:
        raise InfraGraphError(Diagnostic(str(exc).removeprefix(f"{path}: "), Location(path))) from None
