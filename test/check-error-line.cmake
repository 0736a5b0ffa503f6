# SPDX-License-Identifier: GPL-2.0-only
# Runs the command given after "--" and passes when it exits non-zero (not by a signal)
# with exactly one line on stderr matching EXPECTED: bad input gets one clear line.
# Usage: cmake -DEXPECTED=<regex> -P check-error-line.cmake -- <command> [args...]
cmake_minimum_required(VERSION 3.18)
set(command)
set(after_separator FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(after_separator)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(after_separator TRUE)
  endif()
endforeach()
execute_process(
  COMMAND ${command}
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
)
string(STRIP "${err}" err)
if(NOT rc MATCHES "^[0-9]+$")
  message(FATAL_ERROR "crashed (${rc}) instead of exiting with an error; stderr:\n${err}")
endif()
if(rc EQUAL 0)
  message(FATAL_ERROR "exited 0 on bad input; stdout:\n${out}")
endif()
if(err MATCHES "\n")
  message(FATAL_ERROR "expected one line on stderr, got:\n${err}")
endif()
if(NOT err MATCHES "${EXPECTED}")
  message(FATAL_ERROR "stderr does not match '${EXPECTED}':\n${err}")
endif()
message(STATUS "exit ${rc}: ${err}")
