"""Debian root filesystems made from Debian's own packages, cached by what they are made of.

Three kinds, the first two for bookworm and trixie (the bases of Raspberry Pi OS):

- the **VM image**: a minimal system with Debian's kernel and systemd, python3, python3-venv and
  make, as an ext4 disk image with the kernel and initrd beside it for a direct kernel boot;
- the **suite root** (trixie only): python3, make, chromium and systemd, to run the project's whole
  test suite natively under the release's Python in a chroot;
- the **arm64 root** (trixie): python3, python3-venv, a shell and coreutils for the Pi's architecture,
  whose programs run under qemu's user-mode emulation (``arm64.py``). Its packages are unpacked, not
  configured: each maintainer script would run under emulation too, and that alone took longer than
  the whole arm64 part may (docs/pi.md, section 10). What configuring would add and the test needs is
  written in (base-passwd's users and groups, ca-certificates' bundle, which Debian's pip reads);
  whether Debian has python3-lgpio for arm64 is read from apt's package list while it is there.

``mmdebstrap`` makes the tree; the few test-only changes (an address on qemu's user network, the
agent, units masked that only cost boot time under emulation, an initrd without udev) come from
``guest/``. A build lands in ``CACHE/<kind>-<release>-<key>/``, where the key is a hash of the
package list, the changes and the files of ``guest/``: change any of them and the next run builds
afresh; otherwise it boots what is there.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

GUEST = Path(__file__).parent / "guest"
MIRROR = os.environ.get("MOLEBOX_SYSTEM_MIRROR", "http://deb.debian.org/debian")
CACHE = Path(os.environ.get("MOLEBOX_SYSTEM_CACHE", "/var/tmp/molebox-system"))
PYTHONS = {"bookworm": "3.11", "trixie": "3.13"}

ROOT = Path(__file__).resolve().parents[2]


def _install_sh_packages() -> tuple[str, ...]:
    """What systemd/install.sh asks apt for: the VM has no mirror, so its image carries them."""
    for line in (ROOT / "systemd/install.sh").read_text().splitlines():
        if line.startswith("APT_PACKAGES="):
            return tuple(line.partition("=")[2].strip('"').split())
    raise LookupError("systemd/install.sh sets no APT_PACKAGES")


def _ci_packages() -> tuple[str, ...]:
    """What the test suite needs from Debian, as CI installs it (.ci/apt-packages)."""
    lines = (ROOT / ".ci/apt-packages").read_text().splitlines()
    return tuple(line.strip() for line in lines if line.strip() and not line.startswith("#"))


VM_PACKAGES = ("linux-image-amd64", "systemd-sysv", "udev", "kmod", "initramfs-tools", "iproute2",
               "python3", "make", *_install_sh_packages(),
               "dmsetup", "e2fsprogs")      # the bench's slow card: a device-mapper delay target (companion/bench/disk.py)
SUITE_PACKAGES = ("python3", "python3-venv", "git", *_ci_packages())
ARM64_PACKAGES = ("python3", "python3-venv", "dash", "coreutils", "base-passwd")
MERGED_USR = "/usr/share/mmdebstrap/hooks/merged-usr"      # mmdebstrap's own: /bin, /lib, /sbin into /usr
ARM64_RECIPE = 2        # raise it when arm64_root's build changes what it writes: the cached root is rebuilt
# Started at every boot, needed by nothing here; each costs seconds under emulation.
MASKED = ("getty.target", "getty-static.service", "serial-getty@ttyS0.service", "systemd-remount-fs.service",
          "dev-hugepages.mount", "dev-mqueue.mount", "sys-kernel-debug.mount", "sys-kernel-tracing.mount",
          "sys-fs-fuse-connections.mount", "kmod-static-nodes.service", "systemd-binfmt.service",
          "systemd-pstore.service", "e2scrub_reap.service", "systemd-update-utmp.service",
          "systemd-update-utmp-runlevel.service", "modprobe@configfs.service", "modprobe@dm_mod.service",
          "modprobe@fuse.service", "modprobe@loop.service", "apt-daily.timer", "apt-daily-upgrade.timer",
          "dpkg-db-backup.timer", "fstrim.timer", "e2scrub_all.timer", "systemd-networkd-wait-online.service",
          "systemd-networkd.service", "systemd-networkd.socket", "systemd-network-generator.service",
          "tmp.mount", "run-lock.mount", "modprobe@drm.service", "modprobe@efi_pstore.service",
          "systemd-udev-load-credentials.service", "ldconfig.service", "systemd-journal-catalog-update.service",
          "systemd-update-done.service", "systemd-hwdb-update.service", "systemd-firstboot.service")
INITRD_MODULES = ("virtio_pci", "virtio_blk", "ext4")
DISK_SIZE = "3G"
RECIPE = 1              # raise it when _configure_vm changes what it does: the cached images are rebuilt


@dataclass(frozen=True)
class Image:
    """A built VM image: the disk, and the kernel and initrd to boot it with."""

    release: str
    path: Path

    @property
    def disk(self) -> Path:
        return self.path / "root.img"

    @property
    def kernel(self) -> Path:
        return self.path / "vmlinuz"

    @property
    def initrd(self) -> Path:
        return self.path / "initrd.img"

    @property
    def facts(self) -> dict:
        return json.loads((self.path / "facts.json").read_text())


def _key(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:12]


def _guest_files() -> dict[str, str]:
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in sorted(GUEST.iterdir())}


def _run(*argv: str, log: Path) -> None:
    with log.open("a") as out:
        out.write(f"$ {' '.join(argv)}\n")
        out.flush()
        done = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT)
    if done.returncode:
        raise RuntimeError(f"{argv[0]} failed with status {done.returncode}: see {log}")


def _cached(kind: str, release: str, key: str, build) -> Path:
    """The cached build ``kind-release-key``, made by ``build(tmp_dir, log)`` when missing."""
    CACHE.mkdir(parents=True, exist_ok=True)
    final = CACHE / f"{kind}-{release}-{key}"
    if (final / "facts.json").exists():
        return final
    tmp = CACHE / f".{final.name}.{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    log = CACHE / f"{final.name}.log"
    log.write_text("")
    started = time.monotonic()
    try:
        facts = build(tmp, log)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    facts["build_s"] = round(time.monotonic() - started, 1)
    (tmp / "facts.json").write_text(json.dumps(facts, indent=1) + "\n")
    shutil.rmtree(final, ignore_errors=True)
    tmp.rename(final)
    for old in CACHE.glob(f"{kind}-{release}-*"):          # earlier keys: their packages or changes are gone
        if old != final and old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
    return final


def _mmdebstrap(release: str, packages: tuple[str, ...], tree: Path, log: Path, *options: str) -> None:
    _run("mmdebstrap", "--variant=apt", "--mode=root", f"--include={','.join(packages)}", *options,
         release, str(tree), MIRROR, log=log)


def _chroot(tree: Path, *argv: str, log: Path) -> None:
    _run("chroot", str(tree), *argv, log=log)


def _configure_vm(tree: Path, log: Path) -> None:
    """The test-only changes: agent, address, masked units, no root fsck at boot, a small initrd."""
    (tree / "etc/hostname").write_text("molebox\n")
    (tree / "etc/fstab").write_text("# the root is mounted read-write by the kernel (root=/dev/vda rw)\n")
    lib = tree / "usr/local/lib/molebox-test"
    lib.mkdir(parents=True, exist_ok=True)
    shutil.copy(GUEST / "agent.py", lib / "agent.py")
    for unit in ("molebox-test-agent.service", "molebox-test-net.service"):
        shutil.copy(GUEST / unit, tree / "etc/systemd/system" / unit)
    initramfs = tree / "etc/initramfs-tools"
    (initramfs / "conf.d/molebox-test").write_text("MODULES=list\nCOMPRESS=gzip\n")
    with (initramfs / "modules").open("a") as modules:
        modules.write("".join(f"{m}\n" for m in INITRD_MODULES))
    hook = initramfs / "hooks/molebox-test-no-udev"
    shutil.copy(GUEST / "initramfs-no-udev", hook)
    hook.chmod(0o755)
    _chroot(tree, "systemctl", "enable", "molebox-test-agent.service", "molebox-test-net.service", log=log)
    _chroot(tree, "systemctl", "mask", *MASKED, log=log)
    _chroot(tree, "update-initramfs", "-u", "-k", "all", log=log)


def vm_image(release: str) -> Image:
    """The VM image for ``release``, built now if the cache has none for today's package list."""

    def build(out: Path, log: Path) -> dict:
        tree = out / "tree"
        _mmdebstrap(release, VM_PACKAGES, tree, log)
        _configure_vm(tree, log)
        shutil.copy(max((tree / "boot").glob("vmlinuz-*")), out / "vmlinuz")
        shutil.copy(max((tree / "boot").glob("initrd.img-*")), out / "initrd.img")
        kernel = max((tree / "boot").glob("vmlinuz-*")).name.removeprefix("vmlinuz-")
        python = max(p.name for p in (tree / "usr/bin").glob("python3.*") if p.name[8:].isdigit())
        _run("mke2fs", "-q", "-t", "ext4", "-L", "root", "-d", str(tree), str(out / "root.img"), DISK_SIZE, log=log)
        shutil.rmtree(tree)
        return {"release": release, "kernel": kernel, "python": python, "packages": list(VM_PACKAGES)}

    return Image(release, _cached("vm", release, _key(release, VM_PACKAGES, MASKED, INITRD_MODULES, RECIPE, _guest_files()), build))


def suite_root(release: str) -> Path:
    """A chroot of ``release`` that runs the project's test suite: its tree, built now if missing."""

    def build(out: Path, log: Path) -> dict:
        _mmdebstrap(release, SUITE_PACKAGES, out / "tree", log)
        python = max(p.name for p in (out / "tree/usr/bin").glob("python3.*") if p.name[8:].isdigit())
        return {"release": release, "python": python, "packages": list(SUITE_PACKAGES)}

    return _cached("suite", release, _key(release, SUITE_PACKAGES), build) / "tree"


def arm64_root(release: str) -> Path:
    """A root of ``release`` for arm64 (its programs run through binfmt_misc and qemu): its tree, built now if
    missing."""

    def build(out: Path, log: Path) -> dict:
        tree = out / "tree"
        _run("mmdebstrap", "--variant=extract", "--mode=root", "--architectures=arm64",
             f"--include={','.join(ARM64_PACKAGES)}", f"--hook-dir={MERGED_USR}", "--skip=cleanup/apt/lists",
             release, str(tree), MIRROR, log=log)
        for name in ("passwd", "group"):        # what base-passwd's postinst would write
            shutil.copy(tree / f"usr/share/base-passwd/{name}.master", tree / f"etc/{name}")
        # ...and ca-certificates' (update-ca-certificates): the bundle Debian's pip reads, even offline
        certs = sorted((tree / "usr/share/ca-certificates").rglob("*.crt"))
        (tree / "etc/ssl/certs/ca-certificates.crt").write_bytes(b"".join(path.read_bytes() for path in certs))
        lists = tree / "var/lib/apt/lists"
        lgpio = any(b"\nPackage: python3-lgpio\n" in path.read_bytes() for path in lists.glob("*_Packages"))
        shutil.rmtree(lists)
        lists.mkdir()
        python = max(p.name for p in (tree / "usr/bin").glob("python3.*") if p.name[8:].isdigit())
        return {"release": release, "arch": "arm64", "python": python, "packages": list(ARM64_PACKAGES),
                "python3-lgpio": lgpio}

    return _cached("arm64", release, _key(release, "arm64", ARM64_PACKAGES, ARM64_RECIPE), build) / "tree"
