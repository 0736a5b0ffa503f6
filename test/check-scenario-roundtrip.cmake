# SPDX-License-Identifier: GPL-2.0-only
# Runs ddnn-datacenter once from arguments, then again from the scenario.xml the first run
# wrote back (the thesis transport profile: every transport value must be written), and fails
# unless every output file of the two runs is byte-identical. The same for the shipped
# scenario of two jobs on a leaf-spine (every job's values must be written back), and for a
# run whose profile lies in a folder named with blanks and non-ASCII characters, with an ns-3
# attribute default and an RNG run given on the command line (both must be written back).
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
    --trainingPriority=low --transportProfile=thesis --minIterations=0 --progress=never --outDir=${WORK_DIR}/first
)
run(${PROGRAM} --scenario=${WORK_DIR}/first/scenario.xml --progress=never
    --outDir=${WORK_DIR}/second
)
function(compare_runs files)
  foreach(name ${files})
    file(SIZE ${WORK_DIR}/first/${name} size)
    if(size EQUAL 0)
      message(FATAL_ERROR "${name} is empty")
    endif()
    execute_process(
      COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK_DIR}/first/${name}
              ${WORK_DIR}/second/${name} RESULT_VARIABLE differ
    )
    if(differ)
      message(FATAL_ERROR "${name} differs between the run and its written-back scenario")
    endif()
  endforeach()
  message(STATUS "the written-back scenario reproduced ${files} byte for byte")
endfunction()
compare_runs("scenario.xml;summary.csv;flows.csv;utilization.csv;iterations.csv;buffers.csv;partitions.csv")

# Two jobs (the first one made light: a small model).
file(REMOVE_RECURSE ${WORK_DIR}/first ${WORK_DIR}/second)
file(WRITE ${WORK_DIR}/small.csv
     "layer,param_bytes,forward_ns,backward_ns\n0,100000,100000,200000\n1,100000,100000,200000\n"
)
run(${PROGRAM} --scenario=scenarios/two-jobs-leaf-spine.xml --durationS=0.12 --warmupS=0.01
    --cooldownS=0.01 --profile=${WORK_DIR}/small.csv --fusionBytes=100000 --rcp=2
    --minIterations=0 --progress=never --outDir=${WORK_DIR}/first
)
file(READ ${WORK_DIR}/first/scenario.xml written)
string(REGEX MATCHALL "<training " trainings "${written}")
list(LENGTH trainings jobs)
if(NOT jobs EQUAL 2)
  message(FATAL_ERROR "scenario.xml holds ${jobs} <training> elements, expected 2")
endif()
run(${PROGRAM} --scenario=${WORK_DIR}/first/scenario.xml --progress=never
    --outDir=${WORK_DIR}/second
)
compare_runs("scenario.xml;summary.csv;flows.csv;utilization.csv;iterations.csv;job2-iterations.csv;job2-buffers.csv;job2-partitions.csv")

# File names with blanks and non-ASCII characters, an ns-3 attribute default and the RNG run.
file(REMOVE_RECURSE ${WORK_DIR}/first ${WORK_DIR}/second ${WORK_DIR}/plain)
set(odd "${WORK_DIR}/dossier à blancs/profil ü")
file(WRITE "${odd}/modèle 1.csv"
     "layer,param_bytes,forward_ns,backward_ns\n0,100000,100000,200000\n1,100000,100000,200000\n"
)
file(WRITE ${WORK_DIR}/odd.xml
     "<scenario version=\"1\"><topology workers=\"3\"/>"
     "<training profile=\"dossier à blancs/profil ü/modèle 1.csv\" fusion-bytes=\"100000\" compute-ms=\"2\"/>"
     "<background flow-rate=\"150\"/>"
     "<run duration-s=\"0.03\" warmup-s=\"0.005\" cooldown-s=\"0.005\" seed=\"4\"/></scenario>\n"
)
run(${PROGRAM} --scenario=${WORK_DIR}/odd.xml --RngRun=3 --ns3::TcpSocketBase::Timestamp=false
    --progress=never --outDir=${WORK_DIR}/first
)
file(READ ${WORK_DIR}/first/scenario.xml written)
foreach(expected "rng-run=\"3\"" "<ns3-default name=\"ns3::TcpSocketBase::Timestamp\" value=\"false\"/>"
        "profile=\"${odd}/modèle 1.csv\"")
  string(FIND "${written}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "scenario.xml does not hold ${expected}:\n${written}")
  endif()
endforeach()
run(${PROGRAM} --scenario=${WORK_DIR}/first/scenario.xml --progress=never
    --outDir=${WORK_DIR}/second
)
compare_runs("scenario.xml;summary.csv;flows.csv;utilization.csv;iterations.csv;buffers.csv;partitions.csv")
# Both values change the run: without them, the flows differ.
run(${PROGRAM} --scenario=${WORK_DIR}/odd.xml --progress=never --outDir=${WORK_DIR}/plain)
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK_DIR}/first/flows.csv
                        ${WORK_DIR}/plain/flows.csv RESULT_VARIABLE differ
)
if(NOT differ)
  message(FATAL_ERROR "--RngRun and the attribute default changed nothing: the test shows nothing")
endif()
