# SPDX-License-Identifier: GPL-2.0-only
# Installs the build into a scratch prefix, then configures, builds and runs a program
# outside the project against it with find_package(ddnn).
# Usage: cmake -DBUILD_DIR=.. -DWORK_DIR=.. -DCONSUMER_DIR=.. -P check-install.cmake
cmake_minimum_required(VERSION 3.18)
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " shown "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${shown}\n${out}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(installed include/ns3/ddnn-module.h include/ns3/dnn-model.h
                  share/ddnn/data/thesis-default-profile.csv)
  if(NOT EXISTS ${prefix}/${installed})
    message(FATAL_ERROR "not installed: ${installed}")
  endif()
endforeach()
run(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_BUILD_TYPE=Release
)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run(${CMAKE_COMMAND} -E env DDNN_DATA_DIR=${prefix}/share/ddnn/data ${WORK_DIR}/consumer/ddnn-consumer)
message(STATUS "${last_output}")
