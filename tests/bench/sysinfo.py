"""What the benchmarks print about the machine they ran on, and per-process CPU time."""

from __future__ import annotations

import os
import platform


def machine(extra: str = "") -> str:
    """CPU model, cores, Python (and ``extra``, e.g. library versions), OS."""
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    parts = [cpu, f"{os.cpu_count()} cores", f"{platform.python_implementation()} {platform.python_version()}"]
    return ", ".join([*parts, *([extra] if extra else []), f"{platform.system()} {platform.machine()}"])


def cpu_seconds(pid: int, thread: int | None = None) -> float:
    """User + system CPU seconds of a process (all its threads), or of one of its threads (its main
    thread's id is ``pid``), from /proc; 0 where unavailable."""
    try:
        with open(f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0
