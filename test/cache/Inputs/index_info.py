"""Prints a kernel cache directory's index (runtime/cache/DiskCache.cpp,
.mstage-index: three little-endian 64-bit fields), for the cache tests:
"bytes <size of the directory> scans <directory scans so far>"."""
import os
import struct
import sys

data = open(os.path.join(sys.argv[1], ".mstage-index"), "rb").read()
total, last_scan, scans = struct.unpack_from("<QQQ", data, 0)
print("bytes", total, "scans", scans)
