# What `cmake --install` puts under the prefix, and the CMake package
# (find_package(mstage)) that describes it:
#
#   bin/mstage++, bin/mstage-ptx
#   lib/libmstage_rt.so, lib/mstage/MStagePlugin.so
#   include/mstage.hpp, include/mstage/
#   lib/cmake/mstage/  mstageConfig.cmake and its version file, the targets
#                      mstage::runtime, mstage::mstage++, mstage::mstage-ptx,
#                      and mstage_add_executable()
#
# The layout is the build tree's (bin/, lib/, lib/mstage/, include/), which is
# what mstage++ looks for next to itself; so the directories are fixed rather
# than GNUInstallDirs' (a multiarch lib/x86_64-linux-gnu would differ).
include(CMakePackageConfigHelpers)

set(MSTAGE_INSTALL_CMAKEDIR lib/cmake/mstage)

# The runtime is mstage::runtime; a program that links it (rather than
# letting mstage++ link) gets the headers and threads with it.
set_target_properties(mstage_rt PROPERTIES EXPORT_NAME runtime)
target_include_directories(mstage_rt INTERFACE $<INSTALL_INTERFACE:include>)
target_link_libraries(mstage_rt INTERFACE $<INSTALL_INTERFACE:Threads::Threads>)

install(TARGETS mstage++ mstage-ptx mstage_rt EXPORT mstageTargets
  RUNTIME DESTINATION bin
  LIBRARY DESTINATION lib)
install(TARGETS mstage_plugin LIBRARY DESTINATION lib/mstage)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION include)

install(EXPORT mstageTargets NAMESPACE mstage::
  DESTINATION ${MSTAGE_INSTALL_CMAKEDIR})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/mstageConfig.cmake.in
  ${PROJECT_BINARY_DIR}/mstageConfig.cmake
  INSTALL_DESTINATION ${MSTAGE_INSTALL_CMAKEDIR})
# 0.x: a minor version may change the API, so 0.1 accepts only 0.1.*.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/mstageConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/mstageConfig.cmake
  ${PROJECT_BINARY_DIR}/mstageConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/MStageAddExecutable.cmake
  ${CMAKE_CURRENT_LIST_DIR}/mstage-launch.sh
  DESTINATION ${MSTAGE_INSTALL_CMAKEDIR})
