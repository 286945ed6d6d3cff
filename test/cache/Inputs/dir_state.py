"""Prints a directory's state, for the tests that check that nothing was
written to a kernel cache: its own modification time (which any file
created or removed in it changes), then each file, hidden ones included,
with its size, modification time and a hash of its bytes."""
import hashlib
import os
import sys

d = sys.argv[1]
print(". mtime", os.stat(d).st_mtime_ns)
for name in sorted(os.listdir(d)):
    st = os.lstat(os.path.join(d, name))
    data = open(os.path.join(d, name), "rb").read()
    print(name, "size", st.st_size, "mtime", st.st_mtime_ns,
          hashlib.sha256(data).hexdigest())
