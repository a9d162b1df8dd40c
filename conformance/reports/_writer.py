"""Write all four report files into a directory, all or nothing, one run's files only."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Self

from conformance._inert import shown_path
from conformance.reports._html import render_html
from conformance.reports._json import render_json
from conformance.reports._junit import render_junit
from conformance.reports._markdown import render_markdown

if TYPE_CHECKING:
    from collections.abc import Iterator

    from conformance.reports._model import Report

__all__ = [
    "FIXTURES_DIR",
    "REPORT_FILES",
    "ReportDirError",
    "ReportDirLock",
    "check_report_dir",
    "fixture_file_name",
    "lock_report_dir",
    "write_reports",
]

REPORT_FILES = ("report.json", "junit.xml", "summary.md", "report.html")
"""File names written into the report directory."""
FIXTURES_DIR = "fixtures"
"""Subfolder of the report directory holding each failing example's Scenario Fixture."""
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def fixture_file_name(example_id: str) -> str:
    """The report-relative path of an example's fixture: ``fixtures/<example id>.json``.

    Characters outside ``[A-Za-z0-9._-]`` become ``-`` (no path separators, no leading dot).
    """
    stem = _UNSAFE_NAME.sub("-", example_id).strip(".-") or "fixture"
    return f"{FIXTURES_DIR}/{stem[:150]}.json"


class ReportDirError(Exception):
    """The report directory cannot be created or written; ``str()`` names it and why."""


def check_report_dir(directory: Path) -> None:
    """Create ``directory`` if needed and prove it is writable, before any work is done.

    Raises:
        ReportDirError: it is a file, cannot be created, or cannot be written.
    """
    if directory.exists() and not directory.is_dir():
        msg = f"{_named(directory)} is a file, expected a directory"
        raise ReportDirError(msg)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".srdh-probe-"):
            pass
    except OSError as exc:
        msg = f"{_named(directory)} is not writable ({exc.strerror or exc})"
        raise ReportDirError(msg) from None


LOCK_WAIT_S = 30.0
"""How long a write without a held lock waits for another writer of the same folder, in seconds."""
_TEMP_PREFIX = ".srdh-tmp-"


class ReportDirLock:
    """An exclusive ``flock`` on a report directory, held by one run from its start to its end.

    Made by :func:`lock_report_dir`; hand it to :func:`write_reports` (``held=``), which then
    writes into the locked folder without locking again. :meth:`release` (or leaving the
    ``with`` block) unlocks it; the kernel unlocks it when the process ends, however it ends, so
    a killed run never leaves the folder locked. The descriptor is not inherited by children
    (the IUT's process never holds the lock).

    Attributes:
        directory: the report directory, as given.
        fd: the folder's open descriptor, the one holding the lock (-1 once released).
    """

    def __init__(self, directory: Path, fd: int) -> None:
        """Wrap ``fd``, an open descriptor of ``directory`` already holding ``LOCK_EX``."""
        self.directory = directory
        self.fd = fd

    def release(self) -> None:
        """Unlock the folder and close the descriptor (idempotent)."""
        if self.fd >= 0:
            fd, self.fd = self.fd, -1
            os.close(fd)  # closing the only descriptor of the open file releases its flock

    def __enter__(self) -> Self:
        """Return the held lock."""
        return self

    def __exit__(self, *_: object) -> None:
        """Release the lock."""
        self.release()


def lock_report_dir(directory: Path) -> ReportDirLock:
    """Create ``directory`` if needed, prove it writable and lock it for this whole run.

    ``srdh run`` (and ``replay``, ``verify``) calls it before it starts anything, so two runs
    given the same ``--report`` folder never interleave: the second is refused at once, before
    its IUT starts, instead of waiting for a run of unknown length.

    Raises:
        ReportDirError: as :func:`check_report_dir`; or the folder is locked by another run:
            the message names the folder and that run's process id (read from
            ``/proc/locks``; "its process id is not visible here" when another PID namespace
            holds it).
    """
    check_report_dir(directory)
    folder = _open_folder(directory)
    try:
        fcntl.flock(folder, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        pid = _flock_holder(folder)
        os.close(folder)
        holder = f"pid {pid}" if pid is not None else "its process id is not visible here"
        msg = (
            f"{_named(directory)} is in use by another srdh run ({holder}); wait for it to "
            "finish or choose another --report folder"
        )
        raise ReportDirError(msg) from None
    except BaseException:
        os.close(folder)
        raise
    return ReportDirLock(directory, folder)


def _open_folder(directory: Path) -> int:
    try:
        return os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        msg = f"{_named(directory)}: cannot open ({exc.strerror or exc})"
        raise ReportDirError(msg) from None


def _flock_holder(folder: int) -> int | None:
    """The process id holding a ``flock`` on the open folder ``folder``, from ``/proc/locks``.

    A line reads ``N: FLOCK  ADVISORY  WRITE PID MAJOR:MINOR:INODE 0 EOF`` (major and minor in
    hexadecimal); a waiter's line has ``->`` after ``N:`` and is skipped. ``None`` when no line
    matches or the holder's PID is 0 or negative (it is in another PID namespace).
    """
    status = os.fstat(folder)
    wanted = (os.major(status.st_dev), os.minor(status.st_dev), status.st_ino)
    try:
        text = Path("/proc/locks").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 6 or fields[1] != "FLOCK":  # noqa: PLR2004 - the line's fixed fields
            continue
        device = fields[5].split(":")
        try:
            major, minor, inode = int(device[0], 16), int(device[1], 16), int(device[2])
            pid = int(fields[4])
        except (ValueError, IndexError):
            continue
        key = (major, minor, inode)
        if key == wanted and pid > 0:
            return pid
    return None


def write_reports(
    report: Report, directory: Path, schemas_dir: Path, *, held: ReportDirLock | None = None
) -> list[Path]:
    """Render and write ``report.json``, ``junit.xml``, ``summary.md`` and ``report.html``.

    Each failure's fixture (``Failure.fixture``) is written to its ``fixture_path`` under
    ``directory`` (``fixtures/<example id>.json``), so the report folder replays every failure.
    Every file is rendered in memory first and written to a temporary name, then renamed, so a
    failure leaves no half-written report. Returns the written paths in :data:`REPORT_FILES` order.

    The folder holds one run's files only:

    * the set is written under an exclusive ``flock`` on the folder itself (no lock file):
      ``held``, the run's own lock from :func:`lock_report_dir` (the CLI takes it before the
      run starts, so a second run into the folder is refused), or, without it, a lock taken
      here: a second writer then waits for the first (at most :data:`LOCK_WAIT_S`, then
      refused), so the folder ends with one run's complete set, never a mix;
    * fixtures of an earlier run that this run did not write are removed (a passing run leaves
      no stale ``fixtures/``), as are temporary files an interrupted writer left;
    * nothing is written through a symbolic link: a ``fixtures`` link planted in the folder is
      replaced by a real folder, every file is created with ``O_EXCL | O_NOFOLLOW`` relative
      to the folder's descriptor and renamed into place (a link at a report's name is
      replaced, its target untouched).

    Raises:
        ReportDirError: the directory cannot be created, locked or written (or ``held`` was
            released); on a full disk or a file-size limit, names the file that could not be
            written (its temporary files are removed first).
    """
    check_report_dir(directory)
    texts = {
        "report.json": render_json(report),
        "junit.xml": render_junit(report),
        "summary.md": render_markdown(report),
        "report.html": render_html(report, schemas_dir),
    }
    fixtures: dict[str, str] = {}
    for failure in report.failures:
        if failure.fixture is not None and failure.fixture_path:
            # the path is rebuilt from its own name: a report cannot write outside its folder
            name = fixture_file_name(Path(failure.fixture_path).stem)
            fixtures[Path(name).name] = json.dumps(failure.fixture, indent=2) + "\n"
    if held is not None:
        if held.fd < 0:
            msg = f"{_named(directory)}: the run's lock was already released"
            raise ReportDirError(msg)
        _write_set(held.fd, directory, texts, fixtures)
        return [directory / name for name in REPORT_FILES]
    folder = _open_folder(directory)
    try:
        with _locked(folder, directory):
            _write_set(folder, directory, texts, fixtures)
    finally:
        os.close(folder)
    return [directory / name for name in REPORT_FILES]


@contextlib.contextmanager
def _locked(folder: int, directory: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on the folder itself (waiting at most :data:`LOCK_WAIT_S`)."""
    deadline = time.monotonic() + LOCK_WAIT_S
    while True:
        try:
            fcntl.flock(folder, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() > deadline:
                msg = (
                    f"{_named(directory)} is being written by another srdh run (locked for "
                    f"more than {LOCK_WAIT_S:g} s); choose another --report folder"
                )
                raise ReportDirError(msg) from None
            time.sleep(0.05)
    try:
        yield
    finally:
        fcntl.flock(folder, fcntl.LOCK_UN)


def _fixtures_folder(folder: int, directory: Path) -> int:
    """Open ``fixtures/`` (created; a symbolic link or a file there is replaced by a folder)."""
    try:
        return os.open(FIXTURES_DIR, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=folder)
    except FileNotFoundError:
        pass
    except OSError:
        # a symbolic link (ELOOP) or a file (ENOTDIR) planted at fixtures/: never written through
        os.unlink(FIXTURES_DIR, dir_fd=folder)
    try:
        os.mkdir(FIXTURES_DIR, 0o777, dir_fd=folder)
    except FileExistsError:
        pass
    except OSError as exc:
        msg = f"{_named(directory)}: cannot create {FIXTURES_DIR}/ ({exc.strerror or exc})"
        raise ReportDirError(msg) from None
    return os.open(FIXTURES_DIR, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=folder)


def _write_set(
    folder: int, directory: Path, texts: dict[str, str], fixtures: dict[str, str]
) -> None:
    """Stage every file under a temporary name, rename them into place, remove stale files."""
    _remove_temporaries(folder)
    sub = _fixtures_folder(folder, directory)
    staged: list[tuple[int, str, str]] = []  # (folder fd, temporary name, final name)
    mode = _file_mode()
    try:
        _remove_temporaries(sub)
        plan = [(folder, name, text) for name, text in texts.items()]
        plan += [(sub, name, text) for name, text in fixtures.items()]
        for where, name, text in plan:
            shown = name if where == folder else f"{FIXTURES_DIR}/{name}"
            tmp = f"{_TEMP_PREFIX}{name}.{secrets.token_hex(4)}"
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode,
                             dir_fd=where)  # fmt: skip
                staged.append((where, tmp, name))
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    handle.write(text)
            except OSError as exc:
                msg = f"{_named(directory)}: cannot write {shown} ({exc.strerror or exc})"
                raise ReportDirError(msg) from None
        for where, tmp, name in staged:
            os.rename(tmp, name, src_dir_fd=where, dst_dir_fd=where)
        staged.clear()
        for stale in set(os.listdir(sub)) - set(fixtures):  # noqa: PTH208 - by descriptor
            if stale.endswith(".json"):
                with contextlib.suppress(OSError):
                    os.unlink(stale, dir_fd=sub)
        if not fixtures:
            with contextlib.suppress(OSError):
                os.rmdir(FIXTURES_DIR, dir_fd=folder)  # only when nothing else is in it
    except OSError as exc:
        msg = f"{_named(directory)}: cannot write ({exc.strerror or exc})"
        raise ReportDirError(msg) from None
    finally:
        for where, tmp, _ in staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=where)
        os.close(sub)


def _remove_temporaries(folder: int) -> None:
    """Remove the temporary files a writer killed mid-way left in ``folder``."""
    for name in os.listdir(folder):
        if name.startswith(_TEMP_PREFIX):
            with contextlib.suppress(OSError):
                os.unlink(name, dir_fd=folder)


def _named(directory: Path) -> str:
    """``report directory NAME``, the name's control characters escaped."""
    return f"report directory {shown_path(directory)}"


def _file_mode() -> int:
    """The mode an ordinary new file gets under the process umask (0644 under umask 022)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
