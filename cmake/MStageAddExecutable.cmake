# mstage_add_executable(NAME SOURCES...)
#
# An executable target whose C++ sources are compiled by mstage++ (kernels,
# stage()), while the project's CMAKE_CXX_COMPILER compiles everything else
# and links; the target links mstage::runtime, with the runtime's directory
# in its RUNPATH, also when installed. It is an ordinary target:
# target_link_libraries, target_compile_definitions and the like apply, and
# its compile flags are the project's, so they must be flags clang accepts
# (as GCC's and Clang's are).
#
# mstage++ runs as the target's compiler launcher: CMake's command line for
# the project's compiler goes to mstage-launch.sh, which runs mstage++ with
# it instead.

function(mstage_add_executable name)
  if(NOT ARGN)
    message(FATAL_ERROR "mstage_add_executable(${name}): no sources")
  endif()
  get_target_property(mstagexx mstage::mstage++ LOCATION)
  set(launcher "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/mstage-launch.sh")
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE mstage::runtime)
  set_target_properties(${name} PROPERTIES
    CXX_COMPILER_LAUNCHER "/bin/sh;${launcher};${mstagexx}"
    # C++20 module scanning would pass the project's compiler's own flags.
    CXX_SCAN_FOR_MODULES OFF
    INSTALL_RPATH_USE_LINK_PATH ON)
endfunction()
