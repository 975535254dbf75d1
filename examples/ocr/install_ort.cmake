# examples/ocr/install_ort.cmake: ONNX Runtime for the ocr.ort test, the
# onnxruntime-node that bench/ort's lock file pins, installed into ORT_DIR with
# `npm ci --ignore-scripts` (the package carries its CPU binaries; its install
# script only fetches GPU ones).
#
#   cmake -DNPM=<npm> -DLOCK_DIR=<bench/ort> -DORT_DIR=<dir> -P install_ort.cmake
#
# Without network it warns and exits 0, so the rest of onyx still builds
# offline; ocr.ort then fails naming what is missing.
cmake_minimum_required(VERSION 3.25)
file(MAKE_DIRECTORY "${ORT_DIR}")
file(COPY "${LOCK_DIR}/package.json" "${LOCK_DIR}/package-lock.json" DESTINATION "${ORT_DIR}")
execute_process(COMMAND "${NPM}" ci --ignore-scripts --no-audit --no-fund --silent WORKING_DIRECTORY "${ORT_DIR}"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(WARNING "onnxruntime-node not installed in ${ORT_DIR} (npm ci: ${rc} ${err}); the ocr.ort test needs it: "
                  "build again with network access to registry.npmjs.org.")
else()
  file(TOUCH "${ORT_DIR}/installed.stamp")
endif()
