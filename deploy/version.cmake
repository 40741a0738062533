# Writes proto/version.inc in the build tree: the project's version, and the git revision when
# the source is a git checkout. Run at every build (cmake -P), so that the revision follows
# commits without reconfiguring; the file changes only when the text does.
# In: VERSION, SOURCE_DIR, OUTPUT.
cmake_minimum_required(VERSION 3.25)
set(text "${VERSION}")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --short=7 HEAD
                  WORKING_DIRECTORY "${SOURCE_DIR}" OUTPUT_VARIABLE revision
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE status)
  if(status EQUAL 0 AND revision)
    set(text "${VERSION} (git ${revision})")
  endif()
endif()
file(WRITE "${OUTPUT}.tmp" "inline constexpr const char* kVersionText = \"${text}\";\n")
execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
file(REMOVE "${OUTPUT}.tmp")
