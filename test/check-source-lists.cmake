# SPDX-License-Identifier: GPL-2.0-only
# Fails when CMakeLists.txt and the waf files (wscript, examples/wscript) list different
# sources, headers, test suites or examples, or when a file in model/, helper/ or examples/runner/ is in
# neither. Usage: cmake -DSOURCE_DIR=<module dir> -P check-source-lists.cmake
cmake_minimum_required(VERSION 3.18)
set(file_pattern "(model|helper|test|examples/runner)/[A-Za-z0-9_.-]+")

function(files_named_in path out)
  file(READ ${path} text)
  string(REGEX MATCHALL "${file_pattern}" found "${text}")
  list(FILTER found INCLUDE REGEX "\\.(c|cc|h)$")
  list(REMOVE_DUPLICATES found)
  list(SORT found)
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

function(report_difference what left left_name right right_name)
  foreach(item ${left})
    if(NOT item IN_LIST right)
      set(problems "${problems}${what} ${item} is in ${left_name} but not in ${right_name}\n")
    endif()
  endforeach()
  set(problems "${problems}" PARENT_SCOPE)
endfunction()

set(problems "")
files_named_in(${SOURCE_DIR}/CMakeLists.txt cmake_files)
files_named_in(${SOURCE_DIR}/wscript waf_files)
report_difference("file" "${cmake_files}" CMakeLists.txt "${waf_files}" wscript)
report_difference("file" "${waf_files}" wscript "${cmake_files}" CMakeLists.txt)

file(GLOB on_disk RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/model/* ${SOURCE_DIR}/helper/*
     ${SOURCE_DIR}/examples/runner/*.cc ${SOURCE_DIR}/examples/runner/*.c
)
list(FILTER on_disk INCLUDE REGEX "\\.(c|cc|h)$")
report_difference("file" "${on_disk}" "the source tree" "${cmake_files}" CMakeLists.txt)

# Examples: set(ddnn_examples ...) in CMakeLists.txt, add_program(bld, 'NAME' in examples/wscript.
file(READ ${SOURCE_DIR}/CMakeLists.txt text)
string(REGEX MATCH "set\\(ddnn_examples([^)]*)\\)" _ "${text}")
string(REGEX MATCHALL "[A-Za-z0-9_-]+" cmake_examples "${CMAKE_MATCH_1}")
file(READ ${SOURCE_DIR}/examples/wscript text)
string(REGEX MATCHALL "add_program\\(bld, *'[A-Za-z0-9_-]+'" calls "${text}")
set(waf_examples)
foreach(call ${calls})
  string(REGEX REPLACE ".*'([A-Za-z0-9_-]+)'" "\\1" name "${call}")
  list(APPEND waf_examples ${name})
endforeach()
report_difference("example" "${cmake_examples}" CMakeLists.txt "${waf_examples}" examples/wscript)
report_difference("example" "${waf_examples}" examples/wscript "${cmake_examples}" CMakeLists.txt)

# ns-3 modules: the references ns-3's scan finds in CMakeLists.txt (its own regular
# expression), without the csma that only ns-3's test module needs, against wscript's list.
file(READ ${SOURCE_DIR}/CMakeLists.txt text)
string(REGEX MATCHALL "{lib[^}]*[^obj]}" scanned "${text}")
list(TRANSFORM scanned REPLACE "^{lib(.*)}$" "\\1")
list(REMOVE_ITEM scanned csma)
file(READ ${SOURCE_DIR}/wscript text)
string(REGEX MATCH "NS3_MODULES = \\[([^]]*)\\]" _ "${text}")
string(REGEX MATCHALL "[a-z0-9-]+" waf_modules "${CMAKE_MATCH_1}")
report_difference("ns-3 module" "${scanned}" CMakeLists.txt "${waf_modules}" wscript)
report_difference("ns-3 module" "${waf_modules}" wscript "${scanned}" CMakeLists.txt)

if(problems)
  message(FATAL_ERROR "source lists drift apart:\n${problems}")
endif()
list(LENGTH cmake_files files)
list(LENGTH cmake_examples examples)
message(STATUS "CMakeLists.txt and wscript agree on ${files} files and ${examples} examples")
