# SPDX-License-Identifier: GPL-2.0-only
# README.md's complete programs (```cpp blocks that define main), compiled against the build
# tree's libddnn and run exactly as printed: test readme-program-K for the K-th of them.
# Included from tests.cmake; README.md is read at configure time and re-read when it changes.

set(ddnn_readme ${CMAKE_CURRENT_SOURCE_DIR}/README.md)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ddnn_readme})
file(READ ${ddnn_readme} ddnn_readme_text)
# CMake lists split at ';' and treat brackets specially: hide both while cutting the blocks.
string(REPLACE ";" "<ddnn-semicolon>" ddnn_readme_text "${ddnn_readme_text}")
string(REPLACE "[" "<ddnn-open>" ddnn_readme_text "${ddnn_readme_text}")
string(REPLACE "]" "<ddnn-close>" ddnn_readme_text "${ddnn_readme_text}")
string(REGEX MATCHALL "```cpp\n[^`]*```" ddnn_readme_blocks "${ddnn_readme_text}")
set(ddnn_readme_count 0)
foreach(block ${ddnn_readme_blocks})
  if(NOT block MATCHES "\nmain\\(")
    continue() # a fragment, not a program
  endif()
  math(EXPR ddnn_readme_count "${ddnn_readme_count} + 1")
  string(REGEX REPLACE "^```cpp\n" "" block "${block}")
  string(REGEX REPLACE "```$" "" block "${block}")
  string(REPLACE "<ddnn-semicolon>" ";" block "${block}")
  string(REPLACE "<ddnn-open>" "[" block "${block}")
  string(REPLACE "<ddnn-close>" "]" block "${block}")
  set(source ${CMAKE_CURRENT_BINARY_DIR}/readme/program-${ddnn_readme_count}.cc)
  file(WRITE ${source}.new "${block}")
  configure_file(${source}.new ${source} COPYONLY) # rebuilt only when the text changed
  add_executable(ddnn-readme-program-${ddnn_readme_count} ${source})
  target_link_libraries(ddnn-readme-program-${ddnn_readme_count} PRIVATE ddnn)
  target_compile_options(ddnn-readme-program-${ddnn_readme_count} PRIVATE ${ddnn_warnings})
  add_test(NAME readme-program-${ddnn_readme_count}
           COMMAND ddnn-readme-program-${ddnn_readme_count})
  # A program that prints a warning or an error is no example: it fails.
  set_tests_properties(readme-program-${ddnn_readme_count}
                       PROPERTIES FAIL_REGULAR_EXPRESSION "warning|error|Error")
endforeach()
if(ddnn_readme_count EQUAL 0)
  message(FATAL_ERROR "ddnn: README.md holds no complete program (```cpp with main) to test")
endif()
