# mstage_add_program(NAME SOURCE OUTPUT_DIR [TARGET target] [FLAGS flag...])
#
# Builds the single-source mstage program SOURCE with the mstage++ driver of
# this build, at -O2, into OUTPUT_DIR/NAME. The program is built by default
# (the target is part of ALL) and again whenever the source, a header under
# include/, the driver, the plugin or the runtime changes.
#
#   NAME        the program's file name
#   SOURCE      its one .cpp; relative paths are taken from the current
#               source directory
#   OUTPUT_DIR  where the program goes, e.g. ${CMAKE_BINARY_DIR}/test/gpu
#   TARGET      the custom target's name; by default OUTPUT_DIR relative to
#               the build directory and NAME, joined by '_' (for example
#               test_gpu_saxpy), so that two folders may hold the same NAME
#   FLAGS       further mstage++ flags
#   SOURCES     further .cpp files of the program, each compiled as its own
#               translation unit
#
# The targets mstage++, mstage_plugin and mstage_rt must exist (in this build,
# or imported).

# The headers are those next to this file, wherever it is included from.
get_filename_component(MSTAGE_PROGRAM_INCLUDE_DIR
  "${CMAKE_CURRENT_LIST_DIR}/../include" ABSOLUTE)

function(mstage_add_program NAME SOURCE OUTPUT_DIR)
  cmake_parse_arguments(PARSE_ARGV 3 ARG "" "TARGET" "FLAGS;SOURCES")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "mstage_add_program(${NAME}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()

  get_filename_component(source "${SOURCE}" ABSOLUTE
    BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  set(sources "${source}")
  foreach(extra IN LISTS ARG_SOURCES)
    get_filename_component(extra "${extra}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND sources "${extra}")
  endforeach()
  set(output "${OUTPUT_DIR}/${NAME}")

  if(ARG_TARGET)
    set(target "${ARG_TARGET}")
  else()
    file(RELATIVE_PATH rel "${CMAKE_BINARY_DIR}" "${OUTPUT_DIR}")
    string(REGEX REPLACE "[^A-Za-z0-9_.+-]" "_" rel "${rel}")
    string(REGEX REPLACE "^_+" "" rel "${rel}")
    if(rel STREQUAL "")
      set(target "${NAME}")
    else()
      set(target "${rel}_${NAME}")
    endif()
  endif()

  # The mstage headers and the headers next to the source.
  get_filename_component(source_dir "${source}" DIRECTORY)
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS
    "${MSTAGE_PROGRAM_INCLUDE_DIR}/*.h"
    "${MSTAGE_PROGRAM_INCLUDE_DIR}/*.hpp")
  file(GLOB local_headers CONFIGURE_DEPENDS
    "${source_dir}/*.h" "${source_dir}/*.hpp")
  list(APPEND headers ${local_headers})

  add_custom_command(
    OUTPUT "${output}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${OUTPUT_DIR}"
    COMMAND "$<TARGET_FILE:mstage++>" -O2 ${ARG_FLAGS}
            -o "${output}" ${sources}
    DEPENDS ${sources} ${headers} mstage++ mstage_plugin mstage_rt
    COMMENT "mstage++ -O2 ${SOURCE} -o ${NAME}"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS "${output}")
  set_target_properties(${target} PROPERTIES
    MSTAGE_PROGRAM "${output}")
endfunction()
