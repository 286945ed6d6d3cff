"""Damages or replaces the one kernel cache entry in a directory, for the
cache tests:
  entry_tool.py fifo DIR            the entry becomes a FIFO
  entry_tool.py symlink DIR TARGET  the entry becomes a link to TARGET
  entry_tool.py append DIR N        N bytes are appended to the entry
  entry_tool.py swap SRC DST        DST's entry gets SRC's body and sizes
                                    under DST's key (a re-keyed header)
The header is the one runtime/cache/DiskEntry.cpp writes (the key at 16..32)."""
import glob
import os
import sys


def entry(d):
    found = glob.glob(os.path.join(d, "*.mstage"))
    assert len(found) == 1, found
    return found[0]


cmd = sys.argv[1]
path = entry(sys.argv[2])
if cmd == "fifo":
    os.remove(path)
    os.mkfifo(path)
elif cmd == "symlink":
    os.remove(path)
    os.symlink(sys.argv[3], path)
elif cmd == "append":
    with open(path, "ab") as f:
        f.write(b"\0" * int(sys.argv[3]))
elif cmd == "swap":
    dst = entry(sys.argv[3])
    src = bytearray(open(path, "rb").read())
    src[16:32] = open(dst, "rb").read()[16:32]
    open(dst, "wb").write(src)
else:
    sys.exit("unknown command " + cmd)
