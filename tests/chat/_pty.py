"""Runs `agent chat` in a pseudo-terminal and plays a script of steps.

Usage: python3 _pty.py ROOT HOME STEP...; `AGENT_PTY_ARGS` (default `chat`) are the
words after `agent`. A step is `wait:TEXT` (until TEXT was
printed), `send:KEYS` (with backslash escapes, e.g. `send:\\x03` for Ctrl-C) or
`sleep:SECONDS`.
Prints everything the terminal showed, then `EXIT <code>`.
"""
import os, pty, sys, time, select
root = sys.argv[1]
home = sys.argv[2]
steps = sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    os.environ["AGENT_HOME"] = home
    os.environ["NO_COLOR"] = "1"
    os.chdir(root)
    words = os.environ.get("AGENT_PTY_ARGS", "chat").split()
    os.execvp("deno", ["deno", "run", "--no-prompt", "-A", "cli/main.ts", *words])
# The terminal's size (`AGENT_PTY_COLUMNS`, default 80 columns by 24 rows).
import fcntl, struct, termios
fcntl.ioctl(fd, termios.TIOCSWINSZ,
            struct.pack("HHHH", 24, int(os.environ.get("AGENT_PTY_COLUMNS", "80")), 0, 0))
out = b""
cursor = 0
def read_until(pat, timeout=20):
    """Waits until `pat` appears after the previous match; moves past it."""
    global out, cursor
    end = time.time() + timeout
    needle = pat.encode()
    while True:
        at = out.find(needle, cursor)
        if at >= 0:
            cursor = at + len(needle)
            return True
        if time.time() >= end:
            return False
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                return False
            if not chunk:
                return False
            out += chunk
for step in steps:
    kind, val = step.split(":", 1)
    if kind == "wait":
        ok = read_until(val)
        if not ok:
            print("TIMEOUT waiting for", val)
            os.kill(pid, 9)
            break
    elif kind == "sleep":
        time.sleep(float(val))
    elif kind == "send":
        os.write(fd, val.encode().decode("unicode_escape").encode())
_, status = os.waitpid(pid, 0)
try:
    while True:
        r, _, _ = select.select([fd], [], [], 0.2)
        if not r: break
        c = os.read(fd, 4096)
        if not c: break
        out += c
except OSError: pass
print(out.decode(errors="replace"))
print("EXIT", os.waitstatus_to_exitcode(status))
