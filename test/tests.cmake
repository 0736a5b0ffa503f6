# SPDX-License-Identifier: GPL-2.0-only
# ctest registrations of the standalone build; included from ../CMakeLists.txt.

set(ddnn_data_dir ${CMAKE_CURRENT_SOURCE_DIR}/data)
set(ddnn_test_dir ${CMAKE_CURRENT_SOURCE_DIR}/test)

# C unit tests of the core: plain C, no ns-3.
foreach(name ${ddnn_unit_tests})
  add_executable(ddnn-unit-${name} test/c/test-${name}.c)
  target_link_libraries(ddnn-unit-${name} PRIVATE ddnn-core ddnn-runner-core m)
  target_include_directories(ddnn-unit-${name} PRIVATE test/c)
  target_compile_options(ddnn-unit-${name} PRIVATE ${ddnn_warnings} -Wpedantic)
  target_compile_definitions(ddnn-unit-${name} PRIVATE DDNN_DATA_DIR="${ddnn_data_dir}")
  add_test(NAME unit-${name} COMMAND ddnn-unit-${name} ${ddnn_data_dir})
endforeach()
# The Chakra reader's malformed traces, written by the repository's own generator before its test.
set(ddnn_chakra_traces ${CMAKE_CURRENT_BINARY_DIR}/chakra-traces)
add_test(NAME chakra-traces COMMAND sh ${ddnn_test_dir}/make-chakra-traces.sh ${ddnn_chakra_traces})
set_tests_properties(chakra-traces PROPERTIES FIXTURES_SETUP chakra-traces)
set_tests_properties(unit-chakra PROPERTIES FIXTURES_REQUIRED chakra-traces)
target_compile_definitions(ddnn-unit-chakra PRIVATE DDNN_CHAKRA_TRACES="${ddnn_chakra_traces}")

# ns-3 TestSuites, run by a small test-runner (ns3::TestRunner::Run).
add_executable(ddnn-test-runner test/ddnn-test-runner.cc ${ddnn_test_sources})
target_link_libraries(ddnn-test-runner PRIVATE ddnn-runner)
target_compile_options(ddnn-test-runner PRIVATE ${ddnn_warnings})
foreach(suite ${ddnn_test_suites})
  add_test(NAME suite-${suite} COMMAND ddnn-test-runner --suite=${suite} --verbose)
endforeach()
# Every suite the runner knows must have a ctest entry above.
add_test(
  NAME suites-registered
  COMMAND ${CMAKE_COMMAND} -DRUNNER=$<TARGET_FILE:ddnn-test-runner> "-DSUITES=${ddnn_test_suites}"
          -P ${ddnn_test_dir}/check-suites-registered.cmake
)

# Examples as tests, plus their handling of bad input: one line, non-zero exit.
if(DDNN_EXAMPLES)
  add_test(NAME example-ddnn-fusion-plan COMMAND ddnn-fusion-plan)
  set_tests_properties(
    example-ddnn-fusion-plan PROPERTIES PASS_REGULAR_EXPRESSION "buffers +19"
  )
  # Each case runs in a folder of its own: a program that gets as far as its default output
  # folder locks it, and ctest -j runs the cases at once.
  function(ddnn_error_test name expected)
    set(dir ${CMAKE_CURRENT_BINARY_DIR}/error-${name})
    file(MAKE_DIRECTORY ${dir})
    add_test(
      NAME error-${name}
      COMMAND ${CMAKE_COMMAND} "-DEXPECTED=${expected}" -P ${ddnn_test_dir}/check-error-line.cmake
              -- ${ARGN}
      WORKING_DIRECTORY ${dir}
    )
  endfunction()
  ddnn_error_test(
    missing-profile "^ddnn-fusion-plan: error: --profile: /nonexistent.csv: cannot open"
    $<TARGET_FILE:ddnn-fusion-plan> --profile=/nonexistent.csv
  )
  ddnn_error_test(
    malformed-profile
    "^ddnn-fusion-plan: error: .*web-search-cdf.csv:[0-9]+: expected the header 'layer,param_bytes,forward_ns,backward_ns'"
    $<TARGET_FILE:ddnn-fusion-plan> --profile=${ddnn_data_dir}/web-search-cdf.csv
  )
  # The default scenario, small: 2 workers, one iteration over TCP, plus its ideal reference.
  add_test(NAME example-ddnn-training
           COMMAND ddnn-training --workers=2 --iterations=1 --rcp=4
                   --outDir=${CMAKE_CURRENT_BINARY_DIR}/example-ddnn-training
  )
  set_tests_properties(
    example-ddnn-training PROPERTIES PASS_REGULAR_EXPRESSION
                                     "iterations completed +1.*1.000000 x expected"
  )
  # A straggler computing 5 s (1000 x 5 ms) past a 1 s StallTimeout: a long compute step
  # ends in progress, so this is a slow run, not a stall.
  add_test(NAME slow-straggler-is-no-stall
           COMMAND ddnn-training --workers=2 --iterations=2 --computeMs=5 --stragglers=0
                   --stragglerScale=1000 --stallTimeoutMs=1000 --fusionBytes=1000
                   --profile=${ddnn_test_dir}/data/two-layer-profile.csv --progress=never
                   --outDir=${CMAKE_CURRENT_BINARY_DIR}/slow-straggler
  )
  set_tests_properties(slow-straggler-is-no-stall PROPERTIES PASS_REGULAR_EXPRESSION
                                                             "iterations completed +2"
  )
  # Where NS_LOG is compiled in (DDNN_NS3_LOG): the collective events, logged in order.
  if(DDNN_NS3_LOG)
    add_test(NAME log-order COMMAND ${ddnn_test_dir}/check-log-order.sh
                                    $<TARGET_FILE:ddnn-training> ${CMAKE_CURRENT_BINARY_DIR}/log-order)
  endif()
  ddnn_error_test(one-worker "^ddnn-training: error: --workers: expected a whole number in \\[2, 250\\], got '1'"
                  $<TARGET_FILE:ddnn-training> --workers=1
  )
  ddnn_error_test(unknown-priority "^ddnn-training: error: --trainingPriority: expected one of same, low, high, got 'urgent'"
                  $<TARGET_FILE:ddnn-training> --trainingPriority=urgent
  )
  ddnn_error_test(zero-compute "^ddnn-training: error: --computeMs: expected a number in \\[0, 1e\\+09\\] \\(ms\\), got '-1'"
                  $<TARGET_FILE:ddnn-training> --computeMs=-1 --rcp=0
  )
  ddnn_error_test(bad-queue "^ddnn-training: error: --queue: expected one of fifo, priority, got 'lifo'"
                  $<TARGET_FILE:ddnn-training> --queue=lifo
  )
  ddnn_error_test(training-missing-profile
                  "^ddnn-training: error: --profile: /nonexistent.csv: cannot open"
                  $<TARGET_FILE:ddnn-training> --profile=/nonexistent.csv --transport=ideal
  )
  # Both tenants, compared at same and low priority; the training job on the ideal transport
  # keeps it short while the background flows are real TCP. Each mean has its interval.
  add_test(NAME example-ddnn-datacenter
           COMMAND ddnn-datacenter --workers=4 --transport=ideal --rcp=4 --flowRate=200
                   --durationS=0.1 --warmupS=0.02 --cooldownS=0.02 --minIterations=0 --compare
                   --outDir=${CMAKE_CURRENT_BINARY_DIR}/example-ddnn-datacenter
  )
  set_tests_properties(
    example-ddnn-datacenter
    PROPERTIES PASS_REGULAR_EXPRESSION
               "small flows: mean FCT \\(ms\\) +[0-9.]+ \\[[0-9.]+, [0-9.]+\\] n=[1-9].*large flows: p99.*background's uplink use \\(%\\) +[0-9.]+ \\[[-0-9.]+, [0-9.]+\\] n=[1-9].*no verdict.*compare.csv"
  )
  ddnn_error_test(zero-flow-rate "^ddnn-datacenter: error: --flowRate: expected a number in \\(0, 100000\\]"
                  $<TARGET_FILE:ddnn-datacenter> --flowRate=0
  )
  ddnn_error_test(window-outside-run
                  "^ddnn-datacenter: error: --cooldownS: the measurement window .* lies outside"
                  $<TARGET_FILE:ddnn-datacenter> --durationS=1 --warmupS=0.5 --cooldownS=0.6
  )
  ddnn_error_test(missing-schedule "^ddnn-datacenter: error: --schedule: /nonexistent.csv: cannot open"
                  $<TARGET_FILE:ddnn-datacenter> --backgroundPattern=schedule --schedule=/nonexistent.csv
  )
  ddnn_error_test(decreasing-cdf
                  "^ddnn-datacenter: error: .*thesis-default-profile.csv:[0-9]+: expected the header 'bytes,cumulative_fraction'"
                  $<TARGET_FILE:ddnn-datacenter> --cdf=${ddnn_data_dir}/thesis-default-profile.csv
  )
  ddnn_error_test(cdf-size-over-bound
                  "^ddnn-datacenter: error: .*bad-huge-cdf.csv:2: field 'bytes': expected a size in"
                  $<TARGET_FILE:ddnn-datacenter> --cdf=${ddnn_test_dir}/data/bad-huge-cdf.csv
  )
  ddnn_error_test(schedule-start-over-int64
                  "^ddnn-datacenter: error: .*bad-late-schedule.csv:2: field 'start_ns': expected a time"
                  $<TARGET_FILE:ddnn-datacenter> --backgroundPattern=schedule --schedule=${ddnn_test_dir}/data/bad-late-schedule.csv
  )
  # Numbers outside their parameter's type or range, and runs too large to build: one line
  # naming the option the user typed, before any conversion can wrap.
  foreach(case "training|workers=-1|--workers: expected a whole number in \\[2, 250\\], got '-1'"
               "training|iterations=-1|--iterations: expected a whole number in \\[0, 1000000\\]"
               "training|computeMs=1e30|--computeMs: expected a number in \\[0, 1e\\+09\\] \\(ms\\)"
               "training|rcp=1e30|--rcp: expected a number in \\[0, 1e\\+06\\], got '1e30'"
               "training|seed=abc|--seed: expected a whole number in \\[1, 4294944442\\]"
               "datacenter|durationS=1e30|--durationS: expected a number in \\(0, 100000\\] \\(s\\)"
               "datacenter|durationS=0|--durationS: expected a number in \\(0, 100000\\]"
               "datacenter|flowRate=1e30|--flowRate: expected a number in \\(0, 100000\\]"
               "datacenter|utilIntervalMs=1e-9|--utilIntervalMs: expected a number in \\[0.01, 1e\\+06\\]"
  )
    string(REPLACE "|" ";" case "${case}")
    list(GET case 0 program)
    list(GET case 1 argument)
    list(GET case 2 why)
    string(REGEX REPLACE "[^a-zA-Z0-9]+" "-" name "${argument}")
    ddnn_error_test(range-${program}-${name} "^ddnn-${program}: error: ${why}"
                    $<TARGET_FILE:ddnn-${program}> --${argument}
    )
  endforeach()
  ddnn_error_test(too-many-flows "^ddnn-datacenter: error: --flowRate: .* flows, more than 10\\^7"
                  $<TARGET_FILE:ddnn-datacenter> --flowRate=10000 --durationS=10000
  )
  ddnn_error_test(rcp-compute-too-long "^ddnn-training: error: --rcp: 1e\\+06 gives a compute time"
                  $<TARGET_FILE:ddnn-training> --rcp=1e6 --dataRate=1bps --transport=ideal
  )
  # Output folders that cannot be made or written: one line naming --outDir, no abort.
  string(REPEAT "n" 300 long_name)
  foreach(case "proc|/proc/ddnn-out|cannot create the folder"
               "sys|/sys/kernel/ddnn-out|cannot create the folder"
               "file|/etc/hostname|cannot create the folder"
               "long-name|/tmp/${long_name}|expected folder names of at most 255 bytes"
  )
    string(REPLACE "|" ";" case "${case}")
    list(GET case 0 name)
    list(GET case 1 dir)
    list(GET case 2 why)
    ddnn_error_test(outdir-${name} "^ddnn-training: error: --outDir=.*: ${why}"
                    $<TARGET_FILE:ddnn-training> --workers=2 --transport=ideal --outDir=${dir}
    )
  endforeach()
  # Scenario files: every kind of bad input stops with one line naming file and line.
  foreach(case unknown-element unknown-attribute wrong-type out-of-range missing-required
               not-xml billion-laughs external-entity
  )
    ddnn_error_test(scenario-${case} "^ddnn-datacenter: error: .*bad-${case}.xml:[0-9]+: "
                    $<TARGET_FILE:ddnn-datacenter> --scenario=${ddnn_test_dir}/data/bad-${case}.xml
    )
  endforeach()
  # A file of 2 MiB: over the 1 MiB bound, refused before parsing.
  string(REPEAT "x" 2097152 padding)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/huge-scenario.xml
       "<scenario version=\"1\"><!-- ${padding} --></scenario>\n"
  )
  ddnn_error_test(scenario-huge "^ddnn-datacenter: error: .*huge-scenario.xml: file larger than"
                  $<TARGET_FILE:ddnn-datacenter> --scenario=${CMAKE_CURRENT_BINARY_DIR}/huge-scenario.xml
  )
  ddnn_error_test(campaign-bad-vary
                  "^ddnn-campaign: error: .*bad-vary.xml: field 'training.rcp': run rcp=-4: <vary parameter=\"training.rcp\">: expected a number in \\[0, 1e\\+06\\], got '-4'"
                  $<TARGET_FILE:ddnn-campaign> --campaign=${ddnn_test_dir}/data/bad-vary.xml
                  --outDir=${CMAKE_CURRENT_BINARY_DIR}/bad-vary
  )
  add_test(
    NAME scenario-roundtrip
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:ddnn-datacenter>
            -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/scenario-roundtrip
            -P ${ddnn_test_dir}/check-scenario-roundtrip.cmake
  )
  add_test(
    NAME campaign-end-to-end
    COMMAND ${CMAKE_COMMAND} -DCAMPAIGN=$<TARGET_FILE:ddnn-campaign>
            -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/campaign-end-to-end
            -P ${ddnn_test_dir}/check-campaign.cmake
  )
  # The catalogue of bad inputs (test/bad-inputs.txt): one line each, exit 1, no signal, no
  # hang, nothing left that looks complete.
  add_test(NAME bad-inputs
           COMMAND ${ddnn_test_dir}/check-bad-inputs.sh $<TARGET_FILE_DIR:ddnn-training>
                   ${ddnn_data_dir} ${ddnn_test_dir} ${CMAKE_CURRENT_BINARY_DIR}/bad-inputs
  )
  # Every shipped profile on a ring of 16: 2(N-1)/N of the model per worker per iteration.
  add_test(NAME ring-bytes-per-profile
           COMMAND ${ddnn_test_dir}/check-ring-bytes-per-profile.sh $<TARGET_FILE:ddnn-training>
                   ${ddnn_data_dir} ${CMAKE_CURRENT_BINARY_DIR}/ring-bytes-per-profile
  )
  # Values holding blanks (--outDir, --profile) taken whole, not cut at the first blank.
  add_test(NAME blank-values
           COMMAND ${ddnn_test_dir}/check-blank-values.sh $<TARGET_FILE:ddnn-training>
                   ${ddnn_data_dir} ${CMAKE_CURRENT_BINARY_DIR}/blank-values
  )
  # The campaign's cost estimate against a hand computation; it runs nothing.
  add_test(NAME campaign-estimate
           COMMAND ${ddnn_test_dir}/check-campaign-estimate.sh $<TARGET_FILE:ddnn-campaign>
                   ${ddnn_test_dir} ${CMAKE_CURRENT_BINARY_DIR}/campaign-estimate
  )
  # The benchmark's smoke version: its output's shape and its calibration table, untimed.
  add_test(NAME bench-quick
           COMMAND ${ddnn_test_dir}/check-bench-quick.sh $<TARGET_FILE:ddnn-bench>
                   $<TARGET_FILE:ddnn-campaign> ${ddnn_test_dir}
                   ${CMAKE_CURRENT_BINARY_DIR}/bench-quick
  )
  add_test(NAME campaign-scale-out
           COMMAND ${ddnn_test_dir}/check-campaign-scale-out.sh $<TARGET_FILE:ddnn-campaign>
                   ${CMAKE_CURRENT_BINARY_DIR}/campaign-scale-out
  )
  # The driver's own messages (./ddnn help, a missing campaign file).
  add_test(NAME driver-messages COMMAND ${ddnn_test_dir}/check-driver.sh
                                        ${CMAKE_CURRENT_SOURCE_DIR}/ddnn
  )
  # The generated commands (--list, --slurm) quote every value the user gave.
  add_test(NAME campaign-quoting
           COMMAND ${ddnn_test_dir}/check-campaign-quoting.sh $<TARGET_FILE:ddnn-campaign>
                   ${CMAKE_CURRENT_BINARY_DIR}/campaign-quoting
  )
  # The report's thesis figures: seed points, means, groups and paired FCT differences.
  add_test(NAME report-figures
           COMMAND ${ddnn_test_dir}/check-report-figures.sh $<TARGET_FILE:ddnn-campaign>
                   ${CMAKE_CURRENT_BINARY_DIR}/report-figures
  )
  # The README's first plot and ddnn-datacenter examples, as written: a numeric training cost.
  add_test(NAME readme-examples
           COMMAND ${ddnn_test_dir}/check-readme-examples.sh ${CMAKE_CURRENT_SOURCE_DIR}/README.md
                   $<TARGET_FILE_DIR:ddnn-datacenter> ${CMAKE_CURRENT_BINARY_DIR}/readme-examples
  )
  # Every value of every choice that --help or the README documents runs, alone and in the
  # README's combinations.
  add_test(NAME documented-choices
           COMMAND ${ddnn_test_dir}/check-documented-choices.sh $<TARGET_FILE_DIR:ddnn-datacenter>
                   ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/documented-choices
  )
  # Files in the oldest form ddnn reads (test/data/v0.1) still run, deprecated forms warned.
  add_test(NAME oldest-formats
           COMMAND ${ddnn_test_dir}/check-oldest-formats.sh $<TARGET_FILE_DIR:ddnn-datacenter>
                   ${ddnn_test_dir}/data ${CMAKE_CURRENT_BINARY_DIR}/oldest-formats
  )
  # Published flow-size distributions converted by tools/import-cdf.sh; distributions by name.
  add_test(NAME import-cdf
           COMMAND ${ddnn_test_dir}/check-import-cdf.sh $<TARGET_FILE:ddnn-datacenter>
                   ${CMAKE_CURRENT_BINARY_DIR}/import-cdf
  )
  # The output folder is the run's own: links, a second writer, a full disk.
  add_test(NAME output-folder
           COMMAND ${ddnn_test_dir}/check-output-folder.sh $<TARGET_FILE:ddnn-datacenter>
                   ${CMAKE_CURRENT_BINARY_DIR}/output-folder
  )
  # Runs as long as the precision asked for, or the cap.
  add_test(NAME precision-stages
           COMMAND ${ddnn_test_dir}/check-precision.sh $<TARGET_FILE:ddnn-datacenter>
                   ${CMAKE_CURRENT_BINARY_DIR}/precision-stages
  )
  # Retransmissions beyond drops are named (spurious: timers fired while segments waited).
  add_test(NAME spurious-retransmissions
           COMMAND ${ddnn_test_dir}/check-spurious-retransmissions.sh
                   $<TARGET_FILE:ddnn-datacenter> ${ddnn_data_dir}/scenarios/quick-compare.xml
                   ${CMAKE_CURRENT_BINARY_DIR}/spurious-retransmissions
  )
  # The report's evidence: sample counts, a class of one flow flagged, no duplicate figure.
  add_test(NAME report-evidence
           COMMAND ${ddnn_test_dir}/check-report-evidence.sh $<TARGET_FILE:ddnn-campaign>
                   ${CMAKE_CURRENT_BINARY_DIR}/report-evidence
  )
  # A campaign folder reused by another campaign: its runs are redone, not counted finished.
  add_test(NAME campaign-reuse
           COMMAND ${ddnn_test_dir}/check-campaign-reuse.sh $<TARGET_FILE:ddnn-campaign>
                   ${CMAKE_CURRENT_BINARY_DIR}/campaign-reuse
  )
  # The thesis code's iteration clock in the summary, as the side-by-side computes it.
  add_test(NAME iteration-clock
           COMMAND ${ddnn_test_dir}/check-iteration-clock.sh $<TARGET_FILE:ddnn-datacenter>
                   ${CMAKE_CURRENT_BINARY_DIR}/iteration-clock
  )
  # The side-by-side tool's bad arguments, each one line (no thesis code needed).
  add_test(NAME side-by-side-args
           COMMAND ${ddnn_test_dir}/check-side-by-side-args.sh
                   ${CMAKE_CURRENT_BINARY_DIR}/side-by-side-args
  )
  # --compare's verdict line quotes the table's iteration and small-flow rows.
  add_test(NAME compare-verdict
           COMMAND ${ddnn_test_dir}/check-compare-verdict.sh $<TARGET_FILE:ddnn-datacenter>
                   ${CMAKE_CURRENT_BINARY_DIR}/compare-verdict
  )
  # --allocate: a clear cell stops at its first seeds, an uncertain one gets more.
  add_test(NAME campaign-allocate
           COMMAND ${ddnn_test_dir}/check-campaign-allocate.sh $<TARGET_FILE:ddnn-campaign>
                   ${CMAKE_CURRENT_BINARY_DIR}/campaign-allocate
  )
  # A scaled replica against its full-scale cell, and a campaign comparing the two.
  add_test(NAME scaled-replica
           COMMAND ${ddnn_test_dir}/check-scaled-replica.sh $<TARGET_FILE:ddnn-datacenter>
                   $<TARGET_FILE:ddnn-campaign> ${CMAKE_CURRENT_BINARY_DIR}/scaled-replica
  )
  # A dimension of cases reported per case, labelled, with intervals over the seeds.
  add_test(NAME report-cases
           COMMAND ${ddnn_test_dir}/check-report-cases.sh $<TARGET_FILE:ddnn-campaign>
                   ${CMAKE_CURRENT_BINARY_DIR}/report-cases
  )
  # A campaign of priority policies: figures against the baseline case, map and plots.
  add_test(NAME policy-report
           COMMAND ${ddnn_test_dir}/check-policy-report.sh $<TARGET_FILE:ddnn-campaign>
                   ${CMAKE_CURRENT_BINARY_DIR}/policy-report
  )
  # A campaign's <reference>: published ratios beside ddnn's, from first principles.
  add_test(NAME seed-validation
           COMMAND ${ddnn_test_dir}/check-seed-validation.sh $<TARGET_FILE:ddnn-campaign>
                   ${CMAKE_CURRENT_BINARY_DIR}/seed-validation
  )
  add_test(NAME campaign-processes
           COMMAND ${ddnn_test_dir}/check-campaign-processes.sh $<TARGET_FILE:ddnn-campaign>
                   ${CMAKE_CURRENT_BINARY_DIR}/campaign-processes
  )
  ddnn_error_test(
    zero-fusion-buffer "^ddnn-fusion-plan: error: --fusionBytes: expected a whole number in \\[1, "
    $<TARGET_FILE:ddnn-fusion-plan> --fusionBytes=0
  )
endif()

# The library spawns no process and plots nothing: the runner does (examples/runner/), beside it.
add_test(
  NAME library-spawns-nothing
  COMMAND sh -c "! nm -D --undefined-only \"$1\" | grep -wE 'system|popen|fork|vfork|execv|execvp|posix_spawn'"
          sh $<TARGET_FILE:ddnn>
)

# The module never depends on the runner (doc/design.rst, Two layers: the module and the runner).
list(TRANSFORM ddnn_headers PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/ OUTPUT_VARIABLE ddnn_header_paths)
add_test(NAME module-without-runner COMMAND sh ${ddnn_test_dir}/check-module-without-runner.sh
                                            ${CMAKE_CURRENT_SOURCE_DIR} ${ddnn_header_paths}
)

# Build-system checks.
add_test(
  NAME source-lists
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR} -P
          ${ddnn_test_dir}/check-source-lists.cmake
)
# Every public header on its own, as a user of the installed ones includes it (one translation
# unit each, built on demand by the test), naming none of the private headers' types.
set(ddnn_header_units)
foreach(header ${ddnn_staged_headers})
  get_filename_component(name ${header} NAME)
  set(unit ${CMAKE_CURRENT_BINARY_DIR}/public-headers/${name}.cc)
  file(CONFIGURE OUTPUT ${unit} CONTENT "#include \"ns3/${name}\"\n#include \"ns3/${name}\"\n")
  list(APPEND ddnn_header_units ${unit})
endforeach()
add_library(ddnn-public-headers OBJECT EXCLUDE_FROM_ALL ${ddnn_header_units})
target_link_libraries(ddnn-public-headers PRIVATE ddnn)
# -O0: the check is the compiler's front end; code generation would only cost time.
target_compile_options(ddnn-public-headers PRIVATE ${ddnn_warnings} -O0)
add_test(NAME public-headers
         COMMAND ${ddnn_test_dir}/check-public-headers.sh ${CMAKE_CURRENT_BINARY_DIR}
                 ${ddnn_include_dir}/ns3 ${CMAKE_CURRENT_SOURCE_DIR} ${ddnn_private_headers}
)
# The installed package (moved after install) with find_package(ddnn) and pkg-config.
add_test(NAME install-package
         COMMAND ${ddnn_test_dir}/check-install.sh ${CMAKE_CURRENT_BINARY_DIR}
                 ${ddnn_test_dir}/install-consumer ${CMAKE_CURRENT_BINARY_DIR}/install-check
                 ${CMAKE_CXX_COMPILER}
)
# Every cpp snippet of README.md and doc/*.rst, compiled against the installed package and run.
add_test(NAME doc-snippets
         COMMAND ${ddnn_test_dir}/check-doc-snippets.sh ${CMAKE_CURRENT_BINARY_DIR}
                 ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/doc-snippets
                 ${CMAKE_CXX_COMPILER}
)

# The fuzz targets' seeds and corpora (test/fuzz/seeds), replayed without libFuzzer: every
# input must be accepted or rejected with a diagnostic, never crash. ./ddnn fuzz runs the same
# targets under libFuzzer.
file(STRINGS ${ddnn_test_dir}/fuzz/seeds ddnn_fuzz_seed_lines REGEX "^[a-z]")
set(ddnn_fuzz_readers profile cdf schedule scenario campaign calibration manifest args table
    oracle chakra)
foreach(reader ${ddnn_fuzz_readers})
  set(inputs)
  foreach(line ${ddnn_fuzz_seed_lines})
    if(line MATCHES "^${reader} +(.+)$")
      file(GLOB matched CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${CMAKE_MATCH_1})
      list(APPEND inputs ${matched})
    endif()
  endforeach()
  file(GLOB corpus CONFIGURE_DEPENDS ${ddnn_test_dir}/fuzz/corpus/${reader}/*)
  list(APPEND inputs ${corpus})
  list(REMOVE_DUPLICATES inputs)
  string(TOUPPER ${reader} upper)
  add_executable(ddnn-fuzz-replay-${reader} test/fuzz/fuzz-reader.c test/fuzz/fuzz-replay.c)
  target_link_libraries(ddnn-fuzz-replay-${reader} PRIVATE ddnn-core ddnn-runner-core m)
  target_compile_options(ddnn-fuzz-replay-${reader} PRIVATE ${ddnn_warnings} -Wpedantic)
  target_compile_definitions(
    ddnn-fuzz-replay-${reader} PRIVATE DDNN_FUZZ_READER=DDNN_FUZZ_${upper}
  )
  add_test(NAME fuzz-corpus-${reader} COMMAND ddnn-fuzz-replay-${reader} ${inputs})
endforeach()


# End-to-end runs of the programs, the campaign runner and the installed package, a minute or
# more each: the sanitizer suite (./ddnn test --sanitize) leaves them out (ctest -LE heavy),
# as they run the lighter tests' code for longer and would triple under ASan; ./ddnn test and
# ./ddnn distro run every test.
set(ddnn_heavy_tests readme-examples campaign-processes campaign-scale-out bench-quick
    report-figures campaign-end-to-end scenario-roundtrip install-package doc-snippets
)
foreach(name ${ddnn_heavy_tests})
  if(TEST ${name})
    set_tests_properties(${name} PROPERTIES LABELS heavy)
  endif()
endforeach()
