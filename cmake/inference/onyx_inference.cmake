# onyx_add_inference_executable: a program that runs one model, holding only
# the kernels that model's optimized graph runs and linking no protobuf.
#
#   onyx_add_inference_executable(NAME MODEL path.onnx [EMBED]
#                                 [BACKENDS cpu] [THREADS serial|pool])
#
# At build time onyx-ops optimizes the model and writes NAME_onyx/<model>.onyx
# (onyx's compact form) and NAME_onyx/ops.hpp (the op list, typed by the
# signatures the model runs, and its fit check). The program is
# cmake/inference/inference_main.cpp over that list: onyx-run's command line,
# reading the .onyx file beside it, or with EMBED the model inside the
# program, so one file ships. THREADS serial builds no thread pool.
#
# onyx-ops runs on the build machine: ONYX_OPS_COMMAND when set (a target or
# a path: a cross build names the host's), else the onyx-ops target of the
# source tree, else the installed package's onyx::onyx-ops.
set_property(GLOBAL PROPERTY ONYX_INFERENCE_DIR ${CMAKE_CURRENT_LIST_DIR})

function(onyx_add_inference_executable name)
  get_property(inference_dir GLOBAL PROPERTY ONYX_INFERENCE_DIR)
  if(NOT ONYX_OPS_COMMAND)
    if(TARGET onyx-ops)
      set(ONYX_OPS_COMMAND onyx-ops)
    elseif(TARGET onyx::onyx-ops)
      set(ONYX_OPS_COMMAND onyx::onyx-ops)
    else()
      message(FATAL_ERROR "onyx_add_inference_executable(${name}): no onyx-ops; set ONYX_OPS_COMMAND")
    endif()
  endif()
  cmake_parse_arguments(arg "EMBED" "MODEL;THREADS" "BACKENDS" ${ARGN})
  if(NOT arg_MODEL)
    message(FATAL_ERROR "onyx_add_inference_executable(${name}): MODEL is required")
  endif()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "onyx_add_inference_executable(${name}): unexpected arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  # Each keyword: its default, and the values this build can make.
  foreach(choice IN ITEMS "BACKENDS;cpu;cpu" "THREADS;pool;serial|pool")
    list(GET choice 0 key)
    list(GET choice 1 default)
    list(GET choice 2 allowed)
    if(NOT arg_${key})
      set(arg_${key} ${default})
    endif()
    if(NOT arg_${key} MATCHES "^(${allowed})$")
      message(FATAL_ERROR "onyx_add_inference_executable(${name}): ${key} ${arg_${key}}: expected ${allowed}")
    endif()
  endforeach()
  get_filename_component(model ${arg_MODEL} ABSOLUTE)
  get_filename_component(stem ${model} NAME_WE)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${name}_onyx)
  set(compact ${dir}/${stem}.onyx)
  set(ops_depends ${model})
  if(TARGET ${ONYX_OPS_COMMAND})
    list(APPEND ops_depends ${ONYX_OPS_COMMAND})
  endif()
  add_custom_command(
    OUTPUT ${dir}/ops.hpp ${compact}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${ONYX_OPS_COMMAND} ${model} --out-dir ${dir} --header ${dir}/ops.hpp --namespace onyx_model
    DEPENDS ${ops_depends}
    COMMENT "onyx-ops: ${stem} -> ${name}'s op list and compact model"
    VERBATIM)
  set(sources ${inference_dir}/inference_main.cpp ${dir}/ops.hpp)
  if(arg_EMBED)
    set(ONYX_EMBED_FILE ${compact})
    configure_file(${inference_dir}/embed_model.cpp.in ${dir}/embed_model.cpp @ONLY)
    set_source_files_properties(${dir}/embed_model.cpp PROPERTIES OBJECT_DEPENDS ${compact})
    list(APPEND sources ${dir}/embed_model.cpp)
  endif()
  add_executable(${name} ${sources})
  target_link_libraries(${name} PRIVATE onyx::headers)
  # What the program leaves out (runtime/session.hpp): ONYX_NO_OPTIMIZER, the
  # passes and normalization (it runs optimized models only); ONYX_NO_PROFILE,
  # the profiler (--profile, ONYX_PROFILE); ONYX_HOST_ONLY, copies between
  # devices (its backends all run on the host). The op list itself defines
  # ONYX_NO_SUBGRAPHS when the model holds no subgraph.
  target_compile_definitions(${name} PRIVATE ONYX_OPS_HEADER="${dir}/ops.hpp" ONYX_MODEL_PATH="${compact}"
                                             ONYX_NO_OPTIMIZER ONYX_NO_PROFILE ONYX_HOST_ONLY)
  if(arg_EMBED)
    target_compile_definitions(${name} PRIVATE ONYX_EMBEDDED_MODEL)
  endif()
  if(arg_THREADS STREQUAL "serial")
    target_compile_definitions(${name} PRIVATE ONYX_THREADS_SERIAL)
  endif()
  set_target_properties(${name} PROPERTIES ONYX_COMPACT_MODEL ${compact})
endfunction()
