"""The operating-system side of isolation: how an isolated strategy's process is started and ended.

`unosim.engine.isolation` keeps a user's strategy out of the engine's interpreter; this module
keeps the process it runs in away from the engine's files, memory and environment, as far as one
user account allows (``docs/fair_play.md`` says how far that is).

The child process
-----------------
* **A private directory** (`private_directory`): a fresh temporary directory, its working
  directory, ``HOME``, ``TMPDIR`` and ``NUMBA_CACHE_DIR`` (a copy of the engine's kernel cache: numba
  in the child neither writes nor reads the engine's own); removed when the child ends.
* **A clean environment** (`child_environment`): ``PATH``, those four, ``PYTHONNOUSERSITE=1``,
  ``PYTHONDONTWRITEBYTECODE=1`` and the variables named in `PASS_ENV` (none by default);
  nothing else of the engine's environment.
* **Python in isolated mode** (``-I -B``): no ``PYTHON*`` variable, no user site-packages, not the
  working directory on ``sys.path``. The child imports the engine's modules with the interpreter's
  own path; only then does it add the paths the strategy's module needs (`module_paths`: the
  engine's ``sys.path`` without the kernel cache and the private directory, the module's copy first).
* **An unprivileged user when the engine is root** (`unprivileged_user`): ``nobody``. The child
  starts as the engine's user, imports the engine's modules, then gives up root for good (groups,
  group, user: `drop_privileges`) before it reads a byte of the strategy's module or of the
  protocol. It drops in its own code rather than through `subprocess.Popen`'s ``user=``
  because the interpreter may live where ``nobody`` cannot read (``/root/.pyenv``): started as
  ``nobody`` it would not start at all (`give_up_root`). A process whose user changed after it started is not
  dumpable, so other processes of ``nobody`` (the other strategies' processes) cannot open its
  memory either. The strategy's module is copied into the private directory (`copy_module`),
  owned by ``nobody``, so a module in a directory only root can read still loads; the modules it
  imports from elsewhere must be readable by ``nobody``.
* **Its own session** (``start_new_session``), so its process group is its own; it asks the kernel
  for ``SIGKILL`` when the thread that started it ends (``PR_SET_PDEATHSIG``, `die_with_parent`,
  set after the user change, which would clear it), and exits at once if that happened already.

The engine's side
-----------------
* The process that starts children makes itself non-dumpable (`make_undumpable`,
  ``PR_SET_DUMPABLE`` 0): a process of the same user cannot open its ``/proc/<pid>/mem``.
* `end_group` kills the child's whole process group once the child has ended, so a process
  the strategy forked (and that did not start a session of its own) ends with it.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import shutil
import signal
import sys
import tempfile
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Any

from ..game.errors import UnosimInputError

__all__ = [
    "MAX_COPY_BYTES", "PASS_ENV", "UNPRIVILEGED", "child_environment", "copy_module", "die_with_parent",
    "drop_privileges", "end_group", "give_up_root", "make_undumpable", "module_paths", "private_directory", "settings",
    "unprivileged_user",
]

UNPRIVILEGED = ("nobody", "nogroup")
"""The user and group an isolated strategy runs as when the engine runs as root (the group falls back
to the user's own group when ``nogroup`` does not exist)."""
PASS_ENV = "UNOSIM_ISOLATED_ENV"
"""The variable naming (comma-separated) the engine's environment variables an isolated strategy's
process receives besides its own few (module doc); none when unset."""
MAX_COPY_BYTES = 64 << 20
"""The most bytes of a strategy's module (a file, or a package's directory) copied into its private
directory; a larger one is imported from where it is."""

_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4


def _prctl(option: int, value: int) -> bool:
    """``prctl(option, value)`` on Linux; whether it was made."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    return libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0) == 0


def make_undumpable() -> bool:
    """Make this process non-dumpable (``PR_SET_DUMPABLE`` 0): another process of the same user can no
    longer open its ``/proc/<pid>/mem``, attach to it or dump it. Lasts until this process starts
    another program (``exec``). Whether it was made (Linux only)."""
    return _prctl(_PR_SET_DUMPABLE, 0)


def die_with_parent(parent: int) -> None:
    """In the child: ``SIGKILL`` when the thread that started it ends; exit now if it has ended already
    (this process's parent is no longer ``parent``)."""
    _prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL))
    if os.getppid() != parent:
        os._exit(1)


def unprivileged_user() -> tuple[int, int] | None:
    """``(uid, gid)`` of `UNPRIVILEGED` when this process runs as root (the user a child drops to),
    else ``None`` (a child runs as this process's user).

    Raises
    ------
    UnosimInputError
        When this process is root and the system has no user ``nobody``.
    """
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    import grp
    import pwd

    user, group = UNPRIVILEGED
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        raise UnosimInputError(f"--isolate run as root plays each user strategy as user {user!r}, which this system "
                               f"does not have; create it, or run unosim as an unprivileged user.") from None
    try:
        gid = grp.getgrnam(group).gr_gid
    except KeyError:
        gid = entry.pw_gid
    return entry.pw_uid, gid


def give_up_root(user: tuple[int, int]) -> None:
    """In the child, once the engine's modules are imported: hand the private directory (its working
    directory, where importing them may have made numba's cache directories) to ``user``, then
    `drop_privileges`."""
    _chown_tree(Path.cwd(), user)
    drop_privileges(user)


def drop_privileges(user: tuple[int, int]) -> None:
    """In the child: become ``user`` (uid, gid) for good, with no supplementary group."""
    uid, gid = user
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    if os.getuid() != uid or os.geteuid() != uid or os.getgid() != gid:
        os._exit(1)
    make_undumpable()


def private_directory(user: tuple[int, int] | None, kernel_cache: Path | None = None) -> Path:
    """A fresh private directory for one child (mode 0700), with ``home`` and ``tmp`` inside and a copy of
    the engine's ``kernel_cache`` as ``numba-cache`` (so its strategy need not compile what the engine has
    compiled, and what it writes there reaches no other process), owned by ``user`` when given."""
    path = Path(tempfile.mkdtemp(prefix="unosim-isolated-"))
    for name in ("home", "tmp"):
        (path / name).mkdir(mode=0o700)
    if kernel_cache is not None and kernel_cache.is_dir():
        try:
            shutil.copytree(kernel_cache, path / "numba-cache", symlinks=False,
                            ignore=shutil.ignore_patterns("*.lock", "*.log", "*.tmp*"))
        except (OSError, shutil.Error):  # a cache being written meanwhile: the child compiles what it misses
            pass
    if user is not None:
        _chown_tree(path, user)
    return path


def _chown_tree(path: Path, user: tuple[int, int]) -> None:
    for where in [path, *path.rglob("*")]:
        os.chown(where, *user, follow_symlinks=False)


def child_environment(private: Path, parent: int, user: tuple[int, int] | None) -> dict[str, str]:
    """The child's whole environment (module doc), with the settings it reads at start."""
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(private / "home"),
        "TMPDIR": str(private / "tmp"),
        "NUMBA_CACHE_DIR": str(private / "numba-cache"),
        "PYTHONNOUSERSITE": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    for name in filter(None, (n.strip() for n in os.environ.get(PASS_ENV, "").split(","))):
        if name in os.environ and name not in env:
            env[name] = os.environ[name]
    env["UNOSIM_ISOLATION"] = json.dumps({"parent": parent, "user": list(user) if user else None})
    return env


def module_paths(module: str, private: Path, user: tuple[int, int] | None, cache: Path | None) -> list[str]:
    """The ``sys.path`` entries the child adds for the strategy's ``module``, in order: its copy in
    ``private`` (`copy_module`, when the engine is root), then the engine's own entries (absolute;
    the working directory for ``""``), without ``cache`` and the private directory."""
    entries: list[str] = []
    for entry in sys.path:
        path = os.path.abspath(entry or os.getcwd())
        if path in entries or _inside(path, private) or (cache is not None and _inside(path, cache)):
            continue
        entries.append(path)
    if user is not None:
        copied = copy_module(module, entries, private / "module", user)
        if copied is not None:
            entries.insert(0, str(copied))
    return entries


def _inside(path: str, directory: Path) -> bool:
    try:
        Path(path).resolve().relative_to(directory.resolve())
    except (ValueError, OSError):
        return False
    return True


def copy_module(module: str, paths: list[str], into: Path, user: tuple[int, int]) -> Path | None:
    """Copy the top-level module or package of ``module`` (found on ``paths`` without importing
    anything) into the directory ``into``, owned by ``user``; return ``into``, or ``None`` when it is
    not found there (an installed package the child finds itself), is a namespace package, or is larger
    than `MAX_COPY_BYTES` (it is then imported from where it is)."""
    spec = PathFinder.find_spec(module.split(".")[0], paths)
    if spec is None or not spec.origin or not os.path.isfile(spec.origin):
        return None
    source = Path(spec.origin)
    is_package = spec.submodule_search_locations is not None
    if is_package:
        source = source.parent
        files = [p for p in source.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    else:
        files = [source]
    if sum(p.lstat().st_size for p in files) > MAX_COPY_BYTES:
        return None
    into.mkdir(mode=0o700)
    # Symbolic links are copied as links, never followed: this process may be root, and a link to a
    # file only root may read must not become a copy the unprivileged user reads.
    if is_package:
        shutil.copytree(source, into / source.name, ignore=shutil.ignore_patterns("__pycache__"), symlinks=True)
    else:
        shutil.copyfile(source, into / source.name, follow_symlinks=False)
    _chown_tree(into, user)
    return into


def end_group(pid: int) -> None:
    """Kill every process left in the process group ``pid`` (a child's, once the child has ended)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    except PermissionError:  # a process of the group changed its user: nothing this process may end
        pass
    except OSError as exc:  # pragma: no cover - killpg fails only as above
        if exc.errno != errno.ESRCH:
            raise


def settings() -> dict[str, Any]:
    """In the child: the settings the engine passed (`child_environment`)."""
    return json.loads(os.environ.get("UNOSIM_ISOLATION", "{}"))
