# `cpack` (or the `package` target) makes a Debian package of the install
# tree under /usr. Its dependencies are Debian's LLVM/Clang 22 packages:
# mstage++ runs clang++-22 (clang-22, which brings the C++ headers,
# libraries and linker), and the plugin is loaded into it, taking LLVM and
# Clang from libllvm22 and libclang-cpp22 (it links neither itself, so
# dpkg-shlibdeps cannot see them). dpkg-shlibdeps finds the rest (libc6,
# libstdc++6, ...); LLVM is linked statically into the runtime and
# mstage-ptx.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME mstage)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "JIT multi-stage GPU compiler toolchain for standard C++ (Clang/LLVM 22)")
set(CPACK_PACKAGE_CONTACT "mstage developers <mstage@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(_mstage_llvm_min "1:${LLVM_PACKAGE_VERSION}")
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "clang-${LLVM_VERSION_MAJOR} (>= ${_mstage_llvm_min}), libclang-cpp${LLVM_VERSION_MAJOR} (>= ${_mstage_llvm_min}), libllvm${LLVM_VERSION_MAJOR} (>= ${_mstage_llvm_min})")
# Neither is needed: the NVIDIA driver's libcuda is loaded when there is a
# GPU (without one, programs run on the CPU back end), and the toolkit's
# ptxas lets the disk cache keep cubins.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libcuda1, nvidia-cuda-toolkit")
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/package)
include(CPack)
