# Native build: the arm64 tests. The test arm64.build (a CTest fixture) runs
# tools/cross-build-arm64.sh into ${PROJECT_BINARY_DIR}/arm64 for the targets
# the tests name; each test then runs its arm64 program under qemu-aarch64
# once per ISA level. Without the cross compiler or qemu there are no such
# tests (tools/install-deps.sh installs both).
#
#   onyx_add_arm64_test(NAME <name> TARGET <target> [ARGS <arg>...] [COMPARE_WITH <native target>])
#
# adds arm64.<name>.scalar and arm64.<name>.neon, running the arm64 build's
# <target> (a target of the cross configure: one that needs no protobuf)
# with ONYX_ISA set to the level; it passes when the program exits 0 and,
# with COMPARE_WITH, when what it prints equals what the native target prints
# with the same ARGS, numbers within a float tolerance (compare_outputs.sh).
# Any directory configured after test/cross/ may call it.
find_program(ONYX_ARM64_CXX aarch64-linux-gnu-g++)
find_program(ONYX_QEMU_AARCH64 qemu-aarch64-static)
if(NOT ONYX_ARM64_CXX OR NOT ONYX_QEMU_AARCH64)
  message(STATUS "no arm64 tests: install g++-aarch64-linux-gnu and qemu-user-static (tools/install-deps.sh)")
endif()

function(onyx_add_arm64_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;TARGET;COMPARE_WITH" "ARGS")
  if(NOT ONYX_ARM64_CXX OR NOT ONYX_QEMU_AARCH64)
    return()
  endif()
  set_property(GLOBAL APPEND PROPERTY ONYX_ARM64_TARGETS ${arg_TARGET})
  set(run ${ONYX_QEMU_AARCH64} -L /usr/aarch64-linux-gnu ${PROJECT_BINARY_DIR}/arm64/bin/${arg_TARGET} ${arg_ARGS})
  if(arg_COMPARE_WITH)
    set(run ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/compare_outputs.sh $<TARGET_FILE:${arg_COMPARE_WITH}> ${arg_ARGS} -- ${run})
  endif()
  foreach(level IN ITEMS scalar neon)
    add_test(NAME arm64.${arg_NAME}.${level} COMMAND ${run})
    set_tests_properties(arm64.${arg_NAME}.${level} PROPERTIES ENVIRONMENT ONYX_ISA=${level}
                                                               FIXTURES_REQUIRED arm64)
  endforeach()
endfunction()

# The build test, added once every directory has named its targets.
function(onyx_add_arm64_build_test)
  get_property(targets GLOBAL PROPERTY ONYX_ARM64_TARGETS)
  if(NOT targets)
    return()
  endif()
  list(REMOVE_DUPLICATES targets)
  add_test(NAME arm64.build COMMAND ${PROJECT_SOURCE_DIR}/tools/cross-build-arm64.sh ${PROJECT_BINARY_DIR}/arm64 ${targets})
  # The cross configure may run host tools of this build (generated sources),
  # and reads the test data from where this build does (a checkout outside
  # /work/main has no ../shared beside it).
  set_tests_properties(arm64.build PROPERTIES FIXTURES_SETUP arm64 TIMEOUT 1800
                       ENVIRONMENT "ONYX_ARM64_CMAKE_ARGS=-DONYX_HOST_BUILD_DIR=${PROJECT_BINARY_DIR} -DONYX_TEST_DATA=${ONYX_TEST_DATA}")
endfunction()
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL onyx_add_arm64_build_test)
