"""Prints what the kernel cache entries in a directory hold, one line each:
"ptx <bytes> cubin <bytes> <elf|not-elf|none>", from the header that
runtime/cache/DiskEntry.cpp writes (version 3, all fields little-endian)."""
import glob
import struct
import sys

for path in sorted(glob.glob(sys.argv[1] + "/*.mstage")):
    data = open(path, "rb").read()
    magic, version, header = struct.unpack_from("<8sII", data, 0)
    assert magic == b"MSTGCACH" and version == 3 and header == 64, path
    ptx, cubin = struct.unpack_from("<QQ", data, 32)
    body = data[header + ptx:]
    kind = "none" if not cubin else ("elf" if body[:4] == b"\x7fELF" else "not-elf")
    print("ptx", ptx, "cubin", cubin, kind)
