"""One virtual machine: qemu-system-x86_64 booting a disk image straight into its kernel.

Software emulation (TCG) unless a quick probe shows KVM boots here (on these machines a KVM guest
hangs). qemu's user network with ``restrict=on`` (the guest reaches nothing outside) forwards two
host ports on 127.0.0.1: the agent's (the host's hands inside) and the web panel's. A power cut is
SIGKILL to qemu: no shutdown; whatever the guest kernel had not yet written to its virtual disk (its
page cache, writes in flight, the process's memory) is gone. What the guest saw written stays
written: the host's own cache outlives qemu, so this cuts the board's power, not the SD card's
internal cache (``cache=unsafe`` only spares the host the guest's flushes).
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from functools import cache
from pathlib import Path

from .images import Image

AGENT_PORT, WEB_PORT = 7000, 8080
APPEND = "root=/dev/vda rw console=ttyS0 quiet panic=-1 net.ifnames=0 mitigations=off"


class GuestError(RuntimeError):
    """A command in the guest failed, or the guest did not answer."""


def free_ports(n: int) -> list[int]:
    """``n`` distinct free ports: each socket is held until all are chosen, or the kernel may hand one out twice
    (qemu then cannot forward both, and the guest never answers)."""
    sockets = [socket.socket() for _ in range(n)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


@cache
def accelerator(kernel: str) -> str:
    """``kvm`` if a KVM guest boots this kernel to its first panic within seconds, else ``tcg``."""
    if not os.access("/dev/kvm", os.W_OK):
        return "tcg"
    try:
        done = subprocess.run(["qemu-system-x86_64", "-accel", "kvm", "-m", "256", "-nodefaults",
                               "-display", "none", "-no-reboot", "-kernel", kernel, "-append", "console=ttyS0 panic=-1",
                               "-serial", "stdio", "-monitor", "none"], capture_output=True, timeout=8)
    except subprocess.TimeoutExpired:
        return "tcg"
    return "kvm" if b"Kernel panic" in done.stdout else "tcg"


class Vm:
    def __init__(self, image: Image, disk: Path, logs: Path, share: Path | None = None, cpus: int = 1):
        self.image, self.disk, self.logs, self.share, self.cpus = image, disk, logs, share, cpus
        self.process: subprocess.Popen | None = None
        self.boots = 0
        self.started = 0.0
        self.agent_port = self.web_port = 0

    # ---- power ----

    def start(self) -> None:
        assert self.process is None, "already running"
        self.boots += 1
        self.agent_port, self.web_port = free_ports(2)
        accel = accelerator(str(self.image.kernel))
        net = (f"user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:{self.agent_port}-:{AGENT_PORT},"
               f"hostfwd=tcp:127.0.0.1:{self.web_port}-:{WEB_PORT}")
        if accel == "tcg" and self.cpus > 1:
            accel = "tcg,thread=multi"          # a host thread per virtual CPU, not one taking turns
        argv = ["qemu-system-x86_64", "-accel", accel, "-machine", "q35", "-m", "1024", "-smp", str(self.cpus),
                "-nodefaults", "-display", "none", "-no-reboot", "-monitor", "none",
                "-kernel", str(self.image.kernel), "-initrd", str(self.image.initrd), "-append", APPEND,
                "-drive", f"file={self.disk},format=raw,if=virtio,cache=unsafe",
                "-netdev", net, "-device", "virtio-net-pci,netdev=net0", "-device", "virtio-rng-pci",
                "-serial", f"file:{self.logs / f'console-{self.boots}.log'}"]
        if self.share is not None:
            argv += ["-virtfs", f"local,path={self.share},mount_tag=share,security_model=none,readonly=on"]
        self.logs.mkdir(parents=True, exist_ok=True)
        self.started = time.monotonic()
        self.process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=open(self.logs / f"qemu-{self.boots}.log", "w"))

    def wait_agent(self, timeout: float = 300) -> float:
        """Wait for the agent to answer; the seconds since qemu started."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise GuestError(f"qemu exited with status {self.process.returncode} (see {self.logs})")
            try:
                self.sh("true", timeout=5)
                return time.monotonic() - self.started
            except (OSError, GuestError, ValueError):
                time.sleep(0.5)
        raise GuestError(f"the guest's agent did not answer within {timeout:.0f} s (console: {self.logs})")

    def cut(self) -> None:
        """The power cut: qemu is killed, the guest gets no word of it."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.process = None

    def poweroff(self, timeout: float = 120) -> None:
        """A clean shutdown (qemu exits at the guest's power-off); a cut if it takes too long."""
        try:
            self.sh("systemctl poweroff --no-block", timeout=10)
            self.process.wait(timeout)
            self.process = None
        except (OSError, GuestError, subprocess.TimeoutExpired):
            if self.process is not None:
                self.cut()

    def close(self) -> None:
        if self.process is not None:
            self.cut()

    # ---- the agent ----

    def sh(self, command: str, timeout: float = 300, check: bool = True) -> str:
        """Run ``command`` in the guest's shell as root; its output (stdout then stderr)."""
        with socket.create_connection(("127.0.0.1", self.agent_port), timeout=timeout + 10) as s:
            s.sendall(json.dumps({"sh": command, "timeout": timeout}).encode() + b"\n")
            line = s.makefile().readline()
        if not line:
            raise GuestError("the agent hung up")
        answer = json.loads(line)
        out = answer["out"] + answer["err"]
        if check and answer["rc"] != 0:
            raise GuestError(f"`{command}` exited with status {answer['rc']}:\n{out[-3000:]}")
        return out

    def read(self, path: str) -> bytes:
        """A file of the guest's, whole."""
        import base64
        return base64.b64decode(self.sh(f"base64 -w0 {path}", timeout=60))


def fsck(disk: Path) -> tuple[bool, str]:
    """After a cut: replay the ext4 journal, as a mount would, then check everything (``-fn``, no repair).

    Clean means e2fsck found nothing to fix once the journal was replayed; its report otherwise.
    """
    subprocess.run(["e2fsck", "-y", "-E", "journal_only", str(disk)], capture_output=True)
    done = subprocess.run(["e2fsck", "-f", "-n", str(disk)], capture_output=True, text=True)
    return done.returncode == 0, done.stdout + done.stderr
