# lit configuration for the mstage tests.
#
# Tests that need a GPU declare `REQUIRES: gpu`; on a machine without one lit
# reports them as UNSUPPORTED, which is how CI skips them. Tests that describe
# the behaviour without a GPU declare `UNSUPPORTED: gpu`.
import os
import shutil
import subprocess
import sys

import lit.formats

config.name = "mstage"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".test"]
config.excludes = ["Inputs", "gpu", "gpu-tools", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mstage_obj_root, "test")

bin_dir = os.path.join(config.mstage_obj_root, "bin")
cmake = shutil.which("cmake") or "cmake"
# `lit --param MSTAGE_INSTALL_PREFIX=P` tests an installed mstage: %mstagexx
# and %mstage_ptx are P's, and %mstage_install DIR copies P to DIR (the
# test/install tests) instead of installing this build there.
install_prefix = lit_config.params.get("MSTAGE_INSTALL_PREFIX")
if install_prefix:
    install_prefix = os.path.abspath(install_prefix)
    bin_dir = os.path.join(install_prefix, "bin")
    if not os.path.exists(os.path.join(bin_dir, "mstage++")):
        lit_config.fatal(
            "MSTAGE_INSTALL_PREFIX=%s has no bin/mstage++" % install_prefix)
    lit_config.note("testing the mstage installed in " + install_prefix)
    config.substitutions.append(("%mstage_install", "cp -a " + install_prefix))
else:
    config.substitutions.append(
        ("%mstage_install",
         "%s --install %s --prefix" % (cmake, config.mstage_obj_root)))
config.substitutions.append(("%mstagexx", os.path.join(bin_dir, "mstage++")))
config.substitutions.append(("%mstage_ptx", os.path.join(bin_dir, "mstage-ptx")))
# test/passes/transforms: one pass on an IR file, run by LLVM's opt with the
# passes' plugin (the Clang plugin cannot be loaded by opt).
config.substitutions.append(("%opt", os.path.join(config.llvm_tools_dir, "opt")))
config.substitutions.append(
    ("%mstage_passes", os.path.join(config.mstage_obj_root, "lib", "MStagePasses.so")))
config.substitutions.append(("%src_root", config.mstage_src_root))
config.substitutions.append(("%obj_root", config.mstage_obj_root))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%cmake", cmake))
# Removes cache folders once the ptxas runs a process handed over at exit have
# ended (they write into the folder after the process is gone).
config.substitutions.append(
    ("%rm_cache", "%s %s" % (sys.executable,
                             os.path.join(config.mstage_src_root, "test",
                                          "Inputs", "remove_cache.py"))))
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "")])
# lit starts tests from a clean environment, so no MSTAGE_* setting of the
# caller leaks in; tests set what they need. The kernel cache of the tests is
# their own, not the user's (~/.cache/mstage).
config.environment["MSTAGE_CACHE_DIR"] = os.path.join(
    config.test_exec_root, "mstage-cache")
# The tests outside test/jit/async check what the JIT compiles, dumps and
# caches at each launch: they wait for it (MSTAGE_JIT=sync). test/jit/async
# runs with the default, async.
config.environment["MSTAGE_JIT"] = "sync"

# A compiler other than mstage++'s clang, as a user's project may have.
if shutil.which("g++"):
    config.available_features.add("gxx")

# mstage built with assertions (-DMSTAGE_ENABLE_ASSERTIONS=ON): its asserts
# hold, its passes' STATISTICs count (llvm-stats where opt prints them) and
# LLVM_DEBUG prints (llvm-debug where opt has -debug-only, that is, an LLVM
# built with assertions).
assertions = getattr(config, "mstage_assertions", "")
if assertions.upper() in ("ON", "1", "TRUE", "YES", "Y"):
    config.available_features.add("asserts")
    opt = os.path.join(config.llvm_tools_dir, "opt")
    probe_ir = "define i32 @f(i32 %x) {\n  %a = add i32 %x, 0\n  ret i32 %a\n}\n"
    try:
        stats = subprocess.run(
            [opt, "-stats", "-passes=instcombine", "-disable-output"],
            input=probe_ir, capture_output=True, text=True, timeout=60)
        if "instcombine" in stats.stderr:
            config.available_features.add("llvm-stats")
        debug = subprocess.run(
            [opt, "-debug-only=instcombine", "-passes=verify", "-disable-output"],
            input=probe_ir, capture_output=True, text=True, timeout=60)
        if debug.returncode == 0:
            config.available_features.add("llvm-debug")
    except (OSError, subprocess.SubprocessError):
        pass

# The runtime was built with NVTX's headers: its ranges reach a tool
# (test/inspect/nvtx-ranges.cpp injects one of its own).
if getattr(config, "mstage_have_nvtx", "").upper() in ("ON", "1", "TRUE"):
    config.available_features.add("nvtx")

if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))


def has_gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
        return out.returncode == 0 and "GPU" in out.stdout
    except (OSError, subprocess.SubprocessError):
        return False


if has_gpu():
    config.available_features.add("gpu")
else:
    lit_config.note("no GPU on this machine: tests that need one are UNSUPPORTED")
