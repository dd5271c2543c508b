# Mounts SOURCE at TARGET read-only and idmapped through the user namespace at NS_PATH, so files
# of the host's root show as owned by a sandbox's root (kernel 5.12+: open_tree, mount_setattr,
# move_mount). util-linux 2.39's `mount -o X-mount.idmap` does the same; Debian 12 has 2.38, and
# Node has no way to make these system calls, so the launcher runs this with Debian's python3.
#   python3 idmappedMount.py SOURCE TARGET NS_PATH
import ctypes
import os
import sys

SYS_OPEN_TREE, SYS_MOVE_MOUNT, SYS_MOUNT_SETATTR = 428, 429, 442
OPEN_TREE_CLONE, OPEN_TREE_CLOEXEC = 1, 0o2000000
AT_FDCWD, AT_EMPTY_PATH = -100, 0x1000
MOVE_MOUNT_F_EMPTY_PATH = 0x4
MOUNT_ATTR_RDONLY, MOUNT_ATTR_NOSUID, MOUNT_ATTR_NODEV, MOUNT_ATTR_IDMAP = 0x1, 0x2, 0x4, 0x100000


class MountAttr(ctypes.Structure):
    _fields_ = [
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    ]


def main(source: str, target: str, ns_path: str) -> None:
    libc = ctypes.CDLL(None, use_errno=True)

    def check(result: int, what: str) -> int:
        if result < 0:
            errno = ctypes.get_errno()
            raise OSError(errno, f"{what}: {os.strerror(errno)}")
        return result

    tree = check(libc.syscall(SYS_OPEN_TREE, AT_FDCWD, source.encode(), OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC), "open_tree")
    userns = os.open(ns_path, os.O_RDONLY | os.O_CLOEXEC)
    # Read-only above all: through this mount the host's files look like the sandboxes' root's own.
    attr = MountAttr(MOUNT_ATTR_IDMAP | MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 0, 0, userns)
    check(libc.syscall(SYS_MOUNT_SETATTR, tree, b"", AT_EMPTY_PATH, ctypes.byref(attr), ctypes.sizeof(attr)), "mount_setattr")
    check(libc.syscall(SYS_MOVE_MOUNT, tree, b"", AT_FDCWD, target.encode(), MOVE_MOUNT_F_EMPTY_PATH), "move_mount")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: idmappedMount.py SOURCE TARGET NS_PATH")
    try:
        main(*sys.argv[1:])
    except OSError as err:
        sys.exit(str(err))
