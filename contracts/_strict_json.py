r"""The kit's one strict JSON reader: RFC 8259 text, I-JSON (RFC 7493) values, bounded size.

Every JSON text the kit reads (documents given to ``srdh validate``, contract loaders, fixtures,
schemas, IUT messages, model output and tool arguments, reports read back) goes through
:func:`loads_strict`. It rejects, with one :class:`StrictJSONError` naming the source, the line
and the RFC 6901 JSON pointer:

=========================  ===================================================  ================
rule                       what                                                 standard
=========================  ===================================================  ================
``json-syntax``            not RFC 8259 text (``NaN``, ``Infinity``, comments,  RFC 8259
                           trailing commas, a byte order mark, ...)
``json-encoding``          bytes that are not UTF-8                             RFC 8259 §8.1
``json-duplicate-member``  an object names the same member twice                RFC 7493 §2.3
``json-lone-surrogate``    a string holds an unpaired UTF-16 surrogate          RFC 7493 §2.1
``json-number-overflow``   a number beyond the IEEE 754 double range            RFC 7493 §2.2
``json-number-precision``  a number a double holds only rounded (more digits    RFC 7493 §2.2
                           than it keeps, or under its range: ``1e-400``), so
                           ``1764400000000.00001`` never reads as an integer
``json-unsafe-integer``    with ``canonical=True``: an integer outside          RFC 8785 §3.2.2.3
                           ±(2^53 - 1), which RFC 8785 cannot encode
``json-depth``             arrays/objects nested deeper than :data:`MAX_DEPTH`  kit limit
``json-number-length``     a number token longer than :data:`MAX_NUMBER_CHARS`  kit limit
=========================  ===================================================  ================

How: the standard library's C parser does the work, with its hooks (``object_pairs_hook``,
``parse_constant``, ``parse_int``, ``parse_float``) refusing duplicates, non-numbers and long or
overflowing numbers; a recursion error becomes ``json-depth``; lone surrogates and the depth are
checked on the parsed value only when the text can hold them. Only when a text is rejected does a
small position-tracking scanner (:func:`_locate`) find the line and pointer of the first offence
in document order. :func:`json_value_problem` applies the same rules to an in-memory value (tool
arguments, a draft, a snapshot before its digest), so one limit holds for the reader, the
EvidenceGuard and the snapshot digest.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NoReturn

from contracts._errors import ContractError, json_pointer

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

__all__ = [
    "MAX_DEPTH",
    "MAX_NUMBER_CHARS",
    "MAX_SAFE_INTEGER",
    "JsonProblem",
    "StrictJSONError",
    "json_value_problem",
    "line_of_pointer",
    "load_json_file",
    "loads_strict",
    "not_a_file",
]

MAX_DEPTH: Final = 64
"""Deepest nesting of arrays/objects accepted (the outermost container is depth 1).

Every kit document is far shallower (a scenario fixture nests about 10 deep, a JSON Schema of the
kit about 12); the limit keeps recursion (parsers, validators, encoders) far from Python's."""

MAX_NUMBER_CHARS: Final = 100
"""Longest number token accepted, in characters (a double needs at most 25)."""

MAX_SAFE_INTEGER: Final = 2**53 - 1
"""Largest integer magnitude RFC 8785 (and I-JSON interoperability) can encode exactly."""

_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE_CHAR: Final = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class JsonProblem:
    """One reason a JSON text or value is refused: the stable ``rule`` and a one-line ``message``.

    ``pointer`` is the RFC 6901 pointer of the offending value (``""`` for the root); ``path``
    its keys and indexes (set by :func:`json_value_problem`).
    """

    rule: str
    message: str
    pointer: str = ""
    path: tuple[object, ...] = ()


class StrictJSONError(ContractError):
    """A JSON text the strict reader refuses; ``str()`` is ``source:line: pointer: message``.

    A :class:`~contracts.ContractError` (so every loader's error handling takes it) whose ``rule``
    is one of the ``json-*`` rules of this module and whose ``expected`` is ``"JSON"`` (syntax,
    encoding) or ``"I-JSON"``.
    """


class _Reject(Exception):  # noqa: N818 - internal control signal, never escapes this module
    """Raised by a parser hook; the locator then finds where."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for name, _ in pairs:
            if name in seen:
                rule = "json-duplicate-member"
                raise _Reject(rule, _duplicate_message(name))
            seen.add(name)
    return obj


def _constant(name: str) -> object:
    rule = "json-syntax"
    raise _Reject(rule, f"{name} is not a JSON value")


def _number_problem(token: str, *, canonical: bool) -> JsonProblem | None:
    """The problem of a number token (RFC 8259 grammar already checked), or None."""
    if len(token) > MAX_NUMBER_CHARS:
        return JsonProblem(
            "json-number-length",
            f"a number of {len(token)} characters (the limit is {MAX_NUMBER_CHARS})",
        )
    if any(mark in token for mark in ".eE"):
        double = float(token)
        if math.isinf(double):
            return JsonProblem(
                "json-number-overflow", f"the number {token} is beyond the IEEE 754 double range"
            )
        if Decimal(repr(double)) != Decimal(token):
            return JsonProblem(
                "json-number-precision",
                f"the number {token} has more precision than an IEEE 754 double holds (it would"
                f" be read as {double!r}; RFC 7493 section 2.2)",
            )
        return None
    if canonical and abs(int(token)) > MAX_SAFE_INTEGER:
        return JsonProblem(
            "json-unsafe-integer",
            f"the integer {token} is outside +/-(2^53-1), which RFC 8785 cannot encode",
        )
    return None


def _int_hook(*, canonical: bool) -> Any:  # noqa: ANN401 - the json hook type
    def parse_int(token: str) -> int:
        problem = _number_problem(token, canonical=canonical)
        if problem is not None:
            raise _Reject(problem.rule, problem.message)
        return int(token)

    return parse_int


def _float(token: str) -> float:
    problem = _number_problem(token, canonical=False)
    if problem is not None:
        raise _Reject(problem.rule, problem.message)
    return float(token)


_DECODERS: Final = {
    canonical: json.JSONDecoder(
        object_pairs_hook=_pairs,
        parse_constant=_constant,
        parse_int=_int_hook(canonical=canonical),
        parse_float=_float,
    )
    for canonical in (False, True)
}


_SURROGATE_MESSAGE: Final = "a string holds an unpaired UTF-16 surrogate (RFC 7493 section 2.1)"


def _duplicate_message(name: str) -> str:
    return f"duplicate member name {_quote(name)} (RFC 7493 section 2.3: names are unique)"


def _quote(text: str) -> str:
    """``text`` as a JSON string literal, ASCII only (safe to print; lone surrogates escaped)."""
    return json.dumps(text, ensure_ascii=True)


def _too_deep(value: object) -> bool:
    """Whether ``value`` nests arrays/objects deeper than ``MAX_DEPTH`` (iterative)."""
    stack: list[tuple[dict[str, Any] | list[Any], int]] = []
    if isinstance(value, dict | list):
        stack.append((value, 1))
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        for child in item.values() if isinstance(item, dict) else item:
            if type(child) is dict or type(child) is list:
                stack.append((child, depth + 1))  # noqa: PERF401 - faster than a generator
    return False


def _holds_surrogate(value: object) -> bool:
    """Whether a string (member names included) anywhere in ``value`` has a lone surrogate."""
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if any(map(_has_surrogate, item)):
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and _has_surrogate(item):
            return True
    return False


def _may_hold_surrogate(text: str) -> bool:
    """Whether the JSON text can decode to a lone surrogate (an escape or character of one)."""
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return True
    return ("\\ud" in text or "\\uD" in text) and _SURROGATE_ESCAPE.search(text) is not None


def _has_surrogate(text: str) -> bool:
    return not text.isascii() and _SURROGATE_CHAR.search(text) is not None


def _text_of(text: str | bytes | bytearray, *, source: str | None, first_line: int) -> str:
    """``text`` as a ``str``: UTF-8 decoded, without a byte order mark."""
    if isinstance(text, bytes | bytearray):
        raw = bytes(text)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            line = first_line + raw[: error.start].count(b"\n")
            msg = f"not JSON: expected UTF-8 text (invalid byte at offset {error.start})"
            raise StrictJSONError(
                msg, path=source, line=line, expected="JSON", rule="json-encoding"
            ) from None
    if text.startswith("\ufeff"):
        msg = "not JSON: a byte order mark is not allowed (RFC 8259 section 8.1)"
        raise StrictJSONError(
            msg, path=source, line=first_line, expected="JSON", rule="json-syntax"
        )
    return text


def _syntax_message(text: str, error: json.JSONDecodeError) -> str:
    """The decoder's complaint, said plainly where it misleads.

    A raw line break inside a string is what an unterminated string looks like to the decoder
    (``{"broken`` then the end of the line): it reports an "invalid control character"; the
    reader says the string is not terminated and a ``"`` was expected.
    """
    broken_line = text[error.pos : error.pos + 1] in {"\r", "\n"}
    if error.msg == "Invalid control character at" and broken_line:
        return (
            "unterminated string: the line ends where a closing '\"' was expected "
            "(a line break inside a string is written \\n)"
        )
    return error.msg


def loads_strict(
    text: str | bytes | bytearray,
    *,
    source: str | None = None,
    canonical: bool = False,
    first_line: int = 1,
) -> Any:  # noqa: ANN401 - any JSON value
    """Parse one JSON text strictly (see the module docstring for every rule).

    Args:
        text: the JSON text; ``bytes`` must be UTF-8 (no byte order mark).
        source: the file (or other origin) named in errors; ``None`` prints ``<document>``.
        canonical: also refuse integers outside +/-(2^53-1) (the value will be RFC 8785
            canonicalized: a Verified Snapshot, tool arguments, a draft).
        first_line: the line number of the text's first line in ``source`` (NDJSON records).

    Returns:
        The value: ``dict``/``list``/``str``/``int``/``float``/``bool``/``None``.

    Raises:
        StrictJSONError: the text is refused; ``line`` and ``pointer`` say where.
    """
    text = _text_of(text, source=source, first_line=first_line)
    try:
        value = _DECODERS[canonical].decode(text)
    except json.JSONDecodeError as error:
        pointer = _locate(text, canonical=canonical, stop=error.pos).pointer
        msg = f"not JSON: {_syntax_message(text, error)} (column {error.colno})"
        raise StrictJSONError(
            msg,
            path=source,
            line=first_line + error.lineno - 1,
            pointer=pointer,
            expected="JSON",
            rule="json-syntax",
        ) from None
    except _Reject as reject:
        rejected: JsonProblem | None = JsonProblem(reject.rule, reject.message)
    except RecursionError:
        rejected = JsonProblem("json-depth", "")
    except ValueError:  # int() refused a number of thousands of digits (Python's own limit)
        rejected = JsonProblem("json-number-length", "")
    else:
        rejected = None
    if rejected is not None:
        _raise_located(text, rejected, source=source, first_line=first_line, canonical=canonical)
    problem = _value_problem_of(text, value)
    if problem is not None:
        _raise_located(text, problem, source=source, first_line=first_line, canonical=canonical)
    return value


def _value_problem_of(text: str, value: object) -> JsonProblem | None:
    """The checks the parser's hooks cannot make; each walks ``value`` only if ``text`` needs it."""
    if text.count("[") + text.count("{") > MAX_DEPTH and _too_deep(value):
        return JsonProblem("json-depth", "")
    if _may_hold_surrogate(text) and _holds_surrogate(value):
        return JsonProblem("json-lone-surrogate", "")
    return None


def _raise_located(
    text: str, fallback: JsonProblem, *, source: str | None, first_line: int, canonical: bool
) -> NoReturn:
    found = _locate(text, canonical=canonical)
    problem = found.problem or fallback
    message = problem.message or _default_message(problem.rule)
    expected = "JSON" if problem.rule == "json-syntax" else "I-JSON"
    msg = f"not {expected}: {message}"
    raise StrictJSONError(
        msg,
        path=source,
        line=first_line + found.line - 1 if found.problem else None,
        pointer=found.pointer if found.problem else "",
        expected=expected,
        rule=problem.rule,
    )


def _default_message(rule: str) -> str:
    return {
        "json-depth": f"arrays/objects nested deeper than {MAX_DEPTH} (the kit's limit)",
        "json-number-length": f"a number longer than {MAX_NUMBER_CHARS} characters",
        "json-lone-surrogate": _SURROGATE_MESSAGE,
    }.get(rule, rule)


# --- the locator: a position-tracking scan, used only to say where a refused text goes wrong ---

_LEXEME: Final = re.compile(
    r"""
    (?P<ws>[ \t\n\r]+)
    |(?P<str>"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*")
    |(?P<num>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)
    |(?P<open>[{\[])
    |(?P<close>[}\]])
    |(?P<comma>,)
    |(?P<colon>:)
    |(?P<lit>true|false|null)
    |(?P<const>NaN|-?Infinity)
    """,
    re.VERBOSE,
)


@dataclass(slots=True)
class _Frame:
    """One open container: ``key`` is the current member name or index, ``names`` those seen."""

    is_object: bool
    key: object
    names: set[str]
    expecting_key: bool


@dataclass(frozen=True, slots=True)
class _Lexeme:
    """One token with where it is.

    ``kind`` is a group of :data:`_LEXEME`, ``member`` for a member name, ``bad`` for text that
    is no token; ``depth`` the nesting depth an ``open`` token starts; ``duplicate`` marks a
    member name seen before in its object. ``stack`` is the scanner's live container stack:
    read :attr:`pointer` before asking for the next token.
    """

    offset: int
    line: int
    kind: str
    text: str
    stack: list[_Frame]
    duplicate: bool = False

    @property
    def depth(self) -> int:
        """The depth of a container this token opens (the outermost is 1)."""
        return len(self.stack) + 1

    @property
    def pointer(self) -> str:
        """The RFC 6901 pointer of the value this token starts or names."""
        return _pointer(self.stack)


def _lexemes(text: str) -> Iterator[_Lexeme]:
    """Yield the tokens of ``text`` with their line and JSON pointer; ``bad`` ends the scan."""
    stack: list[_Frame] = []
    line, pos = 1, 0
    while pos < len(text):
        match = _LEXEME.match(text, pos)
        kind = "bad" if match is None else (match.lastgroup or "bad")
        lexeme = text[pos : pos + 1] if match is None else match.group()
        pos = pos + 1 if match is None else match.end()
        if kind == "ws":
            line += lexeme.count("\n")
            continue
        frame = stack[-1] if stack else None
        duplicate = False
        if kind == "str" and frame is not None and frame.expecting_key:
            kind, frame.expecting_key = "member", False
            frame.key = json.loads(lexeme)
            duplicate = frame.key in frame.names
            frame.names.add(str(frame.key))
        yield _Lexeme(pos - len(lexeme), line, kind, lexeme, stack, duplicate)
        if kind == "bad":
            return
        if kind == "open":
            is_object = lexeme == "{"
            stack.append(_Frame(is_object, None if is_object else 0, set(), is_object))
        elif kind == "close" and stack:
            stack.pop()
        elif kind == "comma" and frame is not None:
            frame.expecting_key = frame.is_object
            if isinstance(frame.key, int):
                frame.key += 1


def _pointer(stack: list[_Frame]) -> str:
    return _safe_pointer([frame.key for frame in stack if frame.key is not None])


def _safe_pointer(path: Iterable[object]) -> str:
    r"""The RFC 6901 pointer of ``path``, lone surrogates written as ``\uXXXX`` (printable)."""
    pointer = json_pointer(path)
    if _has_surrogate(pointer):
        pointer = _SURROGATE_CHAR.sub(lambda match: f"\\u{ord(match.group()):04x}", pointer)
    return pointer


@dataclass(frozen=True, slots=True)
class _Found:
    line: int
    pointer: str
    problem: JsonProblem | None


def _lexeme_problem(lexeme: _Lexeme, *, canonical: bool) -> JsonProblem | None:
    """The I-JSON problem a single token shows, or None."""
    if lexeme.duplicate:
        return JsonProblem("json-duplicate-member", _duplicate_message(json.loads(lexeme.text)))
    if lexeme.kind in {"str", "member"} and _has_surrogate(json.loads(lexeme.text)):
        return JsonProblem("json-lone-surrogate", _SURROGATE_MESSAGE)
    if lexeme.kind == "num":
        return _number_problem(lexeme.text, canonical=canonical)
    if lexeme.kind == "const":
        return JsonProblem("json-syntax", f"{lexeme.text} is not a JSON value")
    if lexeme.kind == "open" and lexeme.depth > MAX_DEPTH:
        return JsonProblem("json-depth", _default_message("json-depth"))
    return None


LOCATE_LIMIT: Final = 1024 * 1024
"""Characters the locator scans at most (it is Python code); past them an error has no pointer."""


def _locate(text: str, *, canonical: bool, stop: int | None = None) -> _Found:
    """Return the first offence in document order, or where the scan reaches offset ``stop``.

    Scans at most :data:`LOCATE_LIMIT` characters (then: no problem found, no pointer).
    """
    line = 1
    for lexeme in _lexemes(text):
        if lexeme.offset > LOCATE_LIMIT:
            return _Found(1, "", None)
        line = lexeme.line
        if (stop is not None and lexeme.offset >= stop) or lexeme.kind == "bad":
            return _Found(line, lexeme.pointer, None)
        problem = _lexeme_problem(lexeme, canonical=canonical)
        if problem is not None:
            return _Found(line, lexeme.pointer, problem)
    return _Found(line, "", None)


_VALUE_KINDS: Final = frozenset({"str", "num", "lit", "const", "open"})


def line_of_pointer(text: str, pointer: str) -> int | None:
    """Return the 1-based line where the value at RFC 6901 ``pointer`` starts in ``text``.

    ``None`` when the scan finds no such value (or text that is no JSON token first). Used to
    report a schema violation of a pretty-printed document at its own line.
    """
    for lexeme in _lexemes(text):
        if lexeme.kind == "bad" or lexeme.offset > LOCATE_LIMIT:
            return None
        if lexeme.kind in _VALUE_KINDS and lexeme.pointer == pointer:
            return lexeme.line
    return None


def json_value_problem(value: object, *, canonical: bool = True) -> JsonProblem | None:
    """Return why the in-memory ``value`` is not an I-JSON value the kit can take, or None.

    The rules of :func:`loads_strict` applied to a parsed value (duplicates cannot occur in a
    ``dict``): only JSON types (``dict`` with ``str`` keys, ``list``, ``str``, ``int``, ``float``,
    ``bool``, ``None``), nesting at most :data:`MAX_DEPTH`, finite floats, no lone surrogates,
    and with ``canonical`` integers within +/-:data:`MAX_SAFE_INTEGER` (what RFC 8785 and so the
    Verified Snapshot digest can encode). Iterative: any depth is safe. ``pointer`` names the
    first offending value found.
    """
    stack: list[tuple[object, tuple[object, ...]]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        problem = _value_problem(item, len(path), canonical=canonical)
        if problem is not None:
            return JsonProblem(problem.rule, problem.message, _safe_pointer(path), path)
        children: list[tuple[object, tuple[object, ...]]] = []
        if isinstance(item, dict):
            for key, child in item.items():
                if not isinstance(key, str) or _has_surrogate(key):
                    return JsonProblem(
                        "json-member-name",
                        "a member name is not a string of Unicode scalar values",
                        _safe_pointer(path),
                        path,
                    )
                children.append((child, (*path, key)))
        elif isinstance(item, list):
            children.extend((child, (*path, index)) for index, child in enumerate(item))
        stack.extend(reversed(children))  # popped in document order
    return None


def _value_problem(item: object, depth: int, *, canonical: bool) -> JsonProblem | None:  # noqa: PLR0911 - one answer per JSON type
    if isinstance(item, dict | list):
        if depth + 1 > MAX_DEPTH:
            return JsonProblem("json-depth", _default_message("json-depth"))
        return None
    if item is None or isinstance(item, bool):
        return None
    if isinstance(item, int):
        if canonical and abs(item) > MAX_SAFE_INTEGER:
            return JsonProblem(
                "json-unsafe-integer",
                f"the integer {item} is outside +/-(2^53-1), which RFC 8785 cannot encode",
            )
        return None
    if isinstance(item, float):
        if not math.isfinite(item):
            return JsonProblem("json-number-overflow", f"{item} is not a finite JSON number")
        return None
    if isinstance(item, str):
        if _has_surrogate(item):
            return JsonProblem("json-lone-surrogate", _SURROGATE_MESSAGE)
        return None
    return JsonProblem("json-type", f"a JSON value, got a Python {type(item).__name__}")


def not_a_file(mode: int) -> str | None:
    """Why a path of ``mode`` (``os.stat().st_mode``) is not read as a document, or ``None``.

    The one wording of every reader of the kit (fixtures, schemas, ``srdh validate``): a
    directory is ``"is a directory, expected a file"``; a FIFO, device or socket (which could
    block or never end) is ``"not a regular file (a FIFO, device or socket is not read)"``.
    """
    if stat.S_ISDIR(mode):
        return "is a directory, expected a file"
    if not stat.S_ISREG(mode):
        return "not a regular file (a FIFO, device or socket is not read)"
    return None


def load_json_file(path: str | os.PathLike[str], *, canonical: bool = False) -> Any:  # noqa: ANN401 - any JSON value
    """Read the regular file at ``path`` and parse it with :func:`loads_strict`.

    A FIFO, device or socket is refused before it is opened (it could block or never end).

    Raises:
        StrictJSONError: the file is missing, not a regular file or unreadable (rule ``file``),
            or its text is refused; the error names the file.
    """
    name = os.fspath(path)
    try:
        refused = not_a_file(Path(name).stat().st_mode)
        if refused:
            raise StrictJSONError(refused, path=name, rule="file")
        raw = Path(name).read_bytes()
    except OSError as error:
        msg = f"cannot read the file: {error.strerror or type(error).__name__}"
        raise StrictJSONError(msg, path=name, rule="file") from None
    return loads_strict(raw, source=name, canonical=canonical)
