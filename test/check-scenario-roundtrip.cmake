# SPDX-License-Identifier: GPL-2.0-only
# Runs ddnn-datacenter once from arguments, then again from the scenario.xml the first run
# wrote back (the thesis transport profile: every transport value must be written), and fails
# unless every output file of the two runs is byte-identical.
# Usage: cmake -DPROGRAM=<ddnn-datacenter> -DWORK_DIR=<dir> -P check-scenario-roundtrip.cmake
cmake_minimum_required(VERSION 3.18)
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}")
  endif()
endfunction()
run(${PROGRAM} --workers=3 --transport=tcp --computeMs=5 --fusionBytes=5333329 --queue=priority
    --barrier=false --flowRate=120 --durationS=0.03 --warmupS=0.005 --cooldownS=0.005 --seed=9
    --trainingPriority=low --transportProfile=thesis --progress=never --outDir=${WORK_DIR}/first
)
run(${PROGRAM} --scenario=${WORK_DIR}/first/scenario.xml --progress=never
    --outDir=${WORK_DIR}/second
)
set(files scenario.xml summary.csv flows.csv utilization.csv iterations.csv buffers.csv
          partitions.csv
)
foreach(name ${files})
  file(SIZE ${WORK_DIR}/first/${name} size)
  if(size EQUAL 0)
    message(FATAL_ERROR "${name} is empty")
  endif()
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK_DIR}/first/${name} ${WORK_DIR}/second/${name}
    RESULT_VARIABLE differ
  )
  if(differ)
    message(FATAL_ERROR "${name} differs between the run and its written-back scenario")
  endif()
endforeach()
message(STATUS "the written-back scenario reproduced ${files} byte for byte")
