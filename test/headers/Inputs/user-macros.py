# Writes a header that defines, as a user's program might, every one- and
# two-letter uppercase macro (A, N, T, AB, T1, ...) and some short mixed-case
# ones (Op, Fn, ...), then includes every public header of mstage.
#   user-macros.py VALUE INCLUDE_DIR > header.h
# VALUE is the macros' replacement: "1" breaks a name used as a type or a
# declaration, "" one used as a value or a declarator.
import os
import string
import sys

value, include_dir = sys.argv[1], sys.argv[2]
upper = string.ascii_uppercase
names = list(upper)
names += [a + b for a in upper for b in upper + string.digits]
names += ["Op", "Fn", "In", "Out", "It", "At", "Ts", "Fp", "Tp"]
for name in names:
    print("#define %s %s" % (name, value))
headers = []
for root, _, files in os.walk(include_dir):
    for f in files:
        if f.endswith((".h", ".hpp")):
            headers.append(os.path.relpath(os.path.join(root, f), include_dir))
for h in sorted(headers):
    print("#include <%s>" % h)
print("// %d macros, %d headers" % (len(names), len(headers)))
