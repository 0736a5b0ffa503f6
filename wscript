# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# SPDX-License-Identifier: GPL-2.0-only
#
# waf build of ddnn for waf-era ns-3 trees (<= 3.35), cloned as contrib/ddnn.
# Mirrors the source lists of CMakeLists.txt; the ctest "source-lists" fails when they drift.


def configure(conf):
    conf.check_cfg(package='libxml-2.0', uselib_store='LIBXML2',
                   args=['--cflags', '--libs'], mandatory=True)
    # Chakra traces (model/ddnn-chakra.c): Debian's libprotobuf-c-dev and protobuf-c-compiler.
    conf.check_cfg(package='libprotobuf-c', uselib_store='PROTOBUF_C',
                   args=['--cflags', '--libs'], mandatory=True)
    conf.find_program('protoc-c', var='PROTOC_C', mandatory=True)


# The ns-3 modules ddnn links: the names of ddnn_ns3_library_names in CMakeLists.txt.
NS3_MODULES = ['core', 'network', 'internet', 'point-to-point', 'traffic-control', 'applications']

# Private headers (not installed): model/ns3-compat.h adapts to the tree's ns-3 release;
# model/ipv4-nodes.h maps addresses to nodes for the module's own sources; the training
# tenant's core (model/ddnn-collective-builtin.h, model/ddnn-parameter-server.h,
# model/ddnn-ring.h, model/ddnn-in-network-aggregation.h, model/ddnn-multicast.h,
# model/ddnn-aggregation.h, model/ddnn-training.h, model/ddnn-syncer.h,
# model/ddnn-network-syncer.h) is hidden behind TrainingWorker and TrainingJob (the
# collective's interface, model/ddnn-collective.h, is public: a program adds its own);
# model/ddnn-oracle.h behind OraclePriority; model/ddnn-chakra.h behind DnnModel;
# model/flow-hash-ecmp-routing.h is private to the fabric helpers.
def ns3_version_minor(bld):
    version = bld.srcnode.find_node('VERSION').read().strip()
    if not version.startswith('3.'):
        bld.fatal('ddnn: cannot tell the ns-3 release from VERSION %r' % version)
    return int(version.split('.')[1])


# The runner: what the example programs share, built into each of them and into the tests,
# not into the module (ddnn_runner_sources in CMakeLists.txt).
RUNNER_SOURCES = [
    'examples/runner/scenario.cc',
    'examples/runner/scenario-attributes.cc',
    'examples/runner/training-run.cc',
    'examples/runner/datacenter-run.cc',
    'examples/runner/run-intervals.cc',
    'examples/runner/scaled-replica.cc',
    'examples/runner/outlier-iterations.cc',
    'examples/runner/scenario-file.cc',
    'examples/runner/program-main.cc',
    'examples/runner/fatal-error-line.cc',
    'examples/runner/port-plan.cc',
    'examples/runner/input-file.cc',
    'examples/runner/ns3-defaults.cc',
    'examples/runner/random-variable-text.cc',
    'examples/runner/output-manifest.cc',
    'examples/runner/progress-meter.cc',
    'examples/runner/campaign-allocation.cc',
    'examples/runner/campaign-estimate.cc',
    'examples/runner/campaign-report.cc',
    'examples/runner/seed-reference.cc',
    'examples/runner/distributed-run.cc',
    # Its C part (ddnn_runner_c_sources): the option table and the XML and CSV readers.
    'examples/runner/ddnn-scenario-params.c',
    'examples/runner/ddnn-scenario-schema.c',
    'examples/runner/ddnn-xml-text.c',
    'examples/runner/ddnn-scenario.c',
    'examples/runner/ddnn-campaign.c',
    'examples/runner/ddnn-calibration.c',
    'examples/runner/ddnn-manifest.c',
]


def build(bld):
    module = bld.create_ns3_module('ddnn', NS3_MODULES)
    version_define = 'DDNN_NS3_VERSION_MINOR=%d' % ns3_version_minor(bld)
    module.env.append_value('DEFINES', [version_define])
    module.source = [
        'model/ddnn-error.c',
        'model/ddnn-array.c',
        'model/ddnn-csv.c',
        'model/ddnn-file.c',
        'model/ddnn-profile.c',
        'model/ddnn-fusion.c',
        'model/ddnn-cdf.c',
        'model/ddnn-ring.c',
        'model/ddnn-multicast.c',
        'model/ddnn-multicast-sender.c',
        'model/ddnn-multicast-receiver.c',
        'model/ddnn-aggregation-switch.c',
        'model/ddnn-aggregation-worker.c',
        'model/ddnn-collective.c',
        'model/ddnn-collective-builtin.c',
        'model/ddnn-parameter-server.c',
        'model/ddnn-in-network-aggregation.c',
        'model/ddnn-training.c',
        'model/ddnn-syncer.c',
        'model/ddnn-network-syncer.c',
        'model/ddnn-flowgen.c',
        'model/ddnn-schedule.c',
        'model/ddnn-oracle.c',
        'model/ddnn-flow-stats.c',
        'model/ddnn-interval.c',
        'model/ddnn-precision.c',
        'model/ddnn-transport-profile.c',
        'model/ddnn-chakra.c',
        'model/data-path.cc',
        'model/dnn-model.cc',
        'model/training-job.cc',
        'model/sync-messenger.cc',
        'model/collective-rank.cc',
        'model/training-worker.cc',
        'model/parameter-server-host.cc',
        'model/partition-transport.cc',
        'model/tcp-partition-transport.cc',
        'model/ideal-partition-transport.cc',
        'model/tcp-stream-sender.cc',
        'model/tenant-congestion-control.cc',
        'model/buffer-priority-policy.cc',
        'model/first-buffers-priority.cc',
        'model/mapped-buffer-priority.cc',
        'model/slack-adaptive-priority.cc',
        'model/oracle-priority.cc',
        'model/static-priority.cc',
        'model/flow-hash-ecmp-routing.cc',
        'model/background-tenant.cc',
        'model/background-flow-sender.cc',
        'model/background-flow-sink.cc',
        'model/server-topology.cc',
        'model/background-pattern.cc',
        'model/web-search-pattern.cc',
        'model/schedule-replay-pattern.cc',
        'model/tcp-setup-check.cc',
        'model/weighted-band-queue-disc.cc',
        'model/queue-disc-band.cc',
        'model/slack-tag.cc',
        'model/slack-marker.cc',
        'model/slack-ordered-queue.cc',
        'model/least-slack-queue-disc.cc',
        'model/tenant-priority.cc',
        'helper/egress-topology.cc',
        'helper/single-tor-helper.cc',
        'helper/training-helper.cc',
        'helper/training-recorder.cc',
        'helper/background-helper.cc',
        'helper/utilization-meter.cc',
        'model/multicast-routes.cc',
        'model/multicast-header.cc',
        'model/multicast-sender.cc',
        'model/multicast-receiver.cc',
        'model/aggregation-header.cc',
        'model/aggregating-switch.cc',
        'model/aggregation-client.cc',
        'helper/queue-meter.cc',
        'helper/aggregation-helper.cc',
        'helper/atomic-file.cc',
        'helper/transport-settings.cc',
        'helper/egress-queue.cc',
        'helper/weighted-bands-egress.cc',
        'helper/least-slack-egress.cc',
        'helper/fabric-builder.cc',
        'helper/fabric-topology.cc',
        'helper/job-placement.cc',
        'helper/leaf-spine-helper.cc',
        'helper/fat-tree-helper.cc',
    ]
    # waf 2's C tasks read only CFLAGS, but ns-3.35 puts the build profile's C flags (-O, -g,
    # warnings, CCFLAGS_EXTRA) and the shared library's -fPIC in CCFLAGS, a waf 1 name nothing
    # reads: without this the C core gets no flags at all. CCFLAGS also holds -std=c++17.
    c_flags = [flag for flag in module.env.CCFLAGS if not flag.startswith('-std=')]
    if not bld.env.ENABLE_STATIC_NS3:
        c_flags.append('-fPIC')
    module.env.append_unique('CFLAGS', c_flags)
    # The C code of the Chakra schema, generated by protoc-c into the build folder (as
    # CMakeLists.txt does): model/ddnn-chakra-et.pb-c.c and its header.
    proto = bld.path.find_resource('model/ddnn-chakra-et.proto')
    generated = [bld.path.find_or_declare('model/ddnn-chakra-et.pb-c.c'),
                 bld.path.find_or_declare('model/ddnn-chakra-et.pb-c.h')]
    bld(rule='${PROTOC_C} --c_out=${TGT[0].parent.abspath()} -I${SRC[0].parent.abspath()} '
             '${SRC[0].abspath()}',
        source=proto, target=generated)
    module.source.append(generated[0])
    module.env.append_value('INCLUDES', [generated[0].parent.abspath()])
    module.use.append('PROTOBUF_C')
    data_dir = bld.path.find_dir('data').abspath()
    module.env.append_value('DEFINES', ['DDNN_SOURCE_DATA_DIR="%s"' % data_dir])

    module_test = bld.create_ns3_module_test_library('ddnn')
    module_test.env.append_value('DEFINES', [version_define])
    module_test.source = [
        'test/ddnn-test-util.cc',
        'test/dnn-model-test-suite.cc',
        'test/training-loop-test-suite.cc',
        'test/collectives-test-suite.cc',
        'test/background-test-suite.cc',
        'test/priority-test-suite.cc',
        'test/weighted-band-queue-disc-test-suite.cc',
        'test/least-slack-queue-disc-test-suite.cc',
        'test/dctcp-test-suite.cc',
        'test/fabric-test-suite.cc',
        'test/multicast-test-suite.cc',
        'test/aggregation-test-suite.cc',
        'test/distributed-test-suite.cc',
        'test/impairments-test-suite.cc',
        'test/scenario-runner-test-suite.cc',
        'test/registry-test-suite.cc',
    ] + RUNNER_SOURCES
    # The runner's C part reads XML and needs the C flags too.
    module_test.use.append('LIBXML2')
    module_test.env.append_unique('CFLAGS', c_flags)
    # The scenario-runner suite tests the runner: its sources are built in (as in CMakeLists.txt).

    headers = bld(features='ns3header')
    headers.module = 'ddnn'
    headers.source = [
        'model/ddnn-version.h',
        'model/ddnn-error.h',
        'model/ddnn-array.h',
        'model/core-timer.h',
        'model/ddnn-csv.h',
        'model/ddnn-file.h',
        'model/ddnn-profile.h',
        'model/ddnn-fusion.h',
        'model/ddnn-cdf.h',
        'model/ddnn-collective.h',
        'model/one-line-error.h',
        'model/type-id-registry.h',
        'model/data-path.h',
        'model/dnn-model.h',
        'model/training-job.h',
        'model/collective-rank.h',
        'model/training-worker.h',
        'model/parameter-server-host.h',
        'model/partition-transport.h',
        'model/tcp-partition-transport.h',
        'model/ideal-partition-transport.h',
        'model/tcp-stream-sender.h',
        'model/tenant-congestion-control.h',
        'model/buffer-priority-policy.h',
        'model/first-buffers-priority.h',
        'model/mapped-buffer-priority.h',
        'model/slack-adaptive-priority.h',
        'model/oracle-priority.h',
        'model/static-priority.h',
        'model/ddnn-flowgen.h',
        'model/ddnn-schedule.h',
        'model/ddnn-flow-stats.h',
        'model/ddnn-interval.h',
        'model/ddnn-precision.h',
        'model/ddnn-transport-profile.h',
        'model/tenant-kind.h',
        'model/tenant-tag.h',
        'model/ddnn-exception.h',
        'model/ddnn-data-path.h',
        'model/background-tenant.h',
        'model/background-flow-sender.h',
        'model/background-flow-sink.h',
        'model/server-topology.h',
        'model/background-pattern.h',
        'model/web-search-pattern.h',
        'model/schedule-replay-pattern.h',
        'model/tcp-setup-check.h',
        'model/weighted-band-queue-disc.h',
        'model/queue-disc-band.h',
        'model/slack-tag.h',
        'model/slack-marker.h',
        'model/slack-ordered-queue.h',
        'model/least-slack-queue-disc.h',
        'model/tenant-priority.h',
        'model/local-node.h',
        'helper/egress-topology.h',
        'helper/single-tor-helper.h',
        'helper/training-helper.h',
        'helper/training-recorder.h',
        'helper/background-helper.h',
        'helper/utilization-meter.h',
        'model/multicast-routes.h',
        'model/multicast-header.h',
        'model/multicast-sender.h',
        'model/multicast-receiver.h',
        'model/sync-messenger.h',
        'model/aggregation-lease.h',
        'model/aggregation-header.h',
        'model/aggregating-switch.h',
        'model/aggregation-client.h',
        'helper/aggregation-helper.h',
        'helper/queue-meter.h',
        'helper/atomic-file.h',
        'helper/transport-settings.h',
        'helper/egress-queue.h',
        'helper/fabric-builder.h',
        'helper/fabric-topology.h',
        'helper/job-placement.h',
        'helper/leaf-spine-helper.h',
        'helper/fat-tree-helper.h',
    ]

    if bld.env.ENABLE_EXAMPLES:
        bld.env.DDNN_RUNNER_SOURCES = RUNNER_SOURCES
        bld.env.DDNN_RUNNER_CFLAGS = c_flags
        bld.env.DDNN_VERSION_DEFINE = version_define  # ddnn-bench reads ns3-compat.h
        bld.recurse('examples')
