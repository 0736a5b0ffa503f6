# SPDX-License-Identifier: GPL-2.0-only
# A two-run campaign end to end: run folders, summary CSV and every plot exist and are not
# empty; then a "killed" run (summary.csv gone, a stale partial file left) is redone when the
# campaign starts again, while the finished run is not touched; a damaged one is redone too,
# and so is one with an output missing from its MANIFEST or a MANIFEST naming a path outside.
# Usage: cmake -DCAMPAIGN=<ddnn-campaign> -DWORK_DIR=<dir> -P check-campaign.cmake
cmake_minimum_required(VERSION 3.18)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
file(
  WRITE ${WORK_DIR}/campaign.xml
  "<campaign version=\"1\">
  <scenario version=\"1\">
    <topology workers=\"3\"/>
    <training compute-ms=\"8\" fusion-bytes=\"5333329\" queue=\"priority\"/>
    <background flow-rate=\"150\"/>
    <run duration-s=\"0.04\" warmup-s=\"0.005\" cooldown-s=\"0.005\" seed=\"5\"
         min-iterations=\"0\"/>
  </scenario>
  <vary parameter=\"priority.training\" values=\"same low\"/>
</campaign>
"
)
function(campaign)
  execute_process(
    COMMAND ${CAMPAIGN} --campaign=${WORK_DIR}/campaign.xml --outDir=${WORK_DIR}/out --jobs=2
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out
  )
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "campaign failed (${rc}):\n${out}")
  endif()
  set(campaign_output "${out}" PARENT_SCOPE)
endfunction()

function(expect_files)
  foreach(path ${ARGN})
    if(NOT EXISTS ${WORK_DIR}/out/${path})
      message(FATAL_ERROR "missing: ${path}")
    endif()
    file(SIZE ${WORK_DIR}/out/${path} size)
    if(size EQUAL 0)
      message(FATAL_ERROR "empty: ${path}")
    endif()
  endforeach()
endfunction()

campaign()
set(run_files scenario.xml log.txt summary.csv flows.csv utilization.csv iterations.csv
              buffers.csv partitions.csv layers.csv
)
foreach(run training=same training=low)
  foreach(name ${run_files})
    expect_files(runs/${run}/${name})
  endforeach()
endforeach()
expect_files(
  summary.csv changes.csv report/priority-effect.png report/small-fct-cdf.png report/operating-boundary.png report/fct-cdf.png
  report/training-progression.png report/iteration-detail.png report/utilization.png
)
# One point, one seed: the figure against a parameter (once: the same point against another
# parameter is not drawn again under another name) and the paired FCT differences are drawn
# all the same.
foreach(pattern vs-*.png vs-flow-rate-rcp-*.png fct-difference.png fct-difference.dat)
  file(GLOB found ${WORK_DIR}/out/report/${pattern})
  list(LENGTH found count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "expected one report/${pattern}, found ${count}")
  endif()
  file(SIZE ${found} size)
  if(size EQUAL 0)
    message(FATAL_ERROR "empty: ${found}")
  endif()
endforeach()
# No large flow finishes in runs this short, and there is one seed: missing, never 0; every
# plot is drawn all the same (an empty panel says why).
file(STRINGS ${WORK_DIR}/out/runs/training=low/summary.csv large REGEX "^fct_large_mean_s,")
if(NOT large STREQUAL "fct_large_mean_s,NA")
  message(FATAL_ERROR "a size class with no finished flow must read NA, got '${large}'")
endif()
file(STRINGS ${WORK_DIR}/out/changes.csv change REGEX ",fct_large_mean_s,")
# ... with its evidence: no run has a sample (0 at either priority), flagged as few.
if(NOT change MATCHES ",fct_large_mean_s,0,NA,NA,NA,NA,NA,NA,,NA,0,0,true,0.95$")
  message(FATAL_ERROR "changes.csv: a change without samples must read NA, got '${change}'")
endif()
file(STRINGS ${WORK_DIR}/out/changes.csv change REGEX ",fct_small_mean_s,")
if(NOT change MATCHES ",fct_small_mean_s,1,-?[0-9]")
  message(FATAL_ERROR "changes.csv: the small flows' change is missing: '${change}'")
endif()
file(STRINGS ${WORK_DIR}/out/summary.csv rows)
list(LENGTH rows count)
if(NOT count EQUAL 3)
  message(FATAL_ERROR "summary.csv: expected a header and 2 rows, found ${count} lines")
endif()

# Kill "training=low" mid-run: its summary goes, a partial flows.csv stays.
file(REMOVE ${WORK_DIR}/out/runs/training=low/summary.csv)
file(WRITE ${WORK_DIR}/out/runs/training=low/flows.csv "id,source\n1,")
file(TIMESTAMP ${WORK_DIR}/out/runs/training=same/log.txt same_before)
file(READ ${WORK_DIR}/out/runs/training=same/summary.csv same_summary)
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1)
campaign()
if(NOT campaign_output MATCHES "2 runs, 1 already finished, 1 to run")
  message(FATAL_ERROR "the restart did not skip the finished run:\n${campaign_output}")
endif()
file(TIMESTAMP ${WORK_DIR}/out/runs/training=same/log.txt same_after)
file(READ ${WORK_DIR}/out/runs/training=same/summary.csv same_summary_after)
if(NOT same_before STREQUAL same_after OR NOT same_summary STREQUAL same_summary_after)
  message(FATAL_ERROR "the finished run was redone")
endif()
expect_files(runs/training=low/summary.csv)
file(STRINGS ${WORK_DIR}/out/runs/training=low/flows.csv flows)
list(LENGTH flows flow_lines)
if(flow_lines LESS 3)
  message(FATAL_ERROR "the killed run's partial flows.csv was not replaced")
endif()

# A finished run whose output was damaged afterwards (its MANIFEST no longer matches) is
# redone, not reported as a blank row.
file(WRITE ${WORK_DIR}/out/runs/training=same/summary.csv "")
campaign()
if(NOT campaign_output MATCHES "run training=same is redone: summary.csv differs from the MANIFEST")
  message(FATAL_ERROR "the damaged run was not redone:\n${campaign_output}")
endif()
expect_files(runs/training=same/summary.csv)

# An output edited and struck from the MANIFEST: redone, not counted as finished.
set(manifest ${WORK_DIR}/out/runs/training=same/MANIFEST)
file(STRINGS ${manifest} lines)
list(FILTER lines EXCLUDE REGEX " summary.csv$")
list(JOIN lines "\n" kept)
file(WRITE ${manifest} "${kept}\n")
file(WRITE ${WORK_DIR}/out/runs/training=same/summary.csv "key,value\niteration_time_mean_s,1\n")
campaign()
if(NOT campaign_output MATCHES "run training=same is redone: summary.csv is not in the MANIFEST")
  message(FATAL_ERROR "the run with an unlisted output was not redone:\n${campaign_output}")
endif()

# A MANIFEST naming a file out of its run folder: the file is not read, the run is redone.
file(WRITE ${manifest} "${kept}\n4 0 ../../campaign.xml\n")
campaign()
if(NOT campaign_output MATCHES "run training=same is redone: MANIFEST is damaged: MANIFEST:[0-9]+: field 'path': expected a path inside the run folder")
  message(FATAL_ERROR "a MANIFEST path out of the run folder was taken:\n${campaign_output}")
endif()
expect_files(runs/training=same/summary.csv)
message(STATUS "campaign finished, resumed, repaired and reported")
